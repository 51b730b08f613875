package view

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// maxPositions bounds the number of positions of one Slider, so that a
// mistyped step (1e-9 for 0.1) is an error rather than a slider nobody can
// move one step at a time.
const maxPositions = 10000

// A Control is one named input of Explore: a slider over evenly spaced
// numbers (Slider) or over listed ones (Steps), or a choice among strings
// (Choice). Its zero value is not a valid control.
type Control struct {
	name string
	err  error // the constructor's complaint, reported by Explore

	// A slider: positions 0..n stand for min, min+step, ..., max.
	min, step float64
	n, pos    int
	decimals  int       // digits after the point of every position, or -1 (use %g)
	steps     []float64 // a slider over listed numbers: position i is steps[i]

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

// Steps returns a slider named name over the numbers values, in increasing
// order, starting at value: a slider for numbers that are not evenly
// spaced, such as learning rates 0.1, 0.5, 1, 2 or a kernel width over
// decades. Values.Number reads it, as it reads a Slider. values must be at
// least two finite numbers, each greater than the one before, and value
// one of them; otherwise Explore reports the error.
func Steps(name string, values []float64, value float64) Control {
	c := Control{name: name, steps: slices.Clone(values), decimals: -1, n: len(values) - 1}
	if len(values) < 2 {
		c.err = errorf("steps %q: %d values, want at least 2", name, len(values))
		return c
	}
	for i, x := range values {
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			c.err = errorf("steps %q: value %d is %v, want a finite number", name, i, x)
			return c
		case i > 0 && !(x > values[i-1]):
			c.err = errorf("steps %q: value %d (%v) is not greater than value %d (%v)", name, i, x, i-1, values[i-1])
			return c
		}
	}
	c.pos = slices.Index(values, value)
	if c.pos < 0 {
		c.err = errorf("steps %q: value %v is not one of the values %v", name, value, values)
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
	if c.steps != nil {
		return c.steps[i]
	}
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
	read     []bool    // when not nil, which controls were asked for (ExportFrames)
}

func (v Values) find(name string, choice bool) (int, bool) {
	for i, c := range v.controls {
		if c.name == name && (c.options != nil) == choice {
			if v.read != nil {
				v.read[i] = true
			}
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

// Number returns the value of the slider (Slider or Steps) named name. For
// a name that is not a slider it returns NaN, and Explore reports the mistake as an error.
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
	for i := range v.read { // it reads every control
		v.read[i] = true
	}
	parts := make([]string, len(v.controls))
	for i, c := range v.controls {
		parts[i] = c.name + " = " + c.format(v.pos[i])
	}
	return strings.Join(parts, ", ")
}

// RenderFunc draws the figure for the current values of the controls and
// a caption for it (plain text, shown above the figure).
type RenderFunc func(v Values) (p *plot.Plot, caption string, err error)

// AltFunc returns the alt text of the frame drawn for the values v, whose
// caption is caption: a sentence that says what that frame shows, so that a
// screen reader speaks what is on the screen after every move of a control.
// Like the render function it may ask v for the controls' values.
type AltFunc func(v Values, caption string) string

// exploreFrame is one rendered figure of Explore.
type exploreFrame struct {
	png     []byte // only when asked for (the still figure, ExportFrames)
	svg     []byte
	caption string
	alt     string // "" without an AltFunc
}

// renderValues calls render for v and renders its plot, and with alt, its
// alt text; a name asked of v that is not a control of the right kind, and
// a blank alt text, are errors. What alt asks of v counts as read, as what
// render asks does, so a frame drawn before is reused only when both would
// give the same.
func renderValues(render RenderFunc, alt AltFunc, v Values, width, height vg.Length, withPNG bool) (exploreFrame, error) {
	var misuse []string
	v.misuse = &misuse
	shown := Values{controls: v.controls, pos: v.pos} // names the values in errors without reading them
	p, caption, err := render(v)
	if err == nil && len(misuse) > 0 {
		err = errorf("explore: the render function asked for %s", strings.Join(misuse, " and "))
	}
	if err != nil {
		return exploreFrame{}, fmt.Errorf("%s: %w", shown, err)
	}
	f := exploreFrame{caption: caption}
	if alt != nil {
		f.alt = alt(v, caption)
		switch {
		case len(misuse) > 0:
			err = errorf("explore: the alt function asked for %s", strings.Join(misuse, " and "))
		case strings.TrimSpace(f.alt) == "":
			err = errorf("explore: no alt text for this frame: say in a sentence what the figure shows")
		}
		if err != nil {
			return exploreFrame{}, fmt.Errorf("%s: %w", shown, err)
		}
	}
	f.svg, err = plots.SVG(p, width, height)
	if err == nil && withPNG {
		f.png, err = plots.PNG(p, width, height)
	}
	if err != nil {
		return exploreFrame{}, fmt.Errorf("%s: %w", shown, err)
	}
	return f, nil
}

// stillFigure leaves f in the notebook as the cell's lasting output: its
// caption (text/html, a paragraph with the id capID), the figure (image/png,
// and with alt text an SVG <img> as text/html, as DisplayAlt sends it), and
// a note that the controls come back when the cell runs again, which the
// live figure's script hides: a saved notebook opened again (or reloaded)
// says why there are no sliders instead of showing nothing.
func stillFigure(capID string, v Values, f exploreFrame) error {
	gonbui.DisplayHTML(fmt.Sprintf(`<p id="%s" class="plots-explore-caption" data-values="%s">%s</p>`,
		capID, html.EscapeString(v.String()), html.EscapeString(f.caption)))
	if f.alt != "" {
		displayFigure(f.png, f.svg, f.alt)
	} else {
		gonbui.DisplayPNG(f.png)
	}
	gonbui.DisplayHTML(fmt.Sprintf(`<p class="plots-explore-note" data-for="%s"><small>%s</small></p>`, capID, html.EscapeString(RunAgainNote)))
	gonbui.Sync() // as in Display: the cell may end at once
	return gonbui.Error()
}

// RunAgainNote is the note under a live figure's still figure that its
// script hides once the controls are there: after a reload, or in a saved
// notebook opened again, it says plainly how to get the controls back.
const RunAgainNote = "Run this cell (Shift+Enter) to move the controls of this figure: a reloaded or reopened notebook shows only the figure of the starting values."

// maxFrames bounds the combinations of positions one live figure draws
// ahead: the controls' positions are chosen from the controls alone, never
// from the machine's speed, so a figure offers the same positions and
// frames on a loaded machine as on a quiet one. A lesson frame is an SVG of
// 10 to 20 kB drawn in 2 to 25 ms (lesson 9's RBF regions: 160 ms), and a
// frame whose render read the same values as one drawn before is drawn
// once, so the frames stay under about 4 MB and a lesson's live cell draws
// for at most about 3 s on a quiet machine. frameTime is only a guard
// against a render function far slower than the lessons' (a student's
// own): frames not drawn by then say so in place of their figure.
var (
	maxFrames = 160
	frameTime = 20 * time.Second
)

// lattice returns, for each control, the positions whose frames are drawn
// ahead: all of them when the product of the controls' position counts is
// at most budget; otherwise the control with the most positions is thinned,
// one position at a time, until the product fits. A thinned control keeps
// both ends, its starting position and evenly spaced positions between.
func lattice(controls []Control, start []int, budget int) [][]int {
	k := make([]int, len(controls))
	total := 1
	for i, c := range controls {
		k[i] = c.n + 1
		total *= k[i]
	}
	for total > budget {
		j := -1 // the slider with the most positions: a choice keeps all its options
		for i, c := range controls {
			if c.options == nil && (j < 0 || k[i] > k[j]) {
				j = i
			}
		}
		if j < 0 || k[j] == 1 {
			break
		}
		total = total / k[j] * (k[j] - 1)
		k[j]--
	}
	out := make([][]int, len(controls))
	for i, c := range controls {
		out[i] = spread(c.n, k[i], start[i])
	}
	return out
}

// spread returns k of the positions 0..n in increasing order: all of them
// when k > n, only start when k is 1, else k evenly spaced ones from 0 to n
// in which start, when it is not one of them, replaces the nearest inner one
// (an end only when k is 2).
func spread(n, k, start int) []int {
	if k > n {
		out := make([]int, n+1)
		for i := range out {
			out[i] = i
		}
		return out
	}
	if k <= 1 {
		return []int{start}
	}
	out := make([]int, k)
	for j := range out {
		out[j] = int(math.Round(float64(j) * float64(n) / float64(k-1)))
	}
	if !slices.Contains(out, start) {
		lo, hi := 1, k-2 // the inner positions
		if k == 2 {
			lo, hi = 0, 1
		}
		near := lo
		for j := lo; j <= hi; j++ {
			if abs(out[j]-start) < abs(out[near]-start) {
				near = j
			}
		}
		out[near] = start
		slices.Sort(out)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// liveControl is what the browser needs of one control: its name, the
// labels of the positions drawn, which of them is the start, and whether
// it is a choice (a drop-down list) rather than a slider. Total is the
// control's own number of positions, of which Labels are drawn.
type liveControl struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
	Start  int      `json:"start"`
	Choice bool     `json:"choice"`
	Total  int      `json:"total"`
}

// liveFrame is one frame drawn ahead: the SVG (base64), the caption, the
// alt text (ExploreAlt) and the values, or the render error for those
// values.
type liveFrame struct {
	SVG     string `json:"svg,omitempty"`
	Caption string `json:"caption"`
	Alt     string `json:"alt,omitempty"`
	Values  string `json:"values"`
	Error   string `json:"error,omitempty"`
}

// liveFigure is the data the browser script of a live figure gets: the id
// of the caption paragraph of the still figure, the controls and the frames
// in row-major order (the last control varies fastest).
type liveFigure struct {
	Caption  string        `json:"caption"`
	Controls []liveControl `json:"controls"`
	Frames   []liveFrame   `json:"frames"`
}

// drawAhead renders the frames of every combination of the lattice's
// positions (the start frame is given) and returns the browser's data. It
// draws the frames nearest the start first (in steps of the lattice) and
// stops at deadline: a frame not drawn by then says so in its error.
func drawAhead(render RenderFunc, alt AltFunc, v Values, positions [][]int, first exploreFrame, width, height vg.Length, deadline time.Time) liveFigure {
	fig := liveFigure{}
	n := 1
	start := make([]int, len(v.controls)) // the start's index in each control's positions
	for i, c := range v.controls {
		lc := liveControl{Name: c.name, Choice: c.options != nil, Total: c.n + 1}
		for j, p := range positions[i] {
			lc.Labels = append(lc.Labels, c.format(p))
			if p == v.pos[i] {
				lc.Start = j
			}
		}
		start[i] = lc.Start
		fig.Controls = append(fig.Controls, lc)
		n *= len(positions[i])
	}
	// at returns the lattice indices of frame idx (row-major, the last
	// control fastest) and their distance from the start.
	at := func(idx int) ([]int, int) {
		ix := make([]int, len(positions))
		dist := 0
		for i := len(positions) - 1; i >= 0; i-- {
			ix[i] = idx % len(positions[i])
			idx /= len(positions[i])
			dist += abs(ix[i] - start[i])
		}
		return ix, dist
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		_, da := at(a)
		_, db := at(b)
		return da - db
	})
	fig.Frames = make([]liveFrame, n)
	// A frame whose render asked for the same values as one drawn before
	// is that frame (as in ExportFrames): a control the render did not
	// read cannot change a deterministic figure.
	memo := newFrameMemo[exploreFrame]()
	for _, idx := range order {
		ix, _ := at(idx)
		w := Values{controls: v.controls, pos: make([]int, len(v.controls))}
		for i := range ix {
			w.pos[i] = positions[i][ix[i]]
		}
		lf := liveFrame{Values: w.String()}
		f, err := first, error(nil)
		switch {
		case slices.Equal(w.pos, v.pos):
		case time.Now().After(deadline):
			err = errorf("explore: %s: not drawn ahead: the cell's time to draw frames (%v) ran out: the render function is too slow to draw ahead", w, frameTime)
		default:
			found := false
			if f, found = memo.lookup(w.pos); !found {
				w.read = make([]bool, len(v.controls))
				if f, err = renderValues(render, alt, w, width, height, false); err == nil {
					memo.store(w.read, w.pos, f)
				}
			}
		}
		if err != nil {
			lf.Error = err.Error()
		} else {
			lf.SVG = base64.StdEncoding.EncodeToString(f.svg)
			lf.Caption, lf.Alt = f.caption, f.alt
		}
		fig.Frames[idx] = lf
	}
	return fig
}

// Explore lets a student explore a figure in a GoNB notebook without
// holding the kernel: it shows the figure that render draws for the
// starting values, with its caption above it, as a still figure (the
// cell's lasting output, which a saved notebook keeps), then draws ahead
// the frames of the controls' positions and hands them to the browser with
// one row per control (a slider with its two ends and its value, or a
// drop-down list). Moving a control there swaps the figure and caption in
// place, with no round trip to the kernel, so the cell ends at once and Run
// All goes on: Explore returns the starting values.
//
// At most maxFrames (160) combinations of positions are drawn ahead,
// chosen from the controls alone (not from the time a frame takes), so the
// figure is the same on a loaded machine as on a quiet one and every
// position a control offers shows its frame. When the controls have more
// combinations than that, the controls with the most positions are
// thinned (a choice keeps every option): a thinned slider keeps its ends,
// its starting value and evenly spaced values between, and its row says
// how many of its positions it offers. A frame whose render read the same
// values as one drawn before is that frame. The frames are SVG (plots.SVG),
// shown in the still figure's <img>. Each control takes the keyboard's
// focus and moves with the arrow keys, Home, End, Page Up and Page Down,
// which the notebook's shortcuts do not see. Moves in the browser need no
// kernel, so they work after the cell (and the notebook) has run, until
// the page is reloaded; a reloaded or converted notebook shows the still
// figure with a note (RunAgainNote) that says to run the cell.
//
// Executed with no browser attached (nbconvert or nbclient, as in CI),
// Explore does the same: the notebook keeps the still figure for the
// starting values, and the frames are sent as a transient script that a
// saved notebook does not keep.
//
// Outside a notebook it returns ErrNotNotebook. A control the constructor
// found invalid, two controls with one name, a render error for the
// starting values, or a name asked of the Values that is not a control of
// that kind is an error that names the control and the values; a render
// error for other values is shown in place of that frame's figure.
//
// Usage, one cell (w and b of a boundary, and which data set):
//
//	%%
//	_, err := view.Explore(plots.Width, plots.Height,
//		func(v view.Values) (*plot.Plot, string, error) {
//			h := perceptron.Hyperplane{W: []float64{v.Number("w1"), 1}, B: v.Number("b")}
//			p, err := figures.Boundary(data[v.Choice("data")], h)
//			return p, fmt.Sprintf("%d errors", h.Errors(data[v.Choice("data")])), err
//		},
//		view.Slider("w1", -2, 2, 0.5, 1),
//		view.Slider("b", -1, 1, 0.25, 0),
//		view.Choice("data", []string{"toy", "noisy"}, "toy"))
//	if err != nil {
//		panic(err)
//	}
func Explore(width, height vg.Length, render RenderFunc, controls ...Control) (Values, error) {
	return explore(nil, width, height, render, controls)
}

// ExploreAlt is Explore with alt text for every frame: alt describes the
// frame drawn for given values (a sentence that says what it shows, true
// of that frame). The still figure (the figure a saved or headless
// notebook keeps) is sent with the starting values' alt text as an HTML
// <img alt> beside the PNG, as DisplayAlt does, and every move of a
// control swaps the <img>'s alt with its figure. A nil alt, or a blank alt
// text for the starting values, is an error; a blank one for other values
// is that frame's error.
func ExploreAlt(alt AltFunc, width, height vg.Length, render RenderFunc, controls ...Control) (Values, error) {
	if alt == nil {
		return Values{}, errorf("explore: no alt text: say in a sentence what the figure shows")
	}
	return explore(alt, width, height, render, controls)
}

func explore(alt AltFunc, width, height vg.Length, render RenderFunc, controls []Control) (Values, error) {
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
			return v, errorf("explore: control %d has no name (make controls with Slider, Steps or Choice)", i)
		}
		for j := range i {
			if controls[j].name == c.name {
				return v, errorf("explore: controls %d and %d are both named %q", j, i, c.name)
			}
		}
		v.pos[i] = c.pos
	}
	if !gonbui.IsNotebook {
		if exporting != nil {
			return v, exporting.figure(alt, width, height, render, v)
		}
		return v, ErrNotNotebook
	}
	t0 := time.Now()
	first, err := renderValues(render, alt, v, width, height, true)
	if err != nil {
		return v, err
	}

	capID := "plots_explore_caption_" + gonbui.UniqueID()
	if err := stillFigure(capID, v, first); err != nil {
		return v, err
	}
	fig := drawAhead(render, alt, v, lattice(v.controls, v.pos, maxFrames), first, width, height, t0.Add(frameTime))
	if len(fig.Frames) < 2 {
		return v, nil // too slow to draw ahead: the still figure stays
	}
	fig.Caption = capID
	data, err := json.Marshal(fig)
	if err != nil {
		return v, err
	}
	dom.TransientJavascript(fmt.Sprintf("(%s)(%s);", liveFigureScript, data))
	return v, gonbui.Error()
}

// figure draws every frame of this shard of the figure render draws for
// v's controls, starting at v, and exports it.
func (e *exporter) figure(alt AltFunc, width, height vg.Length, render RenderFunc, v Values) error {
	first, err := renderValues(render, alt, v, width, height, true)
	if err != nil {
		return err
	}
	fig := ExportedFigure{Alt: first.alt, Controls: make([]ExportedControl, len(v.controls))}
	total := 1
	for i, c := range v.controls {
		ec := ExportedControl{Name: c.name, Start: v.pos[i], Choice: c.options != nil, Labels: make([]string, c.n+1)}
		for j := range ec.Labels {
			ec.Labels[j] = c.format(j)
		}
		fig.Controls[i] = ec
		total *= c.n + 1
	}
	fig.Frames = make([]*ExportedFrame, total)
	memo := newFrameMemo[ExportedFrame]()
	for idx := range total {
		if idx%e.shards != e.shard {
			continue
		}
		w := Values{controls: v.controls, pos: positionsAt(v.controls, idx)}
		values := w.String()
		f, found := memo.lookup(w.pos)
		if !found {
			w.read = make([]bool, len(v.controls))
			ef, err := renderValues(render, alt, w, width, height, true)
			if err != nil {
				f = ExportedFrame{Error: err.Error()}
			} else {
				f = ExportedFrame{PNG: ef.png, Caption: ef.caption, Alt: ef.alt}
			}
			memo.store(w.read, w.pos, f)
		}
		f.Values = values
		fig.Frames[idx] = &f
	}
	return e.export(fig)
}

// positionsAt is the position of each control at index idx of the
// row-major order (the last control varies fastest).
func positionsAt(controls []Control, idx int) []int {
	pos := make([]int, len(controls))
	for i := len(controls) - 1; i >= 0; i-- {
		n := controls[i].n + 1
		pos[i] = idx % n
		idx /= n
	}
	return pos
}

// frameKey names the positions of the controls in mask.
// A frameMemo holds the frames drawn so far, each under the positions of
// the controls its render read (a mask of the controls): a position whose
// read controls stand where a drawn frame's did is that frame.
type frameMemo[F any] struct {
	masks [][]bool // the sets of controls a render asked for, one of each
	drawn map[string]F
}

func newFrameMemo[F any]() *frameMemo[F] { return &frameMemo[F]{drawn: map[string]F{}} }

// lookup returns the frame drawn for pos, if any.
func (m *frameMemo[F]) lookup(pos []int) (F, bool) {
	for _, mask := range m.masks {
		if f, ok := m.drawn[frameKey(mask, pos)]; ok {
			return f, true
		}
	}
	var none F
	return none, false
}

// store records f, drawn at pos by a render that read the controls read.
func (m *frameMemo[F]) store(read []bool, pos []int, f F) {
	if !containsMask(m.masks, read) {
		m.masks = append(m.masks, read)
	}
	m.drawn[frameKey(read, pos)] = f
}

func frameKey(mask []bool, pos []int) string {
	var b strings.Builder
	for i, m := range mask {
		if m {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte('=')
			b.WriteString(strconv.Itoa(pos[i]))
		}
		b.WriteByte(';')
	}
	return b.String()
}

func containsMask(masks [][]bool, m []bool) bool {
	for _, o := range masks {
		if fmt.Sprint(o) == fmt.Sprint(m) {
			return true
		}
	}
	return false
}

// liveFigureScript is the browser's side of Explore: a function of the
// liveFigure data that finds the still figure (the caption paragraph by its
// id, and the first image after it in the cell's outputs), puts the rows of
// controls above the caption (each row: the name, the value, then the slider
// between its two ends or the drop-down list), and on every move shows the
// frame of the controls' positions in place, with its alt text. The browser tests read the classes and the
// data attributes.
const liveFigureScript = `function (fig) {
	const cap = document.getElementById(fig.caption);
	if (!cap || cap.dataset.live) return;
	let img = null;
	for (let el = cap; el && !img; el = el.parentElement) {
		for (let s = el.nextElementSibling; s && !img; s = s.nextElementSibling) {
			img = s.tagName === 'IMG' ? s : s.querySelector('img');
		}
	}
	if (!img) return;
	cap.dataset.live = '1';
	document.querySelectorAll('.plots-explore-note').forEach(n => { if (n.dataset.for === fig.caption) n.hidden = true; });
	if (!globalThis.__plotsExploreKeys) {
		globalThis.__plotsExploreKeys = true;
		window.addEventListener('keydown', e => { const f = e.target && e.target.plotsKey; if (f) f(e); }, true);
	}
	const pos = fig.controls.map(c => c.start);
	const box = document.createElement('div');
	box.className = 'plots-explore-controls';
	box.setAttribute('data-lm-suppress-shortcuts', 'true'); // JupyterLab's command-mode keys stay out
	box.style.cssText = 'margin: 0.2em 0; max-width: 40em';
	const show = () => {
		let idx = 0;
		fig.controls.forEach((c, i) => { idx = idx * c.labels.length + pos[i]; });
		const f = fig.frames[idx];
		cap.dataset.values = f.values;
		cap.dataset.frame = String(idx);
		if (f.error) {
			cap.textContent = f.error;
			cap.style.color = '#d00';
			img.style.visibility = 'hidden';
		} else {
			cap.textContent = f.caption;
			cap.style.color = '';
			img.src = 'data:image/svg+xml;base64,' + f.svg;
			if (f.alt) img.alt = f.alt;
			img.dataset.values = f.values;
			img.style.visibility = '';
		}
		box.querySelectorAll('.plots-explore-value').forEach((o, i) => { o.textContent = fig.controls[i].labels[pos[i]]; });
	};
	fig.controls.forEach((c, i) => {
		const last = c.labels.length - 1;
		const row = document.createElement('div');
		row.className = 'plots-explore-control';
		row.style.cssText = 'display: flex; flex-wrap: wrap; align-items: center; gap: 0.2em 0.5em; margin: 0.2em 0';
		const name = document.createElement('label');
		name.style.cssText = 'min-width: 4em; font-weight: bold';
		name.textContent = c.name;
		row.appendChild(name);
		const val = document.createElement('output');
		val.className = 'plots-explore-value';
		val.style.minWidth = '3em';
		val.hidden = c.choice; // a drop-down list shows its own value
		row.appendChild(val);
		let input;
		if (c.choice) {
			input = document.createElement('select');
			c.labels.forEach((l, j) => { const o = document.createElement('option'); o.value = String(j); o.textContent = l; input.appendChild(o); });
		} else {
			input = document.createElement('input');
			input.type = 'range'; input.min = '0'; input.max = String(last); input.step = '1';
			input.style.cssText = 'flex: 1 1 8em; min-width: 6em';
			input.setAttribute('aria-valuetext', c.labels[c.start]);
			const lo = document.createElement('span'); lo.textContent = c.labels[0]; row.appendChild(lo);
		}
		input.id = fig.caption + '_' + i;
		name.htmlFor = input.id;
		input.value = String(c.start);
		input.dataset.control = c.name;
		const move = j => {
			pos[i] = Math.max(0, Math.min(last, j));
			input.value = String(pos[i]);
			if (!c.choice) input.setAttribute('aria-valuetext', c.labels[pos[i]]);
			show();
		};
		input.addEventListener('input', () => move(+input.value));
		input.addEventListener('change', () => move(+input.value));
		// The keys move the control, one position at a time (a tenth of
		// them with Page Up and Page Down), and go no further: the
		// notebook's selection and shortcuts do not see them. The page
		// passes them on from the window's capture phase, before any of
		// the front end's own listeners (Notebook 7 takes → on the way).
		input.plotsKey = e => {
			if (e.altKey || e.ctrlKey || e.metaKey) return;
			const page = Math.max(1, Math.round(c.labels.length / 10));
			const down = c.choice ? 1 : -1; // a list's ↓ is its next option, a slider's its lower value
			const to = {ArrowLeft: pos[i] - 1, ArrowDown: pos[i] + down, ArrowRight: pos[i] + 1, ArrowUp: pos[i] - down,
				Home: 0, End: last, PageDown: pos[i] + down * page, PageUp: pos[i] - down * page}[e.key];
			if (to === undefined) return;
			e.preventDefault();
			e.stopPropagation();
			move(to);
		};
		row.appendChild(input);
		if (!c.choice) {
			const hi = document.createElement('span'); hi.textContent = c.labels[last]; row.appendChild(hi);
		}
		if (c.labels.length < c.total) {
			const note = document.createElement('small');
			note.textContent = c.labels.length + ' of ' + c.total + ' positions drawn ahead';
			row.appendChild(note);
		}
		box.appendChild(row);
	});
	['keyup', 'keypress'].forEach(t => box.addEventListener(t, e => e.stopPropagation()));
	cap.parentElement.insertBefore(box, cap);
	// The figure, its caption and its controls fit in the window together
	// (1024×768, 200 % zoom): the figure gives up the height the controls,
	// the caption and the front end's bars (about 130 px) take.
	const fit = () => { img.style.maxHeight = 'max(6em, calc(100vh - ' + (box.offsetHeight + cap.offsetHeight + 130) + 'px))'; };
	window.addEventListener('resize', fit);
	show();
	fit();
}`

// MendWidgetURLScript is JavaScript for a notebook that uses GoNB's own
// widgets (gonbui/widgets; a live figure of this package does not): shown
// before GoNB opens its widget connection, it mends that connection's
// address. GoNB (v0.11.4 and v0.11.5) builds that
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
