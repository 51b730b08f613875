package plots

import (
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// checkFinite reports the first NaN or ±Inf of v, named what.
func checkFinite(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errorf("%s: value %d is %v, not finite", what, i, x)
		}
	}
	return nil
}

// seriesXYs returns the points (t, ys[t-1]) for t = 1, …, len(ys).
func seriesXYs(what string, ys []float64) (plotter.XYs, error) {
	if len(ys) == 0 {
		return nil, errorf("%s: no values", what)
	}
	if err := checkFinite(what, ys); err != nil {
		return nil, err
	}
	xys := make(plotter.XYs, len(ys))
	for i, y := range ys {
		xys[i] = plotter.XY{X: float64(i + 1), Y: y}
	}
	return xys, nil
}

// Series returns the line through (t, ys[t-1]) for t = 1, …, len(ys): a
// quantity over time, such as the cumulative number of mistakes after each
// example. The line is drawn in Color(0); set its Color to Color(i) for
// the i-th series of a figure. It is an error for ys to be empty or hold
// a NaN or ±Inf.
func Series(ys []float64) (*plotter.Line, error) {
	xys, err := seriesXYs("series", ys)
	if err != nil {
		return nil, err
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, errorf("series: %v", err)
	}
	l.Color, l.Width = Color(0), vg.Points(1.5)
	return l, nil
}

// Steps is Series drawn as a staircase that holds each value until the
// next t: the right picture for a count that changes only at updates, such
// as the training error after each update.
func Steps(ys []float64) (*plotter.Line, error) {
	l, err := Series(ys)
	if err != nil {
		return nil, err
	}
	l.StepStyle = plotter.PostStep
	return l, nil
}

// Bars returns a bar chart of values, bar k at x = k (0-based, as epochs
// are numbered by perceptron.Stats.UpdatesPerEpoch), in Color(0). It is
// an error for values to be empty or hold a NaN or ±Inf.
func Bars(values []float64, width vg.Length) (*plotter.BarChart, error) {
	if len(values) == 0 {
		return nil, errorf("bars: no values")
	}
	if err := checkFinite("bars", values); err != nil {
		return nil, err
	}
	b, err := plotter.NewBarChart(plotter.Values(values), width)
	if err != nil {
		return nil, errorf("bars: %v", err)
	}
	b.Color = Color(0)
	b.LineStyle.Width = 0
	return b, nil
}

// Ints converts counts (updates per epoch, for instance) to float64 for
// Series, Steps and Bars.
func Ints(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// Scatter returns the points (xs[i], ys[i]) as blue dots, for instance
// the bound (R/gamma)² against the actual number of updates of many runs.
// It is an error for the lengths to differ, for there to be no point, or
// for a value not to be finite.
func Scatter(xs, ys []float64) (*plotter.Scatter, error) {
	if len(xs) != len(ys) {
		return nil, errorf("scatter: %d x values but %d y values", len(xs), len(ys))
	}
	if len(xs) == 0 {
		return nil, errorf("scatter: no points")
	}
	if err := checkFinite("scatter x", xs); err != nil {
		return nil, err
	}
	if err := checkFinite("scatter y", ys); err != nil {
		return nil, err
	}
	xys := make(plotter.XYs, len(xs))
	for i := range xs {
		xys[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, errorf("scatter: %v", err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: Color(0), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	return s, nil
}

// Identity returns the dashed grey line y = x from (lo, lo) to (hi, hi):
// points below it have y < x (with x the bound and y the actual number of
// updates, the theorem says no point lies above it). It is an error for
// lo ≥ hi or for either not to be finite.
func Identity(lo, hi float64) (*plotter.Line, error) {
	if err := checkFinite("identity", []float64{lo, hi}); err != nil {
		return nil, err
	}
	if !(lo < hi) {
		return nil, errorf("identity: need lo < hi, got %v and %v", lo, hi)
	}
	l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return nil, errorf("identity: %v", err)
	}
	l.Color, l.Width = Black, vg.Points(1)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	return l, nil
}
