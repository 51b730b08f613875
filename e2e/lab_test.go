//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// labPanelJS finds the notebook panel of the path %s (a JSON string) among
// the shell's main-area widgets, as `panel` (or null), with `app`, and
// defines figureSelector: a figure is a PNG that JupyterLab renders as an
// image output, or as the <img alt> of an HTML output (view.DisplayAlt and
// the live figures send both forms, and JupyterLab shows the HTML one).
const labPanelJS = `
	const figureSelector = '.jp-RenderedImage img, .jp-RenderedHTMLCommon img[src^="data:image/png"], .jp-RenderedHTMLCommon img[src^="data:image/svg+xml"]';
	const app = window.jupyterapp;
	let panel = null;
	if (app) {
		for (const w of app.shell.widgets('main')) {
			if (w.context && w.context.path === %s && w.content && w.content.widgets) { panel = w; break; }
		}
	}
`

// labState is what the JupyterLab page shows of the notebook.
type labState struct {
	App     bool   `json:"app"`     // JupyterLab has started (window.jupyterapp)
	Found   bool   `json:"found"`   // the notebook is open in the main area
	Kernel  string `json:"kernel"`  // the kernel's status: idle, busy, starting, dead...
	Dialog  string `json:"dialog"`  // text of an open dialog
	Code    int    `json:"code"`    // non-empty code cells
	Done    int    `json:"done"`    // of them, cells with an execution count
	Running int    `json:"running"` // cells whose prompt shows [*]
	Math    int    `json:"math"`    // MathJax-typeset formulas (mjx-container) in markdown cells
}

const labStateJS = `(() => {` + labPanelJS + `
	const dialog = document.querySelector('.jp-Dialog');
	const r = {app: !!app, found: !!panel, kernel: '', dialog: dialog ? dialog.innerText.trim() : '',
		code: 0, done: 0, running: 0, math: 0};
	if (!panel) return r;
	const s = panel.sessionContext.session;
	r.kernel = s && s.kernel ? s.kernel.status : '';
	const cells = panel.content.widgets.filter(c => c.model.type === 'code' && c.model.sharedModel.getSource().trim() !== '');
	r.code = cells.length;
	r.done = cells.filter(c => c.model.executionCount !== null).length;
	r.running = cells.filter(c => c.promptNode && c.promptNode.textContent.includes('*')).length;
	r.math = panel.node.querySelectorAll('.jp-MarkdownCell mjx-container').length;
	return r;
})()`

// labResultJS reads pageResult (see TestBrowser) from the notebook panel:
// errors from the cell models, images from the page.
const labResultJS = `(() => {` + labPanelJS + `
	const r = {errors: [], images: [], unexecuted: []};
	if (!panel) return r;
	panel.content.widgets.forEach((c, i) => {
		if (c.model.type !== 'code') return;
		if (c.model.sharedModel.getSource().trim() !== '' && c.model.executionCount === null) r.unexecuted.push(i);
		c.model.outputs.toJSON().forEach(o => {
			const text = t => Array.isArray(t) ? t.join('') : (t || '');
			if (o.output_type === 'error') {
				r.errors.push({cell: i, text: o.ename + ': ' + o.evalue + '\n' + (o.traceback || []).join('\n')});
			} else if (o.output_type === 'stream' && o.name === 'stderr' && /panic:/.test(text(o.text))) {
				r.errors.push({cell: i, text: 'stderr: ' + text(o.text)});
			}
		});
		c.node.querySelectorAll(figureSelector).forEach(img => {
			r.images.push({cell: i, src: img.src.slice(0, img.src.indexOf(',') + 1), complete: img.complete,
				width: img.naturalWidth, height: img.naturalHeight});
		});
	});
	return r;
})()`

