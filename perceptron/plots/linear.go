package plots

import (
	"errors"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perceptron-go/lessons/perceptron"
)

// check2D checks that h is a finite 2-D hyperplane with w ≠ 0 and returns
// ||w||.
func check2D(h perceptron.Hyperplane) (float64, error) {
	if len(h.W) != 2 {
		return 0, errorf("wrong dimension: w has %d components, a 2-D figure needs 2", len(h.W))
	}
	for _, v := range [...]float64{h.W[0], h.W[1], h.B} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, errorf("hyperplane w = %v, b = %v is not finite", h.W, h.B)
		}
	}
	n := math.Hypot(h.W[0], h.W[1])
	if n == 0 {
		return 0, errorf("w is the zero vector, so there is no boundary to draw")
	}
	return n, nil
}

// clipLevel returns the two ends of the segment of the line w·x + b = c
// inside the box, and false if the line misses the box (or only touches a
// corner). n is ||w||.
func clipLevel(h perceptron.Hyperplane, n, c float64, box Box) (a, z plotter.XY, ok bool) {
	// The line is p0 + t·d with p0 = (c - b) w/||w||² and d = (-w2, w1)/||w||.
	s := (c - h.B) / (n * n)
	p0 := [2]float64{s * h.W[0], s * h.W[1]}
	d := [2]float64{-h.W[1] / n, h.W[0] / n}
	lo := [2]float64{box.XMin, box.YMin}
	hi := [2]float64{box.XMax, box.YMax}
	tmin, tmax := math.Inf(-1), math.Inf(1)
	for k := range 2 {
		if d[k] == 0 {
			if p0[k] < lo[k] || p0[k] > hi[k] {
				return a, z, false
			}
			continue
		}
		t1, t2 := (lo[k]-p0[k])/d[k], (hi[k]-p0[k])/d[k]
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		tmin, tmax = math.Max(tmin, t1), math.Min(tmax, t2)
	}
	if !(tmin < tmax) {
		return a, z, false
	}
	clamp := func(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }
	a = plotter.XY{X: clamp(p0[0]+tmin*d[0], box.XMin, box.XMax), Y: clamp(p0[1]+tmin*d[1], box.YMin, box.YMax)}
	z = plotter.XY{X: clamp(p0[0]+tmax*d[0], box.XMin, box.XMax), Y: clamp(p0[1]+tmax*d[1], box.YMin, box.YMax)}
	return a, z, true
}

// Boundary returns the decision boundary w·x + b = 0 of the 2-D hyperplane
// h, clipped to the box, as a solid black line (vertical and horizontal
// lines included). The line runs from its first point to its second along
// w turned by +90°, (-w2, w1), so S+ is on its right. It is an error for h not to be 2-D, for w to be 0, or
// for the boundary to miss the box; that last error matches ErrOutside
// under errors.Is, so that an animation can skip the line in frames where
// the boundary is out of view.
func Boundary(h perceptron.Hyperplane, box Box) (*plotter.Line, error) {
	n, err := check2D(h)
	if err != nil {
		return nil, err
	}
	if err := box.check(); err != nil {
		return nil, err
	}
	a, z, ok := clipLevel(h, n, 0, box)
	if !ok {
		return nil, outside(errorf("the boundary w = %v, b = %v does not cross the box %v", h.W, h.B, box))
	}
	l, err := plotter.NewLine(plotter.XYs{a, z})
	if err != nil {
		return nil, errorf("boundary: %v", err)
	}
	l.Color = Black
	l.Width = vg.Points(1.5)
	return l, nil
}

// ErrOutside is matched, under errors.Is, by the error of Boundary and
// MarginBand when the line or band does not cross the box.
var ErrOutside = errors.New("perceptron/plots: outside the box")

// outsideError is an error that matches ErrOutside.
type outsideError struct{ error }

func (outsideError) Is(target error) bool { return target == ErrOutside }

func outside(err error) error { return outsideError{err} }

