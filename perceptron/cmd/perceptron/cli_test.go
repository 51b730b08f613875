package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestCommandHelp: "perceptron CMD --help" (and -h, -help, "help CMD")
// prints the command's usage, which lists every flag the command defines,
// to stdout with exit status 0.
func TestCommandHelp(t *testing.T) {
	flags := map[string][]string{
		"train":   {"--algo", "--max-epochs", "--max-updates", "--order", "--seed", "--eta", "--tie", "--no-bias", "--features", "--classes", "--header"},
		"predict": {"--model", "--header"},
		"bound":   {"--no-bias", "--features", "--classes", "--header"},
		"version": {},
	}
	for cmd, want := range flags {
		for _, args := range [][]string{{cmd, "--help"}, {cmd, "-h"}, {cmd, "-help"}, {"help", cmd}, {cmd, "data.csv", "--help"}} {
			code, out, errs := call(args...)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: perceptron "+cmd) {
				t.Errorf("%q: exit %d, stdout %.40q, stderr %q", args, code, out, errs)
				continue
			}
			for _, f := range want {
				if !strings.Contains(out, "  "+f+" ") {
					t.Errorf("%q: usage does not list %s", args, f)
				}
			}
		}
	}
	if code, _, errs := call("help", "frob"); code != 2 || errs != "perceptron: help: unknown command \"frob\": want train, predict, bound or version\n" {
		t.Errorf("help frob: exit %d, stderr %q", code, errs)
	}
}

// TestVersionText formats build information as Go records it: the module
// version ("(devel)" from a checkout), the commit when recorded, and the
// Go version.
func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/perceptron-go/lessons", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	want := "perceptron: github.com/perceptron-go/lessons (devel), commit 0123456789ab (modified)\ngo: go1.26.0\n"
	if got := versionText(bi); got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	bi = &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/perceptron-go/lessons", Version: "v1.2.3"}}
	if got, want := versionText(bi), "perceptron: github.com/perceptron-go/lessons v1.2.3\ngo: go1.26.1\n"; got != want {
		t.Errorf("versionText = %q, want %q", got, want)
	}
	if got := versionText(nil); got != "perceptron: version unknown (no build information)\ngo: "+runtime.Version()+"\n" {
		t.Errorf("versionText(nil) = %q", got)
	}
	if code, _, errs := call("version", "extra"); code != 2 || errs != "perceptron: version: takes no arguments, got extra\n" {
		t.Errorf("version extra: exit %d, stderr %q", code, errs)
	}
}

// TestVersionBuilt builds the command from this checkout and runs
// "perceptron version": a build from a checkout has the version "(devel)",
// and the Go version is the toolchain's.
func TestVersionBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "perceptron")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "perceptron: github.com/perceptron-go/lessons (devel)") || lines[1] != "go: "+runtime.Version() {
		t.Errorf("version printed %q", out)
	}
	// The exit statuses of the real binary: 0 for --help, 2 for a usage
	// error, 1 for bad data.
	for _, c := range []struct {
		args []string
		code int
	}{{[]string{"train", "--help"}, 0}, {[]string{"train", "--eta", "x", "f"}, 2}, {[]string{"train", "missing.csv"}, 1}} {
		err := exec.Command(bin, c.args...).Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("%q: exit %d, want %d", c.args, code, c.code)
		}
	}
}

// TestPredictIssueCases: predict refuses a voted model with a negative
// vote count (the model file's validation) and a file of two models, reads a file with a byte
// order mark without losing its first row, and treats a "?" on line 1 as
// the bad value it is on line 2.
func TestPredictIssueCases(t *testing.T) {
	write := tempWriter(t)
	voted := write("voted.json", `{"algo":"voted","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake",`+
		`"vectors":[{"w":[0,0],"b":0,"count":-5},{"w":[1,2],"b":0,"count":3}]}`)
	good := write("good.json", `{"algo":"pla","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake"}`)
	twice := write("twice.json", `{"algo":"pla","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake"}`+"\n"+
		`{"algo":"pla","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake"}`+"\n")
	bom := write("bom.csv", "\ufeff1,2\n-3,-4\n5,6\n-7,-8\n")
	q1 := write("q1.csv", "?,2\n3,4\n")
	q2 := write("q2.csv", "1,2\n?,4\n")
	for _, c := range []struct {
		args      []string
		code      int
		out, errs string
	}{
		{[]string{"predict", "--model", voted, bom}, 1, "", "perceptron: model " + voted + ": vector 0 has count -5: a survival count is >= 0\n"},
		{[]string{"predict", "--model", good, bom}, 0, "1\n-1\n1\n-1\n", ""},
		{[]string{"predict", "--model", good, q1}, 1, "", "perceptron: " + q1 + `: line 1, column 0: cannot parse "?" as a number` + "\n"},
		{[]string{"predict", "--model", good, q2}, 1, "", "perceptron: " + q2 + `: line 2, column 0: cannot parse "?" as a number` + "\n"},
		// train >> m.json run twice: two models in one file.
		{[]string{"predict", "--model", twice, bom}, 1, "", "perceptron: model " + twice + `: trailing data after the model's JSON object (96 bytes, starting "{\"algo\":\"pla\",\"w\":[1…"): one model per file` + "\n"},
	} {
		code, out, errs := call(c.args...)
		if code != c.code || out != c.out || errs != c.errs {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out, errs, c.code, c.out, c.errs)
		}
	}
}

