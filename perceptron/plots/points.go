package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perceptron-go/lessons/perceptron"
)

// ClassNames returns the legend names of the classes -1 and +1: d.Classes
// when set, else "y = -1" and "y = +1".
func ClassNames(d *perceptron.Dataset) (neg, pos string) {
	neg, pos = "y = -1", "y = +1"
	if d != nil && d.Classes[0] != "" {
		neg = d.Classes[0]
	}
	if d != nil && d.Classes[1] != "" {
		pos = d.Classes[1]
	}
	return neg, pos
}

// Points returns the rows of d as two scatters, one per class, with
// columns xcol and ycol as the coordinates: the class -1 as vermillion
// circles and the class +1 as blue triangles. Either scatter may hold no
// point. It is an error for a label to be other than -1 or +1 or for a
// coordinate not to be finite.
func Points(d *perceptron.Dataset, xcol, ycol int) (neg, pos *plotter.Scatter, err error) {
	if err := checkCols(d, xcol, ycol); err != nil {
		return nil, nil, err
	}
	var nxy, pxy plotter.XYs
	for i := 0; i < d.N(); i++ {
		x, y := d.X.At(i, xcol), d.X.At(i, ycol)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return nil, nil, errorf("row %d: point (%v, %v) is not finite", i, x, y)
		}
		switch d.Y[i] {
		case -1:
			nxy = append(nxy, plotter.XY{X: x, Y: y})
		case 1:
			pxy = append(pxy, plotter.XY{X: x, Y: y})
		default:
			return nil, nil, errorf("row %d: label %v is not -1 or +1", i, d.Y[i])
		}
	}
	neg = &plotter.Scatter{XYs: nxy, GlyphStyle: draw.GlyphStyle{
		Color: NegColor, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}}
	pos = &plotter.Scatter{XYs: pxy, GlyphStyle: draw.GlyphStyle{
		Color: PosColor, Radius: vg.Points(4), Shape: draw.PyramidGlyph{}}}
	return neg, pos, nil
}

// AddPoints adds the two scatters of Points to p with legend entries named
// by ClassNames.
func AddPoints(p *plot.Plot, d *perceptron.Dataset, xcol, ycol int) error {
	neg, pos, err := Points(d, xcol, ycol)
	if err != nil {
		return err
	}
	nn, pn := ClassNames(d)
	p.Add(neg, pos)
	p.Legend.Add(nn, neg)
	p.Legend.Add(pn, pos)
	return nil
}
