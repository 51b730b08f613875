package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/generate"
)

// TestExportCommand walks a Canvas download from grade to the gradebook:
// grade a folder of submissions named as Canvas names them, then export
// writes the CSV Canvas imports (the students' user IDs, the totals) and
// each submission's Go code.
func TestExportCommand(t *testing.T) {
	a, err := assignment.LoadAssignment(fixture)
	if err != nil {
		t.Fatal(err)
	}
	student, solution := generate.Notebooks(a, false)
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	if err := os.Mkdir(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, nb := range map[string]*notebook.Notebook{
		"doejane_48213_9120334_hw0_fixture.ipynb":         solution,
		"smithbob_LATE_50077_9120901_hw0_fixture-1.ipynb": student,
	} {
		if err := nb.WriteFile(filepath.Join(subs, name)); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	if err := run([]string{"grade", "-repo", repo.Dir(t), "-lessons", "testdata", "-out", out, "-parallel", "2", "-sandbox", "none", subs}, &stdout, &stderr); err != nil {
		t.Fatalf("grade: %v\n%s", err, stderr.String())
	}
	canvas := filepath.Join(dir, "canvas.csv")
	code := filepath.Join(dir, "code")
	if err := run([]string{"export", "-format", "canvas", "-grades", filepath.Join(out, "grades.csv"), "-o", canvas, "-code", code}, &stdout, &stderr); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(canvas)
	if err != nil {
		t.Fatal(err)
	}
	want := "Student,ID,SIS User ID,SIS Login ID,Section,hw0_fixture\n" +
		"Points Possible,,,,,7.5\n" +
		"doejane,48213,,,,7.5\n" +
		"smithbob,50077,,,,0\n"
	if string(b) != want {
		t.Errorf("canvas.csv:\n%s\nwant:\n%s", b, want)
	}
	for name, marker := range map[string]string{
		"doejane_48213.go":  "s += x[i] * y[i]",         // her Dot
		"smithbob_50077.go": `panic("not implemented")`, // his untouched Dot
	} {
		b, err := os.ReadFile(filepath.Join(code, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(b), marker) || strings.Contains(string(b), "func TestDot(") || !strings.HasPrefix(string(b), "package main\n") {
			t.Errorf("%s: want package main with %q and no test:\n%s", name, marker, b)
		}
	}
}
