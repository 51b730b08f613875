package figures

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// MistakesFigure draws cumulative mistake counts over time, one line per
// stream: curves[k][t-1] is the number of mistakes after t points, named
// names[k] in the legend.
func MistakesFigure(curves [][]float64, names []string, title string) (*plot.Plot, error) {
	if len(curves) != len(names) {
		return nil, fmt.Errorf("figures: %d curves but %d names", len(curves), len(names))
	}
	p := plots.New(title, "points received t", "mistakes so far")
	p.Legend.Left = true
	for k, c := range curves {
		line, err := plots.Steps(c)
		if err != nil {
			return nil, err
		}
		line.Color = plots.Color(k)
		line.Width = vg.Points(1.5)
		addWithLegend(p, names[k], line)
	}
	p.Y.Min = 0
	p.X.Min = 0
	p.X.Tick.Marker = everyTick(100)
	return p, nil
}

// everyTick labels every multiple of step in the axis range (the default
// ticker labels only some of them: 100, 300 and 500 on 0..500).
func everyTick(step float64) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ticks []plot.Tick
		for v := math.Ceil(min/step) * step; v <= max; v += step {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprint(v)})
		}
		return ticks
	})
}

// OnlineFrames runs a fresh online perceptron (η = 1, TieMistake) over the
// rows of the 2-D data d in order and returns one frame per mistake, plus a
// last frame after the whole stream: the points received so far, the point
// just received circled, the boundary before the update (dashed, when
// there was one inside the box) and after it, with w as an arrow; the last
// frame also crosses out the points still misclassified at the end. The
// frames show at least view, on equal axes (plots.EqualAxes); the
// boundaries are clipped to box, so that the legend can sit in the part of
// view outside box.
func OnlineFrames(d *perceptron.Dataset, box, view plots.Box) ([]*plot.Plot, error) {
	o, err := perceptron.NewOnline(d.D(), 1, perceptron.TieMistake)
	if err != nil {
		return nil, err
	}
	var frames []*plot.Plot
	frame := func(t int, before perceptron.Hyperplane, title string) error {
		rows := make([]int, t)
		for i := range rows {
			rows[i] = i
		}
		seen, err := d.Subset(rows)
		if err != nil {
			return err
		}
		p := plots.New(title, "x1", "x2")
		if err := plots.EqualAxes(p, view, Width, Height); err != nil {
			return err
		}
		if err := plots.AddPoints(p, seen, 0, 1); err != nil {
			return err
		}
		if before.W != nil {
			old, err := plots.Boundary(before, box)
			switch {
			case err == nil:
				old.Color = color.Gray{Y: 150}
				dash(&old.LineStyle, 4, 3)
				addWithLegend(p, "boundary before", old)
			case !errors.Is(err, plots.ErrOutside) && !isZero(before.W):
				return err
			}
		}
		h := o.Hyperplane()
		if line, err := plots.Boundary(h, box); err == nil {
			addWithLegend(p, "boundary now", line)
			arrow, err := plots.Arrow(h, [2]float64{0, 0}, 0.5)
			if err != nil {
				return err
			}
			addWithLegend(p, "w", arrow)
		} else if !errors.Is(err, plots.ErrOutside) {
			return err
		}
		if before.W != nil {
			circled, err := mark(ring, 8, plots.Black, plotter.XY{X: d.X.At(t-1, 0), Y: d.X.At(t-1, 1)})
			if err != nil {
				return err
			}
			addWithLegend(p, "the mistake", circled)
		} else if err := crossWrong(p, d, o.Hyperplane(), 8, "wrong at the end"); err != nil {
			return err
		}
		frames = append(frames, p)
		return nil
	}
	for i := range d.N() {
		before := o.Hyperplane()
		mistake, err := o.Step(d.Row(i), d.Y[i])
		if err != nil {
			return nil, err
		}
		if mistake {
			title := fmt.Sprintf("Point %d (y = %+g): mistake %d, update", i+1, d.Y[i], o.Mistakes)
			if err := frame(i+1, before, title); err != nil {
				return nil, err
			}
		}
	}
	title := fmt.Sprintf("After %d points: %d mistakes", d.N(), o.Mistakes)
	if err := frame(d.N(), perceptron.Hyperplane{}, title); err != nil {
		return nil, err
	}
	return frames, nil
}

