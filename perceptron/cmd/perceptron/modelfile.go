package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/internal/delim"
	"github.com/perceptron-go/lessons/perceptron/internal/jsonkeys"
)

// ModelFile is a trained linear model as a JSON document: the one train
// prints and predict reads. It lives with the command line, its only user:
// the lessons keep their models in memory. The model is W and B (and, for the voted
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
	// model's tie policy. A model does not keep the others, so newModelFile writes
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

// newModelFile describes m as a ModelFile. m is a Hyperplane or what PLA,
// Pocket, Averaged or Voted returned; the data fields say what the model
// knows (D features, taken as the columns 0..D-1 of a file with the label
// last, classes "-1" and "+1"): train then sets them from its data file.
func newModelFile(m perceptron.Model) (*ModelFile, error) {
	var (
		f     = &ModelFile{}
		h     perceptron.Hyperplane
		stats = perceptron.Stats{LastMistakeRow: -1}
	)
	switch m := m.(type) {
	case nil:
		return nil, errorf("save: the model is nil")
	case perceptron.Hyperplane:
		f.Algo, h = "hyperplane", m
	case *perceptron.Hyperplane:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, h = "hyperplane", *m
	case *perceptron.Result:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, h, stats = "pla", m.Hyperplane, m.Stats
	case *perceptron.PocketResult:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, h, stats = "pocket", m.Hyperplane, m.Stats
		pe := m.PocketErrors
		f.PocketErrors = &pe
		f.Last = &SavedHyperplane{W: m.Last.W, B: m.Last.B}
	case *perceptron.AveragedResult:
		if m == nil {
			return nil, errorf("save: the model is nil")
		}
		f.Algo, h, stats = "averaged", m.Hyperplane, m.Stats
		f.Last = &SavedHyperplane{W: m.Last.W, B: m.Last.B}
		f.Explicit = &SavedHyperplane{W: m.Explicit.W, B: m.Explicit.B}
	case *perceptron.VotedModel:
		if err := m.Validate(); err != nil {
			return nil, err
		}
		f.Algo, h, stats = "voted", m.Last(), m.Stats
		// The model's Tie, which votes: not its last vector's, which
		// Validate does not read (a model made by hand may leave it 0).
		h.Tie = m.Tie
		for k, h := range m.Vectors {
			f.Vectors = append(f.Vectors, SavedVote{W: h.W, B: h.B, Count: m.Counts[k]})
		}
		f.NVectors = len(f.Vectors)
	default:
		return nil, errorf("save: cannot save a %T: the model file holds a Hyperplane or what PLA, Pocket, Averaged or Voted returned", m)
	}
	f.W, f.B = h.W, h.B
	f.Updates, f.Epochs, f.Converged = stats.Updates, stats.Epochs, stats.Converged
	f.UpdatesPerEpoch, f.LastMistakeRow = stats.UpdatesPerEpoch(), stats.LastMistakeRow
	f.Tie = h.Tie.String()
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

// readModelFile reads one ModelFile (JSON) from r and checks it with
// Validate. Anything but white space after the one JSON object is an
// error: a file holding two models (train >> m.json run twice) is refused,
// not read as its first. So is a key that is not one of the model file's,
// spelled exactly (encoding/json alone would ignore "kernel": "poly:2" of
// some other program's model and read "TIE" as "tie"), and a key that
// appears twice in one object (encoding/json alone keeps the last). So is
// a file that is not UTF-8 text, or a string with a lone surrogate escape
// ("\ud800"): encoding/json would read either as U+FFFD, and predict
// would print classes that are not the file's (checkJSONText). So is a
// null anywhere (checkKeys) and a missing bias or vote count
// (fieldsGiven), which encoding/json would read as 0. A UTF-8 byte order
// mark before the object, which Windows editors write, is passed over, as
// RFC 8259 lets a reader do (it was "invalid character 'ï'", helper-68).
func readModelFile(r io.Reader) (*ModelFile, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, errorf("model: %v", err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := checkJSONText(data); err != nil {
		return nil, err
	}
	var f ModelFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		if err == io.EOF {
			return nil, errorf("model: empty input: no JSON object")
		}
		if err == io.ErrUnexpectedEOF {
			// encoding/json said "unexpected EOF", no more.
			return nil, errorf("model: the file ends inside its JSON object, after %d bytes: it is cut short (truncated)", len(data))
		}
		return nil, errorf("model: not a model file: %v", err)
	}
	if extra := bytes.TrimSpace(data[dec.InputOffset():]); len(extra) > 0 {
		return nil, errorf("model: trailing data after the model's JSON object (%d bytes, starting %q): one model per file", len(extra), prefix(extra, 20))
	}
	if err := checkKeys(data, modelKeys); err != nil {
		return nil, err
	}
	if err := fieldsGiven(data); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// modelKeys are the keys of ModelFile, SavedHyperplane (last, explicit)
// and SavedVote (the elements of vectors), read from their json tags.
var modelKeys = func() jsonkeys.Set {
	hyper, vote := jsonkeys.Tags(reflect.TypeFor[SavedHyperplane](), nil), jsonkeys.Tags(reflect.TypeFor[SavedVote](), nil)
	return jsonkeys.Tags(reflect.TypeFor[ModelFile](), jsonkeys.Set{"last": hyper, "explicit": hyper, "vectors": vote})
}()

// checkKeys reports the first object key of data that is not in keys
// (exactly, case included) or that repeats a key of its object, and the
// first null (encoding/json reads a null weight, bias or count as 0),
// naming it and where it is.
func checkKeys(data []byte, keys jsonkeys.Set) error {
	var e *jsonkeys.Error
	switch err := jsonkeys.CheckWith(data, keys, jsonkeys.Rules{NoNull: true}); {
	case err == nil:
		return nil
	case errors.As(err, &e) && e.Syntax == nil && e.Repeated:
		return errorf("model: key %q appears twice: one value per key", e.Path)
	case errors.As(err, &e) && e.Syntax == nil && e.Null && e.Path == "":
		return errorf("model: the file is null, not a JSON object: no model")
	case errors.As(err, &e) && e.Syntax == nil && e.Null:
		return errorf("model: %q is null: a model file gives every value it holds (encoding/json would read null as 0)", e.Path)
	case errors.As(err, &e) && e.Syntax == nil:
		return errorf("model: unknown key %q: not a field of a model file (keys are spelled exactly, in lower case)", e.Path)
	default:
		return errorf("model: not a model file: %v", err)
	}
}

// Validate checks that f describes a usable model, naming the first
// problem: a known Algo and Tie; at least one weight, every weight finite; D
// (when given) equal to the number of weights, and every other weight
// vector (Last, Explicit, Vectors) of that length; Features (when given)
// one per weight, distinct, and inside Columns − 1 feature columns;
// FeatureNames (when given) one per weight; two distinct Classes (when
// given), each a label that a data file can hold and predict can print as
// one line (classText); two ClassNames (when given); counts (updates,
// epochs, errors, vote counts) ≥ 0, at least one vote count > 0,
// pocket_errors at most N, and a training error rate in [0, 1]. It also
// refuses a file that contradicts itself as no model of train does (a
// hand edit): NoBias with a bias b ≠ 0 (or a b ≠ 0 in last, explicit or
// a vector); an averaged model without its Explicit average, or whose w
// and b differ from it by more than rounding (1e-6 of the largest of them: the two
// agree to about 1e-13 after 50,000 updates); a voted model whose w and b
// are not its last vector's, whose vectors are not one an update after
// w = 0 or whose counts are not its run's steps (checkSteps); vectors or
// n_vectors in a model of another algo; a run that contradicts itself
// (checkRun). Problems of dimension match ErrDimension and non-finite
// values ErrNonFinite with errors.Is.
func (f *ModelFile) Validate() error {
	if f == nil {
		return errorf("model: nil")
	}
	bad := modelErrorf
	switch f.Algo {
	case "pla", "pocket", "averaged", "voted", "hyperplane":
	default:
		return bad("unknown algo %q: want pla, pocket, averaged, voted or hyperplane", f.Algo)
	}
	if _, err := perceptron.ParseTie(f.Tie); err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), "perceptron: "))
	}
	d := len(f.W)
	if d == 0 {
		return bad("no weights \"w\"")
	}
	if err := finiteWeights("w", f.W, "b", f.B); err != nil {
		return err
	}
	if f.D != 0 && f.D != d {
		return kindErrorf(perceptron.ErrDimension, "model: \"d\" is %d but there are %d weights", f.D, d)
	}
	if f.FeatureNames != nil && len(f.FeatureNames) != d {
		return kindErrorf(perceptron.ErrDimension, "model: %d feature_names but %d weights", len(f.FeatureNames), d)
	}
	if f.Features != nil {
		if len(f.Features) != d {
			return kindErrorf(perceptron.ErrDimension, "model: %d features but %d weights", len(f.Features), d)
		}
		seen := map[int]bool{}
		for _, j := range f.Features {
			if j < 0 || j >= f.Columns-1 {
				return kindErrorf(perceptron.ErrDimension, "model: feature column %d out of range for %d columns", j, f.Columns)
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
		for k, c := range f.Classes {
			if err := classText(c); err != nil {
				return bad("class %d %q: %s", k, c, err)
			}
		}
		if delim.SameLabel(f.Classes[0], f.Classes[1]) {
			if f.Classes[0] == f.Classes[1] {
				return bad("the two classes are both %q", f.Classes[0])
			}
			return bad("the two classes %q and %q are one number, so one label (predict compares numeric labels as numbers)", f.Classes[0], f.Classes[1])
		}
	}
	if f.ClassNames != nil && len(f.ClassNames) != 2 {
		return bad("want two class_names, one for each class, got %d", len(f.ClassNames))
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
	if err := f.checkRun(); err != nil {
		return err
	}
	if f.PocketErrors != nil && *f.PocketErrors < 0 {
		return bad("pocket_errors %d < 0", *f.PocketErrors)
	}
	if f.PocketErrors != nil && f.N > 0 && *f.PocketErrors > f.N {
		return bad("pocket_errors %d on %d rows (n)", *f.PocketErrors, f.N)
	}
	if f.PocketErrors != nil && f.N > 0 && *f.PocketErrors != f.TrainingErrors {
		// Both count the errors of w and b (the pocket weights) on the
		// same n training rows under the same tie policy.
		return bad("pocket_errors is %d but training_errors is %d: both count the errors of the pocket weights \"w\" on the n training rows", *f.PocketErrors, f.TrainingErrors)
	}
	if f.NoBias {
		// train --no-bias fixes b = 0 in every hyperplane it writes.
		type bias struct {
			name string
			b    float64
		}
		biases := []bias{{"b", f.B}}
		if f.Last != nil {
			biases = append(biases, bias{"last.b", f.Last.B})
		}
		if f.Explicit != nil {
			biases = append(biases, bias{"explicit.b", f.Explicit.B})
		}
		for k, v := range f.Vectors {
			biases = append(biases, bias{fmt.Sprintf("vectors[%d].b", k), v.B})
		}
		for _, b := range biases {
			if b.b != 0 {
				return bad("no_bias is true but %q is %v: a model without a bias has b = 0", b.name, b.b)
			}
		}
	}
	for _, h := range []struct {
		name string
		h    *SavedHyperplane
	}{{"last", f.Last}, {"explicit", f.Explicit}} {
		if h.h == nil {
			continue
		}
		if len(h.h.W) != d {
			return kindErrorf(perceptron.ErrDimension, "model: %q has %d weights, want %d", h.name, len(h.h.W), d)
		}
		if err := finiteWeights(h.name+".w", h.h.W, h.name+".b", h.h.B); err != nil {
			return err
		}
	}
	// The fields of another algo's model, as "vectors" below: "algo"
	// changed by hand from averaged to pla kept "explicit", and w could
	// then be anything.
	for _, o := range []struct {
		key   string
		given bool
		algos []string
	}{
		{"explicit", f.Explicit != nil, []string{"averaged"}},
		{"last", f.Last != nil, []string{"pocket", "averaged"}},
		{"pocket_errors", f.PocketErrors != nil, []string{"pocket"}},
	} {
		if o.given && !slices.Contains(o.algos, f.Algo) {
			return bad("a %s model has no %q (only %s models have it)", f.Algo, o.key, strings.Join(o.algos, " and "))
		}
	}
	if f.Algo == "averaged" {
		// train writes the explicit average of every averaged model: a file
		// without it (deleted by hand) would let w and b be anything, as
		// a voted model without its vectors.
		if f.Explicit == nil {
			return bad("an averaged model needs its \"explicit\" average, which its \"w\" and \"b\" are checked against")
		}
		if err := sameAverage(f); err != nil {
			return err
		}
	}
	if f.Algo != "voted" {
		if len(f.Vectors) != 0 || f.NVectors != 0 {
			return bad("a %s model has no \"vectors\" or \"n_vectors\" (only voted has)", f.Algo)
		}
		return nil
	}
	if len(f.Vectors) == 0 {
		return bad("a voted model needs its \"vectors\"")
	}
	if f.UpdatesPerEpoch != nil && f.Epochs > 0 {
		// Voted keeps w = 0 and one vector an update (a file whose run
		// is given: a VotedModel made by hand has none).
		if len(f.Vectors) != f.Updates+1 {
			return bad("%d vectors but \"updates\" is %d: a voted model has one vector an update, after w = 0", len(f.Vectors), f.Updates)
		}
		if v := f.Vectors[0]; v.B != 0 || slices.ContainsFunc(v.W, func(x float64) bool { return x != 0 }) {
			return bad("vector 0 is not w = 0, b = 0: a voted model's first vector is the weights before the first update")
		}
		if err := f.checkSteps(); err != nil {
			return err
		}
	}
	if f.NVectors != 0 && f.NVectors != len(f.Vectors) {
		return bad("n_vectors is %d but there are %d vectors", f.NVectors, len(f.Vectors))
	}
	votes := false
	for k, v := range f.Vectors {
		if len(v.W) != d {
			return kindErrorf(perceptron.ErrDimension, "model: vector %d has %d weights, want %d", k, len(v.W), d)
		}
		if v.Count < 0 {
			return bad("vector %d has count %d: a survival count is >= 0", k, v.Count)
		}
		votes = votes || v.Count > 0
		if err := finiteWeights(fmt.Sprintf("vector %d w", k), v.W, fmt.Sprintf("vector %d b", k), v.B); err != nil {
			return err
		}
	}
	if !votes {
		return bad("every vector has count 0: none votes, and every row would be a tie")
	}
	// train writes a voted model's w and b as its last vector's (what
	// VotedModel.Last returns); predict votes with the vectors only.
	// Up to averageTol, as an averaged model's w and b against explicit:
	// a file whose numbers were rounded (to 15 digits, say) is the same
	// model (helper-65).
	last := f.Vectors[len(f.Vectors)-1]
	if j, apart := firstApart(f.W, f.B, last.W, last.B); apart && j >= 0 {
		return bad("w[%d] is %v but the last vector's is %v: a voted model's \"w\" is its last vector's", j, f.W[j], last.W[j])
	} else if apart {
		return bad("b is %v but the last vector's is %v: a voted model's \"b\" is its last vector's", f.B, last.B)
	}
	return nil
}

// modelErrorf is the error of a model file that Validate refuses.
func modelErrorf(format string, args ...any) error {
	return errorf("model: "+format, args...)
}

// checkRun refuses a file whose run contradicts itself (a hand edit) as
// the library's kernel model file refuses its stats: when
// updates_per_epoch is given, one element an epoch ("epochs") adding up
// to "updates", and "converged" exactly when the last epoch made no
// update (and, for a voted model, one vector an update after w = 0);
// "last_mistake_row" a row (not -1) when there was an update; "epochs"
// and "updates" within "max_epochs" and "max_updates" (when given);
// "training_error" the fraction "training_errors" of "n" rows (up to the
// rounding of a hand-written decimal); "order" one that train writes and
// "eta" one that it accepts (or neither given).
func (f *ModelFile) checkRun() error {
	bad := modelErrorf
	if f.UpdatesPerEpoch != nil {
		sum := 0
		for _, u := range f.UpdatesPerEpoch {
			if u > math.MaxInt-sum {
				return bad("updates_per_epoch add up to more than an int holds")
			}
			sum += u
		}
		if len(f.UpdatesPerEpoch) != f.Epochs {
			return bad("updates_per_epoch has %d epochs but \"epochs\" is %d", len(f.UpdatesPerEpoch), f.Epochs)
		}
		if sum != f.Updates {
			return bad("updates_per_epoch add up to %d updates but \"updates\" is %d", sum, f.Updates)
		}
		// train runs to a clean pass or to a limit (no Context stops it
		// mid-epoch): converged is whether the last epoch made no update.
		if clean := f.Epochs > 0 && f.UpdatesPerEpoch[f.Epochs-1] == 0; f.Converged != clean {
			return bad("\"converged\" is %v but the last epoch of updates_per_epoch made %s: converged means the last pass made no mistake", f.Converged, lastEpoch(f.UpdatesPerEpoch))
		}
	}
	switch {
	case f.Updates > 0 && f.LastMistakeRow < 0:
		return bad("last_mistake_row is %d but there were %d updates: it is the row of the last one", f.LastMistakeRow, f.Updates)
	case f.MaxEpochs > 0 && f.Epochs > f.MaxEpochs:
		return bad("%d epochs but max_epochs is %d", f.Epochs, f.MaxEpochs)
	case f.MaxUpdates > 0 && f.Updates > f.MaxUpdates:
		return bad("%d updates but max_updates is %d", f.Updates, f.MaxUpdates)
	case f.N > 0 && math.Abs(float64(f.TrainingError*float64(f.N))-float64(f.TrainingErrors)) > 0.5: // no FMA
		return bad("training_error %v is not training_errors/n = %d/%d", f.TrainingError, f.TrainingErrors, f.N)
	case f.Eta != 0 && f.Eta < 0x1p-1022:
		return bad("eta %v is subnormal (below 2^-1022): train refuses it", f.Eta)
	}
	if f.Order != "" {
		if _, err := perceptron.ParseOrder(f.Order); err != nil {
			return bad("%s", strings.TrimPrefix(err.Error(), "perceptron: "))
		}
	}
	return nil
}

// checkSteps refuses a voted model file (of a run: updates_per_epoch
// given, at least one epoch) whose survival counts, which are its votes,
// do not add up to the steps of its run: one a visited row. With the
// mistake order every step is an update (and a run of no step gives w = 0
// a count of 1); with the others an epoch visits the n rows, so the
// counts add up to n·epochs, or, when max_updates ended the run, to at
// most that and more than the n·(epochs − 1) steps of the epochs before
// the last. A hand-edited count changed every vote with no error.
func (f *ModelFile) checkSteps() error {
	sum := 0
	for k, v := range f.Vectors {
		if v.Count > math.MaxInt-sum {
			return modelErrorf("the counts add up past %d at vector %d: more steps than a run makes", math.MaxInt, k)
		}
		sum += v.Count
	}
	if f.Order == "mistake" {
		if sum != f.Updates && (f.Updates != 0 || sum != 1) {
			return modelErrorf("the vectors' counts add up to %d steps but there were %d updates: with the mistake order every step is an update", sum, f.Updates)
		}
		return nil
	}
	if f.N == 0 || f.Order == "" {
		return nil // the steps of an epoch are unknown
	}
	hi, steps := bits.Mul64(uint64(f.N), uint64(f.Epochs))
	stopped := f.MaxUpdates > 0 && f.Updates >= f.MaxUpdates
	if hi == 0 && (uint64(sum) > steps || !stopped && uint64(sum) != steps) {
		return modelErrorf("the vectors' counts add up to %d steps but %d epochs of n = %d rows make %d: a count is a number of visited rows", sum, f.Epochs, f.N, steps)
	}
	if before := steps - uint64(f.N); hi == 0 && stopped && uint64(sum) <= before {
		// The run stopped at the step of its last update, in its last
		// epoch: after the n·(epochs − 1) steps of the others (a count
		// lowered by hand passed, helper-73).
		return modelErrorf("the vectors' counts add up to %d steps, but max_updates ended the run in epoch %d, after the %d steps of the epochs of n = %d rows before it: a count is a number of visited rows", sum, f.Epochs, before, f.N)
	}
	return nil
}

// lastEpoch describes the last epoch of a run's updates per epoch.
func lastEpoch(perEpoch []int) string {
	if len(perEpoch) == 0 {
		return "none (there is no epoch)"
	}
	return fmt.Sprintf("%d updates", perEpoch[len(perEpoch)-1])
}

// averageTol is how far, relative to the largest of them, an averaged
// model's w and b may be from its explicit average: the two are sums of
// the same steps in another order and agree up to rounding (about 1e-13
// of the largest after 50,000 updates on breast_cancer.csv, and growing
// with the number of steps); a hand edit is far beyond it.
const averageTol = 1e-6

// sameAverage refuses an averaged model file whose w and b (the fast
// average) are not its explicit average up to rounding (averageTol).
func sameAverage(f *ModelFile) error {
	if j, apart := firstApart(f.W, f.B, f.Explicit.W, f.Explicit.B); apart && j >= 0 {
		return errorf("model: w[%d] is %v but explicit.w[%d] is %v: an averaged model's \"w\" is its explicit average, up to rounding", j, f.W[j], j, f.Explicit.W[j])
	} else if apart {
		return errorf("model: b is %v but explicit.b is %v: an averaged model's \"b\" is its explicit average, up to rounding", f.B, f.Explicit.B)
	}
	return nil
}

// firstApart reports whether (w, b) and (v, c) differ by more than
// averageTol of the largest magnitude among them, and where first: the
// weight j, or -1 for the bias.
func firstApart(w []float64, b float64, v []float64, c float64) (j int, apart bool) {
	scale := math.Max(math.Abs(b), math.Abs(c))
	for j := range w {
		scale = math.Max(scale, math.Max(math.Abs(w[j]), math.Abs(v[j])))
	}
	tol := averageTol * scale
	for j := range w {
		if math.Abs(w[j]-v[j]) > tol {
			return j, true
		}
	}
	return -1, math.Abs(b-c) > tol
}

// fieldsGiven reports the first number of a model file (data) that is
// missing where the model needs it: the bias "b", a vector's "b" and
// "count" (voted), the "b" of "last" or "explicit" when they are given.
// encoding/json reads a missing number as 0, a bias of 0 or a count that
// votes nothing, where the file says no number at all. (A null is
// checkKeys's; a missing "w" is Validate's: it has no weights.)
func fieldsGiven(data []byte) error {
	var raw struct {
		B        json.RawMessage              `json:"b"`
		D        json.RawMessage              `json:"d"`
		NVectors json.RawMessage              `json:"n_vectors"`
		Last     map[string]json.RawMessage   `json:"last"`
		Explicit map[string]json.RawMessage   `json:"explicit"`
		Vectors  []map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return errorf("model: not a model file: %v", err)
	}
	if raw.B == nil {
		return errorf("model: no bias \"b\": write \"b\": 0 for a boundary through the origin")
	}
	if d0, err := strconv.ParseFloat(string(raw.D), 64); raw.D != nil && err == nil && d0 == 0 {
		// Validate takes a D of 0 for "not given" (newModelFile's callers);
		// a file that gives it says the model has no feature.
		return kindErrorf(perceptron.ErrDimension, "model: \"d\" is 0: a model has at least one feature (d is the number of weights)")
	}
	if n0, err := strconv.ParseFloat(string(raw.NVectors), 64); raw.NVectors != nil && err == nil && n0 == 0 && len(raw.Vectors) > 0 {
		// As "d": Validate takes 0 for "not given" (train omits it
		// without vectors); a file that gives it with vectors says none.
		return errorf("model: \"n_vectors\" is 0 but there are %d vectors", len(raw.Vectors))
	}
	for _, h := range []struct {
		name string
		obj  map[string]json.RawMessage
	}{{"last", raw.Last}, {"explicit", raw.Explicit}} {
		if _, ok := h.obj["b"]; h.obj != nil && !ok {
			return errorf("model: %q has no bias \"b\"", h.name)
		}
	}
	for k, v := range raw.Vectors {
		if _, ok := v["b"]; !ok {
			return errorf("model: vector %d has no bias \"b\": each vector of a voted model needs its bias", k)
		}
		if _, ok := v["count"]; !ok {
			return errorf("model: vector %d has no \"count\": each vector of a voted model needs its survival count", k)
		}
	}
	return nil
}

// classText reports why c cannot be a class of a model file: no data file
// holds it as a label, as ReadCSV reads labels (it is empty, a
// missing-value marker such as "?", or NaN, or it holds a NUL byte, which
// the reader refuses as binary data), or predict could not print it as one
// line (it holds a line break, which no line of a data file does).
func classText(c string) error {
	if err := delim.CheckLabel(c, 0, 0); err != nil {
		var de *delim.Error
		if errors.As(err, &de) {
			return errors.New(de.Msg + ": no data file holds it as a label")
		}
		return err
	}
	if strings.IndexByte(c, 0) >= 0 {
		return errors.New("a NUL byte in it: no data file holds it as a label (the reader refuses NUL bytes as binary data)")
	}
	if i := strings.IndexAny(c, "\n\r"); i >= 0 {
		return fmt.Errorf("a line break (%q) in it: predict prints one label a line", c[i:i+1])
	}
	return nil
}

// finiteWeights reports the first weight of w or b that is NaN or ±Inf.
func finiteWeights(wname string, w []float64, bname string, b float64) error {
	for j, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return kindErrorf(perceptron.ErrNonFinite, "model: %s[%d] is %v", wname, j, v)
		}
	}
	if math.IsNaN(b) || math.IsInf(b, 0) {
		return kindErrorf(perceptron.ErrNonFinite, "model: %s is %v", bname, b)
	}
	return nil
}

