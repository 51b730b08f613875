package nb

import (
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// maxPositions bounds the number of positions of one Slider, so that a
// mistyped step (1e-9 for 0.1) is an error rather than a slider nobody can
// move one step at a time.
const maxPositions = 10000

// A Control is one named input of Explore: a slider over numbers (Slider)
// or a choice among strings (Choice). Its zero value is not a valid control.
type Control struct {
	name string
	err  error // the constructor's complaint, reported by Explore

	// A slider: positions 0..n stand for min, min+step, ..., max.
	min, step float64
	n, pos    int
	decimals  int // digits after the point of every position, or -1 (use %g)

	// A choice: options[pos].
	options []string
}

// Slider returns a control named name that takes the values min, min+step,
// min+2·step, ..., max, starting at value. max−min must be a whole number
// of steps (at most 10000 of them) and value one of the positions;
// otherwise Explore reports the error. Values are the decimals of the
// positions as printed (0.1·3 is 0.3, not 0.30000000000000004) when min and
// step have at most 9 decimals.
func Slider(name string, min, max, step, value float64) Control {
	c := Control{name: name, min: min, step: step, decimals: -1}
	for _, v := range []struct {
		what string
		x    float64
	}{{"min", min}, {"max", max}, {"step", step}, {"value", value}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			c.err = errorf("slider %q: %s is %v, want a finite number", name, v.what, v.x)
			return c
		}
	}
	switch {
	case !(step > 0):
		c.err = errorf("slider %q: step %v must be > 0", name, step)
		return c
	case !(max > min):
		c.err = errorf("slider %q: max %v must be > min %v", name, max, min)
		return c
	}
	span := (max - min) / step
	if span > maxPositions+0.5 {
		c.err = errorf("slider %q: %v to %v in steps of %v is %.0f steps, more than %d", name, min, max, step, span, maxPositions)
		return c
	}
	c.n = int(math.Round(span))
	if math.Abs(float64(c.n)-span) > 1e-9*span {
		c.err = errorf("slider %q: max−min = %v is not a whole number of steps of %v", name, max-min, step)
		return c
	}
	for d := 0; d <= 9; d++ {
		if isWhole(step*math.Pow10(d)) && isWhole(min*math.Pow10(d)) {
			c.decimals = d
			break
		}
	}
	at := (value - min) / step
	c.pos = int(math.Round(at))
	if value < min || value > max || math.Abs(float64(c.pos)-at) > 1e-9*math.Max(1, at) {
		c.err = errorf("slider %q: value %v is not one of its positions %v, %v, ..., %v", name, value, min, c.value(1), max)
		return c
	}
	if c.n == 0 {
		c.err = errorf("slider %q: max %v must be > min %v", name, max, min)
	}
	return c
}

// isWhole reports whether x is within 1e-9 (relative) of an integer.
func isWhole(x float64) bool {
	return math.Abs(x-math.Round(x)) <= 1e-9*math.Max(1, math.Abs(x))
}

// Choice returns a control named name whose value is one of options,
// starting at value. The options must be distinct and value one of them;
// otherwise Explore reports the error.
func Choice(name string, options []string, value string) Control {
	c := Control{name: name, options: slices.Clone(options), decimals: -1}
	if len(options) == 0 {
		c.err = errorf("choice %q: no options", name)
		return c
	}
	for i, o := range options {
		if j := slices.Index(options[:i], o); j >= 0 {
			c.err = errorf("choice %q: options %d and %d are both %q", name, j, i, o)
			return c
		}
	}
	c.pos = slices.Index(options, value)
	if c.pos < 0 {
		c.err = errorf("choice %q: value %q is not one of the options %q", name, value, options)
	}
	c.n = len(options) - 1
	return c
}

// value is the number at position i of a slider.
func (c Control) value(i int) float64 {
	x := c.min + float64(i)*c.step
	if c.decimals >= 0 {
		x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'f', c.decimals, 64), 64)
	}
	return x
}

// format prints the value at position i as the control shows it.
func (c Control) format(i int) string {
	if c.options != nil {
		return c.options[i]
	}
	if c.decimals >= 0 {
		return strconv.FormatFloat(c.value(i), 'f', c.decimals, 64)
	}
	return strconv.FormatFloat(c.value(i), 'g', -1, 64)
}

// Values holds the current value of every control of an Explore call, by
// the control's name.
type Values struct {
	controls []Control
	pos      []int
	misuse   *[]string // what was asked for that is not there
}

func (v Values) find(name string, choice bool) (int, bool) {
	for i, c := range v.controls {
		if c.name == name && (c.options != nil) == choice {
			return i, true
		}
	}
	what := "slider"
	if choice {
		what = "choice"
	}
	if v.misuse != nil {
		*v.misuse = append(*v.misuse, fmt.Sprintf("no %s named %q", what, name))
	}
	return 0, false
}

