package perceptron

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron/internal/jsonkeys"
)

// kernelModelJSON is a KernelModel as JSON: the kernel by the name
// ParseKernel reads, the tie policy by its name, the training rows as
// arrays.
type kernelModelJSON struct {
	Kernel string      `json:"kernel"`
	Alpha  []int       `json:"alpha"`
	B      float64     `json:"b"`
	Eta    float64     `json:"eta"`
	Tie    string      `json:"tie"`
	X      [][]float64 `json:"x"`
	Y      []float64   `json:"y"`
	Stats  Stats       `json:"stats"`
}

// kernelModelKeys are the keys of a kernel model file, as written.
var kernelModelKeys = jsonkeys.Tags(reflect.TypeFor[kernelModelJSON](), jsonkeys.Set{
	"stats": jsonkeys.Tags(reflect.TypeFor[Stats](), jsonkeys.Set{"UpdateRuns": jsonkeys.Tags(reflect.TypeFor[EpochRun](), nil)}),
})

// kernelModelRequired are the keys every kernel model file gives, in the
// order MarshalJSON writes them (named in the error for one missing).
var kernelModelRequired = jsonkeys.Names(reflect.TypeFor[kernelModelJSON]())

// MarshalJSON writes the model as JSON: its kernel by name (a kernel of
// this package: LinearKernel, PolyKernel or RBFKernel, or a pointer to
// one, which reads back as the value), α, b, η, the tie
// policy, the training rows and labels, and Stats. encoding/json alone
// wrote the training rows (a *mat.Dense) as {} and the kernel as its
// fields, which could not be read back. A model that Validate refuses is
// an error, and so are stats that UnmarshalJSON would refuse (checkRun):
// a negative count, or a run whose updates are not its α's, was written
// and could not be read back.
//
// Its receiver is a value, so that a KernelModel value (or a struct
// holding one) is written so too: with a pointer receiver, encoding/json
// wrote a value its own way, with no error, and it could not be read back.
// A nil *KernelModel is written as null (encoding/json does not call
// MarshalJSON for it); called through a nil pointer, directly or as the
// promoted method of a struct that embeds a nil *KernelModel, MarshalJSON
// panics, as every method with a value receiver does. A struct that
// embeds a KernelModel is written as the model alone: its MarshalJSON is
// promoted, as time.Time's is.
func (m KernelModel) MarshalJSON() ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := m.checkRun(); err != nil {
		return nil, err
	}
	switch m.Kernel.(type) {
	// A pointer to one of them (non-nil: Validate checked) is written as
	// its value, and reads back as the value, which computes the same.
	case LinearKernel, PolyKernel, RBFKernel, *LinearKernel, *PolyKernel, *RBFKernel:
	default:
		return nil, kindErrorf(ErrModel, "kernel model: cannot write a kernel of type %T as JSON: only this package's kernels have a name that ParseKernel reads back", m.Kernel)
	}
	n, _ := m.X.Dims()
	x := make([][]float64, n)
	for i := range x {
		x[i] = m.X.RawRowView(i)
	}
	stats := m.Stats
	if stats.UpdateRuns == nil {
		stats.UpdateRuns = EpochRuns{} // [], not null, which a model file never holds
	}
	return json.Marshal(kernelModelJSON{Kernel: m.Kernel.String(), Alpha: m.Alpha, B: m.B, Eta: m.Eta,
		Tie: m.Tie.String(), X: x, Y: m.Y, Stats: stats})
}

