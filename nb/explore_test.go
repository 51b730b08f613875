package nb_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/nb"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestControlErrors checks the message of every invalid control, reported
// by Explore before it looks for a notebook.
func TestControlErrors(t *testing.T) {
	render := func(nb.Values) (*plot.Plot, string, error) { return plot.New(), "", nil }
	ok := nb.Slider("w", 0, 1, 0.5, 0)
	tests := []struct {
		controls []nb.Control
		want     string
	}{
		{nil, "nb: explore: no controls"},
		{[]nb.Control{nb.Slider("w", 0, 1, 0, 0)}, `nb: slider "w": step 0 must be > 0`},
		{[]nb.Control{nb.Slider("w", 1, 1, 0.1, 1)}, `nb: slider "w": max 1 must be > min 1`},
		{[]nb.Control{nb.Slider("w", 0, math.Inf(1), 0.1, 0)}, `nb: slider "w": max is +Inf, want a finite number`},
		{[]nb.Control{nb.Slider("w", 0, 1, 0.3, 0)}, `nb: slider "w": max−min = 1 is not a whole number of steps of 0.3`},
		{[]nb.Control{nb.Slider("w", 0, 1, 0.1, 0.25)}, `nb: slider "w": value 0.25 is not one of its positions 0, 0.1, ..., 1`},
		{[]nb.Control{nb.Slider("w", 0, 1, 0.1, 2)}, `nb: slider "w": value 2 is not one of its positions 0, 0.1, ..., 1`},
		{[]nb.Control{nb.Slider("w", 0, 1, 1e-5, 0)}, `nb: slider "w": 0 to 1 in steps of 1e-05 is 100000 steps, more than 10000`},
		{[]nb.Control{nb.Choice("k", nil, "")}, `nb: choice "k": no options`},
		{[]nb.Control{nb.Choice("k", []string{"a", "b", "a"}, "a")}, `nb: choice "k": options 0 and 2 are both "a"`},
		{[]nb.Control{nb.Choice("k", []string{"a", "b"}, "c")}, `nb: choice "k": value "c" is not one of the options ["a" "b"]`},
		{[]nb.Control{ok, nb.Choice("w", []string{"a"}, "a")}, `nb: explore: controls 0 and 1 are both named "w"`},
		{[]nb.Control{{}}, `nb: explore: control 0 has no name (make controls with Slider or Choice)`},
	}
	for _, tc := range tests {
		_, err := nb.Explore(vg.Inch, vg.Inch, render, tc.controls...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Explore(%v): error %v, want %q", tc.controls, err, tc.want)
		}
	}
	if _, err := nb.Explore(vg.Inch, vg.Inch, nil, ok); err == nil || err.Error() != "nb: explore: nil render function" {
		t.Errorf("Explore with a nil render function: error %v", err)
	}
	if gonbui.IsNotebook {
		return
	}
	if _, err := nb.Explore(vg.Inch, vg.Inch, render, ok); !errors.Is(err, nb.ErrNotNotebook) {
		t.Errorf("valid Explore outside a notebook: error %v, want ErrNotNotebook", err)
	}
}

// exploreFigure is the render function of the tests: a plot whose title
// names the values, so each set of values draws different pixels.
func exploreFigure(calls *[]string) nb.RenderFunc {
	return func(v nb.Values) (*plot.Plot, string, error) {
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

// TestExploreHeadless plays a GoNB kernel that no browser is attached to
// (as nbclient in CI): nobody answers the probe, so Explore must return the
// starting values after the probe's wait, having drawn them once and shown
// that figure (the exact PNG bytes) with its caption. The URL mend must
// reach the kernel before the subscription that makes GoNB install its
// widget connection.
func TestExploreHeadless(t *testing.T) {
	startInNotebook(t)
	defer nb.SetProbeWait(300 * time.Millisecond)()

	var calls []string
	start := time.Now()
	v, err := nb.Explore(3*vg.Inch, 2*vg.Inch, exploreFigure(&calls),
		nb.Slider("w", -1, 1, 0.1, 0.3), nb.Choice("data", []string{"toy", "noisy"}, "noisy"))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("headless Explore took %v", d)
	}
	if got := v.Number("w"); got != 0.3 {
		t.Errorf("w = %v, want exactly 0.3", got)
	}
	if got := v.Choice("data"); got != "noisy" {
		t.Errorf("data = %q, want noisy", got)
	}
	if want := []string{"w = 0.3, data = noisy"}; fmt.Sprint(calls) != fmt.Sprint(want) {
		t.Errorf("render calls %q, want %q", calls, want)
	}
	p, _, _ := exploreFigure(new([]string))(v)
	want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}

	mended, subscribed := -1, -1
	caption := ""
	for i := 0; ; i++ {
		m := next(t)
		h := htmlOf(m)
		switch {
		case strings.Contains(h, nb.MendWidgetURLScript):
			mended = i
		case m.Data[protocol.MIMECommSubscribe] != nil:
			subscribed = i
		case strings.Contains(h, "gonb_slider") || strings.Contains(h, "<select"):
			t.Errorf("headless Explore built a widget: %q", h)
		case strings.Contains(h, `class="plots-explore-caption"`):
			caption = h
		}
		if png, ok := m.Data[protocol.MIMEImagePNG].([]byte); ok {
			if !bytes.Equal(png, want) {
				t.Errorf("the still figure is not the PNG of the starting values")
			}
			break
		}
	}
	if mended < 0 || subscribed < 0 || mended > subscribed {
		t.Errorf("URL mend sent as message %d, subscription as %d: want the mend first", mended, subscribed)
	}
	if !strings.Contains(caption, `data-values="w = 0.3, data = noisy">w is 0.3</p>`) {
		t.Errorf("caption %q, want the values and the caption", caption)
	}
}