// openInLab opens the notebook at rel in the tab of ctx (with ?reset, so no
// saved workspace opens anything else), waits for it and an idle kernel,
// clears all outputs and starts Run All Cells; it returns when Run All was
// started.
func openInLab(t *testing.T, ctx context.Context, srv *jupyterServer, rel string) time.Time {
	t.Helper()
	start := time.Now()
	mode := srv.labMode
	if mode == "" {
		mode = "lab/tree"
	}
	pageURL := srv.base + "/" + mode + "/" + (&url.URL{Path: rel}).EscapedPath()
	if strings.HasPrefix(mode, "lab/") || strings.HasPrefix(mode, "doc/") {
		pageURL += "?reset" // JupyterLab: no saved workspace
	} else {
		pageURL += "?"
	}
	if srv.token != "" { // else the browser has signed in (TestJupyterHub)
		pageURL += "&token=" + srv.token
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatalf("%s: opening %s: %v", rel, srv.base+"/"+mode+"/"+rel, err)
	}
	relJSON, _ := json.Marshal(rel)
	stateJS := fmt.Sprintf(labStateJS, relJSON)
	ready := func(s labState) (bool, error) { return s.Found && s.Kernel == "idle", nil }
	// On a loaded machine JupyterLab has been seen to leave a freshly started
	// kernel's status "unknown" for good (the kernel up, the page never
	// connected); a reader would reload the page, and so does the test, once.
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	st, err := waitLab(wctx, stateJS, ready)
	cancel()
	if err != nil && ctx.Err() == nil && st.Kernel != "dead" && st.Dialog == "" {
		t.Logf("%s: not ready after 2 minutes (last state %+v): reloading the page once", rel, st)
		if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
			t.Fatalf("%s: reloading %s: %v", rel, srv.base+"/"+mode+"/"+rel, err)
		}
		st, err = waitLab(ctx, stateJS, ready)
	}
	if err != nil {
		t.Fatalf("%s: waiting for the front end, the notebook and an idle gonb kernel: %v (last state %+v)", rel, err, st)
	}
	t.Logf("%s: the front end, notebook and kernel ready in %.1fs", rel, time.Since(start).Seconds())

	runJS := fmt.Sprintf(`(async () => {`+labPanelJS+`
		app.shell.activateById(panel.id);
		await app.commands.execute('notebook:clear-all-cell-outputs');
		app.commands.execute('notebook:run-all-cells'); // not awaited: it ends when the last cell does
		return true;
	})()`, relJSON)
	runStart := time.Now()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](runJS, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: clearing outputs and running all cells: %v", rel, err)
	}
	return runStart
}

