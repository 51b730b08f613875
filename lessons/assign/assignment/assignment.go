// Package assignment reads an assignment's source notebook: its Go cells
// as GoNB compiles them, its exercises, visible and hidden tests and
// points, the policy of what a submission may use, and the student and
// solution notebooks generated from it.
package assignment

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/internal/notebook"
)

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
			if c.Type == "markdown" {
				if _, err := regions(strings.Split(c.Source, "\n"), BeginAnswer, EndAnswer); err != nil {
					return fmt.Errorf("cell %d: %v", i, err)
				}
			}
			continue
		}
		cl := gosrc.ReadCell(c.Source)
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
