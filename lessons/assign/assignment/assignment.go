// Package assignment reads an assignment's source notebook: its Go cells
// as GoNB compiles them, its exercises, visible and hidden tests and
// points, the policy of what a submission may use, and the student and
// solution notebooks generated from it.
package assignment

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perceptron-go/lessons/lessons/assign/notebook"
)

// The markers of the source notebook (nbgrader's, written as Go comments).
const (
	BeginSolution = "// BEGIN SOLUTION"
	EndSolution   = "// END SOLUTION"
	BeginHidden   = "// BEGIN HIDDEN TESTS"
	EndHidden     = "// END HIDDEN TESTS"
	StubBody      = `panic("not implemented")`
)

// SetupCell is the first cell of every notebook, the source notebooks
// included: the SetupCell constant of the repository's notebooks_test.go
// (package lessons_test, which no package can import), repeated here word
// for word.
const SetupCell = `!*go mod edit -require=github.com/perceptron-go/lessons@v0.0.0 -replace=github.com/perceptron-go/lessons="$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")"`

// Assignment is a parsed source notebook.
type Assignment struct {
	Name   string             // folder name, e.g. "hw1_hyperplanes"
	Dir    string             // folder holding source.ipynb
	Source *notebook.Notebook // the source notebook as read
	Tests  []TestFunc
	// TestCells are the %test cells of the source, parsed, hidden tests included.
	TestCells []*ParsedCell
	// CodeCells are the other code cells of the source, parsed.
	CodeCells []*ParsedCell
	// SolutionFuncs are the functions holding a solution block, by name.
	SolutionFuncs map[string]bool
	// Policy is what submissions may use (DIR/grading.json, or the default).
	Policy Policy
}

