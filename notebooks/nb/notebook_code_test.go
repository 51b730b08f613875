package nb_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// The notebooks' Go code, checked without Jupyter against the repository's
// packages (repo.NotebookCodeErrors reads the cells as GoNB does).

// exportImporter is a go/types importer that reads the compiler's export
// data of the packages `go list -export -deps` lists for the given import
// paths, as the go command built them in this module.
func exportImporter(t *testing.T, paths []string) types.Importer {
	t.Helper()
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}, paths...)
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	exports := map[string]string{}
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list -json: %v", err)
		}
		if p.Error != nil {
			t.Errorf("the notebooks import %s, which does not build:\n%s", p.ImportPath, p.Error.Err)
		}
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("package %s is not provided by this module (go.mod)", path)
		}
		return os.Open(file)
	})
}

// codeNotebooks returns the notebooks whose Go code is checked: the lessons
// and the assignments' solutions (the source notebooks hold the same code
// between markers; the student notebooks hold stubs), as path -> the source
// of each cell ("" for markdown).
func codeNotebooks(t *testing.T) map[string][]string {
	t.Helper()
	notebooks := map[string][]string{}
	for _, path := range repo.FindNotebooks(t) {
		if repo.IsUnexecuted(path) {
			continue
		}
		nb := repo.ReadNotebook(t, path)
		notebooks[path] = nb.CodeSources()
	}
	return notebooks
}

// TestNotebookCode type-checks the Go code of every lesson and every
// assignment's solution notebook, cell by cell as GoNB compiles it, against
// the repository's packages: no Jupyter, a few seconds once the packages are
// compiled.
func TestNotebookCode(t *testing.T) {
	notebooks := codeNotebooks(t)
	if len(notebooks) == 0 {
		t.Fatalf("no notebooks found under %v", repo.NotebookDirs)
	}
	imp := exportImporter(t, repo.NotebookImports(notebooks))
	for _, p := range repo.NotebookCodeErrors(notebooks, imp) {
		t.Error(p)
	}
	t.Logf("type-checked the Go code of %d notebooks", len(notebooks))
}

// TestNotebookCodeChecks shows that the check reads cells as GoNB does and
// catches an API break, with the notebook, cell and line.
func TestNotebookCodeChecks(t *testing.T) {
	setup := notebook.SetupCell
	imports := "import (\n\t\"fmt\"\n\n\t\"github.com/perceptron-go/lessons/perceptron\"\n)"
	tests := []struct {
		name  string
		cells []string
		want  []string // substrings of the problems, in order
	}{
		{"good", []string{setup, imports, "%%\nfmt.Println(perceptron.Options{})"}, nil},
		{"API break", []string{setup, imports, "", "%%\nfmt.Println(1)\nperceptron.NoSuchFunction()"},
			[]string{"lessons.ipynb cell 3:3:12: undefined: perceptron.NoSuchFunction"}},
		{"shell and GoNB commands are not Go", []string{setup, imports, "!echo \\\n  go\n%%\nfmt.Println(1)"}, nil},
		{"a redeclared function replaces the earlier one", []string{setup, imports,
			"func f() int { return 1 }", "// f now takes a string\nfunc f(s string) int { return len(s) }", "%%\nfmt.Println(f(\"ab\"))"}, nil},
		{"declarations before a main body are kept", []string{setup, imports,
			"func g() int { return 2 }\n%%\nfmt.Println(g())", "%%\nfmt.Println(g() + h())"},
			[]string{"lessons.ipynb cell 3:2:19: undefined: h"}},
		{"unused variable, as go build reports", []string{setup, imports, "%%\nx := 1"},
			[]string{"lessons.ipynb cell 2:2:1: declared and not used: x"}},
		{"test cell", []string{setup, "import \"testing\"", "%test\nfunc TestX(t *testing.T) { t.Log(undefinedName) }"},
			[]string{"lessons.ipynb cell 2:2:34: undefined: undefinedName"}},
		{"a package of the module used without an import, as goimports adds it", []string{setup, "%%\nfmt := view.Show\n_ = fmt"}, nil},
		{"syntax error", []string{setup, imports, "func (x {"}, []string{"lessons.ipynb cell 2:1:9"}},
	}
	nbs := map[string][]string{}
	for _, tc := range tests {
		nbs[tc.name] = tc.cells
	}
	imp := exportImporter(t, repo.NotebookImports(nbs))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := repo.NotebookCodeErrors(map[string][]string{"lessons.ipynb": tc.cells}, imp)
			if len(got) != len(tc.want) {
				t.Fatalf("problems = %q, want %d matching %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], tc.want[i])
				}
			}
		})
	}

	// The first lesson as committed, then with the learner it calls renamed
	// as a change to the package would rename it: every cell that calls it
	// is named.
	t.Run("lesson 00 after a rename", func(t *testing.T) {
		nb := repo.ReadNotebook(t, firstLessonPath)
		cells := nb.CodeSources()
		var renamed []string
		var calls []int
		for i, src := range cells {
			renamed = append(renamed, strings.ReplaceAll(src, "perceptron.PLA(", "perceptron.RunPLA("))
			if strings.Contains(src, "perceptron.PLA(") {
				calls = append(calls, i)
			}
		}
		if len(calls) == 0 {
			t.Fatalf("%s no longer calls perceptron.PLA: choose another function for this test", firstLessonPath)
		}
		imp := exportImporter(t, repo.NotebookImports(map[string][]string{firstLessonPath: cells}))
		if got := repo.NotebookCodeErrors(map[string][]string{firstLessonPath: cells}, imp); len(got) > 0 {
			t.Fatalf("as committed: %q", got)
		}
		got := repo.NotebookCodeErrors(map[string][]string{firstLessonPath: renamed}, imp)
		if len(got) != len(calls) {
			t.Fatalf("after the rename: problems = %q, want one for each of cells %v", got, calls)
		}
		for i, p := range got {
			want := fmt.Sprintf("%s cell %d:", firstLessonPath, calls[i])
			if !strings.HasPrefix(p, want) || !strings.Contains(p, ": undefined: perceptron.RunPLA") {
				t.Errorf("problem %d = %q, want %q...undefined: perceptron.RunPLA", i, p, want)
			}
		}
	})
}

// firstLessonPath is the first lesson, relative to the repository root.
const firstLessonPath = "notebooks/00_start_here.ipynb"
