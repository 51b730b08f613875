package plots

import (
	"math"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// units measures, on p rendered at w × h, the page length of one unit of
// each axis (a decade on a log axis).
func units(p *plot.Plot, w, h vg.Length) (ux, uy float64) {
	da := p.DataCanvas(draw.New(vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI))))
	span := func(a plot.Axis) float64 {
		if _, ok := a.Scale.(plot.LogScale); ok {
			return math.Log10(a.Max) - math.Log10(a.Min)
		}
		return a.Max - a.Min
	}
	return float64(da.Max.X-da.Min.X) / span(p.X), float64(da.Max.Y-da.Min.Y) / span(p.Y)
}

func TestEqualAxes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		box        Box
		w, h       vg.Length
		xlog, ylog bool
	}{
		{"wide figure, square box", Box{-1, 1, -1, 1}, 14 * vg.Centimeter, 10 * vg.Centimeter, false, false},
		{"wide figure, wide box", Box{0, 90, -4, 53}, 14 * vg.Centimeter, 10 * vg.Centimeter, false, false},
		{"tall figure", Box{0, 10, 0, 1}, 8 * vg.Centimeter, 12 * vg.Centimeter, false, false},
		{"log-log", Box{1, 1e4, 1, 1e4}, 14 * vg.Centimeter, 10 * vg.Centimeter, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New("title", "x", "y")
			if tc.xlog {
				p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			}
			if tc.ylog {
				p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			}
			if err := EqualAxes(p, tc.box, tc.w, tc.h); err != nil {
				t.Fatal(err)
			}
			ux, uy := units(p, tc.w, tc.h)
			// 0.2 %: EqualAxes stops at 0.1 %; the rest is rounding.
			if !(math.Abs(ux/uy-1) <= 2e-3) {
				t.Errorf("one x unit is %v long, one y unit %v; want equal", ux, uy)
			}
			eps := 1e-9 * (math.Abs(tc.box.XMax) + math.Abs(tc.box.YMax))
			if p.X.Min > tc.box.XMin+eps || p.X.Max < tc.box.XMax-eps || p.Y.Min > tc.box.YMin+eps || p.Y.Max < tc.box.YMax-eps {
				t.Errorf("ranges x [%v, %v], y [%v, %v] do not hold the box %v", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, tc.box)
			}
			// No room is wasted: one axis shows at most 10 % more than the box
			// (a new tick label may make both axes grow a little).
			grow := func(lo, hi, blo, bhi float64, log bool) float64 {
				if log {
					return (math.Log10(hi) - math.Log10(lo)) / (math.Log10(bhi) - math.Log10(blo))
				}
				return (hi - lo) / (bhi - blo)
			}
			gx := grow(p.X.Min, p.X.Max, tc.box.XMin, tc.box.XMax, tc.xlog)
			gy := grow(p.Y.Min, p.Y.Max, tc.box.YMin, tc.box.YMax, tc.ylog)
			if min(gx, gy) > 1.1 {
				t.Errorf("both axes widened by more than 10%%: x by %v, y by %v", gx, gy)
			}
		})
	}
}

func TestEqualAxesErrors(t *testing.T) {
	w, h := 14*vg.Centimeter, 10*vg.Centimeter
	p := New("", "", "")
	for _, tc := range []struct {
		p    *plot.Plot
		box  Box
		w, h vg.Length
		want string
	}{
		{p, Box{1, 0, 0, 1}, w, h, "perceptron/plots: box {1 0 0 1} is empty: need XMin < XMax and YMin < YMax"},
		{nil, Box{0, 1, 0, 1}, w, h, "perceptron/plots: EqualAxes: nil plot"},
		{p, Box{0, 1, 0, 1}, 0, h, "perceptron/plots: EqualAxes: size 0 × 283.46456692913387 must be > 0 and at most 100 inches"},
	} {
		if err := EqualAxes(tc.p, tc.box, tc.w, tc.h); err == nil || err.Error() != tc.want {
			t.Errorf("EqualAxes(%v) = %v, want %q", tc.box, err, tc.want)
		}
	}
	lp := New("", "", "")
	lp.X.Scale = plot.LogScale{}
	if err := EqualAxes(lp, Box{0, 10, 1, 10}, w, h); err == nil || err.Error() != "perceptron/plots: EqualAxes: box {0 10 1 10} must be positive along a logarithmic axis" {
		t.Errorf("log axis from 0: %v", err)
	}
}
