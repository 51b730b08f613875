package grade

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// testSecret is the instructor's secret of these tests.
var testSecret = []byte("a test secret, 32 bytes or so...")

// wrapExercise renames exercise e of the solution nb to honestNAME and
// declares NAME with body, which may call honestNAME(p0, p1, ...).
func wrapExercise(t *testing.T, nb *notebook.Notebook, e exercise, body string) {
	t.Helper()
	c, src, fset, fn := funcCell(t, nb, e.name)
	at := fset.Position(fn.Name.Pos()).Offset
	src = src[:at] + "honest" + src[at:]
	setCell(c, src+fmt.Sprintf("\n\nfunc %s(%s) %s {\n%s\n}\n", e.name, e.paramList(), e.resultList(), body))
}

// lookupKey is the Go expression a wrapper formats its arguments with:
// every argument but functions (a kernel crosses as a handle).
func lookupKey(e exercise) string {
	var args []string
	for i, typ := range e.params {
		if !strings.HasPrefix(typ, "func") {
			args = append(args, fmt.Sprintf("p%d", i))
		}
	}
	return `fmt.Sprintf("%#v", []any{` + strings.Join(args, ", ") + `})`
}

// leakable are the exercises a lookup table can answer: no result is a
// function.
func leakable(a *assignment.Assignment) []exercise {
	var out []exercise
	for _, e := range exercises(a) {
		if !slices.ContainsFunc(e.results, func(r string) bool { return strings.HasPrefix(r, "func") }) {
			out = append(out, e)
		}
	}
	return out
}

// recordLine is what a recording wrapper prints for each call: the
// exercise, its arguments and each result, as Go syntax, quoted.
var recordLine = regexp.MustCompile(`RECORD (\w+) ((?:"(?:[^"\\]|\\.)*" ?)+)`)

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// recorder is the solution with every leakable exercise printing the
// arguments of each call and the answers it gave.
func recorder(t *testing.T, dir string, a *assignment.Assignment) *notebook.Notebook {
	nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
	for _, e := range leakable(a) {
		var rs, fmts, args []string
		for i := range e.results {
			rs = append(rs, fmt.Sprintf("r%d", i))
			fmts = append(fmts, fmt.Sprintf(`fmt.Sprintf("%%#v", r%d)`, i))
		}
		for i := range e.params {
			args = append(args, fmt.Sprintf("p%d", i))
		}
		body := fmt.Sprintf("\t%s = honest%s(%s)\n\tfmt.Printf(\"RECORD %s%s\\n\", %s, %s)\n\treturn",
			strings.Join(rs, ", "), e.name, strings.Join(args, ", "), e.name, strings.Repeat(" %q", len(rs)+1), lookupKey(e), strings.Join(fmts, ", "))
		wrapExercise(t, nb, e, body)
	}
	return nb
}

// lookup is a submission that knows the answers of the calls in records
// (exercise -> arguments -> results, as Go syntax) and returns zero values
// for any other call: a student who copied hidden values from somewhere.
func lookup(t *testing.T, dir string, a *assignment.Assignment, records map[string]map[string][]string) *notebook.Notebook {
	nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
	for _, e := range leakable(a) {
		var b strings.Builder
		fmt.Fprintf(&b, "\tswitch %s {\n", lookupKey(e))
		keys := make([]string, 0, len(records[e.name]))
		for k := range records[e.name] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %s\n", strconv.Quote(k), strings.ReplaceAll(strings.Join(records[e.name][k], ", "), "main.", ""))
		}
		b.WriteString("\t}\n\treturn")
		wrapExercise(t, nb, e, b.String())
	}
	return nb
}

// addRecords adds the RECORD lines of rep's tests to records.
func addRecords(rep *Report, records map[string]map[string][]string) int {
	n := 0
	for _, tr := range rep.Tests {
		for _, m := range recordLine.FindAllStringSubmatch(tr.Output, -1) {
			var vals []string
			for _, q := range quoted.FindAllString(m[2], -1) {
				v, err := strconv.Unquote(q)
				if err != nil {
					continue
				}
				vals = append(vals, v)
			}
			if len(vals) < 2 {
				continue
			}
			if records[m[1]] == nil {
				records[m[1]] = map[string][]string{}
			}
			records[m[1]][vals[0]] = vals[1:]
			n++
		}
	}
	return n
}

// TestHiddenVariants is the red team of the class "forged or leaked hidden
// values" (lessons/README.md, "Hidden values per student"). For every
// assignment: the honest solution keeps full marks under a student's
// variant of the hidden data; a submission that answers from a table the
// calls of the hidden tests it has seen (recorded from the public data,
// as anyone can from the repository, and from another student's variant)
// passes hidden tests there, so the attack is real, yet fails every hidden
// test under its own student's variant, but those that call only an
// exercise whose answer is a function (no table can hold it). The
// visible tests are the same for everyone.
func TestHiddenVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("grades each assignment six times")
	}
	dirs, err := assignment.Dirs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		a := assigntest.Load(t, dir)
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			grader := func(secret []byte, student string) *Grader {
				g := newGrader(t, *honestTimeout)
				g.Secret, g.Student = secret, student
				return g
			}
			public, alice, bob := grader(nil, ""), grader(testSecret, "alice"), grader(testSecret, "bob")
			checkFullMarks(t, a, grade(t, bob, a, "solution.ipynb, bob's variant", repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))))

			records := map[string]map[string][]string{}
			for _, g := range []*Grader{public, alice} {
				rep := grade(t, g, a, "the solution, recording its calls", recorder(t, dir, a))
				checkFullMarks(t, a, rep)
				if addRecords(rep, records) == 0 {
					t.Fatal("the recording solution printed no RECORD line")
				}
			}
			cheat := lookup(t, dir, a, records)
			onlyFuncs := map[string]bool{} // tests no table can answer
			for _, tf := range a.Tests {
				onlyFuncs[tf.Name] = true
				for _, e := range leakable(a) {
					if directCallers(a, e.name)[tf.Name] {
						onlyFuncs[tf.Name] = false
					}
				}
			}
			for _, g := range []*Grader{public, alice} {
				rep := grade(t, g, a, "a table of the recorded answers, where they were recorded", cheat)
				if len(byStatus(rep, StatusPassed)) == 0 {
					t.Errorf("the table of recorded answers passes no test where they were recorded: the attack is not shown")
				}
			}
			rep := grade(t, bob, a, "a table of the public and alice's answers, graded as bob", cheat)
			for _, tr := range rep.Tests {
				tf := a.Tests[slices.IndexFunc(a.Tests, func(x assignment.TestFunc) bool { return x.Name == tr.Name })]
				if tf.Hidden && !onlyFuncs[tr.Name] && tr.Status == StatusPassed {
					t.Errorf("hidden %s passes for bob with answers copied from the public data and alice's: its data do not depend on the student", tr.Name)
				}
			}
		})
	}
}
