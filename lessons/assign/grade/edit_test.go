package grade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// This file holds the helpers with which the tests make wrong solutions:
// they edit one function of a notebook the way a student might get it wrong.

// funcCell finds the code cell (not a %test cell) of nb that declares the
// top-level function name, and the function's declaration in that cell's
// Go source (see gosrc.Cell.GoSource).
func funcCell(t *testing.T, nb *notebook.Notebook, name string) (c *notebook.Cell, src string, fset *token.FileSet, fn *ast.FuncDecl) {
	t.Helper()
	for i, cl := range assignment.CodeCells(nb) {
		c := nb.Cells[i]
		src := cl.GoSource()
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
				if cl.MainAt >= 0 || slices.Contains(cl.Special, true) {
					t.Fatalf("function %s sits in a cell with GoNB commands; the edit helpers do not handle that", name)
				}
				return c, src, fset, fn
			}
		}
	}
	t.Fatalf("no code cell declares func %s", name)
	return nil, "", nil, nil
}

// setCell writes src (a goSource, "package main\n" first) back into c.
func setCell(c *notebook.Cell, src string) {
	c.Source = strings.TrimPrefix(src, "package main\n")
}

// replaceInFunc replaces the first occurrence of old inside the body of
// function name by new: a deliberately wrong solution.
func replaceInFunc(t *testing.T, nb *notebook.Notebook, name, old, new string) {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, name)
	start, end := fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset
	body := src[start:end]
	if !strings.Contains(body, old) {
		t.Fatalf("the body of %s has no %q: update the test's edit to the current source notebook", name, old)
	}
	setCell(c, src[:start]+strings.Replace(body, old, new, 1)+src[end:])
}

// loopFunc makes function name start with an endless loop.
func loopFunc(t *testing.T, nb *notebook.Notebook, name string) {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, name)
	at := fset.Position(fn.Body.Lbrace).Offset + 1
	setCell(c, src[:at]+"\n\tfor {\n\t}"+src[at:])
}

// breakFunc makes function name not compile: its body starts by declaring
// a variable it never uses.
func breakFunc(t *testing.T, nb *notebook.Notebook, name string) {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, name)
	at := fset.Position(fn.Body.Lbrace).Offset + 1
	setCell(c, src[:at]+"\n\tvar notUsedByGrader int"+src[at:])
}

// zeroFunc replaces the body of function name by one that returns the zero
// values of its results: wrong, but it compiles, returns and never panics.
func zeroFunc(t *testing.T, nb *notebook.Notebook, name string) {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, name)
	var zeros []string
	if fn.Type.Results != nil {
		for _, f := range fn.Type.Results.List {
			typ := src[fset.Position(f.Type.Pos()).Offset:fset.Position(f.Type.End()).Offset]
			for range max(1, len(f.Names)) {
				zeros = append(zeros, fmt.Sprintf("*new(%s)", typ))
			}
		}
	}
	body := "{\n}"
	if len(zeros) > 0 {
		body = "{\n\treturn " + strings.Join(zeros, ", ") + "\n}"
	}
	start, end := fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset+1
	setCell(c, src[:start]+body+src[end:])
}

// testsUsing returns, sorted, the tests of a that reference function name,
// directly or through other functions declared in the source notebook.
func testsUsing(a *assignment.Assignment, name string) []string {
	known := map[string]*ast.FuncDecl{}
	for _, pcs := range [][]*assignment.ParsedCell{a.CodeCells, a.TestCells} {
		for _, pc := range pcs {
			for n, f := range pc.Funcs {
				known[n] = f
			}
		}
	}
	var using []string
	for _, pc := range a.TestCells {
		for _, tf := range pc.Tests {
			if assignment.ReferencedFuncs(pc.Funcs[tf.Name], known)[name] {
				using = append(using, tf.Name)
			}
		}
	}
	sort.Strings(using)
	return using
}

// studentFuncs returns, sorted, the functions of a that hold a solution block.
func studentFuncs(a *assignment.Assignment) []string {
	var names []string
	for n := range a.SolutionFuncs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
