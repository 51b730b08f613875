package perceptron_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestNilResultsReturnErrors: every Model method of a nil result (the
// *Result of a call whose error was ignored) returns an error that names
// the type, instead of a nil-pointer panic; Dim is 0.
func TestNilResultsReturnErrors(t *testing.T) {
	d := perceptron.XORData()
	x := []float64{0, 0}
	for _, m := range []perceptron.Model{
		(*perceptron.Result)(nil), (*perceptron.PocketResult)(nil), (*perceptron.AveragedResult)(nil),
		(*perceptron.DualResult)(nil), (*perceptron.GDResult)(nil), (*perceptron.VotedModel)(nil),
		(*perceptron.KernelModel)(nil),
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%T: panic %v", m, r)
				}
			}()
			if m.Dim() != 0 {
				t.Errorf("%T: Dim %d, want 0", m, m.Dim())
			}
			_, e1 := m.Score(x)
			_, e2 := m.Predict(x)
			_, e3 := m.PredictAll(d)
			_, e4 := m.Errors(d)
			_, e5 := m.ErrorRate(d)
			for i, err := range []error{e1, e2, e3, e4, e5} {
				if err == nil || !strings.Contains(err.Error(), "nil") && !strings.Contains(err.Error(), "not trained") {
					t.Errorf("%T: method %d: error %v, want one that says the model is nil", m, i, err)
				}
			}
		}()
	}
}

// TestStatsIsTheSameEverywhere: PLA, Pocket, Voted, Averaged, Dual and
// KernelPerceptron (linear) make the same updates on the same data with
// the same Options, and report them in the same Stats. The data is
// integer, so that the dual's sums are exact.
func TestStatsIsTheSameEverywhere(t *testing.T) {
	d, err := perceptron.NewDataset([][]float64{{2, 1}, {-1, 3}, {0, -2}, {3, 3}, {-2, -1}, {1, -3}, {4, 0}},
		[]float64{1, -1, -1, 1, -1, -1, 1})
	if err != nil {
		t.Fatal(err)
	}
	opt := perceptron.Options{}
	pla, err := perceptron.PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	pocket, _ := perceptron.Pocket(d, opt)
	dual, _ := perceptron.Dual(d, opt)
	km, _ := perceptron.KernelPerceptron(d, perceptron.LinearKernel{}, opt)
	for name, s := range map[string]perceptron.Stats{"Pocket": pocket.Stats, "Dual": dual.Stats, "KernelPerceptron": km.Stats} {
		if s.Updates != pla.Updates || s.Epochs != pla.Epochs || s.Converged != pla.Converged ||
			s.LastMistakeRow != pla.LastMistakeRow || s.UpdateRuns.Len() != pla.UpdateRuns.Len() {
			t.Errorf("%s: %d updates in %d epochs (converged %v, last row %d), PLA %d in %d (%v, %d)", name,
				s.Updates, s.Epochs, s.Converged, s.LastMistakeRow, pla.Updates, pla.Epochs, pla.Converged, pla.LastMistakeRow)
		}
	}
	if !pla.Converged || pla.Updates == 0 {
		t.Fatalf("PLA %+v, want a converged run with updates", pla.Stats)
	}
}

