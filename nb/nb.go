// Package nb holds what the lesson notebooks share and the rest of the
// pack does not: error plumbing (Must, Check), showing a figure inline in a
// GoNB notebook (Display, Show, DisplayGIF) and live figures (Explore,
// Slider, Choice, Stepper). It is the only package of the pack that talks
// to GoNB: the figures themselves are drawn by perceptron/plots, which
// imports no notebook machinery.
//
// # Live figures
//
// Explore (and Stepper, built on it) makes a figure live in a notebook:
// named controls (sliders over numbers, choices among strings) switch
// among frames drawn ahead in the cell, in the browser, with no round trip
// to the kernel, so the cell ends at once and Run All never waits. The
// notebook keeps the figure for the starting values as a still image, and
// the same cell runs headless (nbconvert, CI) with no change.
//
// # Errors
//
// In a lesson, an error from the package means the lesson itself is wrong
// (its data and options are fixed), so the cell should stop loudly with that
// error rather than carry on. Must does that in one call:
//
//	res := nb.Must(perceptron.PLA(d, opt))
//
// Assignments and student-facing functions return their errors instead.
package nb

import "fmt"

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

// errorf returns an error whose message starts with "nb: ".
func errorf(format string, args ...any) error {
	return fmt.Errorf("nb: "+format, args...)
}
