package assignment

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
)

// fixture is the test assignment of the grader's tests.
const fixture = "../testdata/hw0_fixture"

func loadAssignment(t *testing.T, dir string) *Assignment {
	t.Helper()
	a, err := LoadAssignment(dir)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestImportName(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"", "fmt", "fmt"},
		{"", "math/rand/v2", "rand"},
		{"", "gonum.org/v1/gonum/mat", "mat"},
		{"", "gonum.org/v1/plot/vg", "vg"},
		{"", "github.com/perceptron-go/lessons/perceptron", "perceptron"},
		{"", "gopkg.in/yaml.v3", "yaml"},
		{"", "github.com/mattn/go-isatty", "isatty"},
		{"p", "github.com/perceptron-go/lessons/perceptron", "p"},
		{"_", "embed", "_"},
	} {
		if got := ImportName(ImportSpec{tc.name, tc.path}); got != tc.want {
			t.Errorf("importName(%q %q) = %q, want %q", tc.name, tc.path, got, tc.want)
		}
	}
}

func sourceNotebook(cells ...string) *notebook.Notebook {
	nb := &notebook.Notebook{NBFormat: "4", NBFormatMinor: "5", Metadata: map[string]any{}}
	for _, s := range append([]string{SetupCell}, cells...) {
		c := &notebook.Cell{Type: "code", Metadata: map[string]any{}, Source: s}
		if md, ok := strings.CutPrefix(s, "md:"); ok {
			c.Type, c.Source = "markdown", md
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb
}

func TestCheck(t *testing.T) {
	const (
		fn   = "func F() int {\n\t// BEGIN SOLUTION\n\treturn 1\n\t// END SOLUTION\n}"
		test = "%test\n// points: 2\nfunc TestF(t *testing.T) {}"
	)
	tests := []struct {
		name  string
		cells []string
		want  string
	}{
		{"good", []string{fn, test}, ""},
		{"never closed", []string{"func F() {\n\t// BEGIN SOLUTION\n}", test},
			"cell 1: line 2: // BEGIN SOLUTION never closed by // END SOLUTION"},
		{"end without begin", []string{"func F() {\n\t// END SOLUTION\n}", test},
			"cell 1: line 2: // END SOLUTION without // BEGIN SOLUTION"},
		{"nested", []string{"func F() {\n// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION\n}", test},
			"cell 1: line 3: // BEGIN SOLUTION inside the block opened on line 2"},
		{"hidden outside a test cell", []string{fn, "// BEGIN HIDDEN TESTS\n// END HIDDEN TESTS", test},
			"cell 2, line 1: // BEGIN HIDDEN TESTS outside a %test cell"},
		{"solution in a test cell", []string{fn, "%test\nfunc TestG(t *testing.T) {\n// BEGIN SOLUTION\n// END SOLUTION\n}"},
			"cell 2, line 3: // BEGIN SOLUTION in a %test cell: tests are never stubbed"},
		{"solution outside a function", []string{"// BEGIN SOLUTION\nvar x = 1\n// END SOLUTION", test},
			"cell 1, line 1: // BEGIN SOLUTION block is not inside the body of a function"},
		{"duplicate test", []string{fn, test, "%test\nfunc TestF(t *testing.T) {}"},
			"cell 3, line 2: test TestF already declared in cell 2, line 3"},
		{"bad points", []string{fn, "%test\n// points: two\nfunc TestF(t *testing.T) {}"},
			"cell 2, line 3: TestF: points \"two\" is not a number >= 0"},
		{"two points lines", []string{fn, "%test\n// points: 1\n// points: 2\nfunc TestF(t *testing.T) {}"},
			"cell 2, line 4: TestF has 2 \"points:\" lines, want one"},
		{"marker in markdown", []string{"md:Write it here:\n// BEGIN SOLUTION", fn, test},
			"cell 1, line 2: // BEGIN SOLUTION in a markdown cell: markers are only for code cells"},
		{"answer never closed", []string{"md:Derive it:\n<!-- BEGIN SOLUTION -->\nt = 2", fn, test},
			"cell 1: line 2: <!-- BEGIN SOLUTION --> never closed by <!-- END SOLUTION -->"},
		{"syntax error", []string{fn, "func G( {\n}", test}, "cell 2: line 1: expected ')', found '{' (and 1 more errors)"},
		{"no tests", []string{fn}, "no test functions in %test cells"},
		{"no solution", []string{"func F() {}", test}, "no // BEGIN SOLUTION block"},
	}
	for _, tc := range tests {
		a := &Assignment{Name: "hw", Source: sourceNotebook(tc.cells...), SolutionFuncs: map[string]bool{}}
		err := a.check()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: check() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestNotebookRoundTrip reads a notebook written by Python's nbformat and
// writes it back byte for byte: generated notebooks diff cleanly.
func TestNotebookRoundTrip(t *testing.T) {
	path := filepath.Join(fixture, "source.ipynb")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := notebook.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(b) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(b), "\n")
		i := 0
		for i < min(len(g), len(w)) && g[i] == w[i] {
			i++
		}
		t.Errorf("re-encoded %s differs from line %d on (%d lines, want %d)", path, i+1, len(g), len(w))
	}
}

// TestCodeCells: the code cells but the %test ones, with their indexes, in
// order; a loop that breaks stops the walk.
func TestCodeCells(t *testing.T) {
	nb := &notebook.Notebook{Cells: []*notebook.Cell{
		{Type: "markdown", Source: "# x"},
		{Type: "code", Source: "func F() {}"},
		{Type: "code", Source: "%test\nfunc TestF(t *testing.T) {}"},
		{Type: "raw", Source: "func G() {}"},
		{Type: "code", Source: "%%\nF()"},
	}}
	var got []int
	for i, cl := range CodeCells(nb) {
		if cl.Test || cl.Lines[0] != strings.Split(nb.Cells[i].Source, "\n")[0] {
			t.Errorf("cell %d: %+v", i, cl)
		}
		got = append(got, i)
	}
	if !slices.Equal(got, []int{1, 4}) {
		t.Errorf("CodeCells gave cells %v, want [1 4]", got)
	}
	for i := range CodeCells(nb) {
		if i != 1 {
			t.Errorf("after break: cell %d", i)
		}
		break
	}
}