// Model checks f and returns its model: a *perceptron.Result for "pla",
// *PocketResult, *AveragedResult, *VotedModel, or a Hyperplane for
// "hyperplane". The model predicts as the saved one did, with its tie
// policy.
func (f *ModelFile) Model() (perceptron.Model, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	tie, _ := perceptron.ParseTie(f.Tie)
	h := perceptron.Hyperplane{W: append([]float64(nil), f.W...), B: f.B, Tie: tie}
	stats := perceptron.Stats{Updates: f.Updates, Epochs: f.Epochs,
		UpdateRuns: epochRuns(f.UpdatesPerEpoch), LastMistakeRow: f.LastMistakeRow, Converged: f.Converged}
	hyper := func(s *SavedHyperplane) perceptron.Hyperplane {
		if s == nil {
			return perceptron.Hyperplane{}
		}
		return perceptron.Hyperplane{W: append([]float64(nil), s.W...), B: s.B, Tie: tie}
	}
	switch f.Algo {
	case "hyperplane":
		return h, nil
	case "pocket":
		p := &perceptron.PocketResult{Hyperplane: h, Stats: stats, Last: hyper(f.Last)}
		if f.PocketErrors != nil {
			p.PocketErrors = *f.PocketErrors
		}
		return p, nil
	case "averaged":
		return &perceptron.AveragedResult{Hyperplane: h, Stats: stats, Last: hyper(f.Last), Explicit: hyper(f.Explicit)}, nil
	case "voted":
		v := &perceptron.VotedModel{Tie: tie, Stats: stats}
		for _, sv := range f.Vectors {
			v.Vectors = append(v.Vectors, perceptron.Hyperplane{W: append([]float64(nil), sv.W...), B: sv.B, Tie: tie})
			v.Counts = append(v.Counts, sv.Count)
		}
		return v, nil
	}
	return &perceptron.Result{Hyperplane: h, Stats: stats}, nil
}

