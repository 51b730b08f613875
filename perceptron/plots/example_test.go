package plots_test

import (
	"errors"
	"fmt"
	"log"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// toy is a small separable data set: applicants with two scores, approved
// (+1) or not (-1).
func toy() *perceptron.Dataset {
	d, err := perceptron.NewDataset(
		[][]float64{{1, 4}, {2, 3.5}, {3, 4.5}, {2.5, 2.5}, {4, 3},
			{1, 1}, {2, 0.5}, {0.5, 2}, {3, 1}, {1.5, 1.5}},
		[]float64{1, 1, 1, 1, 1, -1, -1, -1, -1, -1})
	if err != nil {
		log.Fatal(err)
	}
	d.Classes = [2]string{"rejected", "approved"}
	return d
}

// hyperplaneFigure is the figure of lesson 1: the data, the regions and
// boundary PLA learned, the margin band of the data and the w arrow.
func hyperplaneFigure() (*plot.Plot, *perceptron.Result, error) {
	d := toy()
	res, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		return nil, nil, err
	}
	h := res.Hyperplane
	box := plots.Box{XMin: 0, XMax: 5, YMin: 0, YMax: 5}
	p := plots.New("PLA on toy data", "x1 (income score)", "x2 (credit score)")
	if err := plots.SetRange(p, box); err != nil {
		return nil, nil, err
	}
	regions, err := plots.Regions(func(x, y float64) float64 {
		return h.W[0]*x + h.W[1]*y + h.B
	}, box, 200)
	if err != nil {
		return nil, nil, err
	}
	gamma, _, err := h.DatasetMargin(d)
	if err != nil {
		return nil, nil, err
	}
	band, err := plots.MarginBand(h, gamma, box, true)
	if err != nil {
		return nil, nil, err
	}
	line, err := plots.Boundary(h, box)
	if err != nil {
		return nil, nil, err
	}
	arrow, err := plots.Arrow(h, [2]float64{3.5, 1.5}, 1)
	if err != nil {
		return nil, nil, err
	}
	p.Add(regions, band, line, arrow)
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, nil, err
	}
	p.Legend.Add("w·x + b = 0", line)
	p.Legend.Add(fmt.Sprintf("margin γ = %.2f", gamma), band)
	p.Legend.Add("w", arrow)
	return p, res, nil
}

// Build the lesson-1 figure from a PLA run: points by class, the decision
// regions, the margin band, the boundary and the normal vector w.
func ExampleBoundary() {
	p, res, err := hyperplaneFigure()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("w = %v, b = %v after %d updates\n", res.W, res.B, res.Updates)
	b, err := plots.PNG(p, 12*vg.Centimeter, 12*vg.Centimeter)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("PNG starts with %q\n", b[1:4])
	// Output:
	// w = [1.5 4.5], b = -10 after 30 updates
	// PNG starts with "PNG"
}

// lossFigure draws the perceptron loss L(w) = (1/n) Σ max(0, -y_i w·x_i)
// of the toy data (no bias) with the path of the PLA weights on it.
func lossFigure() (*plot.Plot, error) {
	d := toy()
	// Centre the data so that a boundary through the origin separates it.
	x := d.Rows()
	for _, r := range x {
		r[0] -= 2.2
		r[1] -= 2.4
	}
	d, err := perceptron.NewDataset(x, d.Y)
	if err != nil {
		return nil, err
	}
	loss := func(w1, w2 float64) float64 {
		var s float64
		for i, r := range x {
			s += math.Max(0, -d.Y[i]*(w1*r[0]+w2*r[1]))
		}
		return s / float64(len(x))
	}
	var rec perceptron.Recorder
	opt := perceptron.Options{}
	opt.NoBias = true
	opt.Eta = 0.25
	opt.Control.Observer = rec.Observe
	if _, err := perceptron.PLA(d, opt); err != nil {
		return nil, err
	}
	path := [][2]float64{{0, 0}}
	for _, u := range rec.Updates {
		path = append(path, [2]float64{u.W[0], u.W[1]})
	}
	box := plots.Box{XMin: -1.5, XMax: 1.5, YMin: -1.5, YMax: 1.5}
	p := plots.New("Perceptron loss and the PLA path", "w1", "w2")
	if err := plots.SetRange(p, box); err != nil {
		return nil, err
	}
	c, err := plots.Contours(loss, box, nil, 120)
	if err != nil {
		return nil, err
	}
	tr, err := plots.Path(path, plots.Color(0))
	if err != nil {
		return nil, err
	}
	p.Add(c, tr)
	p.Legend.Add("PLA weights (start: square)", tr)
	return p, nil
}