// Band is the margin band of a hyperplane: the lines at signed distance
// -gamma and +gamma from the boundary and, optionally, the strip between
// them filled with a translucent grey. A line that misses the box is nil.
type Band struct {
	// Lines[0] is at signed distance -gamma, Lines[1] at +gamma.
	Lines [2]*plotter.Line
	// Fill is the strip between the lines clipped to the box, or nil.
	Fill *plotter.Polygon
}

// MarginBand returns the band of points at distance at most gamma from the
// boundary of the 2-D hyperplane h, that is |w·x + b|/||w|| ≤ gamma,
// clipped to the box: its two edges as dashed grey lines and, if fill is
// true, the strip as a translucent polygon. It is an error for gamma not
// to be a finite number > 0, for h not to be 2-D with w ≠ 0, or for the
// band to miss the box (an error that matches ErrOutside).
func MarginBand(h perceptron.Hyperplane, gamma float64, box Box, fill bool) (*Band, error) {
	n, err := check2D(h)
	if err != nil {
		return nil, err
	}
	if err := box.check(); err != nil {
		return nil, err
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return nil, errorf("margin gamma must be a finite number > 0, got %v", gamma)
	}
	var b Band
	for k, sgn := range [2]float64{-1, 1} {
		a, z, ok := clipLevel(h, n, sgn*gamma*n, box)
		if !ok {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{a, z})
		if err != nil {
			return nil, errorf("margin band: %v", err)
		}
		l.Color = color.Gray{Y: 90}
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		b.Lines[k] = l
	}
	// Clip the box to -gamma ≤ (w·x + b)/||w|| ≤ gamma.
	poly := []plotter.XY{{X: box.XMin, Y: box.YMin}, {X: box.XMax, Y: box.YMin},
		{X: box.XMax, Y: box.YMax}, {X: box.XMin, Y: box.YMax}}
	dist := func(q plotter.XY) float64 { return (h.W[0]*q.X + h.W[1]*q.Y + h.B) / n }
	poly = clipHalf(poly, func(q plotter.XY) float64 { return gamma - dist(q) })
	poly = clipHalf(poly, func(q plotter.XY) float64 { return gamma + dist(q) })
	if len(poly) < 3 {
		return nil, outside(errorf("the margin band of width %v around w = %v, b = %v misses the box %v", gamma, h.W, h.B, box))
	}
	if fill {
		pg, err := plotter.NewPolygon(plotter.XYs(poly))
		if err != nil {
			return nil, errorf("margin band: %v", err)
		}
		pg.Color = color.NRGBA{R: 128, G: 128, B: 128, A: 56}
		pg.LineStyle.Width = 0
		b.Fill = pg
	}
	return &b, nil
}

// clipHalf clips the convex polygon to {q : f(q) ≥ 0}, f affine
// (Sutherland–Hodgman for one edge).
func clipHalf(poly []plotter.XY, f func(plotter.XY) float64) []plotter.XY {
	var out []plotter.XY
	for i, cur := range poly {
		prev := poly[(i+len(poly)-1)%len(poly)]
		fc, fp := f(cur), f(prev)
		if (fc >= 0) != (fp >= 0) {
			t := fp / (fp - fc)
			out = append(out, plotter.XY{X: prev.X + t*(cur.X-prev.X), Y: prev.Y + t*(cur.Y-prev.Y)})
		}
		if fc >= 0 {
			out = append(out, cur)
		}
	}
	return out
}

// Plot implements plot.Plotter: the fill first, then the lines.
func (b *Band) Plot(c draw.Canvas, p *plot.Plot) {
	if b.Fill != nil {
		b.Fill.Plot(c, p)
	}
	for _, l := range b.Lines {
		if l != nil {
			l.Plot(c, p)
		}
	}
}

