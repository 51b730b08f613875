package view

import (
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
)

// ExportedControl is one control of an exported live figure: its name, the
// label of every one of its positions (as the notebook shows them), the
// starting position, and whether it is a choice rather than a slider.
type ExportedControl struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
	Start  int      `json:"start"`
	Choice bool     `json:"choice"`
}

// ExportedFrame is the figure drawn for one combination of positions: the
// PNG, its caption and the values ("name = value, ..."), or the render's
// error for those values (then PNG is nil), as the notebook would show it.
type ExportedFrame struct {
	PNG     []byte `json:"-"`
	Caption string `json:"caption"`
	Values  string `json:"values"`
	Error   string `json:"error,omitempty"`
}

// ExportedFigure is a live figure with every frame drawn: Alt is the alt
// text of its still figure ("" for Explore and Stepper), Frames holds one
// frame for each combination of the controls' positions, in row-major order
// (the last control varies fastest). With shards (see ExportFrames) only
// the combinations of this shard are drawn; the others are nil.
type ExportedFigure struct {
	Alt      string
	Controls []ExportedControl
	Frames   []*ExportedFrame
}

// exporter is the state ExportFrames sets.
type exporter struct {
	shard, shards int
	export        func(ExportedFigure) error
}

var exporting *exporter

// ExportFrames is for the lessons' web site (scripts/site), which runs each
// live cell of a lesson as a program of its own, with no GoNB behind it.
// After it, in a program that is not run by GoNB, every Explore,
// ExploreAlt, Stepper and StepperAlt call draws its figure at every
// combination of its controls' positions (no budget, no time limit, no
// thinning) and hands it to export, whose error it returns, instead of
// returning ErrNotNotebook; Display, DisplayAlt, DisplayGIF, Show and
// ShowAlt show nothing and return nil, so that a live cell runs to its end.
// The checks of the notebook still hold: a render error for the starting
// values is the call's error, a render error for other values is that
// frame's Error.
//
// With shards > 1, only the combinations whose index i (in row-major
// order) has i % shards == shard are drawn, so that shards processes share
// the work of one figure. A combination whose render function asked for
// the same values as one drawn before in this process reuses that frame:
// a control the render function did not ask for cannot change what it
// draws, as long as it is deterministic (the lessons' are). That is what
// keeps a choice between two kernels, each with a slider of its own, from
// drawing every pair of the two sliders. A nil export turns exporting off.
func ExportFrames(shard, shards int, export func(ExportedFigure) error) {
	if export == nil {
		exporting = nil
		return
	}
	if shards < 1 || shard < 0 || shard >= shards {
		shard, shards = 0, 1
	}
	exporting = &exporter{shard: shard, shards: shards, export: export}
}

// notNotebook is what a display function returns outside a notebook:
// ErrNotNotebook, or nil while ExportFrames is on.
func notNotebook() error {
	if exporting != nil {
		return nil
	}
	return ErrNotNotebook
}

// figure draws every frame of this shard of the figure render draws for
// v's controls, starting at v, and exports it.
func (e *exporter) figure(alt string, width, height vg.Length, render RenderFunc, v Values) error {
	if _, err := renderValues(render, v, width, height, true); err != nil {
		return err
	}
	fig := ExportedFigure{Alt: alt, Controls: make([]ExportedControl, len(v.controls))}
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
	var masks [][]bool // the sets of controls a render asked for, one of each
	drawn := map[string]ExportedFrame{}
	for idx := range total {
		if idx%e.shards != e.shard {
			continue
		}
		w := Values{controls: v.controls, pos: positionsAt(v.controls, idx)}
		values := w.String()
		var f ExportedFrame
		found := false
		for _, m := range masks {
			if f, found = drawn[frameKey(m, w.pos)]; found {
				break
			}
		}
		if !found {
			w.read = make([]bool, len(v.controls))
			ef, err := renderValues(render, w, width, height, true)
			if err != nil {
				f = ExportedFrame{Error: err.Error()}
			} else {
				f = ExportedFrame{PNG: ef.png, Caption: ef.caption}
			}
			if !containsMask(masks, w.read) {
				masks = append(masks, w.read)
			}
			drawn[frameKey(w.read, w.pos)] = f
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