// TestExploreLive plays the kernel and a browser that answers: the probe,
// each widget's first value, then a move of the slider, a new choice and a
// click on Done. The figure must follow the moves, and Done must leave the
// last figure as a still PNG and return its values.
func TestExploreLive(t *testing.T) {
	startInNotebook(t)
	defer nb.SetProbeWait(5 * time.Second)()

	type result struct {
		v   nb.Values
		err error
	}
	done := make(chan result, 1)
	var calls []string
	go func() {
		v, err := nb.Explore(3*vg.Inch, 2*vg.Inch, exploreFigure(&calls),
			nb.Slider("w", -1, 1, 0.1, 0.3), nb.Choice("data", []string{"toy", "noisy"}, "toy"))
		done <- result{v, err}
	}()

	probe := regexp.MustCompile(`comm\.send\("(/perceptron/plots/probe/[^"]+)", 1\)`)
	synced := regexp.MustCompile(`newSyncedVariable\("([^"]+)", ([^)]+)\)`)
	var addrs []string // slider, select, button
	frames := 0
	// After Done, Explore may return before the test has read its last
	// messages (the still figure): its result then waits in ended.
	var ended *result
	doneSent := false
	send := func(addr string, v any) {
		if err := answer(protocol.CommValue{Address: addr, Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	for {
		var m protocol.DisplayData
		select {
		case m = <-fakeKernel.msgs:
		case r := <-done:
			if !doneSent {
				t.Fatalf("Explore returned before Done: %v %v", r.v, r.err)
			}
			ended = &r
			continue
		case <-time.After(10 * time.Second):
			t.Fatal("no message from Explore within 10 s")
		}
		h := htmlOf(m)
		if s := probe.FindStringSubmatch(h); s != nil {
			send(s[1], 1)
		}
		if s := synced.FindStringSubmatch(h); s != nil {
			addrs = append(addrs, s[1])
			// The browser sends each widget's starting value: the slider's
			// position (0.3 is position 13 of -1..1), the select's index,
			// the button's count.
			send(s[1], []any{13, 0, 0}[len(addrs)-1])
		}
		if strings.Contains(h, `class="plots-explore-frame"`) {
			frames++
			switch frames {
			case 1:
				if !strings.Contains(h, `data-values="w = 0.3, data = toy"`) {
					t.Fatalf("first frame %.200q, want w = 0.3, data = toy", h)
				}
				send(addrs[0], 20) // w = 1
			case 2:
				if !strings.Contains(h, `data-values="w = 1.0, data = toy"`) {
					t.Fatalf("second frame %.200q, want w = 1 after the move", h)
				}
				send(addrs[1], "1") // the browser sends the select's value as a string
			case 3:
				if !strings.Contains(h, `data-values="w = 1.0, data = noisy"`) {
					t.Fatalf("third frame %.200q, want data = noisy", h)
				}
				doneSent = true
				send(addrs[2], 1) // Done
			}
		}
		if png, ok := m.Data[protocol.MIMEImagePNG].([]byte); ok {
			var r result
			if ended != nil {
				r = *ended
			} else {
				r = <-done
			}
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := r.v.String(); got != "w = 1.0, data = noisy" {
				t.Errorf("Explore returned %q, want w = 1.0, data = noisy", got)
			}
			p, _, _ := exploreFigure(new([]string))(r.v)
			want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(png, want) {
				t.Errorf("the still figure after Done is not the PNG of the last values")
			}
			break
		}
	}
	if len(addrs) != 3 {
		t.Errorf("widgets created: %d, want a slider, a select and a button", len(addrs))
	}
}

// TestValuesMisuse checks that a name the render function asks for that is
// not a control of that kind is an error naming it and the values.
func TestValuesMisuse(t *testing.T) {
	startInNotebook(t)
	defer nb.SetProbeWait(100 * time.Millisecond)()
	_, err := nb.Explore(vg.Inch, vg.Inch, func(v nb.Values) (*plot.Plot, string, error) {
		return plot.New(), fmt.Sprint(v.Number("eta"), v.Choice("w")), nil
	}, nb.Slider("w", 0, 1, 0.5, 0))
	want := `w = 0.0: nb: explore: the render function asked for no slider named "eta" and no choice named "w"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
