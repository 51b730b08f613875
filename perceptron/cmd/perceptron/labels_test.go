package main

import (
	"encoding/json"
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
// (empty, "?", NaN, a line break). A valid surrogate pair
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
// the error rate of 2, exit 0 (helper-50). As train does, predict checks
// its n_samples against the rows: an error that names the line and says
// --header no; with it, every row is predicted.
func TestPredictKeepsDataLikeScikitLearnsFirstLine(t *testing.T) {
	write := tempWriter(t)
	code, js, errs := call("train", "--features", "0,1", write("tx.csv", "1,2,foo,a\n-1,-2,foo,b\n2,1,bar,a\n-2,-1,bar,b\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs)
	}
	model, data := write("tx.json", js), write("txp.csv", "10,3,foo,b\n-1,-2,foo,b\n2,1,bar,a\n")
	code, out, errs := call("predict", "--model", model, data)
	want := "perceptron: " + data + ": line 1 says 10 rows (scikit-learn's n_samples,n_features,names), the file has 2"
	if code != 1 || out != "" || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "--header no") {
		t.Errorf("predict: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
	code, out, errs = call("predict", "--header", "no", "--model", model, data)
	if code != 0 || out != "a\nb\na\n" || errs != "error rate: 1 of 3 rows = 0.3333333333333333\n" {
		t.Errorf("predict --header no: exit %d, stdout %q, stderr %q; want a b a, 1 of 3 rows", code, out, errs)
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
