package plots

import (
	"bytes"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SVG draws p as an SVG document of the given size with gonum/plot's vector
// canvas (vgsvg): it stays sharp at any zoom and on any screen. The plot's
// background is left out (p itself is not changed), so that the figure
// takes the colour of the page it sits on; the fonts are named, not
// embedded. The same plot gives the same bytes on every run.
func SVG(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	if p == nil {
		return nil, errorf("svg: nil plot")
	}
	if !(width > 0) || !(height > 0) || width > 100*vg.Inch || height > 100*vg.Inch {
		return nil, errorf("svg: size %v × %v must be > 0 and at most 100 inches", width, height)
	}
	bg := p.BackgroundColor
	p.BackgroundColor = nil
	defer func() { p.BackgroundColor = bg }()
	c := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, errorf("svg: %v", err)
	}
	return buf.Bytes(), nil
}
