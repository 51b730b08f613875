package export

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// writeFile writes s to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, s string) string {
	t.Helper()
	return repo.Write(t, filepath.Join(dir, name), s)
}

// TestCanvas writes Canvas's import format from a grades.csv of a Canvas
// download: the Points Possible row, the user ID from each file name, the
// best of two submissions, a warning for a row Canvas cannot match by ID.
func TestCanvas(t *testing.T) {
	dir := t.TempDir()
	grades := writeFile(t, dir, "grades.csv", `student,student_id,submission,assignment,score,max_score,TestPLAStep,TestEpoch
doejane,48213,subs/doejane_48213_9120334_hw2_pla.ipynb,hw2_pla,12,14,2,2
doejane,48213,subs/doejane_LATE_48213_9120335_hw2_pla-1.ipynb,hw2_pla,14,14,2,2
=cmd,59001,subs/=cmd_59001_9120400_hw2_pla.ipynb,hw2_pla,3.5,14,0,2
alice,,subs/alice.ipynb,hw2_pla,7,14,2,0
broken,,subs/broken.ipynb,,0,0,,
`)
	gs, err := ReadGrades(grades)
	if err != nil {
		t.Fatal(err)
	}
	var out, warn strings.Builder
	if err := Canvas(&out, gs, "", &warn); err != nil {
		t.Fatal(err)
	}
	want := `Student,ID,SIS User ID,SIS Login ID,Section,hw2_pla
Points Possible,,,,,14
doejane,48213,,,,14
'=cmd,59001,,,,3.5
alice,,,,,7
broken,,,,,0
`
	if out.String() != want {
		t.Errorf("Canvas CSV:\n%s\nwant:\n%s", out.String(), want)
	}
	for _, s := range []string{"subs/alice.ipynb has no Canvas user ID", "doejane 48213 has two submissions of hw2_pla: kept the best score"} {
		if !strings.Contains(warn.String(), s) {
			t.Errorf("warnings do not say %q:\n%s", s, warn.String())
		}
	}
	out.Reset()
	if err := Canvas(&out, gs, "Homework 2: PLA (771234)", &warn); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(out.String(), "\n"); first != "Student,ID,SIS User ID,SIS Login ID,Section,Homework 2: PLA (771234)" {
		t.Errorf("with a title, header %q", first)
	}
	two := append(gs, Grade{Student: "bob", StudentID: "1", Assignment: "hw3_mistake_bound", MaxScore: 10})
	if err := Canvas(&out, two, "Homework 2", &warn); err == nil || !strings.Contains(err.Error(), "2 assignments") {
		t.Errorf("a title for two assignments: %v, want an error naming them", err)
	}
}

// TestReadGradesErrors rejects a CSV that grade did not write.
func TestReadGradesErrors(t *testing.T) {
	dir := t.TempDir()
	for name, s := range map[string]string{
		"empty.csv":     "",
		"old.csv":       "submission,assignment,score,max_score\nx.ipynb,hw2_pla,1,14\n",
		"notnumber.csv": "student,student_id,submission,assignment,score,max_score\na,,a.ipynb,hw2_pla,ten,14\n",
	} {
		if _, err := ReadGrades(writeFile(t, dir, name, s)); !errors.Is(err, ErrGrades) {
			t.Errorf("%s: %v, want ErrGrades", name, err)
		}
	}
	if err := (&Options{Format: "moodle", Grades: "x", Out: "y"}).Run(nil, nil, nil); !errors.Is(err, ErrFormat) {
		t.Errorf("-format moodle: %v, want ErrFormat", err)
	}
}

// TestCode writes each submission's Go code as NAME.go: its own cells,
// no %test cell, no GoNB command, no %% body; names from the gradebooks'
// download patterns, made safe for a file name, told apart on a clash.
func TestCode(t *testing.T) {
	dir := t.TempDir()
	nb := &notebook.Notebook{NBFormat: "4", NBFormatMinor: "5", Metadata: map[string]any{}, Cells: []*notebook.Cell{
		{Type: "markdown", Source: "# Assignment 2", Metadata: map[string]any{}},
		{Type: "code", Source: "!*go mod edit -require=x@v0.0.0\nimport \"fmt\"", Metadata: map[string]any{}},
		{Type: "code", Source: "func Dot(x, y []float64) float64 {\n\treturn x[0] * y[0] // COPIED-LINE\n}", Metadata: map[string]any{}},
		{Type: "code", Source: "%test\nfunc TestDot(t *testing.T) {}", Metadata: map[string]any{}},
		{Type: "code", Source: "%%\nfmt.Println(Dot([]float64{1}, []float64{2}))", Metadata: map[string]any{}},
	}}
	var gs []Grade
	for _, g := range []Grade{
		{Student: "doejane", StudentID: "48213", Submission: "doejane_48213_9120334_hw2_pla.ipynb"},
		{Student: "Jean-Luc Picard", StudentID: "88", Submission: "Jean-Luc Picard_88_assignsubmission_file_/student.ipynb"},
		{StudentID: "246813579", Submission: "submission_246813579/hw2_pla.ipynb"},
		{Student: "alice", Submission: "alice.ipynb"},
		{Student: "alice", Submission: "again/alice.ipynb"},
		{Student: "../../etc/passwd", Submission: "evil.ipynb"},
	} {
		g.Submission = filepath.Join(dir, "subs", g.Submission)
		if err := os.MkdirAll(filepath.Dir(g.Submission), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := nb.WriteFile(g.Submission); err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	gs = append(gs, Grade{Student: "dave", Submission: writeFile(t, dir, "subs/dave.ipynb", "{not json")})
	var warn strings.Builder
	code := filepath.Join(dir, "code")
	n, err := Code(code, gs, &warn)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(code, "*.go"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"246813579.go", "Jean-Luc_Picard_88.go", "alice-2.go", "alice.go", "doejane_48213.go", "etc_passwd.go"}
	if n != len(want) || strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("wrote %d files %v, want %v", n, names, want)
	}
	if !strings.Contains(warn.String(), "no Go code for "+filepath.Join(dir, "subs/dave.ipynb")) {
		t.Errorf("no warning for the unreadable notebook:\n%s", warn.String())
	}
	b, err := os.ReadFile(filepath.Join(code, "doejane_48213.go"))
	if err != nil {
		t.Fatal(err)
	}
	wantGo := "package main\n\n// cell 1\nimport \"fmt\"\n\n// cell 2\nfunc Dot(x, y []float64) float64 {\n\treturn x[0] * y[0] // COPIED-LINE\n}\n"
	if string(b) != wantGo {
		t.Errorf("doejane_48213.go:\n%s\nwant:\n%s", b, wantGo)
	}
}
