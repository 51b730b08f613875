package plots

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// SVG draws p as an SVG document of the given size with gonum/plot's vector
// canvas (vgsvg): it stays sharp at any zoom and on any screen. The plot's
// background is left out (p itself is not changed), so that the figure
// takes the colour of the page it sits on; the fonts are named, not
// embedded, and each text is held to the width gonum/plot measured for it
// (fitText). The same plot gives the same bytes on every run.
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
	c := &measuredSVG{Canvas: vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(false))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, errorf("svg: %v", err)
	}
	return fitText(buf.Bytes(), c.widths), nil
}

// measuredSVG is vgsvg's canvas that also notes the width, in points, that
// gonum/plot gave each string it drew, in order.
type measuredSVG struct {
	*vgsvg.Canvas
	widths []vg.Length
}

func (c *measuredSVG) FillString(f font.Face, pt vg.Point, str string) {
	c.widths = append(c.widths, f.Width(str))
	c.Canvas.FillString(f, pt, str)
}

// fitText gives the i-th <text> of svg the width widths[i] (textLength,
// glyphs and spacing scaled): gonum/plot lays text out with the metrics of
// its own fonts (Liberation), which a browser without them replaces with
// a wider or narrower one, and a legend would then run out of the figure.
// The fonts fall back to the generic family of the kind (serif, sans-serif
// or monospace) rather than the browser's default.
func fitText(svg []byte, widths []vg.Length) []byte {
	parts := bytes.Split(svg, []byte("<text "))
	if len(parts)-1 != len(widths) {
		return svg // not the canvas's own text: leave it as it is
	}
	var out bytes.Buffer
	out.Write(parts[0])
	for i, part := range parts[1:] {
		fmt.Fprintf(&out, `<text textLength="%.2f" lengthAdjust="spacingAndGlyphs" `, widths[i].Points())
		out.Write(part)
	}
	b := out.Bytes()
	for _, f := range []struct{ family, generic string }{
		{"Liberation Serif", "serif"}, {"Liberation Sans", "sans-serif"}, {"Liberation Mono", "monospace"},
	} {
		b = bytes.ReplaceAll(b, []byte("font-family:"+f.family+";"), []byte("font-family:'"+f.family+"',"+f.generic+";"))
	}
	return b
}
