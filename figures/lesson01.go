package figures

import (
	"errors"
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// HyperplaneFigure draws the 2-D data d (columns 0 and 1), the boundary of
// h, its normal vector w as an arrow pointing into S+ and, when h separates
// d, the margin band of the data set: the strip of half-width
// γ = min_i y_i(w·x_i + b)/||w|| around the boundary, whose edge touches the
// nearest point, which is circled. The figure shows at least the box, with
// the same scale on both axes (plots.EqualAxes at Width × Height), so that
// w is drawn orthogonal to the boundary and γ is the same length in every
// direction; arrowLength is the arrow's length in data units.
func HyperplaneFigure(d *perceptron.Dataset, h perceptron.Hyperplane, box plots.Box, title string, arrowLength float64) (*plot.Plot, error) {
	xl, yl := "x1", "x2"
	if len(d.Features) >= 2 {
		xl, yl = d.Features[0], d.Features[1]
	}
	p := plots.New(title, xl, yl)
	p.Legend.Left = true
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, err
	}
	gamma, row, err := h.DatasetMargin(d)
	if err != nil {
		return nil, err
	}
	if gamma > 0 {
		band, err := plots.MarginBand(h, gamma, box, true)
		if err != nil {
			return nil, err
		}
		addWithLegend(p, fmt.Sprintf("margin band, γ = %.2f", gamma), band)
	}
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	if err := addBoundaries(p, box, namedBoundary{"boundary w·x + b = 0", h, false}); err != nil {
		return nil, err
	}
	if gamma > 0 {
		nearest, err := mark(ring, 5, plots.Black, plotter.XY{X: d.X.At(row, 0), Y: d.X.At(row, 1)})
		if err != nil {
			return nil, err
		}
		// The segment from the nearest point to its foot on the boundary, of
		// length γ, tells it apart from a neighbour the ring may also touch.
		x := d.Row(row)
		s := (h.W[0]*x[0] + h.W[1]*x[1] + h.B) / (h.W[0]*h.W[0] + h.W[1]*h.W[1])
		seg, err := plotter.NewLine(plotter.XYs{{X: x[0], Y: x[1]}, {X: x[0] - s*h.W[0], Y: x[1] - s*h.W[1]}})
		if err != nil {
			return nil, err
		}
		seg.Width = vg.Points(1.5)
		dash(&seg.LineStyle, 2, 2)
		p.Add(nearest, seg)
		p.Legend.Add("nearest point", nearest)
		p.Legend.Add("its distance γ to the boundary", seg)
	}
	p.X.Tick.Marker = plainTicks{p.X.Tick.Marker}
	p.Y.Tick.Marker = plainTicks{p.Y.Tick.Marker}
	mid := [2]float64{(box.XMin + box.XMax) / 2, (box.YMin + box.YMax) / 2}
	arrow, err := plots.Arrow(h, mid, arrowLength)
	if err != nil {
		return nil, err
	}
	addWithLegend(p, "w (points into S+)", arrow)
	return p, nil
}

var (
	// lesson01Bank is lesson 1's two-feature bank (lessondata.Lesson01Rule).
	lesson01Bank = lessondata.Lesson01Rule()
	// Lesson01Box is the part of the plane lesson 1's figure shows at least
	// (EqualAxes may widen one axis): it holds the applicants.
	Lesson01Box = plots.Box{XMin: 0, XMax: 90, YMin: -4, YMax: 53}
)

func init() {
	registerPlot("01_hyperplane.png", func() (*plot.Plot, error) {
		d, err := lessondata.Lesson01Data()
		if err != nil {
			return nil, err
		}
		return HyperplaneFigure(d, lesson01Bank, Lesson01Box, "Approve when 0.05·salary − 0.1·debt > 1.1", 15)
	})
}

// Lesson01Explore draws lesson 1's applicants with the hyperplane
// w = (w1, w2), b of the student's sliders: its boundary and w where the
// boundary crosses the figure, the margin band when it separates the
// applicants, and a cross on every applicant it misclassifies (a score of
// 0 included). The caption gives the mistakes, the training error and the
// margin of the data set, negative when some applicant is on the wrong
// side.
func Lesson01Explore(w1, w2, b float64) (*plot.Plot, string, error) {
	d, err := lessondata.Lesson01Data()
	if err != nil {
		return nil, "", err
	}
	h := perceptron.Hyperplane{W: []float64{w1, w2}, B: b}
	title := fmt.Sprintf("w = (%.2f, %.2f), b = %.1f", w1, w2, b)
	// pointsOnly is the figure without a boundary: the applicants alone.
	pointsOnly := func(caption string) (*plot.Plot, string, error) {
		p := plots.New(title, d.Features[0], d.Features[1])
		if err := plots.EqualAxes(p, Lesson01Box, Width, Height); err != nil {
			return nil, "", err
		}
		return p, caption, plots.AddPoints(p, d, 0, 1)
	}
	if w1 == 0 && w2 == 0 {
		return pointsOnly("w = 0: every score is b, there is no boundary; move w1 or w2")
	}
	e, err := h.Errors(d)
	if err != nil {
		return nil, "", err
	}
	gamma, _, err := h.DatasetMargin(d)
	if err != nil {
		return nil, "", err
	}
	caption := fmt.Sprintf("%s: %d of %d applicants misclassified (training error %.2f); margin of the data set γ = %.2f k$",
		title, e, d.N(), float64(e)/float64(d.N()), gamma)
	if _, err := plots.Boundary(h, Lesson01Box); errors.Is(err, plots.ErrOutside) {
		return pointsOnly(caption + " (the boundary is outside the figure)")
	}
	p, err := HyperplaneFigure(d, h, Lesson01Box, title, 15)
	if err != nil {
		return nil, "", err
	}
	return p, caption, crossWrong(p, d, h, 7, "misclassified")
}

// Lesson01ExploreAlt is the alt text of Lesson01Explore's figure for w1, w2
// and b, whose caption is caption: what that frame shows (the applicants
// alone when w = 0 or the boundary misses the figure, else the boundary,
// w, the margin band when the line separates them and the crosses on the
// misclassified), then the caption's numbers.
func Lesson01ExploreAlt(w1, w2, b float64, caption string) string {
	const points = "Lesson 1's applicants, salary against debt in k$, denied as circles and approved as triangles"
	h := perceptron.Hyperplane{W: []float64{w1, w2}, B: b}
	switch _, err := plots.Boundary(h, Lesson01Box); {
	case w1 == 0 && w2 == 0:
		return points + ", and no boundary: w = 0."
	case errors.Is(err, plots.ErrOutside):
		return fmt.Sprintf("%s; the boundary of w = (%.2f, %.2f), b = %.1f lies outside the figure. %s.", points, w1, w2, b, caption)
	}
	return fmt.Sprintf("%s, with the boundary of w = (%.2f, %.2f), b = %.1f as a line, w as an arrow across it, the margin band if the line separates them and a cross on every misclassified applicant. %s.", points, w1, w2, b, caption)
}

// plainTicks labels the ticks of another Ticker with their values in the
// shortest form ("25", not "25.00").
type plainTicks struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (t plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := t.Ticker.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}
