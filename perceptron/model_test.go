package perceptron

import (
	"errors"
	"testing"
)

// TestModelsStoreTheTie trains every learner with each tie policy, without a
// bias, on 1-D data that it separates, and asks each model about x = 0,
// where every w_k·x + b is exactly 0 (b = 0). The prediction there must be
// the trained tie policy's: 0 with TieMistake, -1 with TieNegative; so the
// point (0, -1) is an error under TieMistake only. (The score is 0 too,
// except the voted perceptron's under TieNegative: each of its vectors
// votes sign(0) = -1 there.)
func TestModelsStoreTheTie(t *testing.T) {
	train := newData(t, [][]float64{{1}, {2}, {-1}, {-3}}, []float64{1, 1, -1, -1})
	zero := newData(t, [][]float64{{0}, {2}, {-1}}, []float64{-1, 1, -1})
	for _, tie := range []Tie{TieMistake, TieNegative} {
		opt := Options{}
		opt.Tie, opt.NoBias, opt.MaxEpochs = tie, true, 5
		models := map[string]func() (Model, error){
			"PLA":      func() (Model, error) { return PLA(train, opt) },
			"Pocket":   func() (Model, error) { return Pocket(train, opt) },
			"Voted":    func() (Model, error) { return Voted(train, opt) },
			"Averaged": func() (Model, error) { return Averaged(train, opt) },
			"Dual":     func() (Model, error) { return Dual(train, opt) },
			"Kernel":   func() (Model, error) { return KernelPerceptron(train, LinearKernel{}, opt) },
		}
		wantErrors := map[Tie]int{TieMistake: 1, TieNegative: 0}[tie]
		for name, fit := range models {
			m, err := fit()
			if err != nil {
				t.Fatalf("%s %v: %v", name, tie, err)
			}
			if s, err := m.Score([]float64{0}); err != nil || (s != 0) != (name == "Voted" && tie == TieNegative) {
				t.Fatalf("%s %v: Score(0) = %v, %v; want exactly 0 (negative for Voted with TieNegative)", name, tie, s, err)
			}
			if p, err := m.Predict([]float64{0}); err != nil || p != tie.Sign(0) {
				t.Errorf("%s %v: Predict(0) = %v, %v; want %v", name, tie, p, err, tie.Sign(0))
			}
			if e, err := m.Errors(zero); err != nil || e != wantErrors {
				t.Errorf("%s %v: Errors = %d, %v; want %d", name, tie, e, err, wantErrors)
			}
			if r, err := m.ErrorRate(zero); err != nil || r != float64(wantErrors)/3 {
				t.Errorf("%s %v: ErrorRate = %v, %v; want %v", name, tie, r, err, float64(wantErrors)/3)
			}
			if m.Dim() != 1 {
				t.Errorf("%s %v: Dim() = %d, want 1", name, tie, m.Dim())
			}
		}
	}
}

// TestHyperplaneTie checks the zero value's tie policy and that an unknown
// one is an error, not a silent guess.
func TestHyperplaneTie(t *testing.T) {
	h := Hyperplane{W: []float64{1}}
	if p, err := h.Predict([]float64{0}); err != nil || p != 0 {
		t.Errorf("zero Tie: Predict(0) = %v, %v; want 0 (TieMistake)", p, err)
	}
	h.Tie = TieNegative
	if p, err := h.Predict([]float64{0}); err != nil || p != -1 {
		t.Errorf("TieNegative: Predict(0) = %v, %v; want -1", p, err)
	}
	h.Tie = 7
	const want = "perceptron: unknown tie policy 7: want TieMistake or TieNegative"
	if _, err := h.Predict([]float64{0}); !errors.Is(err, ErrOption) || err.Error() != want {
		t.Errorf("Tie 7: Predict error %v, want %q", err, want)
	}
	d := newData(t, [][]float64{{1}}, []float64{1})
	if _, err := h.Errors(d); err == nil || err.Error() != want {
		t.Errorf("Tie 7: Errors error %v, want %q", err, want)
	}
}

// TestKindErrors checks that the sentinel kinds match with errors.Is and
// keep their own message.
func TestKindErrors(t *testing.T) {
	err := kindErrorf(ErrNonFinite, "epoch %d, row %d: w is not finite", 3, 7)
	if !errors.Is(err, ErrNonFinite) || errors.Is(err, ErrStopped) {
		t.Errorf("errors.Is mismatched for %v", err)
	}
	if got, want := err.Error(), "perceptron: epoch 3, row 7: w is not finite"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// newData is NewDataset for tests of this (internal) package.
func newData(t *testing.T, x [][]float64, y []float64) *Dataset {
	t.Helper()
	d, err := NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
