package perceptron

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// ModelFile is a trained linear model as a JSON document: the format that
// Save writes and Load reads, and the one the command line's train prints
// and its predict reads. The model is W and B (and, for the voted
// perceptron, Vectors); the other fields describe how it was trained and on
// what data, for a reader and for predict, which needs Columns, Features
// and Classes to read a data file as training did.
type ModelFile struct {
	// Algo is "pla", "pocket", "averaged", "voted" or "hyperplane" (a bare
	// Hyperplane).
	Algo string `json:"algo"`
	// W and B are the model's weights: the final (pla), pocket (pocket),
	// averaged (averaged) or last (voted) weights.
	W []float64 `json:"w"`
	B float64   `json:"b"`
	// The run: as in Result.
	Updates         int   `json:"updates"`
	Epochs          int   `json:"epochs"`
	Converged       bool  `json:"converged"`
	UpdatesPerEpoch []int `json:"updates_per_epoch"`
	LastMistakeRow  int   `json:"last_mistake_row"`
	// TrainingError and TrainingErrors are the error rate and the number of
	// errors on the N training rows.
	TrainingError  float64 `json:"training_error"`
	TrainingErrors int     `json:"training_errors"`
	// The data: N rows of D features, read from a file of Columns fields
	// per line whose feature columns were Features (0-based) and whose
	// labels Classes[0] and Classes[1] became -1 and +1. ClassNames and
	// FeatureNames are the names given by the file, if any.
	N            int      `json:"n"`
	D            int      `json:"d"`
	Columns      int      `json:"columns"`
	Classes      []string `json:"classes"`
	ClassNames   []string `json:"class_names,omitempty"`
	Features     []int    `json:"features"`
	FeatureNames []string `json:"feature_names,omitempty"`
	// The options of training; Tie ("mistake" or "negative") is also the
	// model's tie policy. A model does not keep the others, so Save writes
	// them as zero unless they are set on the ModelFile (as train does).
	Tie        string  `json:"tie"`
	Order      string  `json:"order"`
	Eta        float64 `json:"eta"`
	Seed       uint64  `json:"seed"`
	MaxEpochs  int     `json:"max_epochs"`
	MaxUpdates int     `json:"max_updates"`
	NoBias     bool    `json:"no_bias"`
	// PocketErrors and Last (the final PLA weights) for pocket; Last and
	// Explicit (the average computed the slow way) for averaged.
	PocketErrors *int             `json:"pocket_errors,omitempty"`
	Last         *SavedHyperplane `json:"last,omitempty"`
	Explicit     *SavedHyperplane `json:"explicit,omitempty"`
	// NVectors and Vectors, the weight vectors of the voted perceptron
	// with their survival counts.
	NVectors int         `json:"n_vectors,omitempty"`
	Vectors  []SavedVote `json:"vectors,omitempty"`
}

// SavedHyperplane is (w, b) in a ModelFile.
type SavedHyperplane struct {
	W []float64 `json:"w"`
	B float64   `json:"b"`
}

// SavedVote is one weight vector of the voted perceptron with its survival
// count, in a ModelFile.
type SavedVote struct {
	W     []float64 `json:"w"`
	B     float64   `json:"b"`
	Count int       `json:"count"`
}

// Save writes m as a ModelFile (JSON, indented) to w. m is a Hyperplane or
// what PLA, Pocket, Averaged or Voted returned; the data fields say what the
// model knows (D features, taken as the columns 0..D-1 of a file with the
// label last, classes "-1" and "+1"). To describe the data file too, use
// NewModelFile, set its fields, and call WriteJSON.
func Save(w io.Writer, m Model) error {
	f, err := NewModelFile(m)
	if err != nil {
		return err
	}
	return f.WriteJSON(w)
}

// Load reads a ModelFile from r, checks it (ModelFile.Validate) and returns
// its model: a *Result for "pla", *PocketResult, *AveragedResult,
// *VotedModel, or a Hyperplane for "hyperplane". The model predicts as the
// saved one did, with its tie policy.
func Load(r io.Reader) (Model, error) {
	f, err := ReadModelFile(r)
	if err != nil {
		return nil, err
	}
	return f.Model()
}

