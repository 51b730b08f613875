package view

import "errors"

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
// PNG, its caption, its alt text (ExploreAlt and StepperAlt; "" for
// Explore and Stepper) and the values ("name = value, ..."), or the
// render's error for those values (then PNG is nil), as the notebook would
// show it.
type ExportedFrame struct {
	PNG     []byte `json:"-"`
	Caption string `json:"caption"`
	Alt     string `json:"alt,omitempty"`
	Values  string `json:"values"`
	Error   string `json:"error,omitempty"`
}

// ExportedFigure is a live figure with every frame drawn: Alt is the alt
// text of its still figure, the starting values' frame ("" for Explore and
// Stepper), Frames holds one
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

// ErrNotNotebook is returned by Display, DisplayGIF, Show, Explore and
// Stepper when the program is not run by a GoNB kernel (gonbui.IsNotebook
// is false): there is nowhere to show the figure, so save it with
// plots.Save or plots.PNG instead.
var ErrNotNotebook = errors.New("view: not running in a GoNB notebook: nothing displayed (use plots.Save or plots.PNG)")

// notNotebook is what a display function returns outside a notebook:
// ErrNotNotebook, or nil while ExportFrames is on.
func notNotebook() error {
	if exporting != nil {
		return nil
	}
	return ErrNotNotebook
}
