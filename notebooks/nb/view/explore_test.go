package view_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestControlErrors checks the message of every invalid control, reported
// by Explore before it looks for a notebook.
func TestControlErrors(t *testing.T) {
	render := func(view.Values) (*plot.Plot, string, error) { return plot.New(), "", nil }
	ok := view.Slider("w", 0, 1, 0.5, 0)
	tests := []struct {
		controls []view.Control
		want     string
	}{
		{nil, "view: explore: no controls"},
		{[]view.Control{view.Slider("w", 0, 1, 0, 0)}, `view: slider "w": step 0 must be > 0`},
		{[]view.Control{view.Slider("w", 1, 1, 0.1, 1)}, `view: slider "w": max 1 must be > min 1`},
		{[]view.Control{view.Slider("w", 0, math.Inf(1), 0.1, 0)}, `view: slider "w": max is +Inf, want a finite number`},
		{[]view.Control{view.Slider("w", 0, 1, 0.3, 0)}, `view: slider "w": max−min = 1 is not a whole number of steps of 0.3`},
		{[]view.Control{view.Slider("w", 0, 1, 0.1, 0.25)}, `view: slider "w": value 0.25 is not one of its positions 0, 0.1, ..., 1`},
		{[]view.Control{view.Slider("w", 0, 1, 0.1, 2)}, `view: slider "w": value 2 is not one of its positions 0, 0.1, ..., 1`},
		{[]view.Control{view.Slider("w", 0, 1, 1e-5, 0)}, `view: slider "w": 0 to 1 in steps of 1e-05 is 100000 steps, more than 10000`},
		{[]view.Control{view.Choice("k", nil, "")}, `view: choice "k": no options`},
		{[]view.Control{view.Choice("k", []string{"a", "b", "a"}, "a")}, `view: choice "k": options 0 and 2 are both "a"`},
		{[]view.Control{view.Choice("k", []string{"a", "b"}, "c")}, `view: choice "k": value "c" is not one of the options ["a" "b"]`},
		{[]view.Control{ok, view.Choice("w", []string{"a"}, "a")}, `view: explore: controls 0 and 1 are both named "w"`},
		{[]view.Control{view.Steps("η", []float64{0.1}, 0.1)}, `view: steps "η": 1 values, want at least 2`},
		{[]view.Control{view.Steps("η", []float64{0.1, math.NaN()}, 0.1)}, `view: steps "η": value 1 is NaN, want a finite number`},
		{[]view.Control{view.Steps("η", []float64{0.1, 1, 0.5}, 0.1)}, `view: steps "η": value 2 (0.5) is not greater than value 1 (1)`},
		{[]view.Control{view.Steps("η", []float64{0.1, 0.1}, 0.1)}, `view: steps "η": value 1 (0.1) is not greater than value 0 (0.1)`},
		{[]view.Control{view.Steps("η", []float64{0.1, 0.5}, 0.2)}, `view: steps "η": value 0.2 is not one of the values [0.1 0.5]`},
		{[]view.Control{{}}, `view: explore: control 0 has no name (make controls with Slider, Steps or Choice)`},
	}
	for _, tc := range tests {
		_, err := view.Explore(vg.Inch, vg.Inch, render, tc.controls...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Explore(%v): error %v, want %q", tc.controls, err, tc.want)
		}
	}
	if _, err := view.Explore(vg.Inch, vg.Inch, nil, ok); err == nil || err.Error() != "view: explore: nil render function" {
		t.Errorf("Explore with a nil render function: error %v", err)
	}
	if gonbui.IsNotebook {
		return
	}
	if _, err := view.Explore(vg.Inch, vg.Inch, render, ok); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("valid Explore outside a notebook: error %v, want ErrNotNotebook", err)
	}
}

// exploreFigure is the render function of the tests: a plot whose title
// names the values, so each set of values draws different pixels.
func exploreFigure(calls *[]string) view.RenderFunc {
	return func(v view.Values) (*plot.Plot, string, error) {
		*calls = append(*calls, v.String())
		p := plot.New()
		p.Title.Text = fmt.Sprintf("w=%g data=%s", v.Number("w"), v.Choice("data"))
		return p, fmt.Sprintf("w is %g", v.Number("w")), nil
	}
}

