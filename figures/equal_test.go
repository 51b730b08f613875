package figures

import (
	"math"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestSetEqualRange checks that a unit has the same length on both axes of
// the data area (to 1%: tick labels may still shift by a fraction of a
// point) and that the box asked for is inside the ranges set.
func TestSetEqualRange(t *testing.T) {
	for _, box := range []plots.Box{{XMin: -1, XMax: 1, YMin: -1, YMax: 1}, {XMin: 0, XMax: 10, YMin: 0, YMax: 1}, {XMin: 0, XMax: 1, YMin: -5, YMax: 5}} {
		p := plots.New("t", "x", "y")
		if err := SetEqualRange(p, box, Width, Height); err != nil {
			t.Fatal(err)
		}
		c := draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: Width, Y: Height}}}
		da := p.DataCanvas(c)
		ux := float64(da.Size().X) / (p.X.Max - p.X.Min)
		uy := float64(da.Size().Y) / (p.Y.Max - p.Y.Min)
		if math.Abs(ux/uy-1) > 0.01 {
			t.Errorf("box %v: a unit is %.3f points on x and %.3f on y", box, ux, uy)
		}
		if p.X.Min > box.XMin || p.X.Max < box.XMax || p.Y.Min > box.YMin || p.Y.Max < box.YMax {
			t.Errorf("box %v: ranges x [%v, %v], y [%v, %v] do not hold it", box, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
		}
	}
	if err := SetEqualRange(plots.New("t", "x", "y"), plots.Box{XMin: 0, XMax: 1, YMin: 0, YMax: 1}, 0, Height); err == nil {
		t.Error("a zero width was accepted")
	}
}