// UnmarshalJSON reads what MarshalJSON writes, bit for bit (a float64
// written by encoding/json reads back exactly), and checks the model with
// Validate. An unknown key, a missing one (in "stats" too), a null
// anywhere (encoding/json would read a missing or null "b", or a null α,
// as 0), a kernel name ParseKernel refuses, ragged
// training rows, stats that no run makes (a run of fewer than one epoch, a
// negative count, runs that disagree with the totals, or, after an epoch,
// updates that are not the sum of α, Converged after an epoch with
// updates, a last mistake row without α: checkRun) or a model that
// Validate refuses are errors.
func (m *KernelModel) UnmarshalJSON(data []byte) error {
	// Keys as written, each once: encoding/json alone took "KERNEL" for
	// "kernel" and kept the last of two. Every key given, no null
	// anywhere: encoding/json reads a missing or null number as 0, a bias
	// (or an α, a training value, a count) that the file never gave.
	if err := jsonkeys.CheckWith(data, kernelModelKeys, jsonkeys.Rules{NoNull: true, AllKeys: true}); err != nil {
		var e *jsonkeys.Error
		if errors.As(err, &e) && (e.Null || e.Missing) {
			return kindErrorf(ErrModel, "kernel model: %v: a kernel model file gives every key (%s, and in \"stats\" every key of Stats), each a value, never null", err, strings.Join(kernelModelRequired, ", "))
		}
		return kindErrorf(ErrModel, "kernel model: %v", err)
	}
	var j kernelModelJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return kindErrorf(ErrModel, "kernel model: %v", err)
	}
	if extra := bytes.TrimSpace(data[dec.InputOffset():]); len(extra) > 0 {
		return kindErrorf(ErrModel, "kernel model: %d bytes after the model's JSON object: one model", len(extra))
	}
	// A kernel or tie that the parsers refuse is a model that cannot be
	// used: ErrModel as well as the parser's ErrOption, as Validate says
	// of the same model built by hand.
	k, err := ParseKernel(j.Kernel)
	if err != nil {
		return modelError(wrapf(err, "kernel model"))
	}
	tie, err := ParseTie(j.Tie)
	if err != nil {
		return modelError(wrapf(err, "kernel model"))
	}
	if len(j.X) == 0 || len(j.X[0]) == 0 {
		return kindErrorf(ErrModel, "kernel model: no training rows")
	}
	d := len(j.X[0])
	// The shape before the values are reserved: the first row's length
	// times the number of rows need not fit in an int (32 bits on 386)
	// when the rows are ragged.
	for i, r := range j.X {
		if len(r) != d {
			return modelError(kindErrorf(ErrDimension, "kernel model: training row %d has %d features, row 0 has %d", i, len(r), d))
		}
	}
	raw := make([]float64, 0, len(j.X)*d)
	for _, r := range j.X {
		raw = append(raw, r...)
	}
	if len(j.Stats.UpdateRuns) == 0 {
		j.Stats.UpdateRuns = nil // as a run of no epoch has them
	}
	out := KernelModel{Stats: j.Stats, Alpha: j.Alpha, B: j.B, Kernel: k, Eta: j.Eta, Tie: tie,
		X: mat.NewDense(len(j.X), d, raw), Y: j.Y}
	if err := out.Validate(); err != nil {
		return err
	}
	if err := out.checkRun(); err != nil {
		return err
	}
	*m = out
	return nil
}

// checkRun reports stats that no run of KernelPerceptron makes with the
// model's α (m is valid): Stats.check's, and for a run of at least one
// epoch, α that do not add up to the updates (every update adds 1 to one
// α), Converged after a last epoch with updates, or a last mistake row
// that is not a training row with α > 0 (-1 without an update). A model
// made by hand, whose Stats are zero (no epoch), is checked by
// Stats.check alone.
func (m *KernelModel) checkRun() error {
	if err := m.Stats.check("kernel model"); err != nil {
		return err
	}
	if m.Epochs == 0 {
		return nil
	}
	sum := int64(0)
	for _, a := range m.Alpha {
		if int64(a) > math.MaxInt64-sum {
			return kindErrorf(ErrModel, "kernel model: stats: the α add up to more than an int64 holds")
		}
		sum += int64(a)
	}
	if sum != int64(m.Updates) {
		return kindErrorf(ErrModel, "kernel model: stats: the α add up to %d updates, the stats say %d: every update adds 1 to one α", sum, m.Updates)
	}
	if runs := m.UpdateRuns; m.Converged && (len(runs) == 0 || runs[len(runs)-1].Updates != 0) {
		return kindErrorf(ErrModel, "kernel model: stats: Converged, but the last epoch of UpdateRuns made updates (or there are no runs): a run converges on an epoch without an update")
	}
	switch r := m.LastMistakeRow; {
	case m.Updates == 0 && r != -1:
		return kindErrorf(ErrModel, "kernel model: stats: last mistake row %d after no update: want -1", r)
	case m.Updates > 0 && (r < 0 || r >= len(m.Alpha) || m.Alpha[r] == 0):
		return kindErrorf(ErrModel, "kernel model: stats: last mistake row %d is not a training row with α > 0 (%d rows): it is the row of the last update", r, len(m.Alpha))
	}
	return nil
}
