package exercises

import (
	"math"
	"strings"
	"testing"
)

// capture runs f with Out redirected and returns what it printed.
func capture(t *testing.T, f func()) string {
	t.Helper()
	var b strings.Builder
	old := Out
	Out = &b
	defer func() { Out = old }()
	f()
	return b.String()
}

func TestRunReportsEveryCase(t *testing.T) {
	var ok bool
	tenth := 0.1 // a variable, so that 0.1 + 0.2 is rounded at run time
	got := capture(t, func() {
		ok = run("Exercise 0 (Demo)", func(c *checker) {
			c.equal("n = 2", 4, 4)
			c.close("x = 0.1", 0.3, tenth+0.2, 1e-12)
			c.closeSlice("w", []float64{1, 2}, []float64{1, 2.5}, 1e-12)
		})
	})
	want := "passed: Exercise 0 (Demo): n = 2: expected 4, got 4\n" +
		"passed: Exercise 0 (Demo): x = 0.1: expected 0.3, got 0.30000000000000004\n" +
		"FAILED: Exercise 0 (Demo): w: expected [1 2], got [1 2.5]\n" +
		"Exercise 0 (Demo): 1 of 3 cases failed\n"
	if ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = false and\n%s", ok, got, want)
	}
}

func TestRunReportsAPanicAsNotDone(t *testing.T) {
	var ok bool
	got := capture(t, func() {
		ok = run("Exercise 0 (Demo)", func(c *checker) {
			c.equal("n = 1", 1, 1)
			panic("not implemented")
		})
	})
	if want := "passed: Exercise 0 (Demo): n = 1: expected 1, got 1\nNOT DONE: Exercise 0 (Demo): your function panicked: not implemented\n"; ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = false and\n%s", ok, got, want)
	}
	got = capture(t, func() { ok = run("Exercise 0 (Demo)", func(c *checker) { c.equal("n = 1", 1, 1) }) })
	if want := "passed: Exercise 0 (Demo): n = 1: expected 1, got 1\nExercise 0 (Demo): all 1 cases passed\n"; !ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = true and\n%s", ok, got, want)
	}
}

func TestCloseRejectsNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	if closeTo(1, nan, 1e-9) || closeTo(1, inf, 1e-9) || !closeTo(2, 2+1e-12, 1e-9) {
		t.Error("closeTo: NaN or Inf accepted, or a near value refused")
	}
}
