// Package view shows the lessons' figures inline in a GoNB notebook
// (Display, Show, DisplayGIF, and their Alt forms, which give the figure a
// sentence of alt text) and makes them live (Explore, Slider, Choice,
// Stepper). It is the only package of the pack that talks to GoNB: the
// figures themselves are drawn by perceptron/plots, which imports no
// notebook machinery. A cell that shows nothing should not import it (nor
// package figures): GoNB links every cell into a program of its own, and
// gonum/plot with its embedded fonts doubles the link's time (see package
// nb).
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
// In a lesson every call's error is passed to nb.Check:
//
//	nb.Check(view.ShowAlt(p, "The iris flowers and the boundary PLA found: ..."))
package view