// LoadAssignment reads and checks DIR/source.ipynb.
func LoadAssignment(dir string) (*Assignment, error) {
	path := filepath.Join(dir, "source.ipynb")
	nb, err := notebook.Read(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	a := &Assignment{Name: filepath.Base(abs), Dir: dir, Source: nb, SolutionFuncs: map[string]bool{}}
	if err := a.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if a.Policy, err = LoadPolicy(dir); err != nil {
		return nil, err
	}
	return a, nil
}

// GivenImports are the import paths of the source's code cells (not its
// %test cells).
func (a *Assignment) GivenImports() map[string]bool {
	m := map[string]bool{}
	for _, pc := range a.CodeCells {
		for _, is := range pc.Imports {
			m[is.Path] = true
		}
	}
	return m
}

// markerRegion is a block between a begin and an end marker: lines
// begin..end of a cell, markers included (0-based).
type markerRegion struct{ begin, end int }

// regions finds the blocks between begin and end markers in lines.
func regions(lines []string, begin, end string) ([]markerRegion, error) {
	var rs []markerRegion
	open := -1
	for i, l := range lines {
		switch strings.TrimSpace(l) {
		case begin:
			if open >= 0 {
				return nil, fmt.Errorf("line %d: %s inside the block opened on line %d", i+1, begin, open+1)
			}
			open = i
		case end:
			if open < 0 {
				return nil, fmt.Errorf("line %d: %s without %s", i+1, end, begin)
			}
			rs = append(rs, markerRegion{open, i})
			open = -1
		}
	}
	if open >= 0 {
		return nil, fmt.Errorf("line %d: %s never closed by %s", open+1, begin, end)
	}
	return rs, nil
}

func inRegions(rs []markerRegion, line int) bool {
	for _, r := range rs {
		if line >= r.begin && line <= r.end {
			return true
		}
	}
	return false
}

// check validates the source notebook: markers balanced and where they
// belong, every code cell parses, test names unique, points valid.
func (a *Assignment) check() error {
	if len(a.Source.Cells) == 0 || a.Source.Cells[0].Type != "code" {
		return fmt.Errorf("cell 0 must be the setup code cell")
	}
	names := map[string]TestFunc{}
	for i, c := range a.Source.Cells {
		if c.Type != "code" {
			for j, l := range strings.Split(c.Source, "\n") {
				switch m := strings.TrimSpace(l); m {
				case BeginSolution, EndSolution, BeginHidden, EndHidden:
					return fmt.Errorf("cell %d, line %d: %s in a %s cell: markers are only for code cells", i, j+1, m, c.Type)
				}
			}
			continue
		}
		cl := ReadCellLines(c.Source)
		sol, err := regions(cl.Lines, BeginSolution, EndSolution)
		if err != nil {
			return fmt.Errorf("cell %d: %v", i, err)
		}
		hid, err := regions(cl.Lines, BeginHidden, EndHidden)
		if err != nil {
			return fmt.Errorf("cell %d: %v", i, err)
		}
		if cl.Test && len(sol) > 0 {
			return fmt.Errorf("cell %d, line %d: %s in a %%test cell: tests are never stubbed", i, sol[0].begin+1, BeginSolution)
		}
		if !cl.Test && len(hid) > 0 {
			return fmt.Errorf("cell %d, line %d: %s outside a %%test cell", i, hid[0].begin+1, BeginHidden)
		}
		pc, err := ParseCell(i, c.Source)
		if err != nil {
			return err
		}
		for _, t := range pc.Tests {
			if prev, ok := names[t.Name]; ok {
				return fmt.Errorf("cell %d, line %d: test %s already declared in cell %d, line %d", i, t.Line, t.Name, prev.Cell, prev.Line)
			}
			t.Hidden = inRegions(hid, t.Line-1)
			names[t.Name] = t
			a.Tests = append(a.Tests, t)
		}
		if cl.Test {
			a.TestCells = append(a.TestCells, pc)
			continue
		}
		pc.Exercise = len(sol) > 0
		a.CodeCells = append(a.CodeCells, pc)
		for _, r := range sol {
			found := false
			for name, f := range pc.Funcs {
				if f.Body != nil && pc.Fset.Position(f.Body.Lbrace).Line-2 < r.begin && pc.Fset.Position(f.Body.Rbrace).Line-2 > r.end {
					a.SolutionFuncs[name] = true
					found = true
				}
			}
			if !found {
				return fmt.Errorf("cell %d, line %d: %s block is not inside the body of a function", i, r.begin+1, BeginSolution)
			}
		}
	}
	if len(a.Tests) == 0 {
		return fmt.Errorf("no test functions in %%test cells")
	}
	if len(a.SolutionFuncs) == 0 {
		return fmt.Errorf("no %s block", BeginSolution)
	}
	return nil
}

// MaxScore is the sum of the points of all tests, hidden ones included.
func (a *Assignment) MaxScore() float64 {
	s := 0.0
	for _, t := range a.Tests {
		s += t.Points
	}
	return s
}

// emptyCell reports whether a cell holds nothing but blank lines and
// GoNB commands such as %test.
func emptyCell(lines []string) bool {
	cl := ReadCellLines(strings.Join(lines, "\n"))
	for i, l := range cl.Lines {
		if !cl.Special[i] && strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// rewrite returns the cell source with solution blocks either stubbed
// (student) or unwrapped (solution), and hidden test blocks dropped unless
// keepHidden. The second result is false when dropping hidden tests left
// nothing but GoNB commands (%test) and blank lines.
func rewrite(src string, student, keepHidden bool) (string, bool) {
	lines := strings.Split(src, "\n")
	var out []string
	inSol, inHid, dropped := false, false, false
	for _, l := range lines {
		switch strings.TrimSpace(l) {
		case BeginSolution:
			inSol = true
			if student {
				indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
				out = append(out, indent+StubBody)
			}
			continue
		case EndSolution:
			inSol = false
			continue
		case BeginHidden:
			inHid = true
			dropped = dropped || !keepHidden
			continue
		case EndHidden:
			inHid = false
			continue
		}
		if (inSol && student) || (inHid && !keepHidden) {
			continue
		}
		out = append(out, l)
	}
	// A dropped hidden block leaves blank lines at the end of a cell.
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if dropped && emptyCell(out) {
		return "", false
	}
	return strings.Join(out, "\n"), true
}

// Generated returns the student notebook (solutions stubbed, hidden tests
// removed, outputs cleared) and the solution notebook (solutions in place,
// hidden tests removed unless keepHidden, outputs cleared: execute it to
// fill them) of the assignment.
func (a *Assignment) Generated(keepHidden bool) (student, solution *notebook.Notebook) {
	build := func(isStudent bool) *notebook.Notebook {
		nb := &notebook.Notebook{NBFormat: a.Source.NBFormat, NBFormatMinor: a.Source.NBFormatMinor, Metadata: cloneMap(a.Source.Metadata)}
		meta := map[string]any{"assignment": a.Name}
		if isStudent {
			meta["student"] = true
		} else {
			meta["solution"] = true
		}
		nb.Metadata["lessons"] = meta
		for _, c := range a.Source.Cells {
			nc := &notebook.Cell{Type: c.Type, ID: c.ID, Metadata: cloneMap(c.Metadata), Source: c.Source, Attachments: c.Attachments}
			delete(nc.Metadata, "execution")
			if c.Type == "code" {
				src, keep := rewrite(c.Source, isStudent, keepHidden && !isStudent)
				if !keep {
					continue
				}
				nc.Source = src
			}
			nb.Cells = append(nb.Cells, nc)
		}
		return nb
	}
	return build(true), build(false)
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if mm, ok := v.(map[string]any); ok {
			v = cloneMap(mm)
		}
		out[k] = v
	}
	return out
}

// sameCells reports the first difference in cell types and sources between
// a committed notebook and a freshly generated one ("" if none).
func sameCells(committed, fresh *notebook.Notebook) string {
	if committed.Assignment() != fresh.Assignment() {
		return fmt.Sprintf("metadata lessons.assignment is %q, want %q", committed.Assignment(), fresh.Assignment())
	}
	n := min(len(committed.Cells), len(fresh.Cells))
	for i := 0; i < n; i++ {
		c, f := committed.Cells[i], fresh.Cells[i]
		if c.Type != f.Type {
			return fmt.Sprintf("cell %d is %s, want %s", i, c.Type, f.Type)
		}
		if strings.TrimRight(c.Source, "\n") != strings.TrimRight(f.Source, "\n") {
			return fmt.Sprintf("cell %d differs:\n%s", i, lineDiff(c.Source, f.Source))
		}
	}
	if len(committed.Cells) != len(fresh.Cells) {
		return fmt.Sprintf("%d cells, want %d", len(committed.Cells), len(fresh.Cells))
	}
	return ""
}

// lineDiff shows the first differing line of two texts.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("    line %d: committed %q\n    line %d: generated %q", i+1, gl, i+1, wl)
		}
	}
	return ""
}

