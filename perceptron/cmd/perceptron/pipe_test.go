//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// pipe returns a path to the read end of a pipe (/dev/fd/N) into which
// text is written and then closed, as a shell's <(zcat data.csv.gz) gives:
// the command can read it once; opened a second time, it is empty.
func pipe(t *testing.T, text string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	p := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	go func() {
		defer w.Close()
		w.WriteString(text)
	}()
	return p
}

// TestTrainReadsAPipeOnce: train and bound read a file that can be read
// only once (a pipe) whole. They read its first lines for the layout and
// then read the file again: on a pipe, the bytes of the first read (up to
// 64 KiB) were gone, so a small file was "empty input" and a large one
// was trained on without its first thousands of rows, exit 0.
func TestTrainReadsAPipeOnce(t *testing.T) {
	write := tempWriter(t)
	var big strings.Builder
	for i := range 20000 {
		x := float64(i%200) - 99.5
		fmt.Fprintf(&big, "%g,%g,%d\n", x, float64(i%7), map[bool]int{true: 1, false: -1}[x > 0])
	}
	for _, c := range []struct{ name, text string }{
		{"three rows", "1,2,1\n-1,-2,-1\n2,1,1\n"},
		{"a header", "a,b,y\n1,2,1\n-1,-2,-1\n"},
		{"20000 rows (420 KB)", big.String()},
	} {
		want := trainJSON(t, write("data.csv", c.text))
		got := trainJSON(t, pipe(t, c.text))
		if got.N != want.N || !reflect.DeepEqual(got.W, want.W) || got.B != want.B {
			t.Errorf("%s: from a pipe n = %d, w = %v, b = %v; from the file n = %d, w = %v, b = %v", c.name, got.N, got.W, got.B, want.N, want.W, want.B)
		}
		code, _, errs := call("bound", pipe(t, c.text))
		if code != 0 {
			t.Errorf("%s: bound from a pipe: exit %d: %s", c.name, code, errs)
		}
	}
	// An error in a pipe names it and the line, as in a file.
	p := pipe(t, "1,2,1\n-1,x,-1\n")
	code, _, errs := call("train", p)
	if code != 1 || !strings.Contains(errs, p) || !strings.Contains(errs, "line 2") {
		t.Errorf("a bad value in a pipe: exit %d, stderr %q; want exit 1 naming %s and line 2", code, errs, p)
	}
}

// TestScikitLearnLayout: a file in scikit-learn's layout, whose first line
// "n_samples,n_features,names..." has fewer fields than its data lines
// (breast_cancer.csv: 4 against 31), is read whole, from a file, a pipe
// or gzip, its class names usable with --classes; it was read as a header
// that must have as many fields ("line 1: 4 fields, expected 31"), so only
// iris.csv worked. An ordinary data row that looks like such a line (a
// number among the "names") is data, and a first line whose n_samples is
// not the file's is an error, not a row silently dropped.
func TestScikitLearnLayout(t *testing.T) {
	raw, err := os.ReadFile("../../data/breast_cancer.csv")
	if err != nil {
		t.Fatal(err)
	}
	write := tempWriter(t)
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write(raw)
	z.Close()
	file, gzFile := write("bc.csv", string(raw)), write("bc.csv.gz", gz.String())
	for _, path := range []string{file, gzFile, pipe(t, string(raw))} {
		m := trainJSON(t, "--max-epochs", "2", path)
		if m.N != 569 || len(m.W) != 30 {
			t.Errorf("%s: n = %d, %d weights; want 569 and 30", path, m.N, len(m.W))
		}
	}
	m := trainJSON(t, "--max-epochs", "2", "--classes", "benign,malignant", file)
	if m.N != 569 || len(m.ClassNames) != 2 || m.ClassNames[0] != "benign" || m.ClassNames[1] != "malignant" {
		t.Errorf("--classes benign,malignant: n = %d, class names %q", m.N, m.ClassNames)
	}
	m = trainJSON(t, "--max-epochs", "2", "--classes", "class_0,class_2", "../../data/wine_data.csv")
	if m.N != 59+48 || len(m.W) != 13 {
		t.Errorf("wine, --classes class_0,class_2: n = %d, %d weights; want 107 and 13", m.N, len(m.W))
	}
	if code, _, errs := call("bound", file); code != 0 {
		t.Errorf("bound %s: exit %d: %s", file, code, errs)
	}
	// A data row "10,3,0.5,yes": not the layout (0.5 is a number).
	m = trainJSON(t, write("rows.csv", "10,3,0.5,yes\n1,2,0.5,no\n-1,2,3,yes\n4,-1,2,no\n"))
	if m.N != 4 {
		t.Errorf("a first data row like the layout: n = %d, want 4", m.N)
	}
	// n_samples that is not the file's: an error naming the line.
	bad := write("bad.csv", "5,2,a,b\n1,2,0\n-1,-2,1\n")
	if code, _, errs := call("train", bad); code != 1 || !strings.Contains(errs, "line 1 says 5 rows") {
		t.Errorf("n_samples 5 for 2 rows: exit %d, %q", code, errs)
	}
}

