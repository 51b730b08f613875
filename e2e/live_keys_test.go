//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// liveKeysJS reports the live figure of the cell that holds the marker (%s
// are the notebook and the marker, JSON): each control (its element id,
// kind, position, last position and the label it shows), the caption's
// values, the values the figure's <img> was drawn for, a hash of its data
// URL, the notebook's active cell and mode (which a key that leaks out of
// a control changes), the focused element's id, the run-again note's
// visibility, and the rectangles of the controls and the figure with the
// window's size.
const liveKeysJS = `(() => {` + labPanelJS + `
	const r = {found: false, controls: [], values: '', imgValues: '', image: '', active: -1, mode: '',
		focused: '', src: '', note: false, noteText: '', box: null, img: null, w: innerWidth, h: innerHeight, filter: ''};
	if (!panel) return r;
	const cell = panel.content.widgets.find(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(%s));
	if (!cell) return r;
	r.found = true;
	r.active = panel.content.activeCellIndex;
	r.mode = panel.content.mode;
	r.focused = document.activeElement ? document.activeElement.id : '';
	const el = cell.node;
	el.querySelectorAll('.plots-explore-controls input, .plots-explore-controls select').forEach(i => {
		const c = {id: i.id, kind: i.tagName === 'SELECT' ? 'choice' : 'slider', name: i.dataset.control,
			value: +i.value, max: i.tagName === 'SELECT' ? i.options.length - 1 : +i.max, label: ''};
		if (c.kind === 'choice') c.label = i.options[i.selectedIndex].textContent;
		else c.label = i.parentElement.querySelector('.plots-explore-value').textContent;
		r.controls.push(c);
	});
	const cap = el.querySelector('.plots-explore-caption');
	if (cap) r.values = cap.dataset.values || '';
	const note = el.querySelector('.plots-explore-note');
	if (note) { r.note = !note.hidden && note.offsetParent !== null; r.noteText = note.textContent.trim(); }
	const img = el.querySelector('img.plots-figure');
	const rect = e => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
	if (img) {
		r.imgValues = img.dataset.values || ''; r.src = img.src.slice(0, img.src.indexOf(',') + 1);
		let h = 0;
		for (let i = 0; i < img.src.length; i++) h = (Math.imul(h, 31) + img.src.charCodeAt(i)) | 0;
		r.image = img.src.length + ':' + (h >>> 0).toString(16);
		r.img = rect(img);
		r.filter = getComputedStyle(img).filter;
	}
	const box = el.querySelector('.plots-explore-controls');
	if (box) r.box = rect(box);
	return r;
})()`

type liveRect struct{ Top, Bottom, Left, Right float64 }

type liveKeysState struct {
	Found    bool `json:"found"`
	Controls []struct {
		ID    string `json:"id"`
		Kind  string `json:"kind"`
		Name  string `json:"name"`
		Value int    `json:"value"`
		Max   int    `json:"max"`
		Label string `json:"label"`
	} `json:"controls"`
	Values    string    `json:"values"`
	ImgValues string    `json:"imgValues"`
	Image     string    `json:"image"`
	Src       string    `json:"src"` // the figure's data URL up to its comma
	Active    int       `json:"active"`
	Mode      string    `json:"mode"`
	Focused   string    `json:"focused"`
	Note      bool      `json:"note"`
	NoteText  string    `json:"noteText"`
	Box       *liveRect `json:"box"`
	Img       *liveRect `json:"img"`
	W         float64   `json:"w"`
	H         float64   `json:"h"`
	Filter    string    `json:"filter"`
}