// Number returns the value of the slider named name. For a name that is not
// a slider it returns NaN, and Explore reports the mistake as an error.
func (v Values) Number(name string) float64 {
	i, ok := v.find(name, false)
	if !ok {
		return math.NaN()
	}
	return v.controls[i].value(v.pos[i])
}

// Int returns the value of the slider named name rounded to the nearest
// integer: the natural reading of a slider with a whole step. For a name
// that is not a slider it returns 0, and Explore reports the mistake.
func (v Values) Int(name string) int {
	x := v.Number(name)
	if math.IsNaN(x) {
		return 0
	}
	return int(math.Round(x))
}

// Choice returns the option chosen in the choice named name. For a name
// that is not a choice it returns "", and Explore reports the mistake.
func (v Values) Choice(name string) string {
	i, ok := v.find(name, true)
	if !ok {
		return ""
	}
	return v.controls[i].options[v.pos[i]]
}

// String lists the values as "name = value", separated by commas, in the
// order of the controls.
func (v Values) String() string {
	parts := make([]string, len(v.controls))
	for i, c := range v.controls {
		parts[i] = c.name + " = " + c.format(v.pos[i])
	}
	return strings.Join(parts, ", ")
}

// RenderFunc draws the figure for the current values of the controls and
// a caption for it (plain text, shown above the figure).
type RenderFunc func(v Values) (p *plot.Plot, caption string, err error)

// exploreFrame is one rendered figure of Explore.
type exploreFrame struct {
	png     []byte
	caption string
}

// renderValues calls render for v and renders its plot; a name asked of v
// that is not a control of the right kind is an error.
func renderValues(render RenderFunc, v Values, width, height vg.Length) (exploreFrame, error) {
	var misuse []string
	v.misuse = &misuse
	p, caption, err := render(v)
	if err == nil && len(misuse) > 0 {
		err = errorf("explore: the render function asked for %s", strings.Join(misuse, " and "))
	}
	if err != nil {
		return exploreFrame{}, fmt.Errorf("%s: %w", v, err)
	}
	png, err := plots.PNG(p, width, height)
	if err != nil {
		return exploreFrame{}, fmt.Errorf("%s: %w", v, err)
	}
	return exploreFrame{png: png, caption: caption}, nil
}

// frameHTML is the live figure area: the values, the caption and the
// figure. The browser tests read the classes and data attributes.
func frameHTML(v Values, f exploreFrame) string {
	return fmt.Sprintf(`<div class="plots-explore-frame" data-values="%s">`+
		`<p class="plots-explore-values" style="margin: 0.2em 0">%s</p>`+
		`<p class="plots-explore-caption" style="margin: 0.2em 0">%s</p>`+
		`<img src="data:image/png;base64,%s"></div>`,
		html.EscapeString(v.String()), html.EscapeString(v.String()), html.EscapeString(f.caption),
		base64.StdEncoding.EncodeToString(f.png))
}

// stillFigure leaves f in the notebook as the cell's lasting output: its
// caption (text/html) and the figure (image/png), which a saved or
// converted notebook keeps.
func stillFigure(v Values, f exploreFrame) error {
	gonbui.DisplayHTML(fmt.Sprintf(`<p class="plots-explore-caption" data-values="%s">%s</p>`,
		html.EscapeString(v.String()), html.EscapeString(f.caption)))
	gonbui.DisplayPNG(f.png)
	gonbui.Sync() // as in Display: the cell may end at once
	return gonbui.Error()
}

