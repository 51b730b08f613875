package figures

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
		p.Add(line)
		p.Legend.Add(names[k], line)
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
				old.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				p.Add(old)
				p.Legend.Add("boundary before", old)
			case !errors.Is(err, plots.ErrOutside) && !isZero(before.W):
				return err
			}
		}
		h := o.Hyperplane()
		if line, err := plots.Boundary(h, box); err == nil {
			p.Add(line)
			p.Legend.Add("boundary now", line)
			arrow, err := plots.Arrow(h, [2]float64{0, 0}, 0.5)
			if err != nil {
				return err
			}
			p.Add(arrow)
			p.Legend.Add("w", arrow)
		} else if !errors.Is(err, plots.ErrOutside) {
			return err
		}
		if before.W != nil {
			ring, err := plotter.NewScatter(plotter.XYs{{X: d.X.At(t-1, 0), Y: d.X.At(t-1, 1)}})
			if err != nil {
				return err
			}
			ring.GlyphStyle = draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(8), Color: plots.Black}
			p.Add(ring)
			p.Legend.Add("the mistake", ring)
		} else if err := crossWrong(p, d, o.Hyperplane()); err != nil {
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

// crossWrong adds a cross on every point of d that h misclassifies, if any.
func crossWrong(p *plot.Plot, d *perceptron.Dataset, h perceptron.Hyperplane) error {
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
	x, err := plotter.NewScatter(wrong)
	if err != nil {
		return err
	}
	x.GlyphStyle = draw.GlyphStyle{Shape: draw.CrossGlyph{}, Radius: vg.Points(8), Color: plots.Black}
	p.Add(x)
	p.Legend.Add("wrong at the end", x)
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
	registerPlot("03_online_mistakes.png", func() (*plot.Plot, error) {
		sep, _, err := perceptron.SeparableData(500, 2, 0.05, 1)
		if err != nil {
			return nil, err
		}
		noisy, _, err := perceptron.NoisyData(500, 2, 0.05, 0.1, 1)
		if err != nil {
			return nil, err
		}
		a, err := lessondata.CumulativeMistakes(sep)
		if err != nil {
			return nil, err
		}
		b, err := lessondata.CumulativeMistakes(noisy)
		if err != nil {
			return nil, err
		}
		return MistakesFigure([][]float64{a, b}, []string{"separable stream", "10% of labels flipped"},
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