// checkLiveKeys does with the live figure of the cell that holds marker
// what a student does at the keyboard, after runLiveInLab has run it: for
// every control, it focuses the control and presses Home, then → (or ↓ for
// a list) through every position, then End and ←, and checks after each
// key that the control is at the right position, the caption's values and
// the values the figure was drawn for both name that position, the figure
// changed, and the notebook's active cell and mode did not (the key did
// not leak into the notebook). Then it checks that the figure and its
// controls are both inside the window at 1024×768 and at 200 % zoom of
// that window (a 512×384 CSS viewport at scale 2), that in the dark theme
// the figure is light ink on a dark ground (a screenshot's pixels), and
// that after a save and a page reload the cell says plainly to run it
// again, with its figure and without dead controls.
func checkLiveKeys(t *testing.T, tab, ctx context.Context, rel, marker, shots, prefix string) {
	relJSON, _ := json.Marshal(rel)
	markerJSON, _ := json.Marshal(marker)
	stateJS := fmt.Sprintf(liveKeysJS, relJSON, markerJSON)
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	state := func() liveKeysState {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[liveKeysState](stateJS))
		if err != nil {
			t.Fatalf("%s: reading the live figure: %v", rel, err)
		}
		return s
	}
	s := state()
	if !s.Found || len(s.Controls) == 0 {
		t.Fatalf("%s: no live figure with controls in the cell of %q: %+v", rel, marker, s)
	}
	for ci := range s.Controls {
		c := s.Controls[ci]
		idJSON, _ := json.Marshal(c.ID)
		focused, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const el = document.getElementById(%s);
			el.scrollIntoView({block: 'center'});
			el.focus();
			return document.activeElement === el;
		})()`, idJSON)))
		if err != nil || !focused {
			t.Fatalf("%s: focusing the control %s: %v (focused %v)", rel, c.Name, err, focused)
		}
		// Focusing a control selects its cell, as a click does; the keys
		// must not move the selection from there.
		time.Sleep(200 * time.Millisecond)
		s := state()
		active, mode := s.Active, s.Mode
		changed := map[string]bool{} // values whose key press changed the figure
		press := func(key, what string, want int) {
			t.Helper()
			before := state()
			if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
				t.Fatalf("%s: %s on %s: %v", rel, what, c.Name, err)
			}
			var now liveKeysState
			deadline := time.Now().Add(5 * time.Second)
			for {
				now = state()
				if now.Controls[ci].Value == want || time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			got := now.Controls[ci]
			pair := got.Name + " = " + got.Label
			switch {
			case got.Value != want:
				t.Fatalf("%s: %s on %s: at position %d, want %d", rel, what, c.Name, got.Value, want)
			case now.Focused != c.ID:
				t.Errorf("%s: %s on %s: the focus moved to %q", rel, what, c.Name, now.Focused)
			case now.Active != active || now.Mode != mode:
				t.Fatalf("%s: %s on %s reached the notebook: active cell %d, mode %s (before: %d, %s)", rel, what, c.Name, now.Active, now.Mode, active, mode)
			case !strings.Contains(", "+now.Values+", ", ", "+pair+", ") || now.ImgValues != now.Values:
				t.Fatalf("%s: %s on %s: the control shows %q but the caption is at %q and the figure at %q", rel, what, c.Name, pair, now.Values, now.ImgValues)
			case !strings.HasPrefix(now.Src, "data:image/svg+xml;base64,"):
				t.Fatalf("%s: %s on %s: the figure is %q, want an SVG", rel, what, c.Name, now.Src)
			}
			if now.Image != before.Image {
				changed[now.Values] = true
			}
		}
		up, down := kb.ArrowRight, kb.ArrowLeft
		if c.Kind == "choice" {
			up, down = kb.ArrowDown, kb.ArrowUp
		}
		press(kb.Home, "Home", 0)
		for p := 1; p <= c.Max; p++ {
			press(up, "→", p)
		}
		press(kb.Home, "Home", 0)
		press(kb.End, "End", c.Max)
		press(down, "←", c.Max-1)
		// Neighbouring positions may draw the same figure (lesson 5's
		// margins 0 to 0.03 keep the same points), but not all of them.
		if len(changed) < (c.Max+1)/4 {
			t.Errorf("%s: the figure changed at %d of the %d positions of %s", rel, len(changed), c.Max+1, c.Name)
		}
		t.Logf("%s: %s moved by keys through all its %d positions, the caption and figure at each; the figure changed at %d", rel, c.Name, c.Max+1, len(changed))
	}

	// Figure and controls in one window: 1024×768, and at 200 % zoom.
	for _, vp := range []struct {
		w, h  int64
		scale float64
		what  string
	}{{1024, 768, 1, "1024x768"}, {512, 384, 2, "zoom200"}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.w, vp.h, chromedp.EmulateScale(vp.scale))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(async () => {`+labPanelJS+`
			const cell = panel.content.widgets.find(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(%s));
			// A student at 200 %% zoom closes the side panel, as anyone on a small screen does.
			if (app.shell.collapseLeft) app.shell.collapseLeft();
			await new Promise(r => setTimeout(r, 500));
			const box = cell.node.querySelector('.plots-explore-controls');
			box.scrollIntoView({block: 'start'});
			return true;
		})()`, relJSON, markerJSON), chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		s := state()
		labShot(t, tab, filepath.Join(shots, prefix+name+"_"+vp.what+".png"), "")
		if s.Box == nil || s.Img == nil {
			t.Fatalf("%s at %s: controls %v, figure %v", rel, vp.what, s.Box, s.Img)
		}
		if s.Box.Top < 0 || s.Img.Bottom > s.H+0.5 || s.Box.Right > s.W+0.5 || s.Img.Right > s.W+0.5 || s.Img.Bottom-s.Img.Top < 80 { // 80 CSS px: 160 screen px at 200 %
			t.Errorf("%s at %s (%v×%v CSS px): controls %+v and figure %+v do not fit in the window together", rel, vp.what, s.W, s.H, *s.Box, *s.Img)
		} else {
			t.Logf("%s at %s: controls from %.0f and the figure to %.0f px of %.0f, %.0f px wide", rel, vp.what, s.Box.Top, s.Img.Bottom, s.H, s.Img.Right-s.Img.Left)
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1024)); err != nil {
		t.Fatal(err)
	}

	// The dark theme: light ink on the dark page, not a white box.
	themeJS := `(async () => {` + labPanelJS + `
		await app.commands.execute('apputils:change-theme', {theme: %s});
		for (let i = 0; i < 100 && document.body.dataset.jpThemeName !== %[2]s; i++) await new Promise(r => setTimeout(r, 100));
		return document.body.dataset.jpThemeName === %[2]s;
	})()`
	dark, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(themeJS, relJSON, `"JupyterLab Dark"`), chromedp.EvalAwaitPromise))
	if err != nil || !dark {
		t.Fatalf("%s: switching to the dark theme: %v (dark %v)", rel, err, dark)
	}
	time.Sleep(time.Second)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {`+labPanelJS+`
		const cell = panel.content.widgets.find(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(%s));
		cell.node.querySelector('img.plots-figure').scrollIntoView({block: 'center'});
		return true;
	})()`, relJSON, markerJSON))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	s = state()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	savePNG(t, filepath.Join(shots, prefix+name+"_dark.png"), shot)
	dark2, light := figureInk(t, shot, s.Img)
	t.Logf("%s in the dark theme: filter %q; %.0f%% of the figure's pixels dark, %.1f%% light", rel, s.Filter, 100*dark2, 100*light)
	if dark2 < 0.6 || light < 0.005 {
		t.Errorf("%s in the dark theme: %.0f%% of the figure dark and %.1f%% light, want a dark ground (> 60%%) with light ink", rel, 100*dark2, 100*light)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(themeJS, relJSON, `"JupyterLab Light"`), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}

	// Save, reload: the figure stays, and the cell says to run it again.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(async () => {`+labPanelJS+`
		await panel.context.save();
		return true;
	})()`, relJSON), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: saving: %v", rel, err)
	}
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatalf("%s: reloading: %v", rel, err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s, err = chromedp.Run(ctx, chromedp.Evaluate[liveKeysState](stateJS))
		if err == nil && s.Found && s.Img != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: after the reload no cell of %q with its figure: %v %+v", rel, marker, err, s)
		}
		time.Sleep(250 * time.Millisecond)
	}
	labShot(t, tab, filepath.Join(shots, prefix+name+"_reloaded.png"), ".plots-explore-note")
	if len(s.Controls) != 0 || !s.Note || !strings.Contains(s.NoteText, "Run this cell") {
		t.Errorf("%s after a reload: %d controls, note shown %v (%q): want no dead controls and the note to run the cell", rel, len(s.Controls), s.Note, s.NoteText)
	} else {
		t.Logf("%s after a reload: the figure and %q", rel, s.NoteText)
	}
}

// figureInk returns the share of the figure's pixels (r, in CSS pixels of
// a page shown at scale 1) in the screenshot that are dark (luminance
// below 0.25) and light (above 0.75).
func figureInk(t *testing.T, shot []byte, r *liveRect) (dark, light float64) {
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil || r == nil {
		t.Fatalf("the screenshot: %v (figure %v)", err, r)
	}
	b := image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom)).Intersect(img.Bounds())
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			l := (0.2126*float64(cr) + 0.7152*float64(cg) + 0.0722*float64(cb)) / 65535
			switch {
			case l < 0.25:
				dark++
			case l > 0.75:
				light++
			}
			n++
		}
	}
	if n == 0 {
		t.Fatalf("the figure %+v is outside the screenshot %v", *r, img.Bounds())
	}
	return dark / float64(n), light / float64(n)
}