// TestVotedLast: the voted model is not a hyperplane; Last is the final
// vector, which is PLA's weights when both run the same epochs.
func TestVotedLast(t *testing.T) {
	d, err := perceptron.Iris().Binary(1, 2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	opt := perceptron.Options{MaxEpochs: 7}
	v, err := perceptron.Voted(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := perceptron.PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	last := v.Last()
	if len(v.Vectors) != v.Updates+1 || !slices.Equal(last.W, p.W) || last.B != p.B || v.Dim() != 2 {
		t.Errorf("Last %v (%d vectors, %d updates), PLA %v", last, len(v.Vectors), v.Updates, p.Hyperplane)
	}
	if err := v.Validate(); err != nil {
		t.Errorf("Validate of a trained model: %v", err)
	}
	bad := &perceptron.VotedModel{Vectors: v.Vectors, Counts: v.Counts[:1]}
	if err := bad.Validate(); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("Validate with one count for %d vectors: %v, want ErrDimension", len(v.Vectors), err)
	}
	if (&perceptron.VotedModel{}).Last().W != nil {
		t.Errorf("Last of an empty model is not the zero Hyperplane")
	}
}

// TestGramMatrix: G_ij = k(x_i, x_j), symmetric, n × n; a nil kernel and
// bad data are errors.
func TestGramMatrix(t *testing.T) {
	d := perceptron.XORData()
	g, err := perceptron.GramMatrix(d, perceptron.PolyKernel{Degree: 2, C: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := g.SymmetricDim(); n != d.N() {
		t.Fatalf("Gram matrix %d × %d for %d rows", n, n, d.N())
	}
	for i := 0; i < d.N(); i++ {
		for j := 0; j < d.N(); j++ {
			xi, xj := d.Row(i), d.Row(j)
			s := 1 + xi[0]*xj[0] + xi[1]*xj[1]
			if g.At(i, j) != s*s {
				t.Errorf("G[%d][%d] = %v, want (1 + x_i·x_j)² = %v", i, j, g.At(i, j), s*s)
			}
		}
	}
	if _, err := perceptron.GramMatrix(d, nil); err == nil {
		t.Errorf("nil kernel: no error")
	}
	if _, err := perceptron.GramMatrix(&perceptron.Dataset{}, perceptron.LinearKernel{}); !errors.Is(err, perceptron.ErrEmpty) {
		t.Errorf("empty data: %v, want ErrEmpty", err)
	}
}

// TestTheoryTakesOptions: Bound, MaxMargin, CheckProof and Separable read
// NoBias, Eta and the Context from an Options value.
func TestTheoryTakesOptions(t *testing.T) {
	d, err := perceptron.Iris().Binary(0, 1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var rec perceptron.Recorder
	opt := perceptron.Options{Eta: 0.5}
	opt.Control.Observer = rec.Observe
	res, err := perceptron.PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := perceptron.Bound(d, opt)
	if err != nil || !b.Separable || float64(res.Updates) > b.Bound {
		t.Fatalf("Bound %+v (%v) with %d updates", b, err, res.Updates)
	}
	if v, err := perceptron.CheckProof(rec.Updates, b.Target, b.Gamma, b.R, opt); err != nil || v != nil {
		t.Errorf("CheckProof with the run's Options (η = 0.5): %+v, %v", v, err)
	}
	// The wrong η is caught: with η = 1 the alignment steps are half too
	// small.
	if v, err := perceptron.CheckProof(rec.Updates, b.Target, b.Gamma, b.R, perceptron.Options{}); err != nil || v == nil {
		t.Errorf("CheckProof with η = 1 on a run of η = 0.5: %+v, %v; want a violation", v, err)
	}
	s, err := perceptron.Separable(d, perceptron.Options{})
	if err != nil || !s.Separable || !(s.Margin > 0) {
		t.Errorf("Separable: %+v, %v", s, err)
	}
	if _, err := perceptron.Separable(d, perceptron.Options{NoBias: true}); err == nil {
		t.Errorf("Separable with NoBias: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := perceptron.Options{Control: perceptron.Control{Context: ctx}}
	if _, err := perceptron.Separable(d, done); !errors.Is(err, perceptron.ErrUndecided) || !errors.Is(err, context.Canceled) {
		t.Errorf("Separable with a cancelled context: %v, want ErrUndecided and context.Canceled", err)
	}
	if _, _, err := perceptron.MaxMargin(d, done); !errors.Is(err, perceptron.ErrUndecided) || !errors.Is(err, context.Canceled) {
		t.Errorf("MaxMargin with a cancelled context: %v, want ErrUndecided and context.Canceled", err)
	}
}

// TestHyperplaneValidate: no weights, a non-finite weight and an unknown
// tie policy are errors of their kinds.
func TestHyperplaneValidate(t *testing.T) {
	if err := (perceptron.Hyperplane{W: []float64{1, -2}, B: 3}).Validate(); err != nil {
		t.Errorf("a good hyperplane: %v", err)
	}
	if err := (perceptron.Hyperplane{}).Validate(); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("no weights: %v, want ErrDimension", err)
	}
	if err := (perceptron.Hyperplane{W: []float64{1}, B: math.Inf(1)}).Validate(); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("b = +Inf: %v, want ErrNonFinite", err)
	}
	if err := (perceptron.Hyperplane{W: []float64{1}, Tie: 7}).Validate(); err == nil {
		t.Errorf("tie 7: no error")
	}
}

// TestRowOutOfRangePanics: the documented panic of the policy, as a slice
// index: Row(0) of a Dataset with no rows.
func TestRowOutOfRangePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("(&Dataset{X: 0 rows}).Row(0) did not panic")
		}
	}()
	d := perceptron.XORData()
	d.Row(d.N())
}