// TestPipeWithBadLabel: a label that is not UTF-8 in a pipe is refused at
// once; the line of the label was looked up by opening the file a second
// time, which on a FIFO waits forever for a writer that is gone (and on a
// pipe finds nothing). The error names the file, and the line as for a
// regular file (it had none: a copy of the pipe is parsed as it is read).
func TestPipeWithBadLabel(t *testing.T) {
	p := pipe(t, "1,2,a\n2,1,a\n5,6,\xff\n6,5,\xff\n")
	code, _, errs := call("train", p)
	if code != 1 || !strings.Contains(errs, p+": line 3, column 2: ") || !strings.Contains(errs, "not UTF-8 text") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming %s, line 3, column 2, not UTF-8 text", code, errs, p)
	}
}

// TestScikitLearnLabelsAreIndices: the labels of scikit-learn's layout are
// indices of the names of its first line. A data row "5,3,foo,pos" before
// rows labelled "neg" and "pos" was taken for that line and dropped, n = 5
// for 6 rows, when the rows happened to be 5; it is data. A file whose
// second line has an index label but a later line not is refused, naming
// that line; with --classes the rows were not counted against n_samples,
// and now are.
func TestScikitLearnLabelsAreIndices(t *testing.T) {
	write := tempWriter(t)
	skl := write("skl.csv", "5,3,foo,pos\n1,2,bar,neg\n2,1,baz,pos\n3,3,q,pos\n-1,-2,r,neg\n-2,-2,s,neg\n")
	for _, path := range []string{skl, pipe(t, "5,3,foo,pos\n1,2,bar,neg\n2,1,baz,pos\n3,3,q,pos\n-1,-2,r,neg\n-2,-2,s,neg\n")} {
		m := trainJSON(t, "--features", "0,1", path)
		if m.N != 6 || m.ClassNames != nil || fmt.Sprint(m.Classes) != "[neg pos]" {
			t.Errorf("%s: n = %d, classes %q, names %q; want 6 rows of neg and pos, no names", path, m.N, m.Classes, m.ClassNames)
		}
	}
	// Names that repeat are no class names: the line is data.
	m := trainJSON(t, "--features", "0,1", write("rep.csv", "3,3,a,a\n1,2,x,0\n-1,-2,y,a\n"))
	if m.N != 3 {
		t.Errorf("names a, a: n = %d, want 3", m.N)
	}
	mixed := write("mixed.csv", "4,1,neg,pos\n1,0\n-1,1\n2,pos\n-2,1\n")
	code, out, errs := call("train", mixed)
	want := "perceptron: " + mixed + `: line 4, column 1: the label "pos" is not an index 0..1 of the 2 class names of line 1 (scikit-learn's n_samples,n_features,names), as the labels of that layout are: the file is not in that layout (if line 1 is data, use --header no)` + "\n"
	if code != 1 || out != "" || errs != want {
		t.Errorf("a label that is no index: exit %d, stdout %q, stderr %q; want %q", code, out, errs, want)
	}
	// A label equal to line 1's field in the label column is named on
	// its own line, not on line 1, which is not data (it was line 1), in a
	// file and in a pipe.
	const named = "4,2,setosa,virginica\n1,2,0\n3,4,1\n5,6,setosa\n7,8,0\n"
	for _, path := range []string{write("named.csv", named), pipe(t, named)} {
		code, _, errs := call("train", path)
		if want := "perceptron: " + path + `: line 4, column 2: the label "setosa" is not an index`; code != 1 || !strings.HasPrefix(errs, want) {
			t.Errorf("a label that is a name of line 1: exit %d, stderr %q; want %q...", code, errs, want)
		}
	}
	// --classes picks rows: a file cut to some classes' rows (iris
	// without its third class, a classroom step) trains (helper-65);
	// without --classes the count is checked.
	iris3 := "5,1,a,b,c\n1,0\n2,1\n3,2\n4,0\n"
	short := write("short.csv", iris3)
	if m := trainJSON(t, "--classes", "a,c", short); m.N != 3 {
		t.Errorf("--classes a,c on 4 rows of 5: n = %d, want 3", m.N)
	}
	cut := write("cut.csv", "5,1,a,b\n1,0\n2,1\n3,1\n4,0\n")
	code, _, errs = call("train", cut)
	want = "perceptron: " + cut + ": line 1 says 5 rows (scikit-learn's n_samples,n_features,names), the file has 4: it is cut short or not in that layout (if line 1 is data, use --header no)\n"
	if code != 1 || errs != want {
		t.Errorf("4 rows of 5, no --classes: exit %d, stderr %q; want %q", code, errs, want)
	}
	// predict skips the line before rows of features alone too.
	code, js, errs2 := call("train", write("full2.csv", "4,1,a,b\n1,1\n2,1\n-1,0\n-2,0\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs2)
	}
	code, out, errs = call("predict", "--model", write("m.json", js), write("nolabel.csv", "2,1,a,b\n3\n-3\n"))
	if code != 0 || out != "1\n0\n" {
		t.Errorf("scikit-learn's first line before rows of features alone: exit %d, stdout %q, stderr %q; want 1, 0", code, out, errs)
	}
	// A model that reads none of the names and was not trained on that
	// layout reads such a line, before rows of features alone, as data:
	// it was dropped (3 labels for 4 rows, exit 0).
	code, js, errs2 = call("train", "--features", "0,1", write("tx.csv", "1,2,red,blue,a\n2,1,red,green,b\n-1,-2,x,y,a\n3,3,z,w,b\n"))
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errs2)
	}
	code, out, errs = call("predict", "--model", write("tx.json", js), write("txp.csv", "3,4,red,blue\n1,2,red,blue\n2,1,u,v\n-1,-2,p,q\n"))
	if code != 0 || strings.Count(out, "\n") != 4 {
		t.Errorf("a data row like scikit-learn's first line before rows of features alone: exit %d, stdout %q, stderr %q; want 4 labels", code, out, errs)
	}
	m = trainJSON(t, "--classes", "a,c", write("full.csv", "4"+iris3[1:]))
	if m.N != 3 || fmt.Sprint(m.Classes, m.ClassNames) != "[0 2] [a c]" {
		t.Errorf("--classes a,c: n = %d, classes %q, names %q; want 3, [0 2], [a c]", m.N, m.Classes, m.ClassNames)
	}
	three := write("three.csv", "4"+iris3[1:])
	code, _, errs = call("train", three)
	if want := "perceptron: " + three + `: 3 label values in column 1 ("0", "1", "2"): choose two classes with --classes A,B` + "\n"; code != 1 || errs != want {
		t.Errorf("three classes: exit %d, stderr %q; want %q", code, errs, want)
	}
}
