package perceptron_test

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron"
)

// scoringCalls calls Score, Predict, PredictAll, Errors and ErrorRate of m
// on x (and on the one-row data set of x with label +1) and returns their
// errors, by name.
func scoringCalls(m perceptron.Model, x []float64) map[string]error {
	d := &perceptron.Dataset{X: mat.NewDense(1, len(x), x), Y: []float64{1}}
	_, score := m.Score(x)
	_, predict := m.Predict(x)
	_, all := m.PredictAll(d)
	_, errs := m.Errors(d)
	_, rate := m.ErrorRate(d)
	return map[string]error{"Score": score, "Predict": predict, "PredictAll": all, "Errors": errs, "ErrorRate": rate}
}

// checkedModel is a model with its Validate method.
type checkedModel interface {
	perceptron.Model
	Validate() error
}

// TestHandBuiltModelsAreChecked: a VotedModel or KernelModel whose fields
// disagree is refused by Validate and, with the same kind of error, by
// every method that scores with it. Before, those methods checked only the
// point: a negative count voted as 2^64 − 1 (Predict +1 where the vote is
// −3), a missing count or α panicked, a negative α or a label 2 counted
// silently. A voted model of vectors with no weights scored b; one whose
// counts are all 0 has no vote at all; a subnormal η, which
// KernelPerceptron refuses, was a valid kernel model (helper-50). Every
// Validate error matches ErrModel, as ErrModel's doc says. A Hyperplane
// with an unknown tie policy scored, and measured distances, with no error;
// a Hyperplane's scoring errors matched their kind but not ErrModel, where
// the other models' did (helper-72).
func TestHandBuiltModelsAreChecked(t *testing.T) {
	up := perceptron.Hyperplane{W: []float64{1}}
	down := perceptron.Hyperplane{W: []float64{-1}}
	rows := mat.NewDense(2, 1, []float64{1, -1})
	kernel := func(f func(*perceptron.KernelModel)) *perceptron.KernelModel {
		m := &perceptron.KernelModel{Alpha: []int{1, 0}, Kernel: perceptron.LinearKernel{}, Eta: 1, X: rows, Y: []float64{1, -1}}
		f(m)
		return m
	}
	type badModel struct {
		name string
		m    checkedModel
		kind error
	}
	cases := []badModel{
		{"voted: a negative count", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{up, down}, Counts: []int{-1, 2}}, perceptron.ErrModel},
		{"voted: a count missing", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{up, down}, Counts: []int{1}}, perceptron.ErrDimension},
		{"voted: vectors of two dimensions", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{1, 1}}, down}, Counts: []int{1, 1}}, perceptron.ErrDimension},
		{"voted: an infinite weight", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{math.Inf(1)}}, down}, Counts: []int{1, 1}}, perceptron.ErrNonFinite},
		{"voted: an unknown tie policy", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{up}, Counts: []int{1}, Tie: 7}, perceptron.ErrOption},
		{"voted: vectors with no weights", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{}, B: 1}}, Counts: []int{1}}, perceptron.ErrDimension},
		{"voted: every count 0", &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{up, down}, Counts: []int{0, 0}}, perceptron.ErrModel},
		{"kernel: a subnormal eta", kernel(func(m *perceptron.KernelModel) { m.Eta = 5e-324 }), perceptron.ErrModel},
		{"kernel: a negative alpha", kernel(func(m *perceptron.KernelModel) { m.Alpha = []int{-1, 0} }), perceptron.ErrModel},
		{"kernel: an alpha missing", kernel(func(m *perceptron.KernelModel) { m.Alpha = []int{1} }), perceptron.ErrDimension},
		{"kernel: a label 2", kernel(func(m *perceptron.KernelModel) { m.Y = []float64{2, -1} }), perceptron.ErrLabel},
		{"kernel: eta 0", kernel(func(m *perceptron.KernelModel) { m.Eta = 0 }), perceptron.ErrModel},
		{"kernel: a NaN bias", kernel(func(m *perceptron.KernelModel) { m.B = math.NaN() }), perceptron.ErrNonFinite},
		{"kernel: an unknown tie policy", kernel(func(m *perceptron.KernelModel) { m.Tie = 7 }), perceptron.ErrOption},
		{"kernel: a degree beyond MaxPolyDegree", kernel(func(m *perceptron.KernelModel) { m.Kernel = perceptron.PolyKernel{Degree: 1 << 20} }), perceptron.ErrOption},
		// Hyperplane's Score scored with a tie policy its Validate refuses
		// (helper-67).
		{"hyperplane: an unknown tie policy", &perceptron.Hyperplane{W: []float64{1}, Tie: 7}, perceptron.ErrOption},
		{"hyperplane: an infinite weight", &perceptron.Hyperplane{W: []float64{math.Inf(-1)}}, perceptron.ErrNonFinite},
	}
	if strconv.IntSize == 64 {
		var e uint = 53
		cases = append(cases, badModel{"kernel: alpha 2^53 + 1 (not a float64)", kernel(func(m *perceptron.KernelModel) { m.Alpha = []int{1<<e + 1, 1 << e} }), perceptron.ErrModel})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.Validate(); !errors.Is(err, tc.kind) || !errors.Is(err, perceptron.ErrModel) {
				t.Fatalf("Validate: %v, want %v and ErrModel", err, tc.kind)
			}
			calls := scoringCalls(tc.m, []float64{1})
			if h, ok := tc.m.(*perceptron.Hyperplane); ok {
				_, calls["SignedDistance"] = h.SignedDistance([]float64{1})
				_, calls["Margin"] = h.Margin([]float64{1}, 1)
			}
			for name, err := range calls {
				if !errors.Is(err, tc.kind) || !errors.Is(err, perceptron.ErrModel) {
					t.Errorf("%s: %v, want %v and ErrModel", name, err, tc.kind)
				}
			}
		})
	}

	// The same models, mended, score: the checks refuse only what is wrong.
	ok := []perceptron.Model{
		&perceptron.VotedModel{Vectors: []perceptron.Hyperplane{up, down}, Counts: []int{1, 2}},
		kernel(func(*perceptron.KernelModel) {}),
	}
	if strconv.IntSize == 64 {
		var e uint = 53
		ok = append(ok, kernel(func(m *perceptron.KernelModel) { m.Alpha = []int{1 << e, 0} }))
	}
	for i, m := range ok {
		for name, err := range scoringCalls(m, []float64{1}) {
			if err != nil {
				t.Errorf("valid model %d: %s: %v", i, name, err)
			}
		}
	}
}

