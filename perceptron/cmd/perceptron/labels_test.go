package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelsNotUTF8: a file saved as Windows-1252 ("café" with é = 0xE9)
// holds labels that JSON cannot keep byte for byte. train refuses it,
// naming the line and the column of the first such label (or header
// name), and predict refuses such a label in a labelled file, naming the
// line, instead of printing labels that are not the file's.
func TestLabelsNotUTF8(t *testing.T) {
	write := tempWriter(t)
	cp1252 := write("cp1252.txt", "1 2 tea\n2 1 tea\n-1 -2 caf\xe9\n-2 -1 caf\xe9\n")
	code, out, errs := call("train", cp1252)
	want := "perceptron: " + cp1252 + `: line 3, column 2: the label "caf\xe9" is not UTF-8 text`
	if code != 1 || out != "" || !strings.HasPrefix(errs, want) {
		t.Errorf("train on Windows-1252 labels: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
	header := write("header.csv", "x,caf\xe9,y\n1,2,a\n-1,-2,b\n")
	code, _, errs = call("train", "--header", "yes", header)
	if want := "perceptron: " + header + `: line 1, column 1: the field "caf\xe9" is not UTF-8 text`; code != 1 || !strings.HasPrefix(errs, want) {
		t.Errorf("train, Windows-1252 header: exit %d, stderr %q; want exit 1 and %q", code, errs, want)
	}

	// A model trained on UTF-8 labels, byte for byte in its JSON.
	utf := write("utf8.txt", "1 2 tea\n2 1 tea\n-1 -2 café\n-2 -1 café\n")
	code, js, errs := call("train", utf)
	if code != 0 {
		t.Fatalf("train on UTF-8 labels: exit %d: %s", code, errs)
	}
	var m ModelFile
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	if m.Classes[0] != "café" && m.Classes[1] != "café" {
		t.Fatalf("classes %q, want café kept byte for byte", m.Classes)
	}
	mpath := write("model.json", js)
	code, out, errs = call("predict", "--model", mpath, utf)
	if code != 0 || strings.Count(out, "café\n")+strings.Count(out, "tea\n") != 4 || errs != "error rate: 0 of 4 rows = 0\n" {
		t.Errorf("predict on the training file: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = call("predict", "--model", mpath, cp1252)
	if want := "perceptron: " + cp1252 + `: line 3, column 2: the label "caf\xe9" is not UTF-8 text`; code != 1 || out != "" || !strings.HasPrefix(errs, want) {
		t.Errorf("predict on Windows-1252 labels: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
}

// TestPredictScoresEveryRow: the error rate is over every labelled row; a
// row whose label is neither class of the model is an error (and said
// so), never left out of the count.
func TestPredictScoresEveryRow(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.txt")
	if err := os.WriteFile(data, []byte("1 2 a\n-1 -2 b\n2 2 c\n-2 -2 a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(dir, "m.json")
	js := `{"algo":"pla","w":[1,1],"b":0,"columns":3,"features":[0,1],"classes":["b","a"],"tie":"mistake"}`
	if err := os.WriteFile(mpath, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := call("predict", "--model", mpath, data)
	// Predictions: a, b, a, b; labels a, b, c, a: rows 3 (c) and 4 wrong.
	if code != 0 || out != "a\nb\na\nb\n" ||
		errs != `error rate: 2 of 4 rows = 0.5 (1 row has a label that is neither "b" nor "a": each is an error)`+"\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestModelFileClassesAreText: a model file edited by hand (or by another
// program) whose classes are not the text train wrote is refused by
// predict, exit 1, naming where, instead of printing labels that are not
// the file's: a class in Windows-1252 or a lone UTF-16 surrogate escape
// (encoding/json reads both as U+FFFD), and two classes that are one
// number ("1" and "1.0", which predict compares as numbers: a row labelled
// 1.0 and predicted 1.0 was counted as an error), and classes that no
// data file holds as labels or that predict cannot print one a line
// (empty, "?", NaN, a NUL byte, a line break). A valid surrogate pair
// and escaped quotes and backslashes are read as before.
func TestModelFileClassesAreText(t *testing.T) {
	write := tempWriter(t)
	code, js, errs := call("train", write("train.txt", "1 2 a\n2 1 a\n-1 -2 b\n-2 -1 b\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	data := write("data.txt", "1 2\n-1 -2\n")
	open := strings.Index(js, `"classes": [`)
	end := open + strings.Index(js[open:], "]")
	if open < 0 || !strings.Contains(js[open:end], `"a"`) {
		t.Fatalf("no classes a and b in %s", js)
	}
	edit := func(a, b string) string {
		return write("model.json", js[:open]+`"classes": [`+a+", "+b+js[end:])
	}
	// at is where the model file's byte k of its first class is.
	at := func(k int) string {
		i := open + len(`"classes": [`) + k
		return fmt.Sprintf("line %d, byte %d: ", 1+strings.Count(js[:open], "\n"), i+1)
	}
	for _, tc := range []struct{ a, b, want string }{
		{`"caf` + "\xe9" + `"`, `"b"`, at(4) + "the byte 0xe9 is not UTF-8 text"},
		{`"x\ud800"`, `"b"`, at(2) + `"\\ud800" is half of a UTF-16 surrogate pair`},
		{`"x\udc00\ud800"`, `"b"`, at(2) + `"\\udc00" is half of a UTF-16 surrogate pair`},
		{`"1"`, `"1.0"`, `the two classes "1" and "1.0" are one number`},
		// Classes no data file holds as labels, or that predict cannot
		// print one a line (helper-50: all were read, and predict exited 0).
		// A tab, an escape or blanks kept inside quotes are labels that a
		// data file holds, and are read (helper-52: see
		// TestUnusualLabelsRoundTrip).
		{`""`, `"b"`, `class 0 "": the label is empty`},
		{`"?"`, `"b"`, `class 0 "?": the label "?" is a missing value`},
		{`"b"`, `"NaN"`, `class 1 "NaN": the label "NaN" is NaN`},
		{`"a\nb"`, `"b"`, `class 0 "a\nb": a line break ("\n") in it`},
		// A NUL byte: the reader refuses it anywhere in a data file as
		// binary data, so no data file holds the label (helper-70: it
		// was read, and predict printed a NUL byte as a label).
		{`"a\u0000"`, `"b"`, `class 0 "a\x00": a NUL byte in it`},
		{`"b"`, `"\u0000"`, `class 1 "\x00": a NUL byte in it`},
	} {
		code, out, errs := call("predict", "--model", edit(tc.a, tc.b), data)
		if code != 1 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("classes %s, %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.a, tc.b, code, out, errs, tc.want)
		}
	}
	for _, tc := range []struct{ a, want string }{
		{`"caf\u00e9"`, "café"},
		{`"\ud83d\ude00"`, "\U0001F600"},
		{`"q\"\\u"`, `q"\u`},
	} {
		code, out, errs := call("predict", "--model", edit(tc.a, `"b"`), data)
		if code != 0 || out != tc.want+"\nb\n" {
			t.Errorf("class %s: exit %d, stdout %q, stderr %q; want %q and b", tc.a, code, out, errs, tc.want)
		}
	}
}

// TestInfLabelsAreNames: labels "inf" and "Inf" are two classes, as
// ReadCSV reads them (labels are compared as numbers only when both are
// finite numbers): train wrote its model and then refused it, exit 1,
// "the two classes ... are one number"; predict prints them as written.
func TestInfLabelsAreNames(t *testing.T) {
	write := tempWriter(t)
	data := write("inf.csv", "1,inf\n2,Inf\n3,inf\n-4,Inf\n")
	code, js, errs := call("train", data)
	if code != 0 {
		t.Fatalf("train on labels inf and Inf: exit %d: %s", code, errs)
	}
	var m ModelFile
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Classes) != 2 || m.Classes[0] != "Inf" || m.Classes[1] != "inf" {
		t.Errorf("classes %q, want [Inf inf]", m.Classes)
	}
	code, out, errs := call("predict", "--model", write("m.json", js), data)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if l != "inf" && l != "Inf" && l != "?" { // "?": a score of 0, no class
			code = -1
		}
	}
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(errs, "error rate:") {
		t.Errorf("predict: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestClassesFlagKeepsTheFileSpelling: --classes chooses labels by value,
// and the model keeps the file's own spelling of them (helper-50:
// "--classes 1.0,2.0" on labels 1 and 2 saved classes "1.0" and "2.0", and
// predict printed labels that are not in the file); in scikit-learn's
// layout the class names of its first line are kept for labels 0.0 and
// 1.0 as for 0 and 1.
func TestClassesFlagKeepsTheFileSpelling(t *testing.T) {
	write := tempWriter(t)
	data := write("n12.csv", "x,y\n1,1\n-1,2\n2,1\n-2,2\n")
	code, js, errs := call("train", "--classes", "1.0,2.0", data)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	var m ModelFile
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Classes) != 2 || m.Classes[0] != "1" || m.Classes[1] != "2" {
		t.Errorf("classes %q, want the file's [1 2]", m.Classes)
	}
	code, out, errs := call("predict", "--model", write("m.json", js), data)
	if code != 0 || out != "1\n2\n1\n2\n" {
		t.Errorf("predict: exit %d, stdout %q, stderr %q; want 1 2 1 2", code, out, errs)
	}
	sk := write("sk.csv", "4,1,neg,pos\n1,0.0\n-1,1.0\n2,0.0\n-2,1.0\n")
	for _, args := range [][]string{{"train", "--classes", "neg,pos", sk}, {"train", sk}} {
		code, js, errs := call(args...)
		m = ModelFile{}
		if code != 0 || json.Unmarshal([]byte(js), &m) != nil {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		if fmt.Sprint(m.Classes, m.ClassNames) != "[0.0 1.0] [neg pos]" {
			t.Errorf("%q: classes %q, names %q; want [0.0 1.0] [neg pos]", args, m.Classes, m.ClassNames)
		}
	}
}

// TestPredictKeepsDataLikeScikitLearnsFirstLine: a first data row that
// reads as scikit-learn's first line ("10,3,foo,b": two integers, then
// names) was skipped by predict, which printed 2 labels for 3 rows and
// the error rate of 2, exit 0 (helper-50); then refused for its n_samples.
// The labels of that layout are indices of its names: before rows
// labelled "b" and "a" the line is data, and every row is predicted. Where
// the next label is an index, the line is taken for that layout, and its
// n_samples and every later label are checked: errors that name the line
// and say --header no.
func TestPredictKeepsDataLikeScikitLearnsFirstLine(t *testing.T) {
	write := tempWriter(t)
	code, js, errs := call("train", "--features", "0,1", write("tx.csv", "1,2,foo,a\n-1,-2,foo,b\n2,1,bar,a\n-2,-1,bar,b\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model, data := write("tx.json", js), write("txp.csv", "10,3,foo,b\n-1,-2,foo,b\n2,1,bar,a\n")
	for _, args := range [][]string{{"predict", "--model", model, data}, {"predict", "--header", "no", "--model", model, data}} {
		code, out, errs := call(args...)
		if code != 0 || out != "a\nb\na\n" || errs != "error rate: 1 of 3 rows = 0.3333333333333333\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a b a, 1 of 3 rows", args, code, out, errs)
		}
	}
	short := write("short.csv", "10,3,foo,bar\n-1,-2,foo,0\n2,1,bar,1\n")
	code, out, errs := call("predict", "--model", model, short)
	want := "perceptron: " + short + ": line 1 says 10 rows (scikit-learn's n_samples,n_features,names), the file has 2"
	if code != 1 || out != "" || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "--header no") {
		t.Errorf("predict: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
	mixed := write("mixed.csv", "2,3,foo,bar\n-1,-2,foo,0\n2,1,bar,b\n")
	code, out, errs = call("predict", "--model", model, mixed)
	want = "perceptron: " + mixed + `: line 3, column 3: the label "b" is not an index 0..1 of the 2 class names of line 1 (scikit-learn's n_samples,n_features,names), as the labels of that layout are (if line 1 is data, use --header no)` + "\n"
	if code != 1 || out != "" || errs != want {
		t.Errorf("predict: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
}

// TestUnusualLabelsRoundTrip: labels that the reader keeps (a tab or an
// escape inside, DEL, U+0085, blanks inside double quotes) are trained on
// and predicted, byte for byte: the model file's class check refuses only
// what no data file holds (helper-52: the first check refused these, and
// train then failed on its own model).
func TestUnusualLabelsRoundTrip(t *testing.T) {
	write := tempWriter(t)
	for _, pair := range [][2]string{{"a\tb", "c"}, {"e\x1bsc", "d\x7f"}, {"n\u0085l", "ok"}, {`" a"`, `"b "`}} {
		data := write("u.csv", "1,2,"+pair[0]+"\n3,4,"+pair[1]+"\n5,5,"+pair[0]+"\n")
		code, js, errs := call("train", data)
		if code != 0 {
			t.Errorf("train on %q: exit %d: %s", pair, code, errs)
			continue
		}
		code, out, errs := call("predict", "--model", write("u.json", js), data)
		want := strings.Join([]string{strings.Trim(pair[0], `"`), strings.Trim(pair[1], `"`), strings.Trim(pair[0], `"`)}, "\n") + "\n"
		if code != 0 || out != want {
			t.Errorf("predict on %q: exit %d, stdout %q (want %q), stderr %q", pair, code, out, want, errs)
		}
	}
}

// TestPredictHeaderNamesTheFeatures: a model trained with a header keeps
// its feature names, and a predict file with a header must carry them in
// its feature columns, in the same order. Without its last feature column
// ("x1,x2,label" for a model of x1,x2,x3) the file was read as unlabelled,
// its label column taken for x3, and every row predicted, exit 0. A file
// without a header, or a model without names, is read as before.
func TestPredictHeaderNamesTheFeatures(t *testing.T) {
	write := tempWriter(t)
	code, js, errs := call("train", write("tr4.csv", "x1,x2,x3,label\n0,0,1,-1\n0,0,-1,1\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model := write("m4.json", js)
	for _, c := range []struct{ name, text, args, want string }{
		{"missing", "x1,x2,label\n0,0,1\n0,0,-1\n", "", `line 1, column 2: the header names column 2 "label" where the model's feature is "x3": the model was trained with the header's features "x1", "x2", "x3" in columns 0,1,2; a column is missing, renamed or moved (give the columns of the training file, in its order, or name them as the model does, or delete the header line)`},
		{"swapped", "x2,x1,x3,label\n0,0,1,-1\n", "", `line 1, column 0: the header names column 0 "x2" where the model's feature is "x1"`},
		{"renamed", "x1,x2,z,label\n0,0,1,-1\n", "", `line 1, column 2: the header names column 2 "z" where the model's feature is "x3"`},
		{"too few for --header yes", "x1,x2\n0,0,1,-1\n", "yes", `line 1: the header has 2 columns, none for the model's feature "x3" (column 2)`},
	} {
		path := write(c.name+".csv", c.text)
		args := []string{"predict", "--model", model, path}
		if c.args != "" {
			args = append(args, "--header", c.args)
		}
		code, out, errs := call(args...)
		if want := "perceptron: " + path + ": " + c.want; code != 1 || out != "" || !strings.HasPrefix(errs, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errs, want)
		}
	}
	// The same names up to case and Unicode spaces around them (a
	// spreadsheet's no-break space) are the same columns (helper-65).
	for _, text := range []string{"x1,x2,x3,label\n0,0,1,-1\n0,0,-1,1\n", "x1,x2,x3\n0,0,1\n0,0,-1\n", "0,0,1,-1\n0,0,-1,1\n", "X1,x2\u00a0,X3,label\n0,0,1,-1\n0,0,-1,1\n"} {
		code, out, errs := call("predict", "--model", model, write("ok.csv", text))
		if code != 0 || out != "-1\n1\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want -1 1", text, code, out, errs)
		}
	}
	// A model without names (trained without a header) reads any header.
	code, js, errs = call("train", write("nh.csv", "0,0,1,-1\n0,0,-1,1\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	code, out, errs := call("predict", "--model", write("nh.json", js), write("any.csv", "a,b,c,y\n0,0,1,-1\n"))
	if code != 0 || out != "-1\n" {
		t.Errorf("a model without names: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestPredictKnowsANumericHeader: a header of numbers ("2019,2020,label")
// is data to auto, so train reads it with --header yes and the model keeps
// its names; predict read it as a data row of the same file, printed a
// label for it and counted it as an error (5 labels and 1 of 5 for 4 rows
// predicted right). A first line whose feature columns carry the model's
// names, and whose label (if any) is neither class, is that header; a data
// row labelled with a class is still data.
func TestPredictKnowsANumericHeader(t *testing.T) {
	write := tempWriter(t)
	text := "2019,2020,label\n1,2,a\n2,1,b\n-1,-2,a\n3,3,b\n"
	code, js, errs := call("train", "--header", "yes", write("years.csv", text))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model := write("years.json", js)
	for _, c := range []struct{ text, out, errs string }{
		{text, "a\nb\na\nb\n", "error rate: 0 of 4 rows = 0\n"},
		{"2019,2020\n1,2\n2,1\n", "a\nb\n", ""},
		// The names as a data row with a class: data.
		{"2019,2020,a\n1,2,a\n", "b\na\n", "error rate: 1 of 2 rows = 0.5\n"},
	} {
		code, out, errs := call("predict", "--model", model, write("p.csv", c.text))
		if code != 0 || out != c.out || errs != c.errs {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q, %q", c.text, code, out, errs, c.out, c.errs)
		}
	}
}

// TestExactLabelsInTheCommand: train keeps labels that are one float64 but
// two numbers apart (2^53 and 2^53 + 1 trained as 2 classes with a third
// label), and predict prints the model's spelling of a class for a label
// written otherwise ("1.0" for "1"). A blank label and the label "5;a" of
// a ';'-separated file with decimal commas are refused by train and
// predict, naming the line and the column.
func TestExactLabelsInTheCommand(t *testing.T) {
	write := tempWriter(t)
	big := write("big.csv", "1,0,9007199254740992\n2,0,9007199254740993\n-1,0,5\n")
	code, out, errs := call("train", big)
	if want := "perceptron: " + big + `: 3 label values in column 2 ("5", "9007199254740992", "9007199254740993"): choose two classes with --classes A,B` + "\n"; code != 1 || out != "" || errs != want {
		t.Errorf("2^53, 2^53 + 1 and 5: exit %d, stderr %q; want %q", code, errs, want)
	}
	m := trainJSON(t, "--classes", "9007199254740992,9007199254740993", big)
	if m.N != 2 || fmt.Sprint(m.Classes) != "[9007199254740992 9007199254740993]" {
		t.Errorf("--classes 2^53,2^53+1: n = %d, classes %q", m.N, m.Classes)
	}
	data := write("one.csv", "1,0,1\n-1,0,2\n2,0,1\n")
	code, js, errs := call("train", data)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model := write("one.json", js)
	code, out, errs = call("predict", "--model", model, write("spell.csv", "1,0,1.0\n-1,0,2e0\n3,0,1.00000000000000000001\n"))
	if code != 0 || out != "1\n2\n1\n" || !strings.HasPrefix(errs, "error rate: 1 of 3 rows") {
		t.Errorf("predict, other spellings: exit %d, stdout %q, stderr %q; want 1 2 1, 1 error (the third label is neither class)", code, out, errs)
	}
	for _, c := range []struct{ name, text, want string }{
		{"blank", "1,2,\" \"\n2,1,b\n", `line 1, column 2: the label " " is blank: a missing value, not a class`},
		{"semicolon", "1,5;a\n2,5;b\n", `line 1, column 1: the label "5;a" holds a semicolon after a number: the file may be ';'-separated with decimal commas, read here as comma-separated; save it comma-separated with decimal points`},
		{"tab", "1,5\ta\n2,5\tb\n", `line 1, column 1: the label "5\ta" holds a tab after a number: the file may be tab-separated with decimal commas`},
	} {
		path := write(c.name+".csv", c.text)
		code, out, errs := call("train", path)
		if want := "perceptron: " + path + ": " + c.want; code != 1 || out != "" || !strings.HasPrefix(errs, want) {
			t.Errorf("train %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errs, want)
		}
	}
	// predict, on a labelled file of the two-column model.
	for _, c := range []struct{ name, text, want string }{
		{"blank", "1,2,\" \"\n", `line 1, column 2: the label " " is blank`},
		{"semicolon", "1,2,5;a\n", `line 1, column 2: the label "5;a" holds a semicolon after a number`},
	} {
		path := write("p"+c.name+".csv", c.text)
		code, out, errs := call("predict", "--model", model, path)
		if want := "perceptron: " + path + ": " + c.want; code != 1 || out != "" || !strings.HasPrefix(errs, want) {
			t.Errorf("predict %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, errs, want)
		}
	}
	// A class of the model is a label whatever the rule guesses: "5;a"
	// from a training file separated by spaces (helper-65).
	code, js, errs = call("train", write("spaces.csv", "1 2 5;a\n-1 -2 c\n"))
	if code != 0 {
		t.Fatalf("train on spaces: exit %d: %s", code, errs)
	}
	code, out, errs = call("predict", "--model", write("sp.json", js), write("sp.csv", "1,2,5;a\n-1,-2,c\n"))
	if code != 0 || out != "5;a\nc\n" {
		t.Errorf("predict with the model's class 5;a: exit %d, stdout %q, stderr %q; want 5;a, c", code, out, errs)
	}
}

// failWriter fails every write, as a full disk (/dev/full) does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestFailedReportIsAnError: predict's error rate on stderr was written
// unchecked, and predict --model m.json p1.csv 2>/dev/full exited 0. A
// failed write of any report (the labels, the error rate, the model, the
// help) is exit status 1.
func TestFailedReportIsAnError(t *testing.T) {
	write := tempWriter(t)
	data := write("p1.csv", "1,2,a\n-1,-2,b\n")
	code, js, errs := call("train", data)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model := write("m.json", js)
	var out, errb bytes.Buffer
	if code := run([]string{"predict", "--model", model, data}, strings.NewReader(""), &out, failWriter{}); code != 1 || out.String() != "a\nb\n" {
		t.Errorf("predict, stderr failing: exit %d, stdout %q; want 1", code, out.String())
	}
	for _, args := range [][]string{{"predict", "--model", model, data}, {"train", data}, {"help"}, {"help", "train"}, {"train", "--help"}, {"bound", data}, {"version"}} {
		errb.Reset()
		if code := run(args, strings.NewReader(""), failWriter{}, &errb); code != 1 || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%q, stdout failing: exit %d, stderr %q; want 1 and the error", args, code, errb.String())
		}
	}
}
