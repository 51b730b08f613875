package grade

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/generate"

	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

var (
	testTimeout = flag.Duration("assign.timeout", 10*time.Second,
		"per-test time limit of the grader in these tests (the endless-loop scenarios use -assign.loop_timeout)")
	// An honest solution's test takes well under a second alone; its limit
	// is generous because CI runs these tests beside the notebooks and
	// browsers on two cores, where one took more than 10 s.
	honestTimeout = flag.Duration("assign.honest_timeout", time.Minute,
		"per-test time limit when grading the assignments' honest solutions")
	loopTimeout = flag.Duration("assign.loop_timeout", 4*time.Second,
		"per-test time limit in the endless-loop scenarios")
)

var sandboxLevel = flag.String("assign.sandbox", sandbox.LevelBwrap, "isolation level of the grader in these tests")

// newSandbox returns a sandbox at -assign.sandbox with the memory limit.
func newSandbox(t *testing.T, memoryMB int) *sandbox.Sandbox {
	t.Helper()
	return newSandboxAt(t, *sandboxLevel, memoryMB)
}

// newSandboxAt returns a sandbox at level with the memory limit.
func newSandboxAt(t *testing.T, level string, memoryMB int) *sandbox.Sandbox {
	t.Helper()
	sb, err := sandbox.New(level, memoryMB)
	if errors.Is(err, sandbox.ErrNoBubblewrap) && os.Getenv("CI") == "" {
		// go test ./... on a machine with only Go: grading needs the
		// sandbox, which scripts/setup.sh installs (and CI always has).
		t.Skipf("%v (set CI=1 to make this a failure)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	sb.Hide = []string{repo.Dir(t)}
	t.Cleanup(sb.Close)
	return sb
}

func newGrader(t *testing.T, timeout time.Duration) *Grader {
	g := &Grader{Repo: repo.Dir(t), Timeout: timeout, BuildTimeout: 10 * time.Minute, Parallel: 2,
		Sandbox: newSandbox(t, 2048), Log: t.Logf}
	t.Cleanup(g.Close)
	return g
}

// grade grades nb and logs the readable report.
func grade(t *testing.T, g *Grader, a *assignment.Assignment, name string, nb *notebook.Notebook) *Report {
	t.Helper()
	rep, err := g.Grade(name, nb, a)
	if err != nil {
		t.Fatalf("grading %s: %v", name, err)
	}
	t.Logf("graded %s in %.1fs:\n%s", name, rep.Seconds, rep.Text())
	return rep
}

// byStatus returns the sorted names of the tests of rep with the status.
func byStatus(rep *Report, status Status) []string {
	var names []string
	for _, tr := range rep.Tests {
		if tr.Status == status {
			names = append(names, tr.Name)
		}
	}
	sort.Strings(names)
	return names
}

func result(t *testing.T, rep *Report, name string) TestResult {
	t.Helper()
	for _, tr := range rep.Tests {
		if tr.Name == name {
			return tr
		}
	}
	t.Fatalf("no test %s in the report", name)
	return TestResult{}
}

// pointsOf sums the points of the named tests of a.
func pointsOf(a *assignment.Assignment, names []string) float64 {
	s := 0.0
	for _, tf := range a.Tests {
		if slices.Contains(names, tf.Name) {
			s += tf.Points
		}
	}
	return s
}

func testNames(a *assignment.Assignment) []string {
	var names []string
	for _, tf := range a.Tests {
		names = append(names, tf.Name)
	}
	sort.Strings(names)
	return names
}

// checkFullMarks asserts that every test passed.
func checkFullMarks(t *testing.T, a *assignment.Assignment, rep *Report) {
	t.Helper()
	if rep.CompileError != "" || rep.Score != a.MaxScore() || len(byStatus(rep, StatusPassed)) != len(a.Tests) {
		t.Errorf("score %v / %v, passed %v of %v, compile error %q; want full marks",
			rep.Score, rep.MaxScore, byStatus(rep, StatusPassed), testNames(a), rep.CompileError)
	}
}

// checkUntouched asserts that the untouched student notebook compiles and
// that every test panics "not implemented": zero, and no crash.
func checkUntouched(t *testing.T, a *assignment.Assignment, rep *Report) {
	t.Helper()
	if rep.CompileError != "" {
		t.Errorf("the student notebook does not compile:\n%s", rep.CompileError)
	}
	if rep.Score != 0 || rep.MaxScore != a.MaxScore() {
		t.Errorf("score %v / %v, want 0 / %v", rep.Score, rep.MaxScore, a.MaxScore())
	}
	for _, tr := range rep.Tests {
		if tr.Status != StatusPanic || !strings.Contains(tr.Output, "panic: not implemented") {
			t.Errorf("%s: %s %q, want a \"not implemented\" panic", tr.Name, tr.Status, tr.Output)
		}
	}
}

// checkWrong asserts that a wrong version of function fn costs exactly the
// points of the tests it makes fail or panic, that those tests use fn, that
// the failing ones say what they expected and got, and that every other
// test passes. wantFailed, if not nil, is the exact set of lost tests.
func checkWrong(t *testing.T, a *assignment.Assignment, rep *Report, fn string, wantFailed []string) {
	t.Helper()
	failed := byStatus(rep, StatusFailed)
	lost := append(slices.Clone(failed), byStatus(rep, StatusPanic)...)
	sort.Strings(lost)
	using := testsUsing(a, fn)
	if rep.CompileError != "" {
		t.Fatalf("wrong %s: did not compile:\n%s", fn, rep.CompileError)
	}
	if len(lost) == 0 {
		t.Errorf("wrong %s: no test failed (tests using it: %v)", fn, using)
	}
	if wantFailed != nil && !slices.Equal(lost, wantFailed) {
		t.Errorf("wrong %s: lost %v, want %v", fn, lost, wantFailed)
	}
	for _, name := range lost {
		if !slices.Contains(using, name) {
			t.Errorf("wrong %s: %s failed but does not use %s", fn, name, fn)
		}
	}
	for _, name := range failed {
		if out := result(t, rep, name).Output; !strings.Contains(strings.ToLower(out), "expected") {
			t.Errorf("wrong %s: %s output does not say what it expected: %q", fn, name, out)
		}
	}
	if passed := byStatus(rep, StatusPassed); len(passed)+len(lost) != len(a.Tests) {
		t.Errorf("wrong %s: passed %v + lost %v are not all tests %v", fn, passed, lost, testNames(a))
	}
	if want := a.MaxScore() - pointsOf(a, lost); rep.Score != want {
		t.Errorf("wrong %s: score %v, want %v - %v = %v", fn, rep.Score, a.MaxScore(), pointsOf(a, lost), want)
	}
}

// checkStubbed asserts that the functions of broken (name -> a compiler
// message) were replaced by a panic with that message; that the tests that
// score 0 are marked "did not compile", name the message and use one of
// them (tests that mention a function may not call it on every path); that
// wantLost, if not nil, is exactly the set of those tests; and that every
// other test passes.
func checkStubbed(t *testing.T, a *assignment.Assignment, rep *Report, broken map[string]string, wantLost []string) {
	t.Helper()
	if rep.CompileError != "" {
		t.Fatalf("did not compile even with stubs:\n%s", rep.CompileError)
	}
	var names, using []string
	for fn := range broken {
		names = append(names, fn)
		for _, n := range testsUsing(a, fn) {
			if !slices.Contains(using, n) {
				using = append(using, n)
			}
		}
	}
	sort.Strings(names)
	var stubbed []string
	for _, st := range rep.Stubs {
		stubbed = append(stubbed, st.Func)
		if msg, ok := broken[st.Func]; ok && !strings.Contains(st.Error, msg) {
			t.Errorf("stub of %s: error %q, want %q", st.Func, st.Error, msg)
		}
	}
	sort.Strings(stubbed)
	if !slices.Equal(stubbed, names) {
		t.Errorf("stubbed %v, want %v", stubbed, names)
	}
	lost := byStatus(rep, StatusCompile)
	if len(lost) == 0 {
		t.Errorf("no test lost points for %v", names)
	}
	if wantLost != nil && !slices.Equal(lost, wantLost) {
		t.Errorf("did not compile: %v, want %v", lost, wantLost)
	}
	for _, name := range lost {
		if !slices.Contains(using, name) {
			t.Errorf("%s did not compile but uses none of %v", name, names)
		}
	}
	for _, name := range lost {
		out, named := result(t, rep, name).Output, false
		for fn, msg := range broken {
			named = named || (strings.Contains(out, "panic: "+fn+" does not compile: ") && strings.Contains(out, msg))
		}
		if !named {
			t.Errorf("%s: output %q does not name a compile error", name, out)
		}
	}
	if passed := byStatus(rep, StatusPassed); len(passed)+len(lost) != len(a.Tests) {
		t.Errorf("passed %v + did not compile %v are not all tests %v", passed, lost, testNames(a))
	}
	if w := a.MaxScore() - pointsOf(a, lost); rep.Score != w {
		t.Errorf("score %v, want %v - %v = %v", rep.Score, a.MaxScore(), pointsOf(a, lost), w)
	}
}

// checkLoop asserts that an endless loop in fn times out exactly the tests
// that use it, each stopped by the grader at the limit (not by the test
// binary's own timeout), reported as such, and that every other test passes.
func checkLoop(t *testing.T, a *assignment.Assignment, rep *Report, fn string, limit time.Duration) {
	t.Helper()
	using := testsUsing(a, fn)
	timedOut := byStatus(rep, StatusTimeout)
	if !slices.Equal(timedOut, using) {
		t.Errorf("endless loop in %s: timed out %v, want the tests using it %v", fn, timedOut, using)
	}
	for _, name := range timedOut {
		tr := result(t, rep, name)
		// Stopped by the grader at the limit: not before it, and not by
		// the test binary's own -test.timeout, 30 s later (runTest), which
		// a stop that did not work would leave it to. (How soon after the
		// limit depends on the machine's load: a benchmark's matter.)
		if d := time.Duration(tr.Seconds * float64(time.Second)); d < limit || d >= limit+30*time.Second {
			t.Errorf("%s ran %v, want the limit %v and less than the test binary's own timeout, %v", name, d, limit, limit+30*time.Second)
		}
		if !strings.Contains(tr.Output, "time limit of "+limit.String()) {
			t.Errorf("%s: output %q does not report the time limit", name, tr.Output)
		}
	}
	if passed := byStatus(rep, StatusPassed); len(passed)+len(timedOut) != len(a.Tests) {
		t.Errorf("endless loop in %s: passed %v + timed out %v are not all tests %v", fn, passed, timedOut, testNames(a))
	}
	if want := a.MaxScore() - pointsOf(a, timedOut); rep.Score != want {
		t.Errorf("endless loop in %s: score %v, want %v", fn, rep.Score, want)
	}
}

const fixture = "../testdata/hw0_fixture"

// TestGradeFixture grades versions of the fixture assignment: its four
// tests are TestDot (2 points), TestScore (1.5, calls Dot through Score),
// TestSign (1, on the given signExamples) and the hidden TestDotHidden (3,
// expects Dot = 0).
func TestGradeFixture(t *testing.T) {
	a := assigntest.Load(t, fixture)
	if got, want := testNames(a), []string{"TestDot", "TestDotHidden", "TestScore", "TestSign"}; !slices.Equal(got, want) {
		t.Fatalf("fixture tests %v, want %v", got, want)
	}
	if a.MaxScore() != 7.5 {
		t.Fatalf("fixture max score %v, want 7.5", a.MaxScore())
	}
	student, solution := generate.Notebooks(a, false)
	g := newGrader(t, *honestTimeout)

	t.Run("solution", func(t *testing.T) {
		checkFullMarks(t, a, grade(t, g, a, "solution", solution))
	})
	t.Run("student", func(t *testing.T) {
		rep := grade(t, g, a, "student", student)
		checkUntouched(t, a, rep)
		// The panic is located in the student's cell: Dot is cell 4, line 3.
		if out := result(t, rep, "TestDot").Output; !strings.Contains(out, "Dot (your cell 4, line 3)") {
			t.Errorf("TestDot output %q does not locate the panic in cell 4, line 3", out)
		}
	})
	t.Run("wrong sign", func(t *testing.T) {
		_, nb := generate.Notebooks(a, false)
		replaceInFunc(t, nb, "Sign", "return -1", "return 1")
		rep := grade(t, g, a, "wrong sign", nb)
		checkWrong(t, a, rep, "Sign", []string{"TestSign"})
		if rep.Score != 6.5 {
			t.Errorf("score %v, want 7.5 - 1 = 6.5", rep.Score)
		}
		if out := result(t, rep, "TestSign").Output; !strings.Contains(out, "Sign(-2): expected -1, got 1") {
			t.Errorf("TestSign output %q, want it to show expected -1, got 1", out)
		}
	})
	t.Run("wrong zero Dot", func(t *testing.T) {
		// Dot always 0: TestDotHidden (which expects 0) still passes,
		// TestDot and TestScore fail.
		_, nb := generate.Notebooks(a, false)
		zeroFunc(t, nb, "Dot")
		rep := grade(t, g, a, "zero Dot", nb)
		checkWrong(t, a, rep, "Dot", []string{"TestDot", "TestScore"})
		if rep.Score != 4 {
			t.Errorf("score %v, want 7.5 - 2 - 1.5 = 4", rep.Score)
		}
	})
	t.Run("endless loop", func(t *testing.T) {
		_, nb := generate.Notebooks(a, false)
		loopFunc(t, nb, "Dot")
		lg := newGrader(t, *loopTimeout)
		start := time.Now()
		rep := grade(t, lg, a, "endless loop", nb)
		checkLoop(t, a, rep, "Dot", *loopTimeout)
		if got := byStatus(rep, StatusTimeout); !slices.Equal(got, []string{"TestDot", "TestDotHidden", "TestScore"}) {
			t.Errorf("timed out %v", got)
		}
		// Three loops, two at a time: two rounds of the limit, plus compiling.
		t.Logf("graded in %v", time.Since(start))
	})
	t.Run("memory hog", func(t *testing.T) {
		_, nb := generate.Notebooks(a, false)
		// Every page is touched: the limit is on resident memory.
		replaceInFunc(t, nb, "Dot", "s := 0.0", "s := 0.0\n\tvar hog [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n\t\tfor i := 0; i < len(b); i += 512 {\n\t\t\tb[i] = 1\n\t\t}\n\t\thog = append(hog, b)\n\t}")
		mg := newGrader(t, *testTimeout)
		mg.Sandbox = newSandbox(t, 256)
		rep := grade(t, mg, a, "memory hog", nb)
		if got, want := byStatus(rep, StatusOOM), testsUsing(a, "Dot"); !slices.Equal(got, want) {
			t.Errorf("out of memory %v, want the tests using Dot %v", got, want)
		}
		for _, name := range byStatus(rep, StatusOOM) {
			if out := result(t, rep, name).Output; !strings.Contains(out, "killed: its processes used more than the memory limit of 256 MiB") {
				t.Errorf("%s: output %q does not report running out of memory", name, out)
			}
		}
		if rep.Score != 1 {
			t.Errorf("score %v, want 1 (TestSign only)", rep.Score)
		}
	})
	t.Run("compile error", func(t *testing.T) {
		// Only Sign does not compile: its body is stubbed, TestSign loses
		// its point, the other tests run.
		_, nb := generate.Notebooks(a, false)
		replaceInFunc(t, nb, "Sign", "return -1", "return undefinedThing")
		rep := grade(t, g, a, "compile error", nb)
		checkStubbed(t, a, rep, map[string]string{"Sign": "cell 5, line 14: undefined: undefinedThing"}, []string{"TestSign"})
		if rep.Score != 6.5 {
			t.Errorf("score %v, want 7.5 - 1 = 6.5", rep.Score)
		}
		if len(rep.Stubs) == 1 && (rep.Stubs[0].Cell != 5 || rep.Stubs[0].Line != 6) {
			t.Errorf("stub %+v, want Sign at cell 5, line 6", rep.Stubs[0])
		}
		text := rep.Text()
		for _, want := range []string{
			"Some functions did not compile.",
			"    Sign (your cell 5, line 6):\n        cell 5, line 14: undefined: undefinedThing\n",
			"FAIL    TestSign: 0 / 1 (did not compile, ",
			"        panic: Sign does not compile: cell 5, line 14: undefined: undefinedThing\n",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the report has no %q", want)
			}
		}
		b, err := rep.JSON()
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Output string
			Tests  []struct{ Name, Output string }
		}
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Output, "Sign (your cell 5, line 6):\n        cell 5, line 14: undefined: undefinedThing") {
			t.Errorf("results.json output %q does not name the stubbed function", res.Output)
		}
		for _, tr := range res.Tests {
			if tr.Name == "TestSign" && !strings.HasPrefix(tr.Output, "did not compile:\npanic: Sign does not compile: cell 5, line 14: undefined: undefinedThing") {
				t.Errorf("results.json TestSign output %q", tr.Output)
			}
		}
	})
	t.Run("two broken functions", func(t *testing.T) {
		// Score and Sign, in the same cell, Sign with two errors; Dot is
		// fine, so TestDot and TestDotHidden still pass.
		_, nb := generate.Notebooks(a, false)
		replaceInFunc(t, nb, "Sign", "return -1", "return undefinedThing")
		replaceInFunc(t, nb, "Sign", "return 1", "return undefinedOther")
		breakFunc(t, nb, "Score")
		rep := grade(t, g, a, "two broken functions", nb)
		checkStubbed(t, a, rep, map[string]string{
			"Score": "cell 5, line 3: declared and not used: notUsedByGrader",
			"Sign":  "cell 5, line 15: undefined: undefinedThing", // one line down
		}, []string{"TestScore", "TestSign"})
		if rep.Score != 5 {
			t.Errorf("score %v, want 7.5 - 1.5 - 1 = 5", rep.Score)
		}
		want := "panic: Sign does not compile: cell 5, line 13: undefined: undefinedOther\ncell 5, line 15: undefined: undefinedThing\nin:\n"
		if out := result(t, rep, "TestSign").Output; !strings.HasPrefix(out, want) {
			t.Errorf("TestSign output %q, want it to start with %q", out, want)
		}
	})
	// Errors that stubbing function bodies cannot remove: the code does
	// not compile, every test scores 0 with the compiler's message.
	for _, tc := range []struct {
		name, want string
		edit       func(nb *notebook.Notebook)
	}{
		{"broken type", "cell 9, line 1: undefined: undefinedType", func(nb *notebook.Notebook) {
			nb.Cells = append(nb.Cells, &notebook.Cell{Type: "code", Metadata: map[string]any{}, Source: "type pair struct{ a undefinedType }"})
		}},
		{"broken signature", "cell 5, line 7: undefined: undefinedType", func(nb *notebook.Notebook) {
			c, src, _, _ := funcCell(t, nb, "Sign")
			setCell(c, strings.Replace(src, "func Sign(v float64)", "func Sign(v undefinedType)", 1))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, nb := generate.Notebooks(a, false)
			tc.edit(nb)
			rep := grade(t, g, a, tc.name, nb)
			if rep.Score != 0 || len(rep.Stubs) != 0 || !strings.Contains(rep.CompileError, tc.want) {
				t.Errorf("score %v, stubs %+v, compile error %q; want 0, no stubs and %q", rep.Score, rep.Stubs, rep.CompileError, tc.want)
			}
			for _, tr := range rep.Tests {
				if tr.Status != StatusCompile || !strings.Contains(tr.Output, tc.want) {
					t.Errorf("%s: %s %q, want the compiler message", tr.Name, tr.Status, tr.Output)
				}
			}
			if !strings.Contains(rep.Text(), "The code did not compile, so every test scores 0.") {
				t.Errorf("the report does not say that nothing compiled")
			}
		})
	}
	t.Run("syntax error", func(t *testing.T) {
		// The cell of Dot does not parse, so it is left out (as GoNB
		// would): Dot is missing, and only the tests that call it (Score
		// calls Dot) lose their points, each with a message naming the
		// signature the source wants.
		_, nb := generate.Notebooks(a, false)
		c, src, _, _ := funcCell(t, nb, "Dot")
		setCell(c, strings.Replace(src, "for i := range x {", "for i := range x {{", 1))
		rep := grade(t, g, a, "syntax error in Dot", nb)
		want := "Dot is not defined with this signature: want func([]float64, []float64) float64"
		if len(rep.Stubs) != 1 || !rep.Stubs[0].Undefined || !strings.Contains(rep.Stubs[0].Error, want) {
			t.Errorf("stubs %+v, want Dot undefined: %q", rep.Stubs, want)
		}
		for _, tr := range rep.Tests {
			switch tr.Name {
			case "TestSign":
				if tr.Status != StatusPassed {
					t.Errorf("TestSign (does not call Dot): %s %q, want passed", tr.Status, tr.Output)
				}
			default:
				if tr.Status != StatusCompile || !strings.Contains(tr.Output, want) {
					t.Errorf("%s: %s %q, want %q", tr.Name, tr.Status, tr.Output, want)
				}
			}
		}
	})
	t.Run("names of the generated code", func(t *testing.T) {
		// The server and the stubs import os, sync and the call package:
		// a submission may use those names for its own declarations.
		_, nb := generate.Notebooks(a, false)
		nb.Cells = append(nb.Cells, &notebook.Cell{Type: "code", Metadata: map[string]any{},
			Source: "var rpc, os, sync, p, f = 1, 2, 3, 4, 5\n\nfunc New() int { return rpc + os + sync + p + f }"})
		checkFullMarks(t, a, grade(t, g, a, "names of the generated code", nb))
	})
	t.Run("missing import", func(t *testing.T) {
		// GoNB adds a missing import (goimports); so does the grader.
		_, nb := generate.Notebooks(a, false)
		replaceInFunc(t, nb, "Sign", "return 1", `return float64(len(strings.Repeat("+", 1)))`)
		checkFullMarks(t, a, grade(t, g, a, "missing import", nb))
	})
	t.Run("given code changed", func(t *testing.T) {
		// Sign wrong on negatives, and the given signExamples changed to
		// hide it: the source's signExamples is the one the test uses.
		_, nb := generate.Notebooks(a, false)
		replaceInFunc(t, nb, "Sign", "return -1", "return 1")
		c, src, _, _ := funcCell(t, nb, "signExamples")
		setCell(c, strings.Replace(src, "{-2, 0, 3}", "{0, 3}", 1))
		rep := grade(t, g, a, "given code changed", nb)
		checkWrong(t, a, rep, "Sign", []string{"TestSign"})
	})
	t.Run("notebook habits", func(t *testing.T) {
		// A student who redefines functions in later cells, leaves a cell
		// with a syntax error and a main body that panics, writes an
		// always-passing copy of a test, and edits the visible tests: the
		// later definitions count, the broken cell is skipped with a note,
		// main bodies never run, and the source's tests are the ones run.
		nb, _ := generate.Notebooks(a, false)
		add := func(src string) {
			nb.Cells = append(nb.Cells, &notebook.Cell{Type: "code", Metadata: map[string]any{}, Source: src})
		}
		add("func broken( {")
		add("%%\npanic(\"main body\")")
		add("func TestSign(t *testing.T) {}\n\n// Sign, second try.\nfunc Sign(v float64) float64 {\n\tif v < 0 {\n\t\treturn -1\n\t}\n\treturn 1\n}")
		add("func Dot(x, y []float64) float64 {\n\ts := 0.0\n\tfor i := range x {\n\t\ts += x[i] * y[i]\n\t}\n\treturn s\n}\n%%\nfmt.Println(Dot(nil, nil))")
		add("%test\nfunc TestScore(t *testing.T) {}")
		rep := grade(t, g, a, "habits", nb)
		if want := []string{"TestDot", "TestDotHidden", "TestSign"}; !slices.Equal(byStatus(rep, StatusPassed), want) {
			t.Errorf("passed %v, want %v", byStatus(rep, StatusPassed), want)
		}
		if got := result(t, rep, "TestScore").Status; got != StatusPanic {
			t.Errorf("TestScore %s, want the source's test, which panics in the stub of Score", got)
		}
		if len(rep.Notes) != 1 || !strings.HasPrefix(rep.Notes[0], "cell 9: line 1: expected") {
			t.Errorf("notes %q, want one about the syntax error of cell 9, line 1", rep.Notes)
		}
	})
}

