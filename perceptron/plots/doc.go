// Package plots draws the figures of the perceptron lessons with gonum/plot.
//
// It follows gonum/plot's own design: small functions return plotters (the
// two classes of a data set, the boundary w·x + b = 0, the margin band, the
// normal vector w as an arrow, decision regions, loss contours, descent
// paths, line and bar charts) and the caller composes them on a *plot.Plot
// made by New:
//
//	p := plots.New("PLA on toy data", "x1", "x2")
//	if err := plots.AddPoints(p, d, 0, 1); err != nil { ... }
//	line, err := plots.Boundary(res.Hyperplane, box)
//	p.Add(line)
//	p.Legend.Add("w·x + b = 0", line)
//	png, err := plots.PNG(p, 12*vg.Centimeter, 12*vg.Centimeter)
//
// PNG and GIF render deterministically: the same plot gives the same bytes
// on every run (fixed DPI, a fixed GIF palette, no dithering). Display and
// DisplayGIF show a figure inline in a GoNB notebook and return
// ErrNotNotebook anywhere else.
//
// Explore (and Stepper, built on it) makes a figure live in a notebook:
// named controls (sliders over numbers, choices among strings) redraw it
// as the student moves them, and Done leaves the last figure as a still
// image. The same cell runs headless (nbconvert, CI) with no change: with
// no browser to answer, it shows the figure for the starting values and
// returns at once. It works behind a base URL (JupyterHub, Binder) too,
// where GoNB's own widget connection would not (see Connected).
//
// The colours come from the Okabe–Ito palette, which stays distinguishable
// under the common forms of colour blindness; the two classes also differ by
// glyph shape, so the figures survive printing in grey.
//
// Errors from this package start with "perceptron/plots: ".
package plots