// startInNotebook makes the test process a GoNB cell program talking to
// fakeKernel, and drains what earlier tests left in its queue.
func startInNotebook(t *testing.T) {
	t.Helper()
	if os.Getenv(protocol.GONB_PIPE_ENV) != "" {
		t.Skip("running inside GoNB")
	}
	if err := startFakeKernel(); err != nil {
		t.Fatal(err)
	}
	t.Setenv(protocol.GONB_PIPE_ENV, fakeKernel.out)
	t.Setenv(protocol.GONB_PIPE_BACK_ENV, fakeKernel.back)
	gonbui.IsNotebook = true
	t.Cleanup(func() { gonbui.IsNotebook = false })
	for {
		select {
		case <-fakeKernel.msgs:
			continue
		default:
		}
		return
	}
}

// htmlOf returns the text/html of m, or "".
func htmlOf(m protocol.DisplayData) string {
	s, _ := m.Data[protocol.MIMETextHTML].(string)
	return s
}

// liveData is the part of a live figure's data (see Explore) the tests
// read.
type liveData struct {
	Caption  string `json:"caption"`
	Controls []struct {
		Name   string   `json:"name"`
		Labels []string `json:"labels"`
		Start  int      `json:"start"`
		Choice bool     `json:"choice"`
		Total  int      `json:"total"`
	} `json:"controls"`
	Frames []struct {
		SVG     string `json:"svg"`
		Caption string `json:"caption"`
		Alt     string `json:"alt"`
		Values  string `json:"values"`
		Error   string `json:"error"`
	} `json:"frames"`
}

// liveScript matches the transient script of a live figure and its data.
var liveScript = regexp.MustCompile(`(?s)^<script>\(function \(fig\).*\}\)\((\{.*\})\);</script>\s*$`)

// runExplore calls Explore in the fake notebook, which must return the
// starting values, and reads what it sent: the caption paragraph, the
// still PNG and the live figure's data (nil if it sent none).
func runExplore(t *testing.T, render view.RenderFunc, controls ...view.Control) (v view.Values, caption string, png []byte, live *liveData) {
	t.Helper()
	v, err := view.Explore(3*vg.Inch, 2*vg.Inch, render, controls...)
	if err != nil {
		t.Fatal(err)
	}
	caption, png, live = readExplore(t)
	return v, caption, png, live
}

// drainKernel drops what the fake notebook holds (the outputs of calls
// that failed before showing all they would).
func drainKernel() {
	for {
		select {
		case <-fakeKernel.msgs:
		default:
			return
		}
	}
}

// readExplore reads what a live figure sent to the fake notebook: the
// caption paragraph, the still PNG and the live figure's data (nil if it
// sent none).
func readExplore(t *testing.T) (caption string, png []byte, live *liveData) {
	t.Helper()
	for {
		var m protocol.DisplayData
		select {
		case m = <-fakeKernel.msgs:
		default:
			return caption, png, live
		}
		h := htmlOf(m)
		switch {
		case strings.Contains(h, `class="plots-explore-caption"`):
			caption = h
		case strings.HasPrefix(h, "<script>"):
			s := liveScript.FindStringSubmatch(h)
			if s == nil {
				t.Fatalf("a script that is not a live figure's: %.300q", h)
			}
			live = new(liveData)
			if err := json.Unmarshal([]byte(s[1]), live); err != nil {
				t.Fatalf("the live figure's data: %v", err)
			}
		case strings.Contains(h, "gonb_") || strings.Contains(h, "comm"):
			t.Errorf("Explore used GoNB's widgets: %.300q", h)
		}
		if p, ok := m.Data[protocol.MIMEImagePNG].([]byte); ok {
			png = p
		}
	}
}

