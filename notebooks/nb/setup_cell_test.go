package nb_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// runSetupCell runs the setup cell's command as GoNB does (/bin/bash -c in
// the kernel's temporary module, GONB_DIR the notebook's folder) and returns
// its output and the go.mod of the kernel's module afterwards.
func runSetupCell(t *testing.T, notebookDir string) (out, gomod, gosum string, err error) {
	t.Helper()
	line := strings.Split(notebook.SetupCell, "\n")[1]
	if !strings.HasPrefix(line, "!*") {
		t.Fatalf("the setup cell's second line is not a !* command: %s", line)
	}
	kernel := t.TempDir()
	if err := os.WriteFile(filepath.Join(kernel, "go.mod"), []byte("module gonb_kernel\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/bash", "-c", strings.TrimPrefix(line, "!*"))
	cmd.Dir = kernel
	cmd.Env = append(os.Environ(), "GONB_DIR="+notebookDir)
	b, err := cmd.CombinedOutput()
	mod, rerr := os.ReadFile(filepath.Join(kernel, "go.mod"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	sum, _ := os.ReadFile(filepath.Join(kernel, "go.sum"))
	return string(b), string(mod), string(sum), err
}

// TestSetupCell: from a folder of the repository the setup cell points the
// kernel's module at the repository; from a folder outside it (no go.mod:
// go env GOMOD is /dev/null; or another module's) it changes nothing and
// says where the notebook is and how to fix it, naming neither /dev nor
// go.mod's internals. Its first line is a comment saying what it does, which
// a collapsed cell shows.
func TestSetupCell(t *testing.T) {
	first := strings.Split(notebook.SetupCell, "\n")[0]
	if !strings.HasPrefix(first, "// Setup: ") {
		t.Errorf("the setup cell's first line, which its collapsed view shows, is %q; want a comment saying what it does", first)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	out, gomod, gosum, err := runSetupCell(t, filepath.Join(root, "lessons", "hw1_hyperplanes"))
	if err != nil {
		t.Fatalf("in lessons/hw1_hyperplanes: %v\n%s", err, out)
	}
	if want := "github.com/perceptron-go/lessons => " + root; !strings.Contains(gomod, want) {
		t.Errorf("in lessons/hw1_hyperplanes, the kernel's go.mod lacks %q:\n%s", want, gomod)
	}
	// The kernel's go.sum is the repository's, so that no cell needs GoNB's
	// go get (turned off by the cell's %noautoget line) to check a module.
	if lines := strings.Split(notebook.SetupCell, "\n"); len(lines) != 3 || lines[2] != "%noautoget" {
		t.Errorf("the setup cell's third line is not %%noautoget: %q", lines[len(lines)-1])
	}
	if len(gosum) == 0 || gosum != repo.ReadFile(filepath.Join(root, "go.sum")) {
		t.Errorf("in lessons/hw1_hyperplanes, the kernel's go.sum (%d bytes) is not the repository's", len(gosum))
	}

	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/mine\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{t.TempDir(), other} {
		out, gomod, gosum, err := runSetupCell(t, dir)
		if err == nil {
			t.Errorf("in %s the setup cell succeeds", dir)
		}
		for _, want := range []string{"This notebook is in " + dir + ", outside the perceptron lessons' folder", "Open it from the lessons' folder", "perceptron-lessons-init"} {
			if !strings.Contains(out, want) {
				t.Errorf("in %s the setup cell does not say %q; it says:\n%s", dir, want, out)
			}
		}
		if strings.Contains(out, "/dev") || strings.Contains(gomod, "perceptron-go") || gosum != "" {
			t.Errorf("in %s the setup cell names /dev, changes the kernel's module or writes a go.sum:\n%s\n%s", dir, out, gomod)
		}
	}
}

// TestNotebooksSetupCell: every notebook under notebooks/ and lessons/ starts
// with the setup cell, word for word and collapsed (the first part of
// checkCommitted, which TestNotebooks runs with the notebooks executed).
func TestNotebooksSetupCell(t *testing.T) {
	paths := repo.FindNotebooks(t)
	if len(paths) == 0 {
		t.Fatal("no notebooks found")
	}
	for _, path := range paths {
		nb := repo.ReadNotebook(t, path)
		if len(nb.Cells) == 0 || nb.Cells[0].Type != "code" || strings.TrimSpace(nb.Cells[0].Source) != notebook.SetupCell {
			t.Errorf("%s: cell 0 is not the setup cell (notebook.SetupCell in notebooks_test.go)", path)
		} else if !nb.Cells[0].SourceHidden() {
			t.Errorf(`%s: the setup cell is not collapsed ("jupyter": {"source_hidden": true} in its metadata)`, path)
		}
	}
	t.Logf("%d notebooks start with the collapsed setup cell", len(paths))
}