// TestHyperplaneValidateIsErrModel: Hyperplane.Validate's errors match
// ErrModel beside their own kind, as the models' Validate errors do.
func TestHyperplaneValidateIsErrModel(t *testing.T) {
	for _, tc := range []struct {
		h    perceptron.Hyperplane
		kind error
	}{
		{perceptron.Hyperplane{}, perceptron.ErrDimension},
		{perceptron.Hyperplane{W: []float64{math.NaN()}}, perceptron.ErrNonFinite},
		{perceptron.Hyperplane{W: []float64{1}, B: math.Inf(-1)}, perceptron.ErrNonFinite},
		{perceptron.Hyperplane{W: []float64{1}, Tie: 7}, perceptron.ErrOption},
	} {
		if err := tc.h.Validate(); !errors.Is(err, tc.kind) || !errors.Is(err, perceptron.ErrModel) {
			t.Errorf("%+v: %v; want %v and ErrModel", tc.h, err, tc.kind)
		}
	}
	if err := (perceptron.Hyperplane{W: []float64{1}}).Validate(); err != nil {
		t.Errorf("a valid hyperplane: %v", err)
	}
}

// TestVotedVectorsTieUnread: a voted model votes with its own Tie; the
// Tie of its vectors is not read (Validate does not check it), so a
// vector's Tie of its own changes no answer. PredictAll and Errors
// refused a model Validate accepts and Score scored, with ErrOption, when
// the last vector's Tie was unknown (they checked the data with the last
// vector's checks).
func TestVotedVectorsTieUnread(t *testing.T) {
	for _, tie := range []perceptron.Tie{perceptron.TieNegative, 7} {
		v := &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{0}, Tie: tie}, {W: []float64{1}, Tie: tie}}, Counts: []int{0, 1}}
		if err := v.Validate(); err != nil {
			t.Fatalf("vectors' Tie %v: Validate: %v", tie, err)
		}
		for name, err := range scoringCalls(v, []float64{1}) {
			if err != nil {
				t.Errorf("vectors' Tie %v: %s: %v", tie, name, err)
			}
		}
	}
}
