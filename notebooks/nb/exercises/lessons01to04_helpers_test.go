package exercises

import (
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
