package figures

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// LiftFigure draws the notational hack for 1-D data d and a 1-D hyperplane
// h (w x + b): every point x is lifted to x' = [1, x], drawn at x0 = 1,
// and the boundary θ·x' = 0 of θ = [b, w] is a line through the origin that
// crosses the line x0 = 1 at the threshold x = −b/w, where h's own boundary
// is. The figure shows the box, widened so that both axes have the same
// scale (the angle of the boundary is the true one), with x0 on the
// horizontal axis.
func LiftFigure(d *perceptron.Dataset, h perceptron.Hyperplane, box plots.Box, title string) (*plot.Plot, error) {
	if d.D() != 1 || h.Dim() != 1 || h.W[0] == 0 {
		return nil, fmt.Errorf("figures: LiftFigure needs 1-D data and a 1-D hyperplane with w != 0")
	}
	xl := "x"
	if len(d.Features) == 1 {
		xl = "x = " + d.Features[0]
	}
	p := plots.New(title, "x0 (the constant feature)", xl)
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, err
	}
	box = plots.Box{XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max}
	one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: box.YMin}, {X: 1, Y: box.YMax}})
	if err != nil {
		return nil, err
	}
	one.Color = color.Gray{Y: 150}
	dash(&one.LineStyle, 4, 3)
	addWithLegend(p, "the line x0 = 1", one)
	if err := plots.AddPoints(p, perceptron.Augment(d), 0, 1); err != nil {
		return nil, err
	}
	line, err := plots.Boundary(perceptron.Hyperplane{W: h.Theta()}, box)
	if err != nil {
		return nil, err
	}
	addWithLegend(p, "θ·x' = 0, through the origin", line)
	t := -h.B / h.W[0]
	threshold, err := mark(ring, 6, plots.Black, plotter.XY{X: 1, Y: t})
	if err != nil {
		return nil, err
	}
	addWithLegend(p, fmt.Sprintf("threshold x = −b/w = %g", t), threshold)
	origin, err := mark(square, 3, plots.Black, plotter.XY{X: 0, Y: 0})
	if err != nil {
		return nil, err
	}
	addWithLegend(p, "origin", origin)
	return p, nil
}

var (
	// lesson02Rule is lesson 2's bank (lessondata.Lesson02Rule).
	lesson02Rule = lessondata.Lesson02Rule()
	// Lesson02Box is the part of the (x0, x) plane that lesson 2's figure shows.
	Lesson02Box = plots.Box{XMin: -0.1, XMax: 1.6, YMin: -5, YMax: 100}
)

func init() {
	registerPlot("02_lift.png", func() (*plot.Plot, error) {
		d, err := lessondata.Lesson02Data()
		if err != nil {
			return nil, err
		}
		return LiftFigure(d, lesson02Rule, Lesson02Box, "The notational hack: x' = [1, x], θ = [b, w]")
	})
}
