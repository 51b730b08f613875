package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
)

// callIn runs the command with args and stdin and returns its exit status,
// stdout and stderr.
func callIn(stdin io.Reader, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}

// TestDashIsStdin: FILE "-" is standard input, for train, bound and
// predict, as in every Unix command (it was a file named "-": "open -: no
// such file or directory"; /dev/stdin, the way round, is not on Windows).
// Standard input is read once, a stream even when the shell redirects it
// from a regular file (it has no path to open again), and errors call it
// "standard input", with the line.
func TestDashIsStdin(t *testing.T) {
	write := tempWriter(t)
	text := "a,b,y\n1,2,yes\n-1,-2,no\n2,1,yes\n-2,-1,no\n0.5,3,yes\n"
	file := write("data.csv", text)
	want := trainJSON(t, file)

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	redirected, err := os.Open(file) // "train - < data.csv"
	if err != nil {
		t.Fatal(err)
	}
	defer redirected.Close()
	for name, stdin := range map[string]io.Reader{
		"a stream": strings.NewReader(text), "gzip": &gz, "a redirected file": redirected,
	} {
		code, out, errs := callIn(stdin, "train", "-")
		var got ModelFile
		if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
			t.Errorf("train - from %s: exit %d, stderr %q, stdout %q", name, code, errs, out)
			continue
		}
		if got.N != want.N || !reflect.DeepEqual(got.W, want.W) || got.B != want.B || !reflect.DeepEqual(got.Classes, want.Classes) || !reflect.DeepEqual(got.Features, want.Features) {
			t.Errorf("train - from %s: %+v; from the file %+v", name, got, *want)
		}
	}

	code, boundOut, errs := callIn(strings.NewReader(text), "bound", "-")
	_, fileOut, _ := call("bound", file)
	if code != 0 || boundOut != fileOut {
		t.Errorf("bound -: exit %d, stderr %q, stdout %q; from the file %q", code, errs, boundOut, fileOut)
	}

	model := write("model.json", mustTrain(t, file))
	code, predOut, errs := callIn(strings.NewReader(text), "predict", "--model", model, "-")
	_, filePred, fileErrs := call("predict", "--model", model, file)
	if code != 0 || predOut != filePred || errs != fileErrs || predOut == "" {
		t.Errorf("predict -: exit %d, stdout %q, stderr %q; from the file %q, %q", code, predOut, errs, filePred, fileErrs)
	}

	for _, c := range []struct{ cmd []string }{
		{[]string{"train", "-"}}, {[]string{"bound", "-"}}, {[]string{"predict", "--model", model, "-"}},
	} {
		code, _, errs := callIn(strings.NewReader("a,b,y\n1,2,yes\n-1,x,no\n"), c.cmd...)
		if code != 1 || !strings.HasPrefix(errs, "perceptron: standard input: line 3") {
			t.Errorf("%v with a bad line 3: exit %d, stderr %q; want exit 1 naming standard input, line 3", c.cmd, code, errs)
		}
	}
	code, _, errs = callIn(strings.NewReader("1,2,a\n2,1,a\n5,6,\xff\n6,5,\xff\n"), "train", "-")
	if code != 1 || !strings.Contains(errs, "standard input: line 3, column 2: ") {
		t.Errorf("train - with a non-UTF-8 label on line 3: exit %d, stderr %q", code, errs)
	}
	code, _, errs = callIn(strings.NewReader(""), "train", "-")
	if code != 1 || !strings.Contains(errs, "standard input: empty data") {
		t.Errorf("train - with nothing on stdin: exit %d, stderr %q", code, errs)
	}
}

// mustTrain returns the model file train writes for path.
func mustTrain(t *testing.T, path string) string {
	t.Helper()
	code, out, errs := call("train", path)
	if code != 0 {
		t.Fatalf("train %s: exit %d: %s", path, code, errs)
	}
	return out
}
