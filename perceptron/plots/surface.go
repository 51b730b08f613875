package plots

import (
	"image"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Regions returns the decision regions of any 2-D classifier as an image
// covering the box: the box is cut into resolution × resolution cells and
// each cell is painted by the sign of score at its centre, PosLight where
// the score is > 0, NegLight where it is < 0 and white where it is exactly
// 0. It is an error for resolution to be < 1 or > 4096 or for score to
// return NaN.
func Regions(score func(x, y float64) float64, box Box, resolution int) (*plotter.Image, error) {
	if err := box.check(); err != nil {
		return nil, err
	}
	if resolution < 1 || resolution > 4096 {
		return nil, errorf("resolution must be in [1, 4096], got %d", resolution)
	}
	img := image.NewRGBA(image.Rect(0, 0, resolution, resolution))
	dx := (box.XMax - box.XMin) / float64(resolution)
	dy := (box.YMax - box.YMin) / float64(resolution)
	for r := range resolution {
		// Image row 0 is the top of the box.
		y := box.YMax - (float64(r)+0.5)*dy
		for c := range resolution {
			x := box.XMin + (float64(c)+0.5)*dx
			s := score(x, y)
			var col color.RGBA
			switch {
			case s > 0:
				col = PosLight
			case s < 0:
				col = NegLight
			case s == 0:
				col = color.RGBA{R: 255, G: 255, B: 255, A: 255}
			default:
				return nil, errorf("score(%v, %v) is NaN", x, y)
			}
			img.SetRGBA(c, r, col)
		}
	}
	return plotter.NewImage(img, box.XMin, box.YMin, box.XMax, box.YMax), nil
}

// grid is a plotter.GridXYZ of the values of a function at the centres of
// the cells of a box; Z(c, r) is m.At(r, c).
type grid struct {
	m      *mat.Dense
	xs, ys []float64
}

func (g grid) Dims() (c, r int)   { r, c = g.m.Dims(); return c, r }
func (g grid) Z(c, r int) float64 { return g.m.At(r, c) }
func (g grid) X(c int) float64    { return g.xs[c] }
func (g grid) Y(r int) float64    { return g.ys[r] }

// Contours returns the contour lines of the function f over the box (the
// perceptron loss surface, for instance), f evaluated on a resolution ×
// resolution grid of cell centres, one line per level, coloured from dark
// (low) to light (high). With nil levels, ten levels run from the
// minimum to the maximum of the values, spaced quadratically so that they
// are denser near the minimum, where descent paths end. It is an error for resolution to be < 2 or
// > 2048 or for f to return NaN or ±Inf.
func Contours(f func(x, y float64) float64, box Box, levels []float64, resolution int) (*plotter.Contour, error) {
	if err := box.check(); err != nil {
		return nil, err
	}
	if resolution < 2 || resolution > 2048 {
		return nil, errorf("resolution must be in [2, 2048], got %d", resolution)
	}
	for i, l := range levels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, errorf("level %d is %v, not finite", i, l)
		}
	}
	g := grid{m: mat.NewDense(resolution, resolution, nil),
		xs: make([]float64, resolution), ys: make([]float64, resolution)}
	dx := (box.XMax - box.XMin) / float64(resolution)
	dy := (box.YMax - box.YMin) / float64(resolution)
	for i := range resolution {
		g.xs[i] = box.XMin + (float64(i)+0.5)*dx
		g.ys[i] = box.YMin + (float64(i)+0.5)*dy
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for r, y := range g.ys {
		for c, x := range g.xs {
			z := f(x, y)
			if math.IsNaN(z) || math.IsInf(z, 0) {
				return nil, errorf("f(%v, %v) is %v, not finite", x, y, z)
			}
			g.m.Set(r, c, z)
			lo, hi = math.Min(lo, z), math.Max(hi, z)
		}
	}
	if levels == nil {
		if lo == hi {
			levels = []float64{lo}
		} else {
			levels = make([]float64, 10)
			for i := range levels {
				// Quadratic spacing puts more lines near the minimum, where
				// descent paths end.
				t := (float64(i) + 0.5) / float64(len(levels))
				levels[i] = lo + t*t*(hi-lo)
			}
		}
	}
	cm := moreland.ExtendedBlackBody()
	cm.SetMin(0)
	cm.SetMax(1)
	pal := cm.Palette(len(levels) + 3) // skip the lightest colours
	c := plotter.NewContour(g, levels, pal)
	c.LineStyles[0].Width = vg.Points(1)
	return c, nil
}

// Trajectory is a path through the plane, such as the weights of gradient
// descent after each step: a line through the points, a small dot at each
// point and a square at the start.
type Trajectory struct {
	Line   *plotter.Line
	Points *plotter.Scatter
	Start  *plotter.Scatter
}

// Path returns the path through points in colour c (a dot at each point,
// an open square at the first one). It is an error for points to be empty
// or hold a NaN or ±Inf.
func Path(points [][2]float64, c color.Color) (*Trajectory, error) {
	if len(points) == 0 {
		return nil, errorf("path: no points")
	}
	xys := make(plotter.XYs, len(points))
	for i, q := range points {
		if math.IsNaN(q[0]) || math.IsInf(q[0], 0) || math.IsNaN(q[1]) || math.IsInf(q[1], 0) {
			return nil, errorf("path: point %d, %v, is not finite", i, q)
		}
		xys[i] = plotter.XY{X: q[0], Y: q[1]}
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, errorf("path: %v", err)
	}
	l.Color, l.Width = c, vg.Points(1.5)
	s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
	st, err := plotter.NewScatter(xys[:1])
	if err != nil {
		return nil, errorf("path: %v", err)
	}
	st.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4.5), Shape: draw.SquareGlyph{}}
	return &Trajectory{Line: l, Points: s, Start: st}, nil
}

// Plot implements plot.Plotter.
func (t *Trajectory) Plot(c draw.Canvas, p *plot.Plot) {
	t.Line.Plot(c, p)
	t.Points.Plot(c, p)
	t.Start.Plot(c, p)
}

// DataRange implements plot.DataRanger.
func (t *Trajectory) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(t.Points)
}

// GlyphBoxes implements plot.GlyphBoxer.
func (t *Trajectory) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	return append(t.Points.GlyphBoxes(p), t.Start.GlyphBoxes(p)...)
}

// Thumbnail implements plot.Thumbnailer: the line with a dot.
func (t *Trajectory) Thumbnail(c *draw.Canvas) {
	t.Line.Thumbnail(c)
	t.Points.Thumbnail(c)
}