// mistakesFigure shows the cumulative number of mistakes and the training
// error after each update of PLA on the toy data.
func mistakesFigure() (*plot.Plot, error) {
	d := toy()
	var rec perceptron.Recorder
	opt := perceptron.Options{}
	opt.Control.Observer = rec.Observe
	if _, err := perceptron.PLA(d, opt); err != nil {
		return nil, err
	}
	cum := make([]float64, len(rec.Updates))
	trainErr := make([]float64, len(rec.Updates))
	for t, u := range rec.Updates {
		cum[t] = float64(t + 1)
		e, err := perceptron.Hyperplane{W: u.W, B: u.B}.Errors(d)
		if err != nil {
			return nil, err
		}
		trainErr[t] = float64(e)
	}
	p := plots.New("PLA on toy data", "update t", "count")
	l1, err := plots.Series(cum)
	if err != nil {
		return nil, err
	}
	l2, err := plots.Steps(trainErr)
	if err != nil {
		return nil, err
	}
	l2.Color = plots.Color(1)
	l2.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(l1, l2)
	p.Legend.Add("updates so far", l1)
	p.Legend.Add("training errors after update t", l2)
	p.Legend.Top, p.Legend.Left = true, true
	return p, nil
}

// epochsFigure is a bar chart of the updates per epoch.
func epochsFigure() (*plot.Plot, error) {
	res, err := perceptron.PLA(toy(), perceptron.Options{})
	if err != nil {
		return nil, err
	}
	bars, err := plots.Bars(plots.Ints(res.UpdatesPerEpoch()), 20)
	if err != nil {
		return nil, err
	}
	p := plots.New("Updates per epoch", "epoch", "updates")
	p.Add(bars)
	p.Legend.Add("PLA, cyclic order", bars)
	return p, nil
}

// boundFigure plots a bound against actual counts with the line y = x.
func boundFigure() (*plot.Plot, error) {
	bound := []float64{4, 9, 16, 25, 30, 42, 50}
	actual := []float64{3, 5, 11, 12, 30, 20, 26}
	s, err := plots.Scatter(bound, actual)
	if err != nil {
		return nil, err
	}
	id, err := plots.Identity(0, 55)
	if err != nil {
		return nil, err
	}
	p := plots.New("Convergence bound vs actual updates", "(R/γ)²", "updates")
	p.Add(id, s)
	p.Legend.Add("data sets", s)
	p.Legend.Add("updates = bound", id)
	p.Legend.Left = true
	return p, nil
}

// circleFigure shows the decision regions of a non-linear score, as the
// kernel perceptron produces, with a vertical linear boundary for
// comparison.
func circleFigure() (*plot.Plot, error) {
	box := plots.Box{XMin: -2, XMax: 2, YMin: -2, YMax: 2}
	p := plots.New("Regions of a non-linear score", "x1", "x2")
	if err := plots.SetRange(p, box); err != nil {
		return nil, err
	}
	r, err := plots.Regions(func(x, y float64) float64 { return 1 - x*x - y*y }, box, 160)
	if err != nil {
		return nil, err
	}
	v, err := plots.Boundary(perceptron.Hyperplane{W: []float64{1, 0}, B: -1}, box)
	if err != nil {
		return nil, err
	}
	a, err := plots.Arrow(perceptron.Hyperplane{W: []float64{1, 0}, B: -1}, [2]float64{0, -1}, 0.6)
	if err != nil {
		return nil, err
	}
	d, err := perceptron.NewDataset(
		[][]float64{{0, 0}, {0.5, -0.3}, {-0.4, 0.6}, {1.5, 1.2}, {-1.4, -1}, {1.6, -1.5}, {-1.5, 1.4}},
		[]float64{1, 1, 1, -1, -1, -1, -1})
	if err != nil {
		return nil, err
	}
	p.Add(r, v, a)
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	p.Legend.Add("x1 = 1", v)
	p.Legend.Add("w = (1, 0)", a)
	return p, nil
}

// Render the frames of a step-through animation as a GIF.
func ExampleGIF() {
	d := toy()
	var rec perceptron.Recorder
	opt := perceptron.Options{}
	opt.Control.Observer = rec.Observe
	if _, err := perceptron.PLA(d, opt); err != nil {
		log.Fatal(err)
	}
	box := plots.Box{XMin: 0, XMax: 5, YMin: 0, YMax: 5}
	var frames []*plot.Plot
	for t, u := range rec.Updates {
		p := plots.New(fmt.Sprintf("after update %d", t+1), "x1", "x2")
		if err := plots.SetRange(p, box); err != nil {
			log.Fatal(err)
		}
		if err := plots.AddPoints(p, d, 0, 1); err != nil {
			log.Fatal(err)
		}
		line, err := plots.Boundary(perceptron.Hyperplane{W: u.W, B: u.B}, box)
		switch {
		case errors.Is(err, plots.ErrOutside):
			// Early in a run the boundary can lie outside the box:
			// show the points only.
			fmt.Printf("update %d: %v\n", t+1, err)
		case err != nil:
			log.Fatal(err)
		default:
			p.Add(line)
		}
		frames = append(frames, p)
	}
	b, err := plots.GIF(frames, 8*vg.Centimeter, 8*vg.Centimeter, 50)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d frames, GIF header %q\n", len(frames), b[:6])
	// Output:
	// update 1: perceptron/plots: the boundary w = [1 4], b = 1 does not cross the box {0 5 0 5}
	// 30 frames, GIF header "GIF89a"
}