// NewModelFile describes m as a ModelFile (see Save).
func NewModelFile(m Model) (*ModelFile, error) {
	var (
		f   = &ModelFile{}
		res *Result
	)
	switch m := m.(type) {
	case nil:
		return nil, errorf("save: the model is nil")
	case Hyperplane:
		f.Algo = "hyperplane"
		res = &Result{Hyperplane: m, LastMistakeRow: -1}
	case *Hyperplane:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo = "hyperplane"
		res = &Result{Hyperplane: *m, LastMistakeRow: -1}
	case *Result:
		f.Algo, res = "pla", m
	case *PocketResult:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, res = "pocket", &m.Result
		pe := m.PocketErrors
		f.PocketErrors = &pe
		f.Last = &SavedHyperplane{W: m.Last.W, B: m.Last.B}
	case *AveragedResult:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, res = "averaged", &m.Result
		f.Last = &SavedHyperplane{W: m.Last.W, B: m.Last.B}
		f.Explicit = &SavedHyperplane{W: m.Explicit.W, B: m.Explicit.B}
	case *VotedModel:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		if err := m.check(); err != nil {
			return nil, err
		}
		f.Algo, res = "voted", &m.Result
		for k, h := range m.Vectors {
			f.Vectors = append(f.Vectors, SavedVote{W: h.W, B: h.B, Count: m.Counts[k]})
		}
		f.NVectors = len(f.Vectors)
	default:
		return nil, errorf("save: cannot save a %T: Save writes a Hyperplane or what PLA, Pocket, Averaged or Voted returned", m)
	}
	if res == nil {
		return nil, errorf("save: the model is nil")
	}
	f.W, f.B = res.W, res.B
	f.Updates, f.Epochs, f.Converged = res.Updates, res.Epochs, res.Converged
	f.UpdatesPerEpoch, f.LastMistakeRow = resultHistory(res), res.LastMistakeRow
	if f.UpdatesPerEpoch == nil {
		f.UpdatesPerEpoch = []int{}
	}
	f.Tie = res.Tie.String()
	f.D = len(f.W)
	f.Columns = f.D + 1
	f.Features = make([]int, f.D)
	for j := range f.Features {
		f.Features[j] = j
	}
	f.Classes = []string{"-1", "+1"}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// resultHistory returns the updates of every epoch of a run.
func resultHistory(r *Result) []int { return r.UpdatesPerEpoch() }

// WriteJSON writes f as indented JSON with a final newline. It is an error
// for f not to be valid (a NaN weight cannot be written as JSON).
func (f *ModelFile) WriteJSON(w io.Writer) error {
	if err := f.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return errorf("save: %v", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// ReadModelFile reads one ModelFile (JSON) from r and checks it with
// Validate.
func ReadModelFile(r io.Reader) (*ModelFile, error) {
	var f ModelFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		if err == io.EOF {
			return nil, errorf("model: empty input: no JSON object")
		}
		return nil, errorf("model: not a model file: %v", err)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// Validate checks that f describes a usable model, naming the first
// problem: a known Algo and Tie; at least one weight, every weight finite; D
// (when given) equal to the number of weights, and every other weight
// vector (Last, Explicit, Vectors) of that length; Features (when given)
// one per weight, distinct, and inside Columns − 1 feature columns; two
// distinct Classes (when given); counts (updates, epochs, errors, vote
// counts) ≥ 0, and a training error rate in [0, 1]. Problems of dimension
// match ErrDimension and non-finite values ErrNonFinite with errors.Is.
func (f *ModelFile) Validate() error {
	if f == nil {
		return errorf("model: nil")
	}
	bad := func(format string, args ...any) error {
		return errorf("model: "+format, args...)
	}
	switch f.Algo {
	case "pla", "pocket", "averaged", "voted", "hyperplane":
	default:
		return bad("unknown algo %q: want pla, pocket, averaged, voted or hyperplane", f.Algo)
	}
	if _, err := ParseTie(f.Tie); err != nil {
		return bad("%s", trimPrefix(err))
	}
	d := len(f.W)
	if d == 0 {
		return bad("no weights \"w\"")
	}
	if err := finiteWeights("w", f.W, "b", f.B); err != nil {
		return err
	}
	if f.D != 0 && f.D != d {
		return kindErrorf(ErrDimension, "model: \"d\" is %d but there are %d weights", f.D, d)
	}
	if f.Features != nil {
		if len(f.Features) != d {
			return kindErrorf(ErrDimension, "model: %d features but %d weights", len(f.Features), d)
		}
		seen := map[int]bool{}
		for _, j := range f.Features {
			if j < 0 || j >= f.Columns-1 {
				return kindErrorf(ErrDimension, "model: feature column %d out of range for %d columns", j, f.Columns)
			}
			if seen[j] {
				return bad("feature column %d repeated", j)
			}
			seen[j] = true
		}
	}
	if f.Classes != nil {
		if len(f.Classes) != 2 {
			return bad("want two classes, got %d", len(f.Classes))
		}
		if f.Classes[0] == f.Classes[1] {
			return bad("the two classes are both %q", f.Classes[0])
		}
	}
	switch {
	case f.N < 0 || f.Updates < 0 || f.Epochs < 0 || f.TrainingErrors < 0 || f.MaxEpochs < 0 || f.MaxUpdates < 0:
		return bad("negative count: n %d, updates %d, epochs %d, training_errors %d, max_epochs %d, max_updates %d",
			f.N, f.Updates, f.Epochs, f.TrainingErrors, f.MaxEpochs, f.MaxUpdates)
	case f.N > 0 && f.TrainingErrors > f.N:
		return bad("%d training errors on %d rows", f.TrainingErrors, f.N)
	case !(f.TrainingError >= 0 && f.TrainingError <= 1):
		return bad("training_error %v is not in [0, 1]", f.TrainingError)
	case f.LastMistakeRow < -1 || (f.N > 0 && f.LastMistakeRow >= f.N):
		return bad("last_mistake_row %d out of range for %d rows", f.LastMistakeRow, f.N)
	case f.Eta < 0 || math.IsNaN(f.Eta) || math.IsInf(f.Eta, 0):
		return bad("eta %v: want a finite number > 0 (or 0 if unknown)", f.Eta)
	}
	for e, u := range f.UpdatesPerEpoch {
		if u < 0 {
			return bad("updates_per_epoch[%d] is %d < 0", e, u)
		}
	}
	if f.PocketErrors != nil && *f.PocketErrors < 0 {
		return bad("pocket_errors %d < 0", *f.PocketErrors)
	}
	for _, h := range []struct {
		name string
		h    *SavedHyperplane
	}{{"last", f.Last}, {"explicit", f.Explicit}} {
		if h.h == nil {
			continue
		}
		if len(h.h.W) != d {
			return kindErrorf(ErrDimension, "model: %q has %d weights, want %d", h.name, len(h.h.W), d)
		}
		if err := finiteWeights(h.name+".w", h.h.W, h.name+".b", h.h.B); err != nil {
			return err
		}
	}
	if f.Algo != "voted" {
		if len(f.Vectors) != 0 {
			return bad("a %s model has no \"vectors\" (only voted has)", f.Algo)
		}
		return nil
	}
	if len(f.Vectors) == 0 {
		return bad("a voted model needs its \"vectors\"")
	}
	if f.NVectors != 0 && f.NVectors != len(f.Vectors) {
		return bad("n_vectors is %d but there are %d vectors", f.NVectors, len(f.Vectors))
	}
	for k, v := range f.Vectors {
		if len(v.W) != d {
			return kindErrorf(ErrDimension, "model: vector %d has %d weights, want %d", k, len(v.W), d)
		}
		if v.Count < 0 {
			return bad("vector %d has count %d: a survival count is >= 0", k, v.Count)
		}
		if err := finiteWeights(fmt.Sprintf("vector %d w", k), v.W, fmt.Sprintf("vector %d b", k), v.B); err != nil {
			return err
		}
	}
	return nil
}

// finiteWeights reports the first weight of w or b that is NaN or ±Inf.
func finiteWeights(wname string, w []float64, bname string, b float64) error {
	for j, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return kindErrorf(ErrNonFinite, "model: %s[%d] is %v", wname, j, v)
		}
	}
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return kindErrorf(ErrNonFinite, "model: %s is %v", bname, b)
	}
	return nil
}

// Model checks f and returns its model (see Load).
func (f *ModelFile) Model() (Model, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	tie, _ := ParseTie(f.Tie)
	h := Hyperplane{W: append([]float64(nil), f.W...), B: f.B, Tie: tie}
	res := Result{Hyperplane: h, Updates: f.Updates, Epochs: f.Epochs,
		LastMistakeRow: f.LastMistakeRow, Converged: f.Converged}
	setHistory(&res, f.UpdatesPerEpoch)
	hyper := func(s *SavedHyperplane) Hyperplane {
		if s == nil {
			return Hyperplane{}
		}
		return Hyperplane{W: append([]float64(nil), s.W...), B: s.B, Tie: tie}
	}
	switch f.Algo {
	case "hyperplane":
		return h, nil
	case "pocket":
		p := &PocketResult{Result: res, Last: hyper(f.Last)}
		if f.PocketErrors != nil {
			p.PocketErrors = *f.PocketErrors
		}
		return p, nil
	case "averaged":
		return &AveragedResult{Result: res, Last: hyper(f.Last), Explicit: hyper(f.Explicit)}, nil
	case "voted":
		v := &VotedModel{Result: res}
		for _, sv := range f.Vectors {
			v.Vectors = append(v.Vectors, Hyperplane{W: append([]float64(nil), sv.W...), B: sv.B, Tie: tie})
			v.Counts = append(v.Counts, sv.Count)
		}
		return v, nil
	}
	return &res, nil
}

// setHistory stores the updates of every epoch in a Result, run-length
// encoded.
func setHistory(r *Result, perEpoch []int) {
	r.UpdateRuns = nil
	for _, u := range perEpoch {
		r.UpdateRuns.add(u)
	}
}
