package view_test

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestDisplayAltInNotebook checks that DisplayAlt sends one output: the
// PNG of plots.PNG as image/png and a text/html <img> holding exactly the
// bytes of plots.SVG, the escaped alt text, the class and the style that
// scale it to the cell's width, and the dark theme's rule; and that it
// waits for GoNB's acknowledgement as Display does.
func TestDisplayAltInNotebook(t *testing.T) {
	startInNotebook(t)
	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	syncs := fakeKernel.syncs.Load()
	alt := `Updates against (R/γ)² lie under the line "y = x" & never above it.`
	if err := view.DisplayAlt(p, 3*vg.Inch, 2*vg.Inch, alt); err != nil {
		t.Fatalf("DisplayAlt: %v", err)
	}
	if got := fakeKernel.syncs.Load() - syncs; got != 1 {
		t.Errorf("DisplayAlt returned after %d answered sync requests, want 1", got)
	}
	d := next(t)
	html := htmlOf(d)
	want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if png, ok := d.Data[protocol.MIMEImagePNG].([]byte); !ok || !bytes.Equal(png, want) {
		t.Errorf("DisplayAlt sent no image/png of plots.PNG beside the <img>: a saved notebook keeps the PNG itself")
	}
	svg, err := plots.SVG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	wantAlt := `alt="Updates against (R/γ)² lie under the line &quot;y = x&quot; &amp; never above it."`
	if !strings.HasPrefix(html, "<img "+wantAlt) {
		t.Errorf("DisplayAlt sent %.120q…, want an <img %s …>", html, wantAlt)
	}
	if !strings.Contains(html, `src="data:image/svg+xml;base64,`+base64.StdEncoding.EncodeToString(svg)+`"`) {
		t.Errorf("DisplayAlt's <img> does not hold the %d bytes of plots.SVG as a data URL", len(svg))
	}
	for _, part := range []string{`class="` + view.FigureClass + `"`, "width: 100%", "height: auto", "max-width: 40em",
		`[data-jp-theme-light="false"] img.` + view.FigureClass + ` { filter: invert(1)`} {
		if !strings.Contains(html, part) {
			t.Errorf("DisplayAlt's HTML has no %q: %.200q…", part, html)
		}
	}
}

// TestDisplayAltRefusesBlankAlt: a figure without alt text is an error,
// in a notebook or not, and nothing is sent.
func TestDisplayAltRefusesBlankAlt(t *testing.T) {
	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	for _, alt := range []string{"", "  \n"} {
		err := view.ShowAlt(p, alt)
		if err == nil || !strings.Contains(err.Error(), "no alt text") {
			t.Errorf("ShowAlt(p, %q) = %v, want the error that says there is no alt text", alt, err)
		}
	}
}

func TestDisplayAltOutsideNotebook(t *testing.T) {
	if gonbui.IsNotebook {
		t.Skip("running inside GoNB")
	}
	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	if err := view.ShowAlt(p, "a figure"); err != view.ErrNotNotebook {
		t.Fatalf("ShowAlt outside a notebook: got %v, want ErrNotNotebook", err)
	}
}