// waitLab polls stateJS every 250 ms until done says so, returns an error,
// a dialog opens, the kernel dies, or ctx ends.
func waitLab(ctx context.Context, stateJS string, done func(labState) (bool, error)) (labState, error) {
	var last labState
	var lastErr error
	for {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[labState](stateJS))
		if err == nil {
			last = s
			switch {
			case s.Dialog != "":
				return s, fmt.Errorf("a dialog is open: %q", s.Dialog)
			case s.Kernel == "dead":
				return s, errors.New("the kernel died: see docs/student.md, Troubleshooting")
			}
			ok, err := done(s)
			if err != nil || ok {
				return s, err
			}
		} else {
			lastErr = err
		}
		select {
		case <-ctx.Done():
			if lastErr != nil {
				return last, fmt.Errorf("%v (last page error: %v)", ctx.Err(), lastErr)
			}
			return last, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// waitLabRunAll waits until every code cell has run and the kernel is idle,
// twice in a row, and returns the last state. It clicks nothing: a live
// figure does not hold the kernel.
func waitLabRunAll(t *testing.T, ctx context.Context, stateJS, rel string) labState {
	t.Helper()
	stable := 0
	st, err := waitLab(ctx, stateJS, func(s labState) (bool, error) {
		if s.Code > 0 && s.Done == s.Code && s.Running == 0 && s.Kernel == "idle" {
			stable++
		} else {
			stable = 0
		}
		return stable >= 2, nil
	})
	if err != nil {
		t.Fatalf("%s: waiting for Run All Cells to finish: %v (last state %+v: want done = code cells, 0 running, idle)", rel, err, st)
	}
	return st
}

// labShot saves a screenshot of the browser window, after scrolling the
// first element that matches sel (if sel is not empty) to its middle.
// JupyterLab scrolls the notebook inside its own panel, where a screenshot
// of the element alone would miss it.
func labShot(t *testing.T, tab context.Context, path, sel string) {
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if sel != "" {
		selJSON, _ := json.Marshal(sel)
		found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const el = document.querySelector(%s);
			if (el) el.scrollIntoView({block: 'center'});
			return !!el;
		})()`, selJSON)))
		if err != nil || !found {
			t.Logf("screenshot %s: no element %s (%v)", path, sel, err)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	savePNG(t, path, png)
}

// runInLab runs the notebook at rel in JupyterLab and checks it against the
// committed notebook (see TestJupyterLab).
func runInLab(t *testing.T, bctx context.Context, srv *jupyterServer, rel string, committed *notebook.Notebook, shots string) {
	tab, ctx, closeTab := newTab(t, bctx, rel)
	defer closeTab()
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	shot := false
	defer func() {
		if !shot {
			labShot(t, tab, filepath.Join(shots, srv.shots+name+"_failure.png"), "")
		}
	}()
	relJSON, _ := json.Marshal(rel)
	stateJS := fmt.Sprintf(labStateJS, relJSON)

	runStart := openInLab(t, ctx, srv, rel)
	st := waitLabRunAll(t, ctx, stateJS, rel)
	t.Logf("%s: Run All Cells finished in %.1fs (%d code cells)", rel, time.Since(runStart).Seconds(), st.Code)
	checkLive(t, ctx, rel, committed)

	var res pageResult
	for i := 0; ; i++ {
		var err error
		if res, err = chromedp.Run(ctx, chromedp.Evaluate[pageResult](fmt.Sprintf(labResultJS, relJSON))); err != nil {
			t.Fatalf("%s: reading the page: %v", rel, err)
		}
		complete := true
		for _, img := range res.Images {
			complete = complete && img.Complete
		}
		if complete || i == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	reportErrors(t, rel, res)
	drawn := map[int]int{}
	for _, img := range res.Images {
		switch {
		case img.Src != "data:image/png;base64," && img.Src != "data:image/svg+xml;base64,":
			t.Errorf("%s: cell %d: image source starts %q, want a data:image/png;base64 or data:image/svg+xml;base64 URL", rel, img.Cell, img.Src)
		case !img.Complete || img.Width == 0 || img.Height == 0:
			t.Errorf("%s: cell %d: image not decoded by the browser (complete %v, natural size %dx%d)", rel, img.Cell, img.Complete, img.Width, img.Height)
		default:
			drawn[img.Cell]++
		}
	}
	want := 0
	hasMath := false
	for i, c := range committed.Cells {
		if c.Type == "markdown" && strings.Contains(c.Source, "$") {
			hasMath = true
		}
		n := 0
		for _, o := range c.Outputs {
			if _, ok := o.Data["image/png"]; ok {
				n++
			}
		}
		want += n
		if drawn[i] < n {
			t.Errorf("%s: cell %d shows %d figures in JupyterLab, the committed notebook has %d", rel, i, drawn[i], n)
		}
	}
	if want == 0 {
		t.Errorf("%s: the committed notebook has no figure to look for", rel)
	}
	t.Logf("%s: %d figures drawn as PNG images (committed: %d), %d errors", rel, len(res.Images), want, len(res.Errors))

	// MathJax typesets the markdown cells' math (asynchronously).
	if hasMath {
		mctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		st, err := waitLab(mctx, stateJS, func(s labState) (bool, error) { return s.Math > 0, nil })
		cancel()
		if err != nil {
			t.Errorf("%s: no math typeset by MathJax (mjx-container) in the markdown cells: %v", rel, err)
		} else {
			t.Logf("%s: %d formulas typeset by MathJax", rel, st.Math)
		}
	} else {
		t.Errorf("%s: the committed notebook has no math to look for", rel)
	}

	labShot(t, tab, filepath.Join(shots, srv.shots+name+".png"), "")
	shot = true
	if len(res.Images) > 0 {
		labShot(t, tab, filepath.Join(shots, srv.shots+name+"_figure.png"), `.jp-RenderedImage img, .jp-RenderedHTMLCommon img[src^="data:image/"]`)
	}
	labShot(t, tab, filepath.Join(shots, srv.shots+name+"_math.png"), ".jp-MarkdownCell:has(mjx-container)")
}

// labWidgetJS reads widgetState (see TestBrowser) from the cell of the
// notebook %s (JSON) that holds %s (JSON): its live figure's first slider,
// caption and image, and the cell's image/png outputs.
const labWidgetJS = `(() => {` + labPanelJS + `
	const r = {found: false, slider: false, value: 0, min: 0, max: 0, control: '', label: '',
		values: '', frame: -1, caption: '', image: '', alt: '', complete: false, pngs: []};
	if (!panel) return r;
	const cell = panel.content.widgets.find(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(%s));
	if (!cell) return r;
	r.found = true;
	const el = cell.node;
	const id = src => {
		let h = 0;
		for (let i = 0; i < src.length; i++) h = (Math.imul(h, 31) + src.charCodeAt(i)) | 0;
		return src.length + ':' + (h >>> 0).toString(16);
	};
	const slider = el.querySelector('.plots-explore-controls input[type=range]');
	if (slider) {
		r.slider = true;
		r.value = +slider.value; r.min = +slider.min; r.max = +slider.max;
		r.control = slider.dataset.control || '';
		const out = slider.parentElement.querySelector('.plots-explore-value');
		r.label = out ? out.textContent : '';
	}
	const cap = el.querySelector('.plots-explore-caption');
	if (cap) {
		r.values = cap.dataset.values || '';
		r.frame = cap.dataset.frame === undefined ? -1 : +cap.dataset.frame;
		r.caption = cap.textContent.trim();
	}
	const imgs = el.querySelectorAll(figureSelector);
	imgs.forEach(img => r.pngs.push(id(img.src)));
	if (imgs.length > 0) {
		r.image = id(imgs[0].src);
		r.alt = imgs[0].alt || '';
		r.complete = imgs[0].complete && imgs[0].naturalWidth > 0;
	}
	return r;
})()`

// labSetSliderJS sets the live figure's first slider in the cell to a
// position and fires the input and change events a drag fires; %s are the
// notebook, the marker (JSON) and the position ("far": the end farther from
// the value, "mid" or a number).
const labSetSliderJS = `(() => {` + labPanelJS + `
	const cell = panel.content.widgets.find(c => c.model.type === 'code' && c.model.sharedModel.getSource().includes(%s));
	const s = cell.node.querySelector('.plots-explore-controls input[type=range]');
	const to = %s;
	const far = +s.value - +s.min > +s.max - +s.value ? s.min : s.max;
	s.value = to === 'far' ? far : to === 'mid' ? String(Math.floor((+s.min + +s.max) / 2)) : to;
	s.dispatchEvent(new Event('input', {bubbles: true}));
	s.dispatchEvent(new Event('change', {bubbles: true}));
	return true;
})()`

// runWidgetInLab runs widgetNotebook's live cell in JupyterLab (see
// runLiveInLab).
func runWidgetInLab(t *testing.T, bctx context.Context, srv *jupyterServer, rel, shots string) {
	runLiveInLab(t, bctx, srv, rel, widgetMarker, shots)
}

// runLiveInLab does Run All on the notebook rel, which must run every cell
// to the end with no click, then moves the first slider of the live figure
// in the cell that holds marker twice and checks that its figure and
// caption follow, with the kernel idle all along (see TestJupyterLab).
func runLiveInLab(t *testing.T, bctx context.Context, srv *jupyterServer, rel, marker, shots string) {
	tab, ctx, closeTab := newTab(t, bctx, rel)
	defer closeTab()
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	relJSON, _ := json.Marshal(rel)
	markerJSON, _ := json.Marshal(marker)
	stateJS := fmt.Sprintf(labStateJS, relJSON)
	widgetJS := fmt.Sprintf(labWidgetJS, relJSON, markerJSON)
	shot := false
	defer func() {
		if !shot {
			labShot(t, tab, filepath.Join(shots, srv.shots+name+"_failure.png"), "")
		}
	}()

	runStart := openInLab(t, ctx, srv, rel)
	st := waitLabRunAll(t, ctx, stateJS, rel)
	t.Logf("%s: Run All Cells ran all %d code cells, the last included, in %.1fs with no click", rel, st.Code, time.Since(runStart).Seconds())
	res, err := chromedp.Run(ctx, chromedp.Evaluate[pageResult](fmt.Sprintf(labResultJS, relJSON)))
	if err != nil {
		t.Fatalf("%s: reading the page: %v", rel, err)
	}
	reportErrors(t, rel, res)

	waitWidget := func(ctx context.Context, what string, done func(widgetState) bool) widgetState {
		t.Helper()
		var w widgetState
		_, err := waitLab(ctx, stateJS, func(labState) (bool, error) {
			if w, err = chromedp.Run(ctx, chromedp.Evaluate[widgetState](widgetJS)); err != nil {
				return false, nil
			}
			return done(w), nil
		})
		if err != nil {
			t.Fatalf("%s: waiting for %s: %v (last widget state %+v)", rel, what, err, w)
		}
		return w
	}
	// The caption's values hold the slider's name and the value it shows.
	shows := func(w widgetState) bool {
		return w.Slider && w.Complete && w.Label != "" &&
			slices.Contains(strings.Split(w.Values, ", "), w.Control+" = "+w.Label)
	}
	const widgetSel = ".jp-CodeCell:has(.plots-explore-controls input[type=range])"
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	w := waitWidget(wctx, "the live figure's slider", shows)
	cancel()
	t.Logf("%s: slider %s (%d to %d) at %s: %q", rel, w.Control, w.Min, w.Max, w.Label, w.Caption)
	if w.Max-w.Min < 2 {
		t.Fatalf("%s: the slider runs from %d to %d: too few positions to move it twice", rel, w.Min, w.Max)
	}
	labShot(t, tab, filepath.Join(shots, srv.shots+name+"_before.png"), widgetSel)

	seen := map[string]string{w.Image: w.Values}
	for _, to := range []string{"far", "mid"} {
		before := w
		toJSON, _ := json.Marshal(to)
		moved := time.Now()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labSetSliderJS, relJSON, markerJSON, toJSON))); err != nil {
			t.Fatalf("%s: moving the slider to %s: %v", rel, to, err)
		}
		mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		w = waitWidget(mctx, "the frame after a drag to "+to, func(w widgetState) bool {
			return w.Value != before.Value && shows(w) && w.Image != before.Image && w.Values != before.Values
		})
		cancel()
		if v, ok := seen[w.Image]; ok && v != w.Values {
			t.Errorf("%s: values %q and %q show the same image", rel, v, w.Values)
		}
		// The alt text follows the figure: each frame has its own, and the
		// lessons' say the value the slider moved to.
		if w.Alt == "" || w.Alt == before.Alt || !strings.Contains(w.Alt, w.Label) {
			t.Errorf("%s: after a drag to %s the figure's alt text is %q (before %q): want the new frame's, which names %s", rel, to, w.Alt, before.Alt, w.Label)
		}
		seen[w.Image] = w.Values
		t.Logf("%s: a drag to %s moved the slider from %d to %d; the figure and caption changed in %.0f ms: %q", rel, to, before.Value, w.Value, float64(time.Since(moved).Microseconds())/1000, w.Caption)
	}
	if len(w.PNGs) != 1 {
		t.Errorf("%s: the live cell shows %d figures, want 1 (swapped in place)", rel, len(w.PNGs))
	}
	// No round trip: the kernel ran nothing for the moves.
	st2, err := chromedp.Run(ctx, chromedp.Evaluate[labState](stateJS))
	if err != nil {
		t.Fatal(err)
	}
	if st2.Kernel != "idle" || st2.Done != st.Done || st2.Running != 0 {
		t.Errorf("%s: after the moves the kernel is %q with %d of %d cells run, %d running: want idle, as after Run All", rel, st2.Kernel, st2.Done, st2.Code, st2.Running)
	}
	labShot(t, tab, filepath.Join(shots, srv.shots+name+"_after.png"), widgetSel)
	labShot(t, tab, filepath.Join(shots, srv.shots+name+".png"), "")
	shot = true
	if srv.labMode != "" { // TestBrowser and TestJupyterLab: the keys, sizes, theme and reload
		checkLiveKeys(t, tab, ctx, rel, marker, shots, srv.shots)
	}
}

// frontEnd is one of the two front ends of the pinned Jupyter environment
// that scripts/lessons.sh serves: Notebook 7 (the default) and JupyterLab 4.6
// (--lab). Both are JupyterLab applications, driven by the same code.
type frontEnd struct {
	name   string // for messages: "Notebook 7"
	app    string // the jupyter subcommand: notebook, lab
	module string // its Python module, run with bin/jupyter-python -m
	class  string // its application class, for the expose_app_in_browser setting
	base   string // the base URL the test serves it under
	prefix string // the path of a notebook's page, before the notebook's path
	shots  string // the screenshots' file name prefix
}

var (
	notebook7  = frontEnd{name: "Notebook 7", app: "notebook", module: "notebook", class: "JupyterNotebookApp", base: "/user/u1/", prefix: "notebooks", shots: "nb7_"}
	jupyterLab = frontEnd{name: "JupyterLab", app: "lab", module: "jupyterlab", class: "LabApp", base: "/user/lab/", prefix: "lab/tree", shots: "lab_"}
)

// TestBrowser does what a student does after scripts/lessons.sh: it serves
// the repository with Notebook 7 from the pinned Jupyter environment (see
// testFrontEnd).
func TestBrowser(t *testing.T) { testFrontEnd(t, notebook7) }

// TestJupyterLab does the same in JupyterLab 4.6, as scripts/lessons.sh --lab
// serves it (see testFrontEnd).
func TestJupyterLab(t *testing.T) { testFrontEnd(t, jupyterLab) }

// testFrontEnd starts the front end's server (bin/jupyter-python -m MODULE,
// as scripts/lessons.sh does) on 127.0.0.1, a free port and a random
// token, under a base URL as JupyterHub and Binder serve it, with the test
// copy of the gonb kernel spec. It checks that new notebooks open with the
// gonb kernel (the environment's default_kernel_name, from the server's
// REST API and from the page), then opens each of browserNotebooks (copies,
// in bin/, below the repository root so that the setup cell finds go.mod; the
// committed notebooks are never opened, so no autosave can change them) in
// headless Chromium, driven through the Chrome DevTools Protocol with
// chromedp. For each it finds the notebook among the shell's widgets by its
// path, waits for an idle kernel, clears the outputs and runs all cells (the
// commands behind Edit > Clear Outputs of All Cells and Run > Run All
// Cells). It fails unless every code cell ran, the kernel went idle, no cell
// shows an error, every figure of the committed notebook is drawn as a
// decoded PNG of non-zero size, and the math of the markdown cells is
// typeset by MathJax (mjx-container elements), which both front ends bundle.
//
// Every live figure of those notebooks must show its controls after Run
// All, which clicks nothing. The "live" subtests do Run All on each of
// liveNotebooks (lessons 3, 4 and 5), check that every cell ran, the last
// included, with no click, then move the slider of the marked live cell
// twice (the value and the input and change events a drag fires) and check
// that its figure and caption follow in place, with the kernel idle; then
// checkLiveKeys moves every control of that figure through all its
// positions by keyboard, fits it at 1024×768 and 200 % zoom, reads it in
// the dark theme and reloads the page. In
// JupyterLab the "help while typing" subtest checks completion and
// contextual help (see helpInLab). Screenshots of each page and of the figure and widget cells go to
// -browser.screenshots (default: a new temporary folder). A missing Chromium
// or Jupyter environment fails the test with the command that installs it;
// it never skips.
func testFrontEnd(t *testing.T, fe frontEnd) {
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("%s test: Chromium not found (%v): %s", fe.name, err, browserSetupHint)
	}
	rt := newJupyterRuntime(t)
	ctx := browserContext(t)
	work := workFolder(t, root, fe.app+"-test-")
	markers := map[string]string{}
	copies := slices.Clone(browserNotebooks)
	for _, l := range liveNotebooks {
		markers[l.path] = l.marker
		if !slices.Contains(copies, l.path) {
			copies = append(copies, l.path)
		}
	}
	for _, nb := range copies {
		b, err := os.ReadFile(nb)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := markers[nb]; ok && bytes.Count(b, []byte(m)) < 1 {
			t.Fatalf("%s: %q does not occur (its live cell)", nb, m)
		}
		if err := os.WriteFile(filepath.Join(work, filepath.Base(nb)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(nb string) string {
		r, err := filepath.Rel(root, filepath.Join(work, filepath.Base(nb)))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	srv := startServer(t, ctx, rt, root, serverSpec{
		what: fe.name + " test: " + fe.name, base: fe.base, log: fe.app + ".log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", fe.module, "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--ServerApp.root_dir=" + root, "--IdentityProvider.token=" + token,
				"--ServerApp.password=", "--ServerApp.base_url=" + fe.base, "--" + fe.class + ".expose_app_in_browser=True"}
		},
	})
	srv.labMode = fe.prefix
	srv.shots = fe.shots
	var specs struct {
		Default string `json:"default"`
	}
	if err := srv.get(ctx, "/api/kernelspecs", &specs); err != nil {
		t.Fatalf("%s: /api/kernelspecs: %v", fe.name, err)
	} else if specs.Default != "gonb" {
		t.Errorf("%s: the default kernel of new notebooks is %q, want gonb (the Jupyter environment's etc/jupyter/jupyter_server_config.json: %s)",
			fe.name, specs.Default, notebookSetupHint)
	}
	bctx := startChromium(t, ctx, chromium)
	shots := shotsDir(t, fe.app)
	for _, nb := range browserNotebooks {
		t.Run(nb, func(t *testing.T) {
			committed := repo.ReadNotebook(t, nb)
			runInLab(t, bctx, srv, rel(nb), committed, shots)
		})
	}
	for _, l := range liveNotebooks {
		t.Run("live "+l.path, func(t *testing.T) {
			runLiveInLab(t, bctx, srv, rel(l.path), l.marker, shots)
		})
	}
	if fe.app == "lab" {
		t.Run("help while typing", func(t *testing.T) {
			helpInLab(t, bctx, srv, rel(helpNotebook), shots)
		})
		t.Run("JupyterLab's own", func(t *testing.T) {
			tab, ctx, closeTab := newTab(t, bctx, "lab")
			defer closeTab()
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.base+"/lab?reset&token="+srv.token)); err != nil {
				t.Fatal(err)
			}
			checkLabFeatures(t, ctx, labFeatures)
			labShot(t, tab, filepath.Join(shots, "lab_features.png"), "")
		})
	}
}

// labFeatures are commands of what the hand-built JupyterLab lacked and
// every JupyterLab has: the terminal, the settings editor, contextual help,
// the table of contents, the running-kernels panel, the theme switch (the
// dark theme among the themes); hubFeatures are the hub's control panel and
// Log out, which JupyterLab adds under JupyterHub.
var (
	labFeatures = []string{"terminal:create-new", "settingeditor:open", "inspector:open", "toc:show-panel",
		"running:show-panel", "apputils:change-theme"}
	hubFeatures = []string{"hub:control-panel", "hub:logout"}
)

// labFeaturesJS reports, once JupyterLab has started, which of the commands
// %s (a JSON list) it lacks, the widget factory that opens each of a .go,
// .md, .csv and .png file from the file browser, and whether the dark theme
// is there.
const labFeaturesJS = `(async () => {
	const app = window.jupyterapp;
	if (!app) return null;
	await app.started;
	await app.restored;
	const factories = {};
	for (const f of ['x.go', 'x.md', 'x.csv', 'x.png']) {
		const w = app.docRegistry.defaultWidgetFactory(f);
		factories[f.slice(1)] = w ? w.name : '';
	}
	// The dark theme: switch to it (as the Settings menu does), see the page
	// take it, and switch back.
	let dark = false;
	if (app.commands.hasCommand('apputils:change-theme')) {
		await app.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'});
		for (let i = 0; i < 100 && !dark; i++) {
			dark = document.body.dataset.jpThemeName === 'JupyterLab Dark';
			if (!dark) await new Promise(r => setTimeout(r, 100));
		}
		await app.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'});
	}
	return {missing: %s.filter(c => !app.commands.hasCommand(c)), factories, dark};
})()`

// labFeatureState is what labFeaturesJS reports.
type labFeatureState struct {
	Missing   []string          `json:"missing"`
	Factories map[string]string `json:"factories"`
	Dark      bool              `json:"dark"`
}

// labOpeners are the widget factories with which JupyterLab opens each kind
// of file the lessons hold.
var labOpeners = map[string]string{".go": "Editor", ".md": "Editor", ".csv": "CSVTable", ".png": "Image"}

// checkLabFeatures waits for JupyterLab in the tab ctx and fails the test for
// each of the commands it lacks and each file type it cannot open.
func checkLabFeatures(t *testing.T, ctx context.Context, commands []string) {
	t.Helper()
	list, _ := json.Marshal(commands)
	js := fmt.Sprintf(labFeaturesJS, list)
	var got *labFeatureState
	deadline := time.Now().Add(90 * time.Second)
	for {
		r, err := chromedp.Run(ctx, chromedp.Evaluate[*labFeatureState](js, chromedp.EvalAwaitPromise))
		if err == nil && r != nil {
			got = r
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("JupyterLab did not start within 90 s (%v)", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, c := range got.Missing {
		t.Errorf("JupyterLab lacks the command %s", c)
	}
	for ext, want := range labOpeners {
		if got.Factories[ext] != want {
			t.Errorf("JupyterLab's file browser opens %s files with %q, want %q", ext, got.Factories[ext], want)
		}
	}
	if !got.Dark {
		t.Errorf("JupyterLab has no dark theme")
	}
	if !t.Failed() {
		t.Logf("JupyterLab has %v, opens .go, .md, .csv and .png files (%v) and has the dark theme", commands, got.Factories)
	}
}

// helpNotebook is the lesson in which the "help while typing" subtest
// types: its cells import perceptron.
const helpNotebook = "notebooks/00_start_here.ipynb"

// labTypeJS appends a code cell holding %s (JSON) to the notebook %s, puts
// the cursor at its end in edit mode and focuses it, so that keys typed go
// there.
const labTypeJS = `(async () => {` + labPanelJS + `
	app.shell.activateById(panel.id);
	const nb = panel.content;
	nb.activeCellIndex = nb.widgets.length - 1;
	await app.commands.execute('notebook:insert-cell-below');
	const cell = nb.activeCell;
	const src = %s;
	cell.model.sharedModel.setSource(src);
	nb.mode = 'edit';
	const lines = src.split('\n');
	cell.editor.setCursorPosition({line: lines.length - 1, column: lines[lines.length - 1].length});
	cell.editor.focus();
	return true;
})()`

// labCellSourceJS returns the source of the active cell of the notebook %s
// (JSON).
const labCellSourceJS = `(() => {` + labPanelJS + `
	return panel.content.activeCell.model.sharedModel.getSource();
})()`

// labHelpJS reads what the completer and the tooltip show: the completions
// and the tooltip's text.
const labHelpJS = `(() => {
	const r = {completions: [], tooltip: ''};
	document.querySelectorAll('.jp-Completer:not(.lm-mod-hidden) .jp-Completer-item').forEach(li => {
		r.completions.push((li.getAttribute('data-value') || li.textContent).trim());
	});
	const tip = document.querySelector('.jp-Tooltip');
	if (tip) r.tooltip = tip.innerText;
	return r;
})()`

// labHelp is what labHelpJS reports.
type labHelp struct {
	Completions []string `json:"completions"`
	Tooltip     string   `json:"tooltip"`
}

// plaSynopsis is the first sentence of perceptron.PLA's doc comment, read
// from its source with go/doc.
func plaSynopsis(t *testing.T) string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	matches, err := filepath.Glob("perceptron/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, m, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/perceptron-go/lessons/perceptron")
	if err != nil {
		t.Fatal(err)
	}
	funcs := p.Funcs // go/doc lists a function that returns a type T under T
	for _, typ := range p.Types {
		funcs = append(funcs, typ.Funcs...)
	}
	for _, f := range funcs {
		if f.Name == "PLA" {
			return p.Synopsis(f.Doc)
		}
	}
	t.Fatal("perceptron has no func PLA")
	return ""
}

// helpInLab runs helpNotebook in JupyterLab, then types in a new cell as a
// student does: `perceptron.` then one Tab, the kernel's first completion
// request, must list PLA among the completions (GoNB asks gopls; issue 31,
// item 1), and Shift+Tab after `perceptron.PLA` must show PLA's doc
// comment in the tooltip (see TestJupyterLab).
func helpInLab(t *testing.T, bctx context.Context, srv *jupyterServer, rel, shots string) {
	tab, ctx, closeTab := newTab(t, bctx, rel)
	defer closeTab()
	name := strings.TrimSuffix(filepath.Base(rel), ".ipynb")
	relJSON, _ := json.Marshal(rel)
	stateJS := fmt.Sprintf(labStateJS, relJSON)
	shot := false
	defer func() {
		if !shot {
			labShot(t, tab, filepath.Join(shots, srv.shots+name+"_help_failure.png"), "")
		}
	}()
	openInLab(t, ctx, srv, rel)
	waitLabRunAll(t, ctx, stateJS, rel)
	synopsis := plaSynopsis(t)
	normal := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	// ask types src in a new cell and presses key: once if once (the
	// student's first Tab must complete), else again every 5 s, as a
	// student does while gopls is still loading the module.
	ask := func(src string, key string, mods chromedp.Modifier, once bool, what string, done func(labHelp) bool) labHelp {
		t.Helper()
		srcJSON, _ := json.Marshal(src)
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labTypeJS, relJSON, srcJSON), chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("%s: typing %q in a new cell: %v", rel, src, err)
		}
		var h labHelp
		start := time.Now()
		wait := 90 * time.Second
		if once {
			wait = 60 * time.Second
		}
		deadline := start.Add(wait)
		for next, pressed := start, false; ; {
			if !time.Now().Before(deadline) {
				if once {
					t.Fatalf("%s: %s after %q and one keypress: not seen in %v (completions %q, tooltip %q); the completer drops replies slower than its providerTimeout, which set-up raises (scripts/setup.sh, share/jupyter/lab/settings/overrides.d/perceptron-lessons.json): %s",
						rel, what, src, wait, h.Completions, h.Tooltip, notebookSetupHint)
				}
				t.Fatalf("%s: %s after %q: not seen in %v (completions %q, tooltip %q)", rel, what, src, wait, h.Completions, h.Tooltip)
			}
			if !time.Now().Before(next) && !(once && pressed) {
				if err := chromedp.Do(ctx, chromedp.KeyEvent(key, chromedp.KeyModifiers(mods))); err != nil {
					t.Fatalf("%s: pressing %q: %v", rel, key, err)
				}
				next, pressed = time.Now().Add(5*time.Second), true
			}
			time.Sleep(250 * time.Millisecond)
			var err error
			if h, err = chromedp.Run(ctx, chromedp.Evaluate[labHelp](labHelpJS)); err == nil && done(h) {
				t.Logf("%s: %s %.1fs after %q", rel, what, time.Since(start).Seconds(), src)
				return h
			}
		}
	}
	h := ask("%%\nperceptron.", kb.Tab, 0, true, "the first Tab lists PLA among the completions", func(h labHelp) bool {
		return slices.Contains(h.Completions, "PLA")
	})
	t.Logf("%s: %d completions of perceptron.: %s", rel, len(h.Completions), strings.Join(h.Completions, " "))
	labShot(t, tab, filepath.Join(shots, srv.shots+name+"_completion.png"), ".jp-Completer")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	h = ask("%%\nperceptron.PLA", kb.Tab, chromedp.ModifierShift, false, "Shift+Tab shows PLA's doc comment", func(h labHelp) bool {
		return strings.Contains(normal(h.Tooltip), normal(synopsis))
	})
	t.Logf("%s: the tooltip of perceptron.PLA: %q", rel, repo.Tail(h.Tooltip, 5))
	labShot(t, tab, filepath.Join(shots, srv.shots+name+"_tooltip.png"), ".jp-Tooltip")

	// Go cells indent as gofmt does: a tab per level, and a typed } goes
	// back one level (issue 31, item 5).
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	srcJSON, _ := json.Marshal("%%\nfor i := 0; i < 2; i++ {")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labTypeJS, relJSON, srcJSON), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: typing in a new cell: %v", rel, err)
	}
	for _, keys := range []string{kb.Enter, "fmt.Println(i)", kb.Enter, "}"} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
			t.Fatalf("%s: typing %q: %v", rel, keys, err)
		}
	}
	typed, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(labCellSourceJS, relJSON)))
	if err != nil {
		t.Fatalf("%s: reading the typed cell: %v", rel, err)
	}
	if want := "%%\nfor i := 0; i < 2; i++ {\n\tfmt.Println(i)\n}"; typed != want {
		t.Errorf("%s: typing a loop gave %q, want gofmt's %q (the code cells' indentUnit, share/jupyter/lab/settings/overrides.d/perceptron-lessons.json: %s)",
			rel, typed, want, notebookSetupHint)
	}
	// Two levels deep the Go mode leaves a typed } where it is; Ctrl+[, as
	// the student's guide says, moves it back a level.
	srcJSON, _ = json.Marshal("%%\nif true {\n\tif true {\n\t\tfmt.Println()\n\t\t")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(labTypeJS, relJSON, srcJSON), chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("%s: typing in a new cell: %v", rel, err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("}")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("[", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	typed, err = chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(labCellSourceJS, relJSON)))
	if err != nil {
		t.Fatalf("%s: reading the typed cell: %v", rel, err)
	}
	if want := "%%\nif true {\n\tif true {\n\t\tfmt.Println()\n\t}"; typed != want {
		t.Errorf("%s: } then Ctrl+[ two levels deep gave %q, want %q", rel, typed, want)
	}
	shot = true
}
