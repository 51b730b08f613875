package figures

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// lesson08Data is the data of lesson 8: 30 points on a line separated with
// margin 0.05 (SeparableData(30, 1, 0.05, 3)), lifted by the notational
// hack to x' = [1, x] so that θ = [b, w] has two coordinates and the loss
// surface can be drawn over the plane of θ.
func lesson08Data() (*perceptron.Dataset, error) {
	d, _, err := perceptron.SeparableData(30, 1, 0.05, 3)
	if err != nil {
		return nil, err
	}
	return perceptron.Augment(d), nil
}

// thetaPath returns the 2-D weights of a descent path as points.
func thetaPath(g *perceptron.GDResult) ([][2]float64, error) {
	out := make([][2]float64, len(g.Path))
	for k, h := range g.Path {
		if len(h.W) != 2 {
			return nil, fmt.Errorf("figures: path point %d has %d weights, want 2", k, len(h.W))
		}
		out[k] = [2]float64{h.W[0], h.W[1]}
	}
	return out, nil
}

// LossSurface draws the perceptron loss L(θ) = Σ_i max(0, -y_i θ·x_i) of
// the 2-feature data d (through the origin: the bias is the first feature
// of an augmented data set) as contours over the plane of θ = (θ0, θ1),
// shades the region where L = 0 (the θ that separate d) and draws the paths
// of full-batch gradient descent gd and stochastic gradient descent sgd.
func LossSurface(d *perceptron.Dataset, gd, sgd *perceptron.GDResult, title string) (*plot.Plot, error) {
	if d.D() != 2 {
		return nil, fmt.Errorf("figures: loss surface needs 2 features, got %d", d.D())
	}
	gp, err := thetaPath(gd)
	if err != nil {
		return nil, err
	}
	sp, err := thetaPath(sgd)
	if err != nil {
		return nil, err
	}
	// The box holds both paths and the origin, squared up and padded.
	lo, hi := [2]float64{0, 0}, [2]float64{0, 0}
	for _, q := range append(append([][2]float64{}, gp...), sp...) {
		for j := range 2 {
			lo[j], hi[j] = math.Min(lo[j], q[j]), math.Max(hi[j], q[j])
		}
	}
	half := 0.6 * math.Max(hi[0]-lo[0], hi[1]-lo[1])
	c0, c1 := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	box := plots.Box{XMin: c0 - 1.6*half, XMax: c0 + half, YMin: c1 - 0.75*half, YMax: c1 + 0.75*half} // room at the left for the legend
	p := plots.New(title, "θ0 = b", "θ1 = w")
	if err := plots.EqualAxes(p, box, Width, Height); err != nil { // equal scales: the wedge's true angles
		return nil, err
	}
	box = plots.Box{XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max}
	loss := func(t0, t1 float64) float64 {
		l, _ := perceptron.Loss(perceptron.Hyperplane{W: []float64{t0, t1}}, d)
		return l
	}
	// Light blue where L = 0, white elsewhere (Regions paints a score of 0
	// white).
	zero, err := plots.Regions(func(t0, t1 float64) float64 {
		if loss(t0, t1) == 0 {
			return 1
		}
		return 0
	}, box, 300)
	if err != nil {
		return nil, err
	}
	p.Add(zero)
	zeroThumb, err := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	zeroThumb.Color, zeroThumb.LineStyle.Width = plots.PosLight, 0
	p.Legend.Add("L(θ) = 0: θ separates the data", zeroThumb)
	// Contours at round levels, each with its value in the legend (L is
	// convex, so its largest value on the box is at a corner).
	top := 0.0
	for _, t := range [][2]float64{{box.XMin, box.YMin}, {box.XMin, box.YMax}, {box.XMax, box.YMin}, {box.XMax, box.YMax}} {
		top = math.Max(top, loss(t[0], t[1]))
	}
	// L(cθ) = cL(θ): levels that double are evenly spaced along every ray.
	var levels []float64
	for l := math.Exp2(math.Floor(math.Log2(top))); len(levels) < 5; l /= 2 {
		levels = append([]float64{l}, levels...)
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	// One grid for every level (the loss is evaluated once per grid point),
	// each level in its own color.
	cont, err := plots.Contours(loss, box, levels, 120)
	if err != nil {
		return nil, err
	}
	cont.Palette = nil
	cont.LineStyles = make([]draw.LineStyle, len(levels))
	for k, level := range levels {
		c, err := cm.At(float64(k) / float64(max(1, len(levels)-1)))
		if err != nil {
			return nil, err
		}
		cont.LineStyles[k] = draw.LineStyle{Color: c, Width: vg.Points(1.2)}
		thumb := &plotter.Line{LineStyle: cont.LineStyles[k]}
		p.Legend.Add(fmt.Sprintf("contour L(θ) = %g", level), thumb)
	}
	p.Add(cont)
	p.Legend.Left = true
	for _, s := range []struct {
		name string
		pts  [][2]float64
		i    int
	}{{fmt.Sprintf("full-batch GD, %d steps", gd.Steps), gp, 2}, {fmt.Sprintf("SGD, %d steps", sgd.Steps), sp, 1}} {
		tr, err := plots.Path(s.pts, plots.Color(s.i))
		if err != nil {
			return nil, err
		}
		addWithLegend(p, s.name, tr)
	}
	p.Legend.Top, p.Legend.Left = true, true // the upper left corner holds no path
	p.Add(legendBackdrop{})                  // last: over the contours, under the legend
	// Fix the axes last: Add grows them to the plotters' data ranges.
	if err := plots.SetRange(p, box); err != nil {
		return nil, err
	}
	return p, nil
}

// LossCurves draws L(θ_t)/η after every step t of the batch GD run gd
// (step size etaGD) and of the SGD run sgd (etaSGD), in the colours of
// LossSurface. From θ = 0 every θ_t is proportional to η, and so is the
// loss, so L/η does not depend on the step size.
func LossCurves(gd *perceptron.GDResult, etaGD float64, sgd *perceptron.GDResult, etaSGD float64, title string) (*plot.Plot, error) {
	p := plots.New(title, "step t (0 = start)", "loss L(θ_t) / η")
	for _, s := range []struct {
		name string
		r    *perceptron.GDResult
		eta  float64
		i    int
	}{{"full-batch GD: all rows per step", gd, etaGD, 2}, {"SGD: one row per step", sgd, etaSGD, 1}} {
		if !(s.eta > 0) {
			return nil, fmt.Errorf("figures: %s: η = %v, want > 0", s.name, s.eta)
		}
		ys := make([]float64, len(s.r.Losses))
		for k, l := range s.r.Losses {
			ys[k] = l / s.eta
		}
		line, err := plots.Steps(ys)
		if err != nil {
			return nil, err
		}
		for k := range line.XYs {
			line.XYs[k].X = float64(k) // step 0 is the start
		}
		line.Color = plots.Color(s.i)
		addWithLegend(p, s.name, line)
	}
	p.Y.Min = 0
	return p, nil
}

// lesson08Runs runs full-batch GD (η = 1/32) and SGD (η = 1/4, seed 3) from
// θ = 0 on lesson08Data, as the notebook does.
func lesson08Runs() (d *perceptron.Dataset, gd, sgd *perceptron.GDResult, err error) {
	if d, err = lesson08Data(); err != nil {
		return nil, nil, nil, err
	}
	if gd, err = perceptron.GradientDescent(d, perceptron.GDOptions{Eta: 1.0 / 32, Steps: 100, NoBias: true}); err != nil {
		return nil, nil, nil, err
	}
	sgd, err = perceptron.SGD(d, perceptron.GDOptions{Eta: 1.0 / 4, Steps: 2000, Seed: 3, NoBias: true})
	return d, gd, sgd, err
}

func init() {
	registerPlot("08_loss_surface.png", func() (*plot.Plot, error) {
		d, gd, sgd, err := lesson08Runs()
		if err != nil {
			return nil, err
		}
		return LossSurface(d, gd, sgd, "Perceptron loss over θ = (b, w), 1-D data lifted to [1, x]")
	})
	registerPlot("08_loss_curves.png", func() (*plot.Plot, error) {
		_, gd, sgd, err := lesson08Runs()
		if err != nil {
			return nil, err
		}
		return LossCurves(gd, 1.0/32, sgd, 1.0/4, "Loss along the way, in units of η: full-batch GD vs SGD")
	})
}

// legendBackdrop paints the rectangle of the plot's legend white, with a
// small margin, so that no contour runs under its text. Added as the last
// plotter, it is drawn after the data and before the legend. It stays within
// the data area (the legend's own canvas is larger only by the few points of
// the glyphs' padding, which the margin covers).
type legendBackdrop struct{}

// Plot implements plot.Plotter, for a legend at the upper left.
func (legendBackdrop) Plot(c draw.Canvas, plt *plot.Plot) {
	// Legend.Rectangle gives the legend's size, not its place, for a legend
	// at the upper left: it starts at c.Min.X and hangs from c.Max.Y.
	margin := vg.Points(4)
	r := plt.Legend.Rectangle(c)
	left, top := c.Min.X+plt.Legend.XOffs, c.Max.Y+plt.Legend.YOffs
	minX := max(left-margin, c.Min.X)
	maxX := min(left+r.Max.X-r.Min.X+margin, c.Max.X)
	minY := max(top-(r.Max.Y-r.Min.Y)-margin, c.Min.Y)
	maxY := min(top+margin, c.Max.Y)
	var box vg.Path
	box.Move(vg.Point{X: minX, Y: minY})
	box.Line(vg.Point{X: maxX, Y: minY})
	box.Line(vg.Point{X: maxX, Y: maxY})
	box.Line(vg.Point{X: minX, Y: maxY})
	box.Close()
	c.SetColor(color.White)
	c.Fill(box)
}