// Explore lets a student explore a figure in a GoNB notebook: it shows one
// row per control (a slider with its two ends, or a drop-down list), the
// figure that render draws for the current values with its caption above
// it, and a Done button. Moving a control redraws the figure (moves that
// come faster than render draws are merged: only the latest is drawn).
// Done removes the controls, leaves the last figure and its caption in the
// notebook as a still image, and Explore returns the values it was drawn
// for; the kernel is busy until then.
//
// Executed with no browser attached (nbconvert or nbclient, as in CI),
// Explore finds out at once that nobody can move the controls (see
// Connected), shows the still figure for the starting values, and returns
// them: the same cell works live in Jupyter and headless, with no switch
// to flip. Behind a base URL (JupyterHub's /user/NAME/, Binder) it mends
// GoNB's widget connection first (see Connected).
//
// Outside a notebook it returns ErrNotNotebook. A control the constructor
// found invalid, two controls with one name, a render error, or a name
// asked of the Values that is not a control of that kind is an error that
// names the control and the values; live, a render error is shown in place
// of the figure and the student can move on.
//
// Usage, one cell (w and b of a boundary, and which data set):
//
//	%%
//	_, err := nb.Explore(figures.Width, figures.Height,
//		func(v nb.Values) (*plot.Plot, string, error) {
//			h := perceptron.Hyperplane{W: []float64{v.Number("w1"), 1}, B: v.Number("b")}
//			p, err := figures.Boundary(data[v.Choice("data")], h)
//			return p, fmt.Sprintf("%d errors", h.Errors(data[v.Choice("data")])), err
//		},
//		nb.Slider("w1", -2, 2, 0.1, 1),
//		nb.Slider("b", -1, 1, 0.05, 0),
//		nb.Choice("data", []string{"toy", "noisy"}, "toy"))
//	if err != nil {
//		panic(err)
//	}
func Explore(width, height vg.Length, render RenderFunc, controls ...Control) (Values, error) {
	v := Values{controls: slices.Clone(controls), pos: make([]int, len(controls))}
	if len(controls) == 0 {
		return v, errorf("explore: no controls")
	}
	if render == nil {
		return v, errorf("explore: nil render function")
	}
	for i, c := range controls {
		if c.err != nil {
			return v, c.err
		}
		if c.name == "" {
			return v, errorf("explore: control %d has no name (make controls with Slider or Choice)", i)
		}
		for j := range i {
			if controls[j].name == c.name {
				return v, errorf("explore: controls %d and %d are both named %q", j, i, c.name)
			}
		}
		v.pos[i] = c.pos
	}
	if !gonbui.IsNotebook {
		return v, ErrNotNotebook
	}
	if !Connected() {
		f, err := renderValues(render, v, width, height)
		if err != nil {
			return v, err
		}
		return v, stillFigure(v, f)
	}
	return exploreLive(v, render, width, height)
}

// exploreLive runs Explore's controls in a connected browser.
func exploreLive(v Values, render RenderFunc, width, height vg.Length) (Values, error) {
	figID := "plots_explore_figure_" + gonbui.UniqueID()
	var last exploreFrame
	var lastErr error
	show := func() {
		last, lastErr = renderValues(render, v, width, height)
		if lastErr != nil {
			gonbui.UpdateHTML(figID, fmt.Sprintf(`<div class="plots-explore-frame" data-values="%s"><pre class="plots-explore-error" style="color: #b00">%s</pre></div>`,
				html.EscapeString(v.String()), html.EscapeString(lastErr.Error())))
			return
		}
		gonbui.UpdateHTML(figID, frameHTML(v, last))
	}

	// The controls live in a transient block, removed when Done is clicked.
	root := dom.CreateTransientDiv()
	type event struct{ control, pos int }
	events := make(chan event, 64)
	quit := make(chan struct{})
	var listeners []*comms.AddressChan[int]
	for i, c := range v.controls {
		row := "plots_explore_row_" + gonbui.UniqueID()
		dom.Append(root, fmt.Sprintf(`<div id="%s" class="plots-explore-control" style="display: flex; align-items: center; gap: 0.5em; max-width: 40em; margin: 0.2em 0"><b style="min-width: 4em">%s</b></div>`,
			row, html.EscapeString(c.name)))
		var ch *comms.AddressChan[int]
		if c.options == nil {
			dom.Append(row, "<span>"+html.EscapeString(c.format(0))+"</span>")
			ch = widgets.Slider(0, c.n, c.pos).AppendTo(row).Done().Listen().LatestOnly()
			dom.Append(row, "<span>"+html.EscapeString(c.format(c.n))+"</span>")
		} else {
			escaped := make([]string, len(c.options))
			for k, o := range c.options {
				escaped[k] = html.EscapeString(o)
			}
			ch = widgets.Select(escaped).SetDefault(c.pos).AppendTo(row).Done().Listen().LatestOnly()
		}
		listeners = append(listeners, ch)
		go func(i int, ch *comms.AddressChan[int]) {
			for p := range ch.C {
				select {
				case events <- event{i, p}:
				case <-quit:
					return
				}
			}
		}(i, ch)
	}
	buttons := "plots_explore_done_" + gonbui.UniqueID()
	dom.Append(root, fmt.Sprintf(`<div id="%s" style="margin: 0.3em 0"></div>`, buttons))
	clicks := widgets.Button("Done").AppendTo(buttons).Done().Listen()
	show()

	for {
		select {
		case e := <-events:
			// Take every move that is already waiting, and draw once.
			for more := true; more; {
				c := v.controls[e.control]
				v.pos[e.control] = min(max(e.pos, 0), c.n)
				select {
				case e = <-events:
				default:
					more = false
				}
			}
			show()
		case <-clicks.C:
			close(quit)
			clicks.Close()
			for _, l := range listeners {
				l.Close()
			}
			gonbui.UpdateHTML(figID, "")
			dom.Remove(root)
			if lastErr != nil {
				return v, lastErr
			}
			return v, stillFigure(v, last)
		}
	}
}

