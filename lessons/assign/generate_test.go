package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestFreshness shows that generate -check catches a source edited after
// generating, and outputs left in a student notebook.
func TestFreshness(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hw0_fixture")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(fixture, "source.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("source.ipynb", b)
	check := func() string {
		var stdout, stderr strings.Builder
		err := run([]string{"generate", "-check", "-repo", repo.Dir(t), dir}, &stdout, &stderr)
		if err == nil {
			return ""
		}
		return err.Error() + "\n" + stderr.String()
	}
	if got := check(); !strings.Contains(got, "hw0_fixture/student.ipynb: no such file or directory") {
		t.Errorf("before generating: %q, want a missing student.ipynb", got)
	}
	var stdout, stderr strings.Builder
	if err := run([]string{"generate", "-execute=false", "-repo", repo.Dir(t), dir}, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	if got := check(); got != "" {
		t.Fatalf("just generated: %q", got)
	}
	// A changed solution line changes solution.ipynb only.
	write("source.ipynb", []byte(strings.Replace(string(b), "s += x[i] * y[i]", "s += y[i] * x[i]", 1)))
	got := check()
	if !strings.Contains(got, "solution.ipynb is out of date with source.ipynb: cell 4 differs:\n    line 5: committed \"\\t\\ts += x[i] * y[i]\"\n    line 5: generated \"\\t\\ts += y[i] * x[i]\"") ||
		strings.Contains(got, "student.ipynb is out of date") {
		t.Errorf("after editing a solution: %q", got)
	}
	write("source.ipynb", b)
	// Outputs left in the student notebook.
	nb := repo.ReadNotebook(t, filepath.Join(dir, "student.ipynb"))
	one := 1
	nb.Cells[2].ExecutionCount = one
	if err := nb.WriteFile(filepath.Join(dir, "student.ipynb")); err != nil {
		t.Fatal(err)
	}
	if got := check(); !strings.Contains(got, "student.ipynb: cell 2 has outputs or an execution count") {
		t.Errorf("student notebook with outputs: %q", got)
	}
}