// crossWrong adds a cross of the given radius (in points) on every point
// of d that h misclassifies, if any, with the legend entry name.
func crossWrong(p *plot.Plot, d *perceptron.Dataset, h perceptron.Hyperplane, radius float64, name string) error {
	var wrong plotter.XYs
	for i := range d.N() {
		s, err := h.Score(d.Row(i))
		if err != nil {
			return err
		}
		if d.Y[i]*s <= 0 {
			wrong = append(wrong, plotter.XY{X: d.X.At(i, 0), Y: d.X.At(i, 1)})
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	x, err := mark(cross, radius, plots.Black, wrong...)
	if err != nil {
		return err
	}
	addWithLegend(p, name, x)
	return nil
}

func isZero(w []float64) bool {
	for _, v := range w {
		if v != 0 {
			return false
		}
	}
	return true
}

// Lesson03Box holds lesson 3's data, [-1, 1]² and a little more;
// Lesson03View is the part of the plane its animation shows at least: the
// box and, on its right, a strip as wide as the equal axes of a Width ×
// Height figure leave anyway, where the legend goes.
var (
	Lesson03Box  = plots.Box{XMin: -1.15, XMax: 1.15, YMin: -1.15, YMax: 1.15}
	Lesson03View = plots.Box{XMin: -1.15, XMax: 2.3, YMin: -1.15, YMax: 1.15}
)

func init() {
	registerPlot("03_update_vector.png", func() (*plot.Plot, error) {
		u := Lesson03Update
		return UpdateFigure(u.W, u.X, u.Y, "One update: w + y·x turns the boundary towards x")
	})
	registerPlot("03_online_mistakes.png", func() (*plot.Plot, error) {
		sep, _, err := perceptron.SeparableData(500, 2, 0.05, 1)
		if err != nil {
			return nil, err
		}
		noisy, _, err := perceptron.NoisyData(500, 2, 0.05, 0.1, 1)
		if err != nil {
			return nil, err
		}
		curves := make([][]float64, 2)
		for k, d := range []*perceptron.Dataset{sep, noisy} {
			if curves[k], err = lessondata.CumulativeMistakes(d); err != nil {
				return nil, err
			}
		}
		return MistakesFigure(curves, []string{"separable stream", "10% of labels flipped"},
			"Online perceptron: cumulative mistakes")
	})
	register("03_online_steps.gif", func() ([]byte, error) {
		d, _, err := perceptron.SeparableData(30, 2, 0.1, 1)
		if err != nil {
			return nil, err
		}
		frames, err := OnlineFrames(d, Lesson03Box, Lesson03View)
		if err != nil {
			return nil, err
		}
		return plots.GIF(frames, Width, Height, 150)
	})
}

// Lesson03Update is the example of lesson 3's update figure: through the
// origin, w = (1, 0.2) misclassifies x = (−0.4, 1) with label +1 (w·x =
// −0.2), and w + y x = (0.6, 1.2) classifies it correctly ((w + yx)·x =
// 0.96).
var Lesson03Update = struct {
	W, X []float64
	Y    float64
}{W: []float64{1, 0.2}, X: []float64{-0.4, 1}, Y: 1}

// UpdateFigure draws one perceptron update through the origin as vector
// addition, as Figure 1.3 of Learning From Data does: the weights w, the
// step y·x drawn from w's tip, their sum w + y·x, the point x, and the
// boundaries w·z = 0 (dashed, before) and (w + y x)·z = 0 (solid, after),
// on equal axes. It is an error for w or x not to be 2-D or for y not to be
// ±1.
func UpdateFigure(w, x []float64, y float64, title string) (*plot.Plot, error) {
	if len(w) != 2 || len(x) != 2 || (y != 1 && y != -1) {
		return nil, fmt.Errorf("figures: UpdateFigure needs 2-D w and x and y = ±1, got %v, %v, %v", w, x, y)
	}
	next := []float64{w[0] + y*x[0], w[1] + y*x[1]}
	p := plots.New(title, "z1", "z2")
	box := plots.Box{XMin: -1.5, XMax: 1.5, YMin: -1.3, YMax: 1.5} // room below for the legend
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, err
	}
	box = plots.Box{XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max}
	before, err := plots.Boundary(perceptron.Hyperplane{W: w}, box)
	if err != nil {
		return nil, err
	}
	dash(&before.LineStyle, 5, 3)
	before.Color = color.Gray{Y: 120}
	after, err := plots.Boundary(perceptron.Hyperplane{W: next}, box)
	if err != nil {
		return nil, err
	}
	after.Color = plots.Color(2)
	wArrow, err := plots.NewArrow([2]float64{0, 0}, [2]float64{w[0], w[1]})
	if err != nil {
		return nil, err
	}
	step, err := plots.NewArrow([2]float64{w[0], w[1]}, [2]float64{next[0], next[1]})
	if err != nil {
		return nil, err
	}
	step.Color = plots.Color(1)
	dash(&step.LineStyle, 4, 2)
	sum, err := plots.NewArrow([2]float64{0, 0}, [2]float64{next[0], next[1]})
	if err != nil {
		return nil, err
	}
	sum.Color = plots.Color(2)
	shape, radius, c := pyramid, 6.0, plots.Color(1)
	if y < 0 {
		shape, radius, c = dot, 5, plots.Color(0)
	}
	point, err := mark(shape, radius, c, plotter.XY{X: x[0], Y: x[1]})
	if err != nil {
		return nil, err
	}
	p.Add(before, after, wArrow, step, sum, point)
	p.Legend.Add("w", wArrow)
	p.Legend.Add(fmt.Sprintf("y·x (y = %+g), from the tip of w", y), step)
	p.Legend.Add("w + y·x, the new weights", sum)
	p.Legend.Add(fmt.Sprintf("the point x, label %+g", y), point)
	p.Legend.Add("boundary of w (before)", before)
	p.Legend.Add("boundary of w + y·x (after)", after)
	p.Legend.Top, p.Legend.Left = false, true // below left, where no line runs
	return p, nil
}
