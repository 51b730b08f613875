// Package exercises checks the exercises written inside the lesson
// notebooks, in the manner of MIT 6.036's testers: the student writes a
// function right where the idea is taught, and the next cell passes it to
// this package's checker for that exercise, which runs it on fixed cases
// and prints, for every case, what it expected and what it got:
//
//	passed: Exercise 1 (SignedDistance): x = [3 4]: expected 1, got 1
//	FAILED: Exercise 1 (SignedDistance): x = [0 0]: expected -1, got 1
//
// A function that panics (the notebook's stub panics "not implemented")
// is reported as not done yet instead of stopping the notebook, so the
// lessons run clean with the stubs in place, and the checker returns
// whether every case passed. Each checker has its own test here that passes
// a reference solution and fails wrong ones.
package exercises

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// Out is where the checkers print; the notebook shows the standard output.
var Out io.Writer = os.Stdout

// checker collects the outcome of the cases of one exercise.
type checker struct {
	name   string
	failed int
	cases  int
}

// run calls body with a checker for the exercise called name, reports a
// panic of the student's code as "not done yet", prints the summary line
// and returns whether every case passed.
func run(name string, body func(c *checker)) (ok bool) {
	c := &checker{name: name}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(Out, "NOT DONE: %s: your function panicked: %v\n", name, r)
			ok = false
			return
		}
		if c.failed == 0 {
			fmt.Fprintf(Out, "%s: all %d cases passed\n", name, c.cases)
		} else {
			fmt.Fprintf(Out, "%s: %d of %d cases failed\n", name, c.failed, c.cases)
		}
		ok = c.failed == 0
	}()
	body(c)
	return
}

// runLoop is run for an exercise whose function f must compute with its
// own loop: if f's declaration in the notebook calls the perceptron
// package, the lessons' packages built on it or a computing method of a
// perceptron value other than those in allow (packageCall), the check
// fails at once with "write it with a loop, not perceptron.X" and does not
// run f.
func runLoop(name string, f any, body func(c *checker), allow ...string) bool {
	if call := packageCall(f, allow...); call != "" {
		fmt.Fprintf(Out, "FAILED: %s: write it with a loop, not %s\n", name, call)
		return false
	}
	return run(name, body)
}

// quietly runs check with Out discarded and returns its verdict: what a
// later cell calls to decide whether to draw from the student's function.
func quietly(check func() bool) bool {
	out := Out
	Out = io.Discard
	defer func() { Out = out }()
	return check()
}

// report prints one case and counts it.
func (c *checker) report(pass bool, what string, want, got any) {
	c.cases++
	verdict := "passed"
	if !pass {
		verdict = "FAILED"
		c.failed++
	}
	fmt.Fprintf(Out, "%s: %s: %s: expected %v, got %v\n", verdict, c.name, what, want, got)
}

// equal checks got == want exactly (for counts, labels and exact sums).
func (c *checker) equal(what string, want, got any) {
	c.report(fmt.Sprint(want) == fmt.Sprint(got), what, want, got)
}

// close checks |got - want| <= tol·max(1, |want|), for values that a
// correct solution may compute in another order of floating-point
// operations.
func (c *checker) close(what string, want, got, tol float64) {
	c.report(closeTo(want, got, tol), what, want, got)
}

// closeSlice is close for every element, and equal lengths.
func (c *checker) closeSlice(what string, want, got []float64, tol float64) {
	pass := len(want) == len(got)
	for i := 0; pass && i < len(want); i++ {
		pass = closeTo(want[i], got[i], tol)
	}
	c.report(pass, what, fmtSlice(want), fmtSlice(got))
}

func closeTo(want, got, tol float64) bool {
	if math.IsNaN(got) || math.IsInf(got, 0) {
		return want == got
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func fmtSlice(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