// studentIsClean reports what is wrong with a committed student notebook
// beyond its sources: outputs or execution counts left in.
func studentIsClean(nb *notebook.Notebook) string {
	for i, c := range nb.Cells {
		if c.Type == "code" && (len(c.Outputs) > 0 || c.ExecutionCount != nil) {
			return fmt.Sprintf("cell %d has outputs or an execution count: student notebooks are committed cleared", i)
		}
	}
	if s, _ := nb.LessonsMeta()["student"].(bool); !s {
		return "metadata lessons.student is not true"
	}
	return ""
}

// Freshness reports, for the assignment in dir, how the committed
// student.ipynb and solution.ipynb differ from what generate would write
// (nil if up to date).
func (a *Assignment) Freshness() []string {
	student, solution := a.Generated(false)
	var problems []string
	for _, f := range []struct {
		name string
		nb   *notebook.Notebook
	}{{"student.ipynb", student}, {"solution.ipynb", solution}} {
		path := filepath.Join(a.Dir, f.name)
		committed, err := notebook.Read(path)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if d := sameCells(committed, f.nb); d != "" {
			problems = append(problems, fmt.Sprintf("%s is out of date with source.ipynb: %s", path, d))
		}
		if f.name == "student.ipynb" {
			if d := studentIsClean(committed); d != "" {
				problems = append(problems, fmt.Sprintf("%s: %s", path, d))
			}
		}
	}
	return problems
}

// Generate writes student.ipynb and solution.ipynb next to the source and,
// if execute, runs the solution notebook in place with the gonb kernel.
func (a *Assignment) Generate(keepHidden, execute bool, repo string) error {
	student, solution := a.Generated(keepHidden)
	if err := student.WriteFile(filepath.Join(a.Dir, "student.ipynb")); err != nil {
		return err
	}
	solPath := filepath.Join(a.Dir, "solution.ipynb")
	if err := solution.WriteFile(solPath); err != nil {
		return err
	}
	if !execute {
		return nil
	}
	return executeNotebook(solPath, repo)
}

// executeNotebook runs jupyter nbconvert --execute --inplace on path, with
// the Python that scripts/setup.sh links as bin/jupyter-python if present.
func executeNotebook(path, repo string) error {
	args := []string{"--to", "notebook", "--execute", "--inplace",
		"--ExecutePreprocessor.kernel_name=gonb", "--ExecutePreprocessor.timeout=600", filepath.Base(path)}
	var cmd *exec.Cmd
	if py := filepath.Join(repo, "bin", "jupyter-python"); fileExists(py) {
		cmd = exec.Command(py, append([]string{"-m", "nbconvert"}, args...)...)
	} else {
		cmd = exec.Command("jupyter", append([]string{"nbconvert"}, args...)...)
	}
	cmd.Dir = filepath.Dir(path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("executing %s: %v (is Jupyter set up? run scripts/setup.sh)\n%s", path, err, lastLines(out.String(), 30))
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}
