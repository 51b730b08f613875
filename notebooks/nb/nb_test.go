package nb

import (
	"errors"
	"testing"
)

func TestMust(t *testing.T) {
	if got := Must(42, nil); got != 42 {
		t.Errorf("Must(42, nil) = %d, want 42", got)
	}
	bad := errors.New("bad input")
	for name, f := range map[string]func(){
		"Must":  func() { Must(0, bad) },
		"Check": func() { Check(bad) },
	} {
		func() {
			defer func() {
				if r := recover(); r != bad {
					t.Errorf("%s: recovered %v, want the error itself", name, r)
				}
			}()
			f()
		}()
	}
	Check(nil) // must not panic
}
