package figures

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// SetEqualRange sets the axis ranges of p to the box widened in x or in y
// (about its centre) so that, drawn at width × height, one unit has the
// same length on both axes: circles look round and right angles look right.
// The data area depends a little on the tick labels, which depend on the
// ranges, so the widening is repeated until it settles.
func SetEqualRange(p *plot.Plot, box plots.Box, width, height vg.Length) error {
	if err := plots.SetRange(p, box); err != nil {
		return err
	}
	if !(width > 0) || !(height > 0) {
		return fmt.Errorf("figures: equal range: size %v × %v must be > 0", width, height)
	}
	c := draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: width, Y: height}}}
	for range 4 {
		da := p.DataCanvas(c)
		ratio := float64(da.Size().X) / float64(da.Size().Y) // data area width / height
		b := box
		dx, dy := b.XMax-b.XMin, b.YMax-b.YMin
		if dx/dy < ratio { // too narrow in x for the area: widen x
			cx, half := (b.XMin+b.XMax)/2, dy*ratio/2
			b.XMin, b.XMax = cx-half, cx+half
		} else {
			cy, half := (b.YMin+b.YMax)/2, dx/ratio/2
			b.YMin, b.YMax = cy-half, cy+half
		}
		if err := plots.SetRange(p, b); err != nil {
			return err
		}
	}
	return nil
}