// probeWait is how long Connected waits for the browser's answer once GoNB
// has sent the question on (GoNB itself first waits up to 3 s for a
// browser to open its widget connection). 2 s, then 5 s, were seen to be
// too short on a loaded 2-core machine (a container build beside the
// browser test): the control then fell back to its still figure in a live
// browser. A live browser answers as soon as it can; only a notebook run
// headless waits it out.
var probeWait = 10 * time.Second

// Connected reports whether a live browser shows the notebook that runs
// the program, so that widgets can be used: it asks the browser, through
// GoNB's widget channel, to send a value back, and waits for it. With no
// browser (a notebook executed by nbconvert or nbclient) nobody answers and
// it returns false after about 13 s: GoNB's own 3 s wait for a browser to
// connect, then probeWait. Outside a notebook it returns false at once.
//
// Before it opens the channel, Connected displays MendWidgetURLScript (see
// there), so that widgets also work behind a base URL.
func Connected() bool {
	if !gonbui.IsNotebook || gonbui.Error() != nil {
		return false
	}
	dom.TransientJavascript(MendWidgetURLScript)
	address := "/perceptron/plots/probe/" + gonbui.UniqueID()
	// Subscribing makes GoNB install its widget connection in the browser
	// (it waits for it up to 3 s). LatestOnly never blocks GoNB's reader on
	// an answer that comes after the wait.
	answers := comms.Listen[int](address).LatestOnly()
	if gonbui.Error() != nil {
		return false
	}
	// TransientJavascript waits (gonbui.Sync) until GoNB has passed the
	// script on, so the wait below is for the browser alone.
	// On a loaded machine the browser may open GoNB's connection after
	// GoNB's own 3 s wait: the script keeps looking for it until probeWait
	// has passed and answers as soon as it is there.
	dom.TransientJavascript(fmt.Sprintf(`(() => {
	const deadline = Date.now() + %d;
	const answer = () => {
		const comm = globalThis.gonb_comm;
		if (comm) comm.send(%q, 1);
		else if (Date.now() < deadline) setTimeout(answer, 100);
	};
	answer();
})();`, probeWait.Milliseconds(), address))
	select {
	case <-answers.C:
		answers.Close()
		return true
	case <-time.After(probeWait):
		// Unsubscribing would make GoNB wait another 3 s for a browser:
		// the subscription ends with the program.
		return false
	}
}

// MendWidgetURLScript is the JavaScript that Connected displays before GoNB
// opens its widget connection. GoNB (v0.11.4 and v0.11.5) builds that
// WebSocket's address as "ws://" + host + "/api/kernels/ID/channels": it
// drops the server's base URL (JupyterHub serves a user's server under
// /user/NAME/, Binder under a path of its own) and never uses wss: on an
// https page. The script wraps the page's WebSocket constructor once, so
// that exactly such an address, and nothing else, is rewritten to the
// scheme and base URL of the page: the base URL comes from JupyterLab's
// page configuration (the "jupyter-config-data" element: baseUrl, or
// wsUrl when the server sets one) or from classic Notebook's
// <body data-base-url>. On a page served at "/" over http the address is
// already right and nothing is wrapped. window.__perceptronWidgetURL
// records what was rewritten ({from, to}) for tests.
const MendWidgetURLScript = `(() => {
	if (globalThis.__perceptronWidgetURL) return;
	const loc = document.location;
	let base = '/', ws = '';
	const cfg = document.getElementById('jupyter-config-data');
	if (cfg) {
		try {
			const c = JSON.parse(cfg.textContent);
			base = c.baseUrl || base;
			ws = c.wsUrl || '';
		} catch (e) {}
	} else if (document.body && document.body.dataset.baseUrl) {
		base = document.body.dataset.baseUrl;
	}
	const slash = s => s.endsWith('/') ? s : s + '/';
	const from = 'ws://' + loc.host + '/api/kernels/';
	const to = (ws ? slash(ws) : (loc.protocol === 'https:' ? 'wss://' : 'ws://') + loc.host + slash(base)) + 'api/kernels/';
	globalThis.__perceptronWidgetURL = {from: from, to: to};
	if (from === to) return;
	const Native = globalThis.WebSocket;
	class KernelWebSocket extends Native {
		constructor(url, protocols) {
			if (typeof url === 'string' && url.startsWith(from) && !url.includes('?')) {
				url = to + url.slice(from.length);
			}
			if (protocols === undefined) super(url); else super(url, protocols);
		}
	}
	globalThis.WebSocket = KernelWebSocket;
})();`