// TestGradeCommand runs the command on a folder of submissions: one
// report and results.json per notebook, the assignment found from the
// metadata, from the folder name, or not at all, and a grades.csv.
func TestGradeCommand(t *testing.T) {
	needBubblewrap(t)
	a := assigntest.Load(t, fixture)
	student, solution := generate.Notebooks(a, false)
	dir := t.TempDir()
	subs := filepath.Join(dir, "subs")
	write := func(rel string, nb *notebook.Notebook) {
		p := filepath.Join(subs, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := nb.WriteFile(p); err != nil {
			t.Fatal(err)
		}
	}
	write("alice/student.ipynb", solution)
	delete(student.Metadata, "lessons")
	write("bob/hw0_fixture_bob.ipynb", student)                       // matched by its name
	write("carol/homework.ipynb", student)                            // cannot be matched
	write("doejane_LATE_48213_9120335_hw0_fixture-1.ipynb", solution) // Canvas's name for a late resubmission
	if err := os.WriteFile(filepath.Join(subs, "dave.ipynb"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr strings.Builder
	err := runGrade([]string{"-repo", repo.Dir(t), "-lessons", "../testdata", "-out", out, "-parallel", "2", subs}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("grade: %v\n%s", err, stderr.String())
	}
	t.Logf("stdout:\n%s", stdout.String())
	csv, err := os.ReadFile(filepath.Join(out, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// grades.csv: the student from each file name (Canvas's download
	// pattern, a folder per student, a plain name), the total and a
	// column per test.
	wantCSV := "student,student_id,submission,assignment,score,max_score,TestDot,TestScore,TestSign,TestDotHidden\n" +
		"alice,," + filepath.Join(subs, "alice/student.ipynb") + ",hw0_fixture,7.5,7.5,2,1.5,1,3\n" +
		"hw0_fixture_bob,," + filepath.Join(subs, "bob/hw0_fixture_bob.ipynb") + ",hw0_fixture,0,7.5,0,0,0,0\n" +
		"homework,," + filepath.Join(subs, "carol/homework.ipynb") + ",,0,0,,,,\n" +
		"dave,," + filepath.Join(subs, "dave.ipynb") + ",,0,0,,,,\n" +
		"doejane,48213," + filepath.Join(subs, "doejane_LATE_48213_9120335_hw0_fixture-1.ipynb") + ",hw0_fixture,7.5,7.5,2,1.5,1,3\n"
	if string(csv) != wantCSV {
		t.Errorf("grades.csv:\n%s\nwant:\n%s", csv, wantCSV)
	}
	var res struct {
		Score    float64 `json:"score"`
		MaxScore float64 `json:"max_score"`
		Output   string  `json:"output"`
		Tests    []struct {
			Name       string  `json:"name"`
			Score      float64 `json:"score"`
			MaxScore   float64 `json:"max_score"`
			Output     string  `json:"output"`
			Visibility string  `json:"visibility"`
		} `json:"tests"`
	}
	b, err := os.ReadFile(filepath.Join(out, "bob", "hw0_fixture_bob.results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Score != 0 || res.MaxScore != 7.5 || len(res.Tests) != 4 {
		t.Errorf("bob's results.json: %s", b)
	} else {
		hidden := res.Tests[3]
		// Only the author's message, never the hidden test's output.
		if want := "hidden test: panicked\nTestDotHidden checks Dot on vectors the student has not seen."; hidden.Name != "TestDotHidden" ||
			hidden.MaxScore != 3 || hidden.Output != want || hidden.Visibility != "after_due_date" {
			t.Errorf("bob's hidden test entry: %+v, want output %q, visible after the due date", hidden, want)
		}
	}
	b, err = os.ReadFile(filepath.Join(out, "carol", "homework.report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "cannot tell which assignment this is") {
		t.Errorf("carol's report:\n%s", b)
	}
	b, err = os.ReadFile(filepath.Join(out, "dave.report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "cannot read the submission") {
		t.Errorf("dave's report:\n%s", b)
	}

	// A single submission with -results, as on Gradescope.
	stdout.Reset()
	results := filepath.Join(dir, "results.json")
	err = runGrade([]string{"-repo", repo.Dir(t), "-lessons", "../testdata", "-out", out, "-results", results,
		filepath.Join(subs, "alice/student.ipynb")}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("grade: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Score: 7.5 / 7.5") {
		t.Errorf("report:\n%s", stdout.String())
	}
	if b, err := os.ReadFile(results); err != nil || !strings.Contains(string(b), `"score": 7.5`) {
		t.Errorf("results.json: %v\n%s", err, b)
	}
}

// TestSetprivWithoutNamespaces tries the setpriv level where root may not
// create namespaces (Gradescope's Docker, here: no unshare on PATH). On a
// machine where others may write outside a test's folder (this one's /tmp),
// tests could pass files to each other: the level is refused, with
// -accept-weaker too, naming the folders. (Where nothing is writable by
// others, as in Gradescope's container after run_autograder's lockdown, it
// grades: the e2e TestGradescopeReplica.)
func TestSetprivWithoutNamespaces(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("setpriv needs root")
	}
	if len(sandbox.OtherWritable("/", 1)) == 0 {
		t.Skip("nothing here is writable by others: the level would grade")
	}
	bin := t.TempDir()
	for _, tool := range []string{"setpriv", "prlimit", "go"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	if _, err := sandbox.New(sandbox.LevelSetpriv, 2048); !errors.Is(err, sandbox.ErrSharedWritable) {
		t.Fatalf("setpriv without unshare: %v, want %v", err, sandbox.ErrSharedWritable)
	}
	repoDir := repo.Dir(t)
	sol := filepath.Join(repoDir, "lessons", "hw2_pla", "solution.ipynb")
	out := t.TempDir()
	for _, flags := range [][]string{nil, {"-accept-weaker"}} {
		var stdout, stderr strings.Builder
		args := append([]string{"-repo", repoDir, "-assignment", "hw2_pla", "-sandbox", "setpriv", "-out", out}, flags...)
		err := runGrade(append(args, sol), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "others may write in") || !strings.Contains(err.Error(), "/tmp") {
			t.Errorf("%v: %v, want a refusal naming the folders others may write in", flags, err)
		}
	}
}

// needBubblewrap skips a test that grades at the default level (bwrap) on a
// machine without bubblewrap, outside CI (newSandboxAt says why).
func needBubblewrap(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil && os.Getenv("CI") == "" {
		t.Skipf("%v: no bwrap (apt-get install bubblewrap; set CI=1 to make this a failure)", sandbox.ErrNoBubblewrap)
	}
}

// runGrade runs "assign grade ARGS" as the command does: Config's flags,
// then Batch.
func runGrade(args []string, stdout, stderr io.Writer) error {
	return runGradeSkipping(false, args, stdout, stderr)
}

// runGradeSkipping is runGrade, with the static check off if skip.
func runGradeSkipping(skip bool, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c Config
	c.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("grade takes one notebook or folder, not %q", fs.Args())
	}
	c.SkipStaticCheck = skip
	return Batch(c, fs.Arg(0), stdout, stderr)
}
