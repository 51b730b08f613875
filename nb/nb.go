// Package nb holds the few helpers that the lesson notebooks share, so that
// a cell shows the idea it teaches and not error plumbing.
//
// In a lesson, an error from the package means the lesson itself is wrong
// (its data and options are fixed), so the cell should stop loudly with that
// error rather than carry on. Must does that in one call:
//
//	res := nb.Must(perceptron.PLA(d, opt))
//
// Assignments and student-facing functions return their errors instead.
package nb

// Must returns v when err is nil and panics with err otherwise: in a
// notebook the cell stops and shows the error.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Check panics with err when it is not nil: Must for calls that return only
// an error.
func Check(err error) {
	if err != nil {
		panic(err)
	}
}
