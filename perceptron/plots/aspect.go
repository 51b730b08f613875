package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// EqualAxes sets the axis ranges of p so that the figure, rendered at
// width × height, shows at least the box b and one unit of x is as long on
// the page as one unit of y: a right angle is drawn as one and a circle as
// a circle. The axis whose unit would be longer is widened about the box's
// centre. On a logarithmic axis (plot.LogScale) the unit is a factor of 10,
// so that on log-log axes y = x is drawn at 45°; the box must then be
// positive along that axis.
//
// The data area depends on the tick labels, which depend on the ranges, so
// the ranges are set and the data area measured again until the two units
// agree to 0.1 %; an axis may then be a little wider than needed.
func EqualAxes(p *plot.Plot, b Box, width, height vg.Length) error {
	if err := b.check(); err != nil {
		return err
	}
	if p == nil {
		return errorf("EqualAxes: nil plot")
	}
	if !(width > 0) || !(height > 0) || width > 100*vg.Inch || height > 100*vg.Inch {
		return errorf("EqualAxes: size %v × %v must be > 0 and at most 100 inches", width, height)
	}
	_, xlog := p.X.Scale.(plot.LogScale)
	_, ylog := p.Y.Scale.(plot.LogScale)
	if xlog && b.XMin <= 0 || ylog && b.YMin <= 0 {
		return errorf("EqualAxes: box %v must be positive along a logarithmic axis", b)
	}
	// to and from map an axis to the space in which its unit is measured.
	to := func(v float64, log bool) float64 {
		if log {
			return math.Log10(v)
		}
		return v
	}
	from := func(v float64, log bool) float64 {
		if log {
			return math.Pow(10, v)
		}
		return v
	}
	x0, x1 := to(b.XMin, xlog), to(b.XMax, xlog)
	y0, y1 := to(b.YMin, ylog), to(b.YMax, ylog)
	c := draw.New(vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI)))
	xw, yh := x1-x0, y1-y0
	for range 10 {
		xc, yc := (x0+x1)/2, (y0+y1)/2
		p.X.Min, p.X.Max = from(xc-xw/2, xlog), from(xc+xw/2, xlog)
		p.Y.Min, p.Y.Max = from(yc-yh/2, ylog), from(yc+yh/2, ylog)
		da := p.DataCanvas(c)
		w, h := float64(da.Max.X-da.Min.X), float64(da.Max.Y-da.Min.Y)
		if !(w > 0) || !(h > 0) {
			return errorf("EqualAxes: no room for data in a %v × %v figure", width, height)
		}
		ux, uy := w/xw, h/yh // page length of one unit
		if math.Abs(ux/uy-1) < 1e-3 {
			return nil
		}
		// Widen the axis whose unit is longer. Ranges only grow, so the box
		// is always shown; when a new tick label changes the data area and
		// the other unit becomes the longer one, that axis grows next.
		if ux > uy {
			xw = w / uy
		} else {
			yh = h / ux
		}
	}
	return errorf("EqualAxes: the axes of a %v × %v figure did not settle on equal units", width, height)
}