// TestNoCommittedBinaries: no file tracked by git in the repository is a
// compiled program (an ELF, Mach-O or PE header); built commands are in
// .gitignore. Skipped outside a git checkout.
func TestNoCommittedBinaries(t *testing.T) {
	out, err := exec.Command("git", "-C", "../../..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	magic := [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, {'M', 'Z'}}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		f, err := os.Open(filepath.Join("../../..", name))
		if err != nil {
			continue // deleted in the work tree
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		for _, m := range magic {
			if n >= len(m) && string(head[:len(m)]) == string(m) {
				t.Errorf("%s is a compiled binary: remove it and list it in .gitignore", name)
			}
		}
	}
}

// TestPredictReadsWhatTrainReads: issue 24's q.txt, quoted values separated
// by spaces, which train read as 4 rows while predict took line 1 for a
// header and failed on line 2. Both now read it with the library's one
// reader: train learns from 4 rows and predict predicts 4.
func TestPredictReadsWhatTrainReads(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	q := write("q.txt", []byte(`"1" "2" 1`+"\n"+`"3" "4" -1`+"\n"+`"1" "1" 1`+"\n"+`"5" "5" -1`+"\n"))
	code, out, errs := call("train", q)
	if code != 0 {
		t.Fatalf("train q.txt: exit %d: %s", code, errs)
	}
	var m struct {
		N       int      `json:"n"`
		Classes []string `json:"classes"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.N != 4 {
		t.Fatalf("train q.txt: n = %d (%v), want 4", m.N, err)
	}
	model := write("m.json", []byte(out))
	code, out, errs = call("predict", "--model", model, q)
	if code != 0 || strings.Count(out, "\n") != 4 {
		t.Fatalf("predict q.txt: exit %d, stdout %q, stderr %q; want 4 predictions", code, out, errs)
	}
	if !strings.HasPrefix(errs, "error rate: ") || !strings.Contains(errs, " of 4 rows") {
		t.Errorf("predict q.txt: stderr %q, want the error rate over 4 rows", errs)
	}
	// A gzip-compressed file is read by both.
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("1 2 1\n3 4 -1\n1 1 1\n5 5 -1\n"))
	z.Close()
	qgz := write("q.txt.gz", gz.Bytes())
	if code, _, errs := call("train", qgz); code != 0 {
		t.Errorf("train q.txt.gz: exit %d: %s", code, errs)
	}
	if code, out, errs := call("predict", "--model", model, qgz); code != 0 || strings.Count(out, "\n") != 4 {
		t.Errorf("predict q.txt.gz: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// Both refuse the same bad files with the same error.
	for _, c := range []struct{ name, text, want string }{
		{"nan.txt", "1 2 1\nnan 4 -1\n", ": line 2, column 0: value is NaN"},
		{"qlabel.txt", "1 2 1\n3 4 ?\n", `: line 2, column 2: the label "?" is a missing value`},
		{"nanlabel.txt", "1 2 1\n3 4 NaN\n", `: line 2, column 2: the label "NaN" is NaN, not a class`},
		{"ragged.txt", "1 2 1\n3 4\n", ": line 2: 2 fields, expected 3 (as on line 1)"},
		{"zip.txt", "PK\x03\x04junk", ": a zip archive, not text: extract the file first"},
	} {
		p := write(c.name, []byte(c.text))
		want := "perceptron: " + p + c.want + "\n"
		if code, _, errs := call("train", p); code != 1 || errs != want {
			t.Errorf("train %s: exit %d, stderr %q; want 1, %q", c.name, code, errs, want)
		}
		if code, _, errs := call("predict", "--model", model, p); code != 1 || errs != want {
			t.Errorf("predict %s: exit %d, stderr %q; want 1, %q", c.name, code, errs, want)
		}
	}
}

// TestTrainOneClass: a file whose labels are all +1 says what it means and
// trains (PLA: one update, b = 1, no training error).
func TestTrainOneClass(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.txt")
	if err := os.WriteFile(p, []byte("1 2 1\n3 4 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := call("train", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m struct {
		Updates        int  `json:"updates"`
		Converged      bool `json:"converged"`
		TrainingErrors int  `json:"training_errors"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Updates != 1 || !m.Converged || m.TrainingErrors != 0 {
		t.Errorf("got %+v (%v), want 1 update, converged, 0 training errors", m, err)
	}
}

// TestBoundOrthonormal: PLA through the origin makes 2 updates on two
// orthonormal points, and bound prints a bound of at least 2 (rounding once
// printed 1.9999999999999996).
func TestBoundOrthonormal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ortho.txt")
	if err := os.WriteFile(p, []byte("1 0 1\n0 1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := call("bound", "--no-bias", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var b struct {
		Bound     float64 `json:"bound"`
		Separable bool    `json:"separable"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil || !b.Separable || b.Bound < 2 {
		t.Errorf("bound %+v (%v), want separable with a bound >= 2", b, err)
	}
	code, out, errs = call("train", "--no-bias", p)
	var m struct {
		Updates int `json:"updates"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &m) != nil || float64(m.Updates) > b.Bound {
		t.Errorf("train: exit %d, %d updates (%s), bound %v", code, m.Updates, errs, b.Bound)
	}
}

// TestBoundTimestamps: timestamps near 1.7e9 are separable (Separable
// proves it), and bound says so too, with a finite bound.
func TestBoundTimestamps(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ts.txt")
	if err := os.WriteFile(p, []byte("1700000000 -1\n1700000001 -1\n1700000002 1\n1700000003 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := call("bound", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var b struct {
		Bound     float64 `json:"bound"`
		Separable bool    `json:"separable"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil || !b.Separable || !(b.Bound > 0) {
		t.Errorf("bound %s (%v): want separable with a finite bound", out, err)
	}
}

// TestCorruptGzipNamed: a gzip file with one bit of its deflate data
// flipped decompresses to wrong text; train and predict called the first
// wrong line a data error ("cannot parse", a missing label) of the kind
// of that line (helper-50). Both now say that the gzip stream is corrupt
// (or truncated), exit 1.
func TestCorruptGzipNamed(t *testing.T) {
	write := tempWriter(t)
	text := "x,y\n" + strings.Repeat("1,a\n-1,b\n", 20)
	var gz bytes.Buffer
	z, err := gzip.NewWriterLevel(&gz, gzip.HuffmanOnly)
	if err != nil {
		t.Fatal(err)
	}
	z.Write([]byte(text))
	z.Close()
	good := write("good.csv.gz", gz.String())
	bad := gz.Bytes()
	bad[31] ^= 0x08
	corrupt := write("bad.csv.gz", string(bad))
	code, js, errs := call("train", good)
	if code != 0 {
		t.Fatalf("train on the sound file: exit %d: %s", code, errs)
	}
	model := write("m.json", js)
	for _, args := range [][]string{{"train", corrupt}, {"predict", "--model", model, corrupt}} {
		code, out, errs := call(args...)
		if code != 1 || out != "" || !strings.Contains(errs, "the gzip stream is corrupt") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and a corrupt gzip stream", args, code, out, errs)
		}
	}
	// Cut short, with a first line of four fields, or a NUL byte in it:
	// errors of the first lines, which train reads ahead and predict
	// checks apart, went by the check (helper-52).
	cut := func(name, text string) string {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write([]byte(text))
		z.Close()
		return write(name, string(b.Bytes()[:b.Len()-4]))
	}
	fields, nul := cut("fields.csv.gz", "1,a,9\n-1,b\n2,a\n"), cut("nul.csv.gz", "1,a\x00\n-1,b\n2,a\n")
	for _, args := range [][]string{{"predict", "--model", model, fields}, {"predict", "--model", model, nul}, {"train", nul}} {
		code, out, errs := call(args...)
		if code != 1 || out != "" || !strings.Contains(errs, "the gzip stream is truncated") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and a truncated gzip stream", args, code, out, errs)
		}
	}
}