// epochRuns encodes the updates of every epoch by runs.
func epochRuns(perEpoch []int) perceptron.EpochRuns {
	var runs perceptron.EpochRuns
	for _, u := range perEpoch {
		if k := len(runs) - 1; k >= 0 && runs[k].Updates == u {
			runs[k].Epochs++
			continue
		}
		runs = append(runs, perceptron.EpochRun{Updates: u, Epochs: 1})
	}
	return runs
}

// prefix returns at most n bytes of b, cut at a rune boundary.
func prefix(b []byte, n int) string {
	s := string(b)
	for i := range s {
		if i >= n {
			return s[:i] + "…"
		}
	}
	return s
}

// errorf returns an error whose message starts with "perceptron: ", as the
// library's do.
func errorf(format string, args ...any) error {
	return fmt.Errorf("perceptron: "+format, args...)
}

// checkJSONText reports the first place where the JSON document data is not
// text that encoding/json reads byte for byte: bytes that are not UTF-8,
// or, in a string, a \u escape of a UTF-16 surrogate that is not a high
// one followed by a low one. The error names the line and the byte.
func checkJSONText(data []byte) error {
	at := func(i int) string {
		return fmt.Sprintf("line %d, byte %d", 1+bytes.Count(data[:i], []byte("\n")), i+1)
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return errorf("model: %s: the byte 0x%02x is not UTF-8 text: a model file is JSON, which is UTF-8, and its classes and names are kept byte for byte", at(i), data[i])
	}
	surrogate := func(i int) (rune, bool) { // the \u escape at data[i:], if any
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	in := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			in = !in
		case in && c == '\\':
			r, ok := surrogate(i)
			if !ok || !utf16.IsSurrogate(r) {
				i++ // the escaped byte (a "\u" escape's hex digits are not '"' or '\\')
				continue
			}
			if r2, ok := surrogate(i + 6); r < 0xdc00 && ok && r2 >= 0xdc00 && r2 <= 0xdfff {
				i += 11
				continue
			}
			return errorf("model: %s: %q is half of a UTF-16 surrogate pair: it is no character, and would be read as U+FFFD", at(i), data[i:i+6])
		}
	}
	return nil
}
