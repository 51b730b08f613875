// Package repo is what the repository's tests share: the repository's root
// (every test package runs there, so paths read as from the root), its
// notebooks (read or fail), the notebooks' Go code read as GoNB reads
// it, the check that nothing a student receives holds a solution, markdown
// sections, and the Docker image's helpers. The end-to-end module (e2e/)
// and the deployment checks (deploy/) import it too.
package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/root"
)

// Root returns the repository's root (root.Find from the working
// directory).
func Root() (string, error) { return root.Find(".") }

// Dir returns the repository's root, or fails the test.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// ReadNotebook reads the notebook at path with internal/notebook, or fails
// the test.
func ReadNotebook(t testing.TB, path string) *notebook.Notebook {
	t.Helper()
	nb, err := notebook.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// Main runs a test package's tests in the repository's root, so that they
// read paths as from there, and exits: call it from TestMain.
func Main(m *testing.M) {
	root, err := Root()
	if err == nil {
		err = os.Chdir(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "repo:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// NotebookDirs are the folders, relative to the repository root, whose
// notebooks (searched recursively) TestNotebooks executes.
var NotebookDirs = []string{"notebooks", "lessons"}

// IsUnexecuted reports whether the notebook at path is committed without
// outputs on purpose: an assignment's source notebook (solutions and hidden
// tests between markers) or the student notebook generated from it (stubs
// that panic "not implemented"), named source.ipynb and student.ipynb, or
// ending in _source.ipynb and _student.ipynb, under lessons/. They are only
// checked for the setup cell here; the generated solution notebook is
// executed like a lesson, and the assignment tests grade the others.
func IsUnexecuted(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(filepath.ToSlash(path), "lessons/") &&
		(base == "source.ipynb" || base == "student.ipynb" ||
			strings.HasSuffix(base, "_source.ipynb") || strings.HasSuffix(base, "_student.ipynb"))
}

// FindNotebooks returns the notebooks under NotebookDirs, relative to the
// repository root, in lexical order.
func FindNotebooks(t testing.TB) []string {
	var paths []string
	for _, dir := range NotebookDirs {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && path == dir {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() && (d.Name() == ".ipynb_checkpoints" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".ipynb") {
				paths = append(paths, filepath.ToSlash(path))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(paths)
	return paths
}

// Tail returns the last n lines of s, indented by four spaces, after "..."
// when lines were left out.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return "    " + strings.Join(lines, "\n    ")
}

// ReadFile returns the file's content, or "" if it cannot be read.
func ReadFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// Section returns the body of the markdown section whose "## " heading is
// title, up to the next heading of level 1 or 2.
func Section(md, title string) (string, bool) {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "## "+title {
			continue
		}
		var body []string
		inFence := false
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(l, "```") {
				inFence = !inFence
			}
			if !inFence && (strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ")) {
				break
			}
			body = append(body, l)
		}
		return strings.Join(body, "\n"), true
	}
	return "", false
}
