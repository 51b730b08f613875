package exercises

import (
	"slices"
	"strings"
	"testing"
)

// expectVerdict runs a checker call with its output captured and fails the
// test unless it returned want and printed every string in contains.
func expectVerdict(t *testing.T, name string, want bool, call func() bool, contains ...string) {
	t.Helper()
	var got bool
	out := capture(t, func() { got = call() })
	if got != want {
		t.Errorf("%s: checker returned %v, want %v; it printed\n%s", name, got, want, out)
	}
	for _, s := range contains {
		if !strings.Contains(out, s) {
			t.Errorf("%s: output lacks %q; it printed\n%s", name, s, out)
		}
	}
}

func stub[T any]() T { panic("not implemented") }

// forceFirst makes the strict (< 0) variants of the algorithm references
// update at w = 0, b = 0 anyway: the slip that escapes the standstill of a
// strict test at the start and then never counts a score of 0 again.
var forceFirst bool

// tieSkipped says whether a variant skips a point of margin m at (w, b):
// a strict one skips m = 0, except at the start if forceFirst.
func tieSkipped(strict bool, m float64, w []float64, b float64) bool {
	if !strict || m != 0 {
		return false
	}
	return !forceFirst || b != 0 || slices.ContainsFunc(w, func(v float64) bool { return v != 0 })
}

// forced runs f with forceFirst set.
func forced(f func() bool) func() bool {
	return func() bool {
		forceFirst = true
		defer func() { forceFirst = false }()
		return f()
	}
}
