package view_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestDisplayAltInNotebook checks that DisplayAlt sends one text/html
// <img> holding exactly the bytes of plots.PNG and the escaped alt text,
// and waits for GoNB's acknowledgement as Display does.
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
	if png, ok := d.Data[protocol.MIMEImagePNG].([]byte); !ok || len(png) == 0 {
		t.Errorf("DisplayAlt sent no image/png beside the <img>: a saved notebook keeps the PNG itself")
	}
	want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	wantAlt := `alt="Updates against (R/γ)² lie under the line &quot;y = x&quot; &amp; never above it."`
	if !strings.HasPrefix(html, "<img "+wantAlt) {
		t.Errorf("DisplayAlt sent %.120q…, want an <img %s …>", html, wantAlt)
	}
	if !strings.Contains(html, `src="data:image/png;base64,`+base64.StdEncoding.EncodeToString(want)+`"`) {
		t.Errorf("DisplayAlt's <img> does not hold the %d bytes of plots.PNG as a data URL", len(want))
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
