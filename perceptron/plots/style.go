package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
)

// errorf returns an error whose message starts with the package path.
func errorf(format string, args ...any) error {
	return fmt.Errorf("perceptron/plots: "+format, args...)
}

// The Okabe–Ito colour-blind safe palette (Okabe and Ito, 2008).
var (
	Orange        = color.RGBA{R: 230, G: 159, B: 0, A: 255}
	SkyBlue       = color.RGBA{R: 86, G: 180, B: 233, A: 255}
	BluishGreen   = color.RGBA{R: 0, G: 158, B: 115, A: 255}
	Yellow        = color.RGBA{R: 240, G: 228, B: 66, A: 255}
	Blue          = color.RGBA{R: 0, G: 114, B: 178, A: 255}
	Vermillion    = color.RGBA{R: 213, G: 94, B: 0, A: 255}
	ReddishPurple = color.RGBA{R: 204, G: 121, B: 167, A: 255}
	Black         = color.RGBA{A: 255}
)

// Class colours: the negative class is vermillion, the positive class blue;
// NegLight and PosLight are the light tints used for decision regions.
var (
	NegColor = Vermillion
	PosColor = Blue
	NegLight = color.RGBA{R: 250, G: 218, B: 196, A: 255}
	PosLight = color.RGBA{R: 196, G: 224, B: 242, A: 255}
)

// palette is the order in which Color hands out colours for series.
var palette = []color.RGBA{Blue, Vermillion, BluishGreen, ReddishPurple, Orange, SkyBlue, Black, Yellow}

// Color returns the i-th colour of the series palette (Okabe–Ito, starting
// with blue and vermillion), cycling when i is past its end; negative i
// count as 0.
func Color(i int) color.Color {
	if i < 0 {
		i = 0
	}
	return palette[i%len(palette)]
}

// Box is a rectangle of the plane, [XMin, XMax] × [YMin, YMax]: the part of
// the plane a figure shows.
type Box struct {
	XMin, XMax, YMin, YMax float64
}

// check reports a box that is not finite or has no area.
func (b Box) check() error {
	for _, v := range [...]float64{b.XMin, b.XMax, b.YMin, b.YMax} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errorf("box %v is not finite", b)
		}
	}
	if !(b.XMin < b.XMax) || !(b.YMin < b.YMax) {
		return errorf("box %v is empty: need XMin < XMax and YMin < YMax", b)
	}
	return nil
}

// BoxOf returns the smallest box holding columns xcol and ycol of every row
// of d, grown on each side by pad times its width (or height). A column
// whose values are all equal is given a width of 2 around its value.
func BoxOf(d *perceptron.Dataset, xcol, ycol int, pad float64) (Box, error) {
	if err := checkCols(d, xcol, ycol); err != nil {
		return Box{}, err
	}
	if math.IsNaN(pad) || math.IsInf(pad, 0) || pad < 0 {
		return Box{}, errorf("pad must be a finite number >= 0, got %v", pad)
	}
	b := Box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for i := 0; i < d.N(); i++ {
		x, y := d.X.At(i, xcol), d.X.At(i, ycol)
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
			return Box{}, errorf("row %d: point (%v, %v) is not finite", i, x, y)
		}
		b.XMin, b.XMax = math.Min(b.XMin, x), math.Max(b.XMax, x)
		b.YMin, b.YMax = math.Min(b.YMin, y), math.Max(b.YMax, y)
	}
	grow := func(lo, hi float64) (float64, float64) {
		if lo == hi {
			return lo - 1, hi + 1
		}
		p := pad * (hi - lo)
		return lo - p, hi + p
	}
	b.XMin, b.XMax = grow(b.XMin, b.XMax)
	b.YMin, b.YMax = grow(b.YMin, b.YMax)
	return b, nil
}

// SetRange fixes the axes of p to the box, so that the figure shows exactly
// b whatever its plotters' data ranges are.
func SetRange(p *plot.Plot, b Box) error {
	if err := b.check(); err != nil {
		return err
	}
	p.X.Min, p.X.Max = b.XMin, b.XMax
	p.Y.Min, p.Y.Max = b.YMin, b.YMax
	return nil
}

// New returns a plot with the lessons' look: the title and axis labels,
// the legend at the top right, and a light grey grid behind the data.
func New(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = vg.Points(12)
	p.Y.Label.TextStyle.Font.Size = vg.Points(12)
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Padding = vg.Points(2)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	return p
}

// checkCols checks that d has rows and columns xcol and ycol.
func checkCols(d *perceptron.Dataset, xcol, ycol int) error {
	if d == nil || d.X == nil || d.X.IsEmpty() {
		return errorf("empty data: no rows")
	}
	if c := d.D(); xcol < 0 || xcol >= c || ycol < 0 || ycol >= c {
		return errorf("columns (%d, %d) out of range: the data has %d features", xcol, ycol, c)
	}
	if len(d.Y) != d.N() {
		return errorf("inconsistent numbers of samples: %d rows of x but %d labels", d.N(), len(d.Y))
	}
	return nil
}
