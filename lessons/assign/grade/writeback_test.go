package grade

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// writeBackMutators change a slice argument of each type the assignments'
// exercises take, in place, and undo the change: every element moves
// (a NaN aside), so the change shows whatever the data.
var writeBackMutators = map[string]struct{ change, undo string }{
	"[]float64": {
		"wbSave%[1]d = append([]float64(nil), %[2]s...)\n\tfor i := range %[2]s {\n\t\t%[2]s[i] += 1\n\t}",
		"copy(%[2]s, wbSave%[1]d.([]float64))"},
	"[][]float64": {
		"var s [][]float64\n\tfor _, r := range %[2]s {\n\t\ts = append(s, append([]float64(nil), r...))\n\t\tfor j := range r {\n\t\t\tr[j] += 1\n\t\t}\n\t}\n\twbSave%[1]d = s",
		"for i, r := range wbSave%[1]d.([][]float64) {\n\t\tcopy(%[2]s[i], r)\n\t}"},
	"[]int": {
		"wbSave%[1]d = append([]int(nil), %[2]s...)\n\tfor i := range %[2]s {\n\t\t%[2]s[i] += 1\n\t}",
		"copy(%[2]s, wbSave%[1]d.([]int))"},
	"[]perceptron.Update": {
		"var s []float64\n\tfor i := range %[2]s {\n\t\ts = append(s, %[2]s[i].B)\n\t\t%[2]s[i].B += 1\n\t}\n\twbSave%[1]d = s",
		"for i, b := range wbSave%[1]d.([]float64) {\n\t\t%[2]s[i].B = b\n\t}"},
}

// writeBack makes exercise e of the solution nb an argument write-back
// attack: its odd calls change every slice argument in place (as a
// BatchPLA that rewrites the labels to +1 would, for a test to compute its
// reference from them) and its even calls put them back (so that a check
// of "not modified" after the second call sees nothing), each returning
// what the honest function returns. It reports false if e takes no slice.
func writeBack(t *testing.T, nb *notebook.Notebook, e exercise) bool {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, e.name)
	var change, undo, vars []string
	var args []string
	for i, typ := range e.params {
		arg := fmt.Sprintf("p%d", i)
		args = append(args, arg)
		if !strings.HasPrefix(typ, "[]") {
			continue
		}
		m, ok := writeBackMutators[typ]
		if !ok {
			t.Fatalf("%s takes a %s: add a mutator for it to writeBackMutators, so that the class of attack covers every exercise", e.name, typ)
		}
		vars = append(vars, fmt.Sprintf("var wbSave%d any", i))
		change = append(change, fmt.Sprintf(m.change, i, arg))
		undo = append(undo, fmt.Sprintf(m.undo, i, arg))
	}
	if len(change) == 0 {
		return false
	}
	if e.variadic {
		t.Fatalf("%s is variadic: the write-back wrapper does not handle that", e.name)
	}
	// The honest function keeps its body under another name.
	at := fset.Position(fn.Name.Pos()).Offset
	src = src[:at] + "wbHonest" + src[at:]
	wrapper := fmt.Sprintf(`

var wbCalls int

%s

// %s, rewritten: odd calls change the arguments, even calls restore them.
func %s(%s) %s {
	wbCalls++
	if wbCalls%%2 == 1 {
	%s
	} else {
	%s
	}
	return wbHonest%s(%s)
}
`, strings.Join(vars, "\n"), e.name, e.name, e.paramList(), e.resultList(), strings.Join(change, "\n\t"), strings.Join(undo, "\n\t"), e.name, strings.Join(args, ", "))
	setCell(c, src+wrapper)
	return true
}

// TestArgumentWriteBack is the red team of the class "argument
// write-back" (lessons/README.md, point 5): for every exercise of every
// assignment that takes a slice, a solution whose function changes its
// arguments on the odd calls and restores them on the even ones. Each test
// that calls it must fail, saying that the function changed its argument,
// and the tests that do not call it must pass: no test may compute its
// reference from arguments a student's call changed.
func TestArgumentWriteBack(t *testing.T) {
	dirs, err := assignment.Dirs("../..")
	if err != nil {
		t.Fatal(err)
	}
	g := newGrader(t, *honestTimeout)
	for _, dir := range dirs {
		a := assigntest.Load(t, dir)
		for _, e := range exercises(a) {
			nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
			if !writeBack(t, nb, e) {
				continue
			}
			t.Run(a.Name+"/"+e.name, func(t *testing.T) {
				t.Parallel()
				rep := grade(t, g, a, "solution.ipynb with "+e.name+" writing into its arguments", nb)
				direct := directCallers(a, e.name)
				if len(direct) == 0 {
					t.Fatalf("no test calls %s directly", e.name)
				}
				users := map[string]bool{}
				for _, n := range testsUsing(a, e.name) {
					users[n] = true
				}
				for _, tr := range rep.Tests {
					switch {
					case direct[tr.Name]:
						if tr.Status == StatusPassed || !strings.Contains(tr.Output, e.name+" changed its argument") {
							t.Errorf("%s calls %s, which changed its arguments: %s %q, want a failure saying so", tr.Name, e.name, tr.Status, tr.Output)
						}
					case !users[tr.Name] && tr.Status != StatusPassed:
						t.Errorf("%s does not use %s: %s %q, want passed", tr.Name, e.name, tr.Status, tr.Output)
					}
				}
			})
		}
	}
}

// directCallers are the tests that call exercise name from the trusted
// process: in their own code or through the given code and test helpers,
// not through another exercise (that call happens in the student's
// process). A field of the same name (bound.Gamma) is no call.
func directCallers(a *assignment.Assignment, name string) map[string]bool {
	known := map[string]*ast.FuncDecl{}
	for _, pcs := range [][]*assignment.ParsedCell{a.CodeCells, a.TestCells} {
		for _, pc := range pcs {
			for n, f := range pc.Funcs {
				if n == name || !a.SolutionFuncs[n] {
					known[n] = f
				}
			}
		}
	}
	var refs func(fn *ast.FuncDecl, seen map[string]bool)
	refs = func(fn *ast.FuncDecl, seen map[string]bool) {
		fields := map[*ast.Ident]bool{}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				fields[n.Sel] = true
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					fields[id] = true
				}
			case *ast.Ident:
				if f, ok := known[n.Name]; ok && !fields[n] && !seen[n.Name] {
					seen[n.Name] = true
					if n.Name != name {
						refs(f, seen)
					}
				}
			}
			return true
		})
	}
	direct := map[string]bool{}
	for _, pc := range a.TestCells {
		for _, tf := range pc.Tests {
			seen := map[string]bool{}
			refs(pc.Funcs[tf.Name], seen)
			if seen[name] {
				direct[tf.Name] = true
			}
		}
	}
	return direct
}