// pngOf is the PNG of the tests' figure for values v.
func pngOf(t *testing.T, v view.Values) []byte {
	t.Helper()
	p, _, _ := exploreFigure(new([]string))(v)
	b, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestExploreDrawsAhead plays a GoNB kernel (with a browser or not: Explore
// does not ask): Explore must return the starting values at once, leave the
// still figure of the starting values (the exact PNG bytes) under its
// caption, and send the browser every frame of the 21 × 2 positions in
// row-major order, each the SVG of its own values, drawing each once.
func TestExploreDrawsAhead(t *testing.T) {
	startInNotebook(t)
	defer view.SetFrameBudget(1000, time.Hour)()

	var calls []string
	v, caption, png, live := runExplore(t, exploreFigure(&calls),
		view.Slider("w", -1, 1, 0.1, 0.3), view.Choice("data", []string{"toy", "noisy"}, "noisy"))
	if got := v.String(); got != "w = 0.3, data = noisy" {
		t.Errorf("Explore returned %q, want the starting values w = 0.3, data = noisy", got)
	}
	if !bytes.Equal(png, pngOf(t, v)) {
		t.Errorf("the still figure is not the PNG of the starting values")
	}
	if !strings.Contains(caption, `data-values="w = 0.3, data = noisy">w is 0.3</p>`) {
		t.Errorf("caption %q, want the values and the caption", caption)
	}
	if live == nil {
		t.Fatal("no live figure sent")
	}
	if !strings.Contains(caption, `id="`+live.Caption+`"`) {
		t.Errorf("the live figure looks for the caption %q, which is not in %q", live.Caption, caption)
	}
	if len(live.Controls) != 2 {
		t.Fatalf("%d controls, want 2", len(live.Controls))
	}
	w, data := live.Controls[0], live.Controls[1]
	if w.Name != "w" || w.Choice || len(w.Labels) != 21 || w.Total != 21 || w.Labels[0] != "-1.0" || w.Labels[20] != "1.0" || w.Labels[w.Start] != "0.3" {
		t.Errorf("slider w: %+v, want 21 positions -1.0 ... 1.0 starting at 0.3", w)
	}
	if data.Name != "data" || !data.Choice || fmt.Sprint(data.Labels) != "[toy noisy]" || data.Start != 1 {
		t.Errorf("choice data: %+v, want toy, noisy starting at noisy", data)
	}
	if len(live.Frames) != 42 {
		t.Fatalf("%d frames, want 21 × 2", len(live.Frames))
	}
	if len(calls) != 42 {
		t.Errorf("render called %d times, want once per frame (42)", len(calls))
	}
	for i, f := range live.Frames {
		want := fmt.Sprintf("w = %s, data = %s", w.Labels[i/2], data.Labels[i%2])
		if f.Values != want || f.Error != "" {
			t.Fatalf("frame %d: values %q error %q, want %q", i, f.Values, f.Error, want)
		}
	}
	// Frame 2·20+0 is w = 1.0, data = toy.
	f := live.Frames[40]
	b, err := base64.StdEncoding.DecodeString(f.SVG)
	if err != nil {
		t.Fatal(err)
	}
	v1 := valuesOf(t, view.Slider("w", -1, 1, 0.1, 1), view.Choice("data", []string{"toy", "noisy"}, "toy"))
	if !bytes.Equal(b, svgOf(t, v1)) || f.Caption != "w is 1" {
		t.Errorf("frame 40 (%s) is not the figure of w = 1, data = toy (caption %q)", f.Values, f.Caption)
	}
}

// svgOf is the SVG of the tests' figure for values v: the form of the
// frames a live figure sends the browser.
func svgOf(t *testing.T, v view.Values) []byte {
	t.Helper()
	p, _, _ := exploreFigure(new([]string))(v)
	b, err := plots.SVG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// valuesOf returns the starting values of controls, as Explore returns them.
func valuesOf(t *testing.T, controls ...view.Control) view.Values {
	t.Helper()
	v, _, _, _ := runExplore(t, func(view.Values) (*plot.Plot, string, error) { return plot.New(), "", nil }, controls...)
	return v
}

// TestSteps checks a slider over listed numbers: Number reads each value
// exactly as listed, the browser gets a slider (not a choice) with one label
// a value and the start where value is, and every position is drawn.
func TestSteps(t *testing.T) {
	startInNotebook(t)
	etas := []float64{0.1, 0.5, 1, 2, 1e3}
	var seen []float64
	_, _, _, live := runExplore(t, func(v view.Values) (*plot.Plot, string, error) {
		seen = append(seen, v.Number("η"))
		return plot.New(), fmt.Sprint("η is ", v.Number("η")), nil
	}, view.Steps("η", etas, 1))
	if live == nil || len(live.Controls) != 1 {
		t.Fatalf("live figure: %+v", live)
	}
	c := live.Controls[0]
	if c.Choice || c.Total != 5 || c.Start != 2 || !slices.Equal(c.Labels, []string{"0.1", "0.5", "1", "2", "1000"}) {
		t.Errorf("the control: %+v, want a slider of 5 positions labelled 0.1 0.5 1 2 1000, starting at 2", c)
	}
	if len(live.Frames) != 5 {
		t.Fatalf("%d frames, want 5", len(live.Frames))
	}
	for i, f := range live.Frames {
		if want := fmt.Sprint("η is ", etas[i]); f.Caption != want || f.Error != "" {
			t.Errorf("frame %d: caption %q, error %q, want %q", i, f.Caption, f.Error, want)
		}
	}
	slices.Sort(seen)
	if !slices.Equal(slices.Compact(seen), etas) {
		t.Errorf("the render saw η = %v, want each of %v", seen, etas)
	}
}

// TestExploreThins checks the frame budget: 41 × 2 positions do not fit in
// 10 frames, so the slider keeps its ends, its start and evenly spaced
// positions (5 of 41), and the choice both options. A render error for
// values other than the start is that frame's error, not Explore's.
func TestExploreThins(t *testing.T) {
	startInNotebook(t)
	defer view.SetFrameBudget(10, time.Hour)()
	_, _, _, live := runExplore(t, func(v view.Values) (*plot.Plot, string, error) {
		if v.Int("n") == 40 && v.Choice("c") == "b" {
			return nil, "", errors.New("no figure for 40, b")
		}
		return plot.New(), v.String(), nil
	}, view.Slider("n", 0, 40, 1, 7), view.Choice("c", []string{"a", "b"}, "a"))
	if live == nil {
		t.Fatal("no live figure sent")
	}
	n := live.Controls[0]
	if fmt.Sprint(n.Labels) != "[0 7 20 30 40]" || n.Total != 41 || n.Labels[n.Start] != "7" {
		t.Errorf("slider n drawn at %v (start %d of %d), want [0 7 20 30 40] starting at 7 of 41", n.Labels, n.Start, n.Total)
	}
	if len(live.Frames) != 10 {
		t.Fatalf("%d frames, want 10", len(live.Frames))
	}
	last := live.Frames[9]
	if last.Values != "n = 40, c = b" || !strings.Contains(last.Error, "no figure for 40, b") || last.SVG != "" {
		t.Errorf("the last frame %+v, want the render error for n = 40, c = b", last)
	}
}

// TestValuesMisuse checks that a name the render function asks for that is
// not a control of that kind is an error naming it and the values.
func TestValuesMisuse(t *testing.T) {
	startInNotebook(t)
	_, err := view.Explore(vg.Inch, vg.Inch, func(v view.Values) (*plot.Plot, string, error) {
		return plot.New(), fmt.Sprint(v.Number("eta"), v.Choice("w")), nil
	}, view.Slider("w", 0, 1, 0.5, 0))
	want := `w = 0.0: view: explore: the render function asked for no slider named "eta" and no choice named "w"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestDrawAheadDeadline checks that a frame not drawn by the deadline says
// so in its error, and that the start frame is always there.
func TestDrawAheadDeadline(t *testing.T) {
	var calls []string
	values, errs, err := view.DrawnAhead(exploreFigure(&calls), view.Slider("w", 0, 0.2, 0.1, 0.1), view.Choice("data", []string{"toy"}, "toy"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "[w = 0.0, data = toy w = 0.1, data = toy w = 0.2, data = toy]"; fmt.Sprint(values) != want {
		t.Fatalf("frames %q, want %s", values, want)
	}
	for i, e := range errs {
		switch {
		case i == 1 && e != "":
			t.Errorf("the start frame has the error %q", e)
		case i != 1 && !strings.Contains(e, values[i]+": not drawn ahead"):
			t.Errorf("frame %d (%s): error %q, want that it was not drawn ahead", i, values[i], e)
		}
	}
	if len(calls) != 1 {
		t.Errorf("render called %d times (%q), want once, for the start", len(calls), calls)
	}
}

// TestExploreAlt: ExploreAlt's still figure is one output with the PNG of
// the starting values and an <img> with the starting frame's alt text
// (escaped), and every frame drawn ahead carries its own alt text, which
// the browser puts on the <img> with the frame: an alt that says what the
// start shows would go stale when a control moves. A nil alt, or a blank
// alt text at the start, is an error and shows nothing; a blank one
// elsewhere is that frame's error. StepperAlt's the same, per frame.
func TestExploreAlt(t *testing.T) {
	startInNotebook(t)
	defer view.SetFrameBudget(1000, time.Hour)()
	var calls []string
	controls := []view.Control{view.Slider("w", -1, 1, 0.5, 0), view.Choice("data", []string{"toy", "noisy"}, "toy")}
	if _, err := view.ExploreAlt(nil, 3*vg.Inch, 2*vg.Inch, exploreFigure(&calls), controls...); err == nil {
		t.Error("ExploreAlt with a nil alt: no error")
	}
	blank := func(view.Values, string) string { return " " }
	if _, err := view.ExploreAlt(blank, 3*vg.Inch, 2*vg.Inch, exploreFigure(&calls), controls...); err == nil || !strings.Contains(err.Error(), "no alt text") {
		t.Errorf("ExploreAlt with a blank alt text: error %v", err)
	}
	if _, err := view.StepperAlt(nil, nil, 3*vg.Inch, 2*vg.Inch, nil); err == nil {
		t.Error("StepperAlt with a nil alt: no error")
	}
	drainKernel()
	alt := func(v view.Values, caption string) string {
		if v.Number("w") == 1 {
			return ""
		}
		return fmt.Sprintf(`The line "w" & its band at %s.`, v)
	}
	v, err := view.ExploreAlt(alt, 3*vg.Inch, 2*vg.Inch, exploreFigure(&calls), controls...)
	if err != nil {
		t.Fatal(err)
	}
	found, live := false, (*liveData)(nil)
	for done := false; !done; {
		var m protocol.DisplayData
		select {
		case m = <-fakeKernel.msgs:
		default:
			done = true
			continue
		}
		if s := liveScript.FindStringSubmatch(htmlOf(m)); s != nil {
			live = new(liveData)
			if err := json.Unmarshal([]byte(s[1]), live); err != nil {
				t.Fatal(err)
			}
		}
		png, ok := m.Data[protocol.MIMEImagePNG].([]byte)
		if !ok {
			continue
		}
		if !bytes.Equal(png, pngOf(t, v)) {
			t.Errorf("the still figure is not the PNG of the starting values")
		}
		if h := htmlOf(m); strings.HasPrefix(h, `<img alt="The line &quot;w&quot; &amp; its band at w = 0.0, data = toy."`) {
			found = true
		} else {
			t.Errorf("the still figure's HTML is %.120q, want an <img> with the start's alt text", h)
		}
	}
	if !found || live == nil || len(live.Frames) != 10 {
		t.Fatalf("still figure with its alt %v, live figure %v", found, live != nil)
	}
	for i, f := range live.Frames {
		want := `The line "w" & its band at ` + f.Values + "."
		if strings.HasPrefix(f.Values, "w = 1.0") {
			if f.Alt != "" || !strings.Contains(f.Error, "no alt text for this frame") {
				t.Errorf("frame %d (%s): alt %q, error %q; want the blank alt text as its error", i, f.Values, f.Alt, f.Error)
			}
		} else if f.Alt != want || f.Error != "" {
			t.Errorf("frame %d (%s): alt %q, error %q; want %q", i, f.Values, f.Alt, f.Error, want)
		}
	}
	if !strings.Contains(view.LiveFigureScript(), "img.alt = f.alt") {
		t.Error("the browser script does not put a frame's alt text on the <img>")
	}

	frames := []*plot.Plot{plot.New(), plot.New(), plot.New()}
	if _, err := view.StepperAlt(func(k int) string { return fmt.Sprintf("Frame %d drawn.", k) }, frames, 3*vg.Inch, 2*vg.Inch, nil); err != nil {
		t.Fatal(err)
	}
	_, _, live = readExplore(t)
	if live == nil || len(live.Frames) != 3 {
		t.Fatalf("stepper: live figure %+v, want 3 frames", live)
	}
	for k, f := range live.Frames {
		if want := fmt.Sprintf("Frame %d drawn.", k+1); f.Alt != want {
			t.Errorf("stepper frame %d: alt %q, want %q", k+1, f.Alt, want)
		}
	}
}

// TestExploreKeepsEveryOption: a choice is never thinned, however small the
// budget (lesson 04's order kept all four options the text names, on every
// run): with 4 options and a slider of 20 positions in 12 frames, the
// choice offers all 4 and the slider 3; with a budget below the options,
// the sliders keep only their start and the choice still all its options.
// Frames whose render read the same values are drawn once.
func TestExploreKeepsEveryOption(t *testing.T) {
	startInNotebook(t)
	orders := []string{"in-order", "random-cycle", "shuffle", "mistake"}
	for _, c := range []struct {
		budget, slider int
	}{{12, 3}, {2, 1}} {
		restore := view.SetFrameBudget(c.budget, time.Hour)
		calls := 0
		_, _, _, live := runExplore(t, func(v view.Values) (*plot.Plot, string, error) {
			calls++
			if v.Choice("order") == "mistake" {
				return plot.New(), "mistake", nil // reads no slider: drawn once
			}
			_ = v.Number("η")
			return plot.New(), v.String(), nil
		}, view.Slider("η", 0.1, 2, 0.1, 0.1), view.Choice("order", orders, "shuffle"))
		restore()
		if live == nil {
			t.Fatalf("budget %d: no live figure sent", c.budget)
		}
		if got := live.Controls[1].Labels; fmt.Sprint(got) != fmt.Sprint(orders) {
			t.Errorf("budget %d: the choice offers %q, want every option %q", c.budget, got, orders)
		}
		if got := len(live.Controls[0].Labels); got != c.slider {
			t.Errorf("budget %d: the slider offers %d positions, want %d", c.budget, got, c.slider)
		}
		// The start is drawn once for the still figure; the other frames
		// of the three orders that read η once each, "mistake" once.
		if want := 1 + 3*c.slider - 1 + 1; calls != want {
			t.Errorf("budget %d: render called %d times for %d frames, want %d", c.budget, calls, len(live.Frames), want)
		}
	}
}

// TestExploreSameUnderLoad: what a live figure offers does not depend on
// how fast its frames are drawn. A render that takes 20 ms a frame (a
// loaded machine; the old budget of 0.75 s drew 37 of these) still gets
// every one of its 51 positions drawn, with no frame missing, as lesson 5's
// margin slider has.
func TestExploreSameUnderLoad(t *testing.T) {
	startInNotebook(t)
	_, _, _, live := runExplore(t, func(v view.Values) (*plot.Plot, string, error) {
		time.Sleep(20 * time.Millisecond)
		return plot.New(), v.String(), nil
	}, view.Slider("margin", 0, 0.5, 0.01, 0.03))
	if live == nil {
		t.Fatal("no live figure sent")
	}
	if c := live.Controls[0]; len(c.Labels) != 51 || c.Total != 51 {
		t.Errorf("the slider offers %d of %d positions, want all 51", len(c.Labels), c.Total)
	}
	for i, f := range live.Frames {
		if f.Error != "" || f.SVG == "" || f.Caption != f.Values {
			t.Errorf("frame %d (%s): caption %q, error %q, want its figure and values", i, f.Values, f.Caption, f.Error)
		}
	}
}
