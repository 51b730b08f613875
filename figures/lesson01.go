package figures

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// HyperplaneFigure draws the 2-D data d (columns 0 and 1), the boundary of
// h, its normal vector w as an arrow pointing into S+ and, when h separates
// d, the margin band of the data set: the strip of half-width
// γ = min_i y_i(w·x_i + b)/||w|| around the boundary, whose edge touches the
// nearest point, which is circled. The figure shows the box (choose it with
// the same scale on both axes, about 1.6 times wider than high, so that w
// looks orthogonal to the boundary); arrowLength is the arrow's length in
// data units.
func HyperplaneFigure(d *perceptron.Dataset, h perceptron.Hyperplane, box plots.Box, title string, arrowLength float64) (*plot.Plot, error) {
	xl, yl := "x1", "x2"
	if len(d.Features) >= 2 {
		xl, yl = d.Features[0], d.Features[1]
	}
	p := plots.New(title, xl, yl)
	p.Legend.Left = true
	if err := plots.SetRange(p, box); err != nil {
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
		p.Add(band)
		p.Legend.Add(fmt.Sprintf("margin band, γ = %.2f", gamma), band)
	}
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	line, err := plots.Boundary(h, box)
	if err != nil {
		return nil, err
	}
	p.Add(line)
	p.Legend.Add("boundary w·x + b = 0", line)
	if gamma > 0 {
		ring, err := plotter.NewScatter(plotter.XYs{{X: d.X.At(row, 0), Y: d.X.At(row, 1)}})
		if err != nil {
			return nil, err
		}
		ring.GlyphStyle = draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(7), Color: plots.Black}
		p.Add(ring)
		p.Legend.Add("nearest point", ring)
	}
	mid := [2]float64{(box.XMin + box.XMax) / 2, (box.YMin + box.YMax) / 2}
	arrow, err := plots.Arrow(h, mid, arrowLength)
	if err != nil {
		return nil, err
	}
	p.Add(arrow)
	p.Legend.Add("w (points into S+)", arrow)
	return p, nil
}

var (
	// lesson01Bank is lesson 1's two-feature bank: the hidden rule of
	// CreditApplicants at a typical age (46) and years in job (5), a score
	// of salary and debt alone: 0.05·salary − 0.1·debt − 1.1.
	lesson01Bank = perceptron.Hyperplane{W: []float64{0.05, -0.1}, B: -1.1}
	// Lesson01Box is the part of the plane lesson 1's figure shows: it holds
	// the applicants, with the same scale on both axes.
	Lesson01Box = plots.Box{XMin: 0, XMax: 90, YMin: -4, YMax: 53}
)

// lesson01Data returns lesson 1's applicants: the salary and debt of
// CreditApplicants(15, 0, 2), each labelled by the decision of lesson01Bank.
func lesson01Data() (*perceptron.Dataset, error) {
	return bankData(15, 2, []int{1, 3}, []string{"salary (k$)", "debt (k$)"}, lesson01Bank)
}

// bankData returns the given feature columns of CreditApplicants(n, 0,
// seed), named names, with each applicant labelled by rule's decision
// instead of the hidden one: a smaller bank for a figure.
func bankData(n int, seed uint64, cols []int, names []string, rule perceptron.Hyperplane) (*perceptron.Dataset, error) {
	all, _, err := perceptron.CreditApplicants(n, 0, seed)
	if err != nil {
		return nil, err
	}
	x := make([][]float64, all.N())
	y := make([]float64, all.N())
	for i := range x {
		for _, c := range cols {
			x[i] = append(x[i], all.X.At(i, c))
		}
		if y[i], err = rule.Predict(x[i]); err != nil {
			return nil, err
		}
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		return nil, err
	}
	d.Features = names
	d.Classes = all.Classes
	return d, nil
}

func init() {
	registerPlot("01_hyperplane.png", func() (*plot.Plot, error) {
		d, err := lesson01Data()
		if err != nil {
			return nil, err
		}
		return HyperplaneFigure(d, lesson01Bank, Lesson01Box, "Approve when 0.05·salary − 0.1·debt > 1.1", 15)
	})
}
