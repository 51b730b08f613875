package plots_test

import (
	"bytes"
	"fmt"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestSVG checks the vector figure: an SVG document of the asked size (in
// points, 72 a inch) with the plot's title as text held to its measured
// width, no background drawn
// (the page shows through) while the plot keeps its own, the same bytes on
// every run, and an error for a nil plot or a size out of range.
func TestSVG(t *testing.T) {
	p := plot.New()
	p.Title.Text = "w·x + b = 0"
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	b, err := plots.SVG(p, 2*vg.Inch, vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, `<svg width="144pt" height="72pt" viewBox="0 0 144 72"`) {
		t.Errorf("SVG header %.200q, want a 144 × 72 pt document", s)
	}
	if !strings.Contains(s, "w·x + b = 0</text>") {
		t.Errorf("SVG has no title text")
	}
	// Every text keeps the width gonum/plot measured for it: the title's is
	// the width of its font's face.
	face := p.TextHandler.Cache().Lookup(p.Title.TextStyle.Font, p.Title.TextStyle.Font.Size)
	title := fmt.Sprintf(`<text textLength="%.2f" lengthAdjust="spacingAndGlyphs" `, face.Width(p.Title.Text).Points())
	if n, m := strings.Count(s, "<text "), strings.Count(s, "lengthAdjust="); n == 0 || n != m || !strings.Contains(s, title) {
		t.Errorf("%d texts, %d with a textLength; want all, the title's %q", n, m, title)
	}
	if !strings.Contains(s, "font-family:'Liberation Serif',serif;") {
		t.Errorf("SVG names its font with no generic family to fall back on")
	}
	if strings.Contains(s, "M0,0L144,0L144,72L0,72Z") {
		t.Errorf("SVG fills its whole canvas: the background must be left out")
	}
	if p.BackgroundColor != color.White {
		t.Errorf("SVG changed the plot's background to %v", p.BackgroundColor)
	}
	again, err := plots.SVG(p, 2*vg.Inch, vg.Inch)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("a second SVG of the same plot differs (err %v)", err)
	}
	if _, err := plots.SVG(nil, vg.Inch, vg.Inch); err == nil {
		t.Error("SVG(nil) gave no error")
	}
	if _, err := plots.SVG(p, 0, vg.Inch); err == nil || !strings.Contains(err.Error(), "size") {
		t.Errorf("SVG at width 0: %v, want the size error", err)
	}
}
