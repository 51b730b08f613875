package view_test

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// kernelFigure is a render function like lesson 9's explorer: the choice
// picks which of two sliders it reads. It records each call's values.
func kernelFigure(calls *[]string) view.RenderFunc {
	return func(v view.Values) (*plot.Plot, string, error) {
		p := plot.New()
		kind := v.Choice("kernel")
		var x float64
		if kind == "poly" {
			x = v.Number("degree")
		} else {
			x = v.Number("gamma")
		}
		// Not v.String(): that reads every control, so no frame would be
		// reused.
		*calls = append(*calls, fmt.Sprintf("%s %g", kind, x))
		if x == 3 && kind == "poly" {
			return nil, "", errors.New("degree 3 breaks")
		}
		p.Title.Text = fmt.Sprintf("%s %g", kind, x)
		return p, fmt.Sprintf("%s at %g", kind, x), nil
	}
}

func kernelControls() []view.Control {
	return []view.Control{
		view.Choice("kernel", []string{"rbf", "poly"}, "rbf"),
		view.Slider("degree", 1, 4, 1, 2),
		view.Slider("gamma", 0.5, 2, 0.5, 1),
	}
}

// captionAlt is the tests' alt text of a frame: its caption in a sentence
// (it asks no control, so frames are reused as without it).
func captionAlt(_ view.Values, caption string) string { return "The figure of " + caption + "." }

// exportAll runs ExploreAlt outside a notebook with ExportFrames on (one
// shard of shards) and returns the figure it exported.
func exportAll(t *testing.T, render view.RenderFunc, shard, shards int) view.ExportedFigure {
	t.Helper()
	var got []view.ExportedFigure
	view.ExportFrames(shard, shards, func(f view.ExportedFigure) error { got = append(got, f); return nil })
	defer view.ExportFrames(0, 1, nil)
	v, err := view.ExploreAlt(captionAlt, 3*vg.Inch, 2*vg.Inch, render, kernelControls()...)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "kernel = rbf, degree = 2, gamma = 1.0" {
		t.Errorf("ExploreAlt returned %q, want the starting values", v)
	}
	if len(got) != 1 {
		t.Fatalf("%d figures exported, want 1", len(got))
	}
	return got[0]
}

// TestExportFrames checks what the web site gets: every combination of
// positions (2 × 4 × 4) in row-major order, each the PNG and caption of its
// own values, a render error as that frame's error, and a frame reused
// (not drawn again) when the render function did not ask for a control
// that changed: 4 gammas for rbf and 4 degrees for poly, plus the starting
// frame, which is drawn first to check it.
func TestExportFrames(t *testing.T) {
	var calls []string
	fig := exportAll(t, kernelFigure(&calls), 0, 1)
	if fig.Alt != "The figure of rbf at 1." {
		t.Errorf("alt %q, want the starting frame's", fig.Alt)
	}
	want := []view.ExportedControl{
		{Name: "kernel", Labels: []string{"rbf", "poly"}, Start: 0, Choice: true},
		{Name: "degree", Labels: []string{"1", "2", "3", "4"}, Start: 1},
		{Name: "gamma", Labels: []string{"0.5", "1.0", "1.5", "2.0"}, Start: 1},
	}
	if fmt.Sprintf("%+v", fig.Controls) != fmt.Sprintf("%+v", want) {
		t.Errorf("controls %+v, want %+v", fig.Controls, want)
	}
	if len(fig.Frames) != 32 {
		t.Fatalf("%d frames, want 2 × 4 × 4", len(fig.Frames))
	}
	if len(calls) != 1+4+4 {
		t.Errorf("render called %d times (%q), want the start, then 4 gammas of rbf and 4 degrees of poly", len(calls), calls)
	}
	for i, f := range fig.Frames {
		k, d, g := want[0].Labels[i/16], want[1].Labels[i/4%4], want[2].Labels[i%4]
		values := fmt.Sprintf("kernel = %s, degree = %s, gamma = %s", k, d, g)
		if f == nil || f.Values != values {
			t.Fatalf("frame %d: %+v, want values %q", i, f, values)
		}
		x := g
		if k == "poly" {
			x = d
		}
		if k == "poly" && d == "3" {
			if f.Error == "" || !strings.Contains(f.Error, "degree 3 breaks") || f.PNG != nil {
				t.Errorf("frame %d (%s): error %q, want the render's error and no PNG", i, values, f.Error)
			}
			continue
		}
		xv, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatal(err)
		}
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s %g", k, xv)
		b, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
		if err != nil {
			t.Fatal(err)
		}
		if f.Error != "" || !bytes.Equal(f.PNG, b) {
			t.Errorf("frame %d (%s): error %q, PNG not the figure titled %q", i, values, f.Error, p.Title.Text)
		}
		if wantCap := fmt.Sprintf("%s at %g", k, xv); f.Caption != wantCap || f.Alt != "The figure of "+wantCap+"." {
			t.Errorf("frame %d: caption %q, alt %q, want %q and its alt", i, f.Caption, f.Alt, wantCap)
		}
	}
}

// TestExportFramesShards checks that two shards draw disjoint halves that
// together make every frame.
func TestExportFramesShards(t *testing.T) {
	var calls []string
	a := exportAll(t, kernelFigure(&calls), 0, 2)
	b := exportAll(t, kernelFigure(&calls), 1, 2)
	for i := range a.Frames {
		if (a.Frames[i] == nil) == (b.Frames[i] == nil) {
			t.Fatalf("frame %d: drawn by shard 0 %v, by shard 1 %v; want exactly one", i, a.Frames[i] != nil, b.Frames[i] != nil)
		}
		if (a.Frames[i] != nil) != (i%2 == 0) {
			t.Errorf("frame %d drawn by the wrong shard", i)
		}
	}
}

// TestExportFramesOff checks that without ExportFrames, and with it turned
// off again, nothing is shown outside a notebook: ErrNotNotebook; while it
// is on, the display functions return nil; a render error at the start is
// the call's error, as in a notebook.
func TestExportFramesOff(t *testing.T) {
	render := kernelFigure(new([]string))
	if _, err := view.Explore(72, 72, render, kernelControls()...); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("Explore without ExportFrames: %v, want ErrNotNotebook", err)
	}
	view.ExportFrames(0, 1, func(view.ExportedFigure) error { return errors.New("disk full") })
	if err := view.ShowAlt(plot.New(), "alt"); err != nil {
		t.Errorf("ShowAlt while exporting: %v, want nil", err)
	}
	if _, err := view.Explore(72, 72, render, kernelControls()...); err == nil || err.Error() != "disk full" {
		t.Errorf("Explore: %v, want the export's error", err)
	}
	_, err := view.Explore(72, 72, render, view.Choice("kernel", []string{"rbf", "poly"}, "poly"), view.Slider("degree", 1, 4, 1, 3))
	if err == nil || !strings.Contains(err.Error(), "degree 3 breaks") {
		t.Errorf("a render error at the start: %v, want it returned", err)
	}
	view.ExportFrames(0, 1, nil)
	if err := view.ShowAlt(plot.New(), "alt"); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("ShowAlt after ExportFrames(nil): %v, want ErrNotNotebook", err)
	}
}
