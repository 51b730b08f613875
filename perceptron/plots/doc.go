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
// on every run (fixed DPI, a fixed GIF palette, no dithering). One known
// exception: built for arm64, a figure with contour lines (Contours, which
// is gonum/plot's plotter.Contour; it draws the lines of a level in map
// order) was seen to differ from run to run; on amd64 it does not.
//
// The package draws and renders only: it knows nothing of notebooks and
// imports no GoNB. Showing a figure in a GoNB notebook (Display, Show,
// DisplayGIF) and making it live with sliders (Explore, Stepper) is the
// job of package nb.
//
// The colours come from the Okabe–Ito palette, which stays distinguishable
// under the common forms of colour blindness; the two classes also differ by
// glyph shape, so the figures survive printing in grey.
//
// Errors from this package start with "perceptron/plots: ".
package plots