// DataRange implements plot.DataRanger: the range of the lines and fill.
func (b *Band) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	grow := func(x0, x1, y0, y1 float64) {
		xmin, xmax = math.Min(xmin, x0), math.Max(xmax, x1)
		ymin, ymax = math.Min(ymin, y0), math.Max(ymax, y1)
	}
	if b.Fill != nil {
		grow(b.Fill.DataRange())
	}
	for _, l := range b.Lines {
		if l != nil {
			grow(plotter.XYRange(l))
		}
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: a dashed line (on the fill colour
// when filled).
func (b *Band) Thumbnail(c *draw.Canvas) {
	if b.Fill != nil {
		b.Fill.Thumbnail(c)
	}
	for _, l := range b.Lines {
		if l != nil {
			l.Thumbnail(c)
			return
		}
	}
}

// ArrowPlot is an arrow from From to To in data coordinates: a line and a
// filled triangular head whose size is fixed on the page, so it does not
// stretch with the axes.
type ArrowPlot struct {
	From, To plotter.XY
	draw.LineStyle
	// HeadLength is the length of the head on the page; its half-width is
	// 0.4 of that.
	HeadLength vg.Length
}

// NewArrow returns a black arrow from `from` to `to`. It is an error for a
// coordinate not to be finite.
func NewArrow(from, to [2]float64) (*ArrowPlot, error) {
	for _, v := range [...]float64{from[0], from[1], to[0], to[1]} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errorf("arrow from %v to %v is not finite", from, to)
		}
	}
	return &ArrowPlot{
		From:       plotter.XY{X: from[0], Y: from[1]},
		To:         plotter.XY{X: to[0], Y: to[1]},
		LineStyle:  draw.LineStyle{Color: Black, Width: vg.Points(1.5)},
		HeadLength: vg.Points(9),
	}, nil
}

// Arrow returns the normal vector w of the 2-D hyperplane h drawn as an
// arrow of the given length (in data units) that starts on the boundary at
// the point nearest to at, x0 = at - ((w·at + b)/||w||²) w, and ends at
// x0 + length·w/||w||, inside the positive half-space S+. The arrow looks
// orthogonal to the boundary when both axes have the same scale.
func Arrow(h perceptron.Hyperplane, at [2]float64, length float64) (*ArrowPlot, error) {
	n, err := check2D(h)
	if err != nil {
		return nil, err
	}
	if !(length > 0) || math.IsInf(length, 0) {
		return nil, errorf("arrow length must be a finite number > 0, got %v", length)
	}
	s := (h.W[0]*at[0] + h.W[1]*at[1] + h.B) / (n * n)
	from := [2]float64{at[0] - s*h.W[0], at[1] - s*h.W[1]}
	to := [2]float64{from[0] + length*h.W[0]/n, from[1] + length*h.W[1]/n}
	return NewArrow(from, to)
}

// Plot implements plot.Plotter.
func (a *ArrowPlot) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	from := vg.Point{X: trX(a.From.X), Y: trY(a.From.Y)}
	to := vg.Point{X: trX(a.To.X), Y: trY(a.To.Y)}
	drawArrow(&c, from, to, a.LineStyle, a.HeadLength)
}

// drawArrow draws the arrow on the page from `from` to `to`.
func drawArrow(c *draw.Canvas, from, to vg.Point, ls draw.LineStyle, head vg.Length) {
	dx, dy := float64(to.X-from.X), float64(to.Y-from.Y)
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	hl := math.Min(float64(head), l)
	base := vg.Point{X: to.X - vg.Length(hl*ux), Y: to.Y - vg.Length(hl*uy)}
	hw := 0.4 * hl
	c.StrokeLines(ls, []vg.Point{from, base})
	c.FillPolygon(ls.Color, []vg.Point{
		to,
		{X: base.X - vg.Length(hw*uy), Y: base.Y + vg.Length(hw*ux)},
		{X: base.X + vg.Length(hw*uy), Y: base.Y - vg.Length(hw*ux)},
	})
}

// DataRange implements plot.DataRanger.
func (a *ArrowPlot) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Min(a.From.X, a.To.X), math.Max(a.From.X, a.To.X),
		math.Min(a.From.Y, a.To.Y), math.Max(a.From.Y, a.To.Y)
}

// Thumbnail implements plot.Thumbnailer: a short arrow pointing right.
func (a *ArrowPlot) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	drawArrow(c, vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y}, a.LineStyle, a.HeadLength*2/3)
}
