// Package nb holds the error plumbing the lesson notebooks share: Must and
// Check. Its folder is the home of all the Go that the notebooks import
// besides perceptron and figures: nb/view (figures shown in GoNB, live
// figures), nb/exercises (the exercises' checkers) and nb/lessondata (the
// lessons' small data sets). Package nb imports nothing, on purpose: GoNB builds and links a program
// for every cell, and a cell that only computes links just nb and the
// packages it calls (perceptron: about 2 MB), not gonum/plot with its
// embedded fonts and GoNB's client (about 12 MB), which take the linker
// twice as long. Figures are shown by package nb/view, the only package of
// the pack that talks to GoNB; the figures themselves are drawn by
// perceptron/plots, which imports no notebook machinery.
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
