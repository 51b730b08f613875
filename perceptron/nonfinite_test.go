package perceptron_test

import (
	"errors"
	"math"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestNaNScoreIsAMistake: a NaN score is a mistake for both labels under
// both tie policies, and Sign(NaN) is 0 (no prediction, an error for every
// label), so arithmetic that went wrong never counts as a success.
func TestNaNScoreIsAMistake(t *testing.T) {
	nan := math.NaN()
	for _, tie := range []perceptron.Tie{perceptron.TieMistake, perceptron.TieNegative} {
		for _, y := range []float64{-1, 1} {
			if !tie.Mistake(y, nan) {
				t.Errorf("%v: Mistake(%v, NaN) = false", tie, y)
			}
		}
		if s := tie.Sign(nan); s != 0 {
			t.Errorf("%v: Sign(NaN) = %v, want 0", tie, s)
		}
	}
	// The rest of the rule is unchanged.
	if perceptron.TieNegative.Mistake(-1, 0) || !perceptron.TieMistake.Mistake(-1, 0) || perceptron.TieMistake.Mistake(1, 2) {
		t.Error("tie rule changed on finite scores")
	}
}

// TestOverflowedScoresAreErrors is the case: Iris with every
// feature × 1e154 and a hyperplane whose scores overflow to +Inf − Inf =
// NaN on most rows. Every such row must count as an error (the same w at a
// safe scale is a separator, so 0 errors would be false), PredictAll must
// answer 0 there, and Score must say why.
func TestOverflowedScoresAreErrors(t *testing.T) {
	d, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	big := scaled(d, 512) // ×2^512 ≈ 1.3e154, exact
	h, _, err := perceptron.MaxMargin(d, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// w·x has terms of both signs near 1e308·|w_j|·2^512: scale w up so
	// that they overflow to ±Inf.
	hb := perceptron.Hyperplane{W: make([]float64, len(h.W))}
	for j, w := range h.W {
		hb.W[j] = math.Ldexp(w, 512)
	}
	// Count independently: a row is an error when y·score ≤ 0 or the
	// score is NaN.
	want, nans, first := 0, 0, -1
	for i := 0; i < big.N(); i++ {
		s := 0.0
		for j, v := range big.Row(i) {
			s += float64(hb.W[j] * v)
		}
		if s != s {
			nans++
			if first < 0 {
				first = i
			}
		}
		if s != s || big.Y[i]*s <= 0 {
			want++
		}
	}
	if nans == 0 {
		t.Fatal("no score overflowed: the test data does not test anything")
	}
	e, err := hb.Errors(big)
	if err != nil || e != want {
		t.Errorf("Errors = %d, %v; want %d (%d NaN scores)", e, err, want, nans)
	}
	p, err := hb.PredictAll(big)
	if err != nil || p[first] != 0 {
		t.Errorf("PredictAll[%d] = %v, %v; want 0", first, p[first], err)
	}
	if _, err := hb.Score(big.Row(first)); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("Score: %v", err)
	}
}

// TestFitScalerNearMaxFloat: columns near ±1e308, whose plain sums overflow,
// and a column of values near 1e-200, whose squares underflow, still get
// their exact mean and standard deviation (to a few ulps): the values
// v_i = c·u_i with u = (-1, 0, 1, 0) have mean 0 and standard deviation
// c/√2. Transform then maps them to (-√2, 0, √2, 0), not to 0.
func TestFitScalerNearMaxFloat(t *testing.T) {
	c1, c2 := 1.5e308, 3e-200
	d := mustData(t, [][]float64{{-c1, -c2}, {0, 0}, {c1, c2}, {0, 0}}, []float64{-1, 1, 1, -1})
	s, err := perceptron.FitScaler(d)
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range []float64{c1, c2} {
		want := c / math.Sqrt2
		if s.Mean[j] != 0 || !(math.Abs(s.Std[j]/want-1) <= 1e-15) {
			t.Errorf("column %d: mean %v, std %v; want 0, %v", j, s.Mean[j], s.Std[j], want)
		}
	}
	z, err := s.Transform(d)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 2; j++ {
		if v := z.X.At(2, j); !(math.Abs(v-math.Sqrt2) <= 1e-15) {
			t.Errorf("z[2][%d] = %v, want √2", j, v)
		}
	}
	// The plain formula keeps its bits on ordinary data.
	o := mustData(t, [][]float64{{1}, {2}, {4}}, []float64{-1, 1, 1})
	so, _ := perceptron.FitScaler(o)
	if so.Mean[0] != 7.0/3 || so.Std[0] != math.Sqrt(((1-7.0/3)*(1-7.0/3)+(2-7.0/3)*(2-7.0/3)+(4-7.0/3)*(4-7.0/3))/3) {
		t.Errorf("ordinary data: %+v", so)
	}
}

// TestNormsOverflowSafe: Norm, Radius, DatasetMargin and Bound on values
// near 1e308 answer (or say the answer itself is out of range), where
// sqrt(x·x) would be +Inf.
func TestNormsOverflowSafe(t *testing.T) {
	h := perceptron.Hyperplane{W: []float64{3e200, 4e200}}
	if n := h.Norm(); !(math.Abs(n/5e200-1) <= 1e-15) {
		t.Errorf("Norm = %v, want 5e200", n)
	}
	if n := (perceptron.Hyperplane{W: []float64{3e-200, 4e-200}}).Norm(); !(math.Abs(n/5e-200-1) <= 1e-15) {
		t.Errorf("Norm = %v, want 5e-200", n)
	}
	d := mustData(t, [][]float64{{-1e308, -5e307}, {1e308, 5e307}}, []float64{-1, 1})
	r, err := perceptron.Radius(d)
	if want := math.Hypot(1e308, 5e307); err != nil || !(math.Abs(r/want-1) <= 1e-15) {
		t.Errorf("Radius = %v, %v; want %v", r, err, want)
	}
	m, _, err := perceptron.Hyperplane{W: []float64{1e308, 1e308}}.DatasetMargin(d)
	if want := (1e308 + 5e307) / math.Sqrt2; err != nil || !(math.Abs(m/want-1) <= 1e-15) {
		t.Errorf("DatasetMargin = %v, %v; want %v", m, err, want)
	}
	b, err := perceptron.Bound(d, perceptron.Options{NoBias: true})
	if err != nil || !b.Separable || !(math.Abs(b.Bound-1) <= 1e-12) {
		t.Errorf("Bound = %+v, %v; want separable, bound 1", b, err)
	}
	tooFar := mustData(t, [][]float64{{-1.7e308, -1.7e308}, {1.7e308, 1.7e308}}, []float64{-1, 1})
	if _, err := perceptron.Radius(tooFar); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("Radius beyond MaxFloat64: %v", err)
	}
}

// TestInfScoreHasTheTrueSign: a score w·x + b whose left-to-right sum
// overflows to ±Inf carries the sign of the first partial sum that
// overflowed, not that of w·x + b: w = (1, 1, −1, −1, −1) and x = 1e308
// in every feature sum to +Inf, though w·x = −1e308 exactly. Score says
// the value is out of range (ErrNonFinite); Predict, PredictAll and Errors
// use the true sign (here −1: an error on a row labelled +1, which the
// +Inf once counted as right); an exact cancellation (w·x = 0) is a tie.
// The voted perceptron votes with the true sign, and a vector whose score
// is NaN (+Inf − Inf) makes its Score an error and its prediction 0
// (before, the vector silently dropped out of the vote).
func TestInfScoreHasTheTrueSign(t *testing.T) {
	big := []float64{1e308, 1e308, 1e308, 1e308, 1e308}
	neg := perceptron.Hyperplane{W: []float64{1, 1, -1, -1, -1}}     // w·x = −1e308
	zero := perceptron.Hyperplane{W: []float64{1, 1, -1, -1, 0}}     // w·x = 0
	pos := perceptron.Hyperplane{W: []float64{1, 1, 1, -1, -1}}      // w·x = +1e308
	over := perceptron.Hyperplane{W: []float64{1, 1, 1, 1, 1}, B: 1} // w·x + b = 5e308 + 1
	for _, c := range []struct {
		name string
		h    perceptron.Hyperplane
		want float64 // Predict under TieMistake; TieNegative gives -1 for 0
	}{{"-1e308", neg, -1}, {"0", zero, 0}, {"+1e308", pos, 1}, {"5e308+1", over, 1}} {
		if s, err := c.h.Score(big); !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("%s: Score = %v, %v; want ErrNonFinite (the sum overflows)", c.name, s, err)
		}
		for _, tie := range []perceptron.Tie{perceptron.TieMistake, perceptron.TieNegative} {
			h := c.h
			h.Tie = tie
			want := c.want
			if want == 0 && tie == perceptron.TieNegative {
				want = -1
			}
			if p, err := h.Predict(big); err != nil || p != want {
				t.Errorf("%s, %v: Predict = %v, %v; want %v", c.name, tie, p, err, want)
			}
			d := mustData(t, [][]float64{big, {1, 0, 0, 0, 0}}, []float64{1, 1})
			if p, err := h.PredictAll(d); err != nil || p[0] != want {
				t.Errorf("%s, %v: PredictAll[0] = %v, %v; want %v", c.name, tie, p, err, want)
			}
			wantErr := 0
			if want != 1 {
				wantErr = 1
			}
			if e, err := h.Errors(d); err != nil || e != wantErr {
				t.Errorf("%s, %v: Errors = %d, %v; want %d", c.name, tie, e, err, wantErr)
			}
			// Nine rows: the eight-at-a-time path and the rest agree.
			rows := make([][]float64, 9)
			for i := range rows {
				rows[i] = big
			}
			d9 := mustData(t, rows, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1})
			if e, err := h.Errors(d9); err != nil || e != 9*wantErr {
				t.Errorf("%s, %v: Errors on 9 rows = %d, %v; want %d", c.name, tie, e, err, 9*wantErr)
			}
		}
	}
	// The vote: 3 steps of −1 (the +Inf sum) against 2 of +1 is −1.
	v := &perceptron.VotedModel{
		Vectors: []perceptron.Hyperplane{{W: make([]float64, 5)}, neg, {W: []float64{1, 0, 0, 0, 0}}},
		Counts:  []int{0, 3, 2},
	}
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	if s, err := v.Score(big); err != nil || s != -1 {
		t.Errorf("voted Score = %v, %v; want -1 (3 × −1 + 2 × +1)", s, err)
	}
	if p, err := v.Predict(big); err != nil || p != -1 {
		t.Errorf("voted Predict = %v, %v; want -1", p, err)
	}
	// A vector whose score is NaN: no vote, an error.
	nan := []float64{1e308, -1e308, 0, 0, 0} // (1e308, 1e308)·(1e308, −1e308): +Inf − Inf
	v.Vectors[2] = perceptron.Hyperplane{W: []float64{1e308, 1e308, 0, 0, 0}}
	if s, err := v.Score(nan); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("voted Score with a NaN vector score = %v, %v; want ErrNonFinite", s, err)
	}
	d := mustData(t, [][]float64{nan, {1, 0, 0, 0, 0}}, []float64{1, 1})
	if p, err := v.PredictAll(d); err != nil || p[0] != 0 || p[1] != 1 {
		t.Errorf("voted PredictAll = %v, %v; want [0 1]", p, err)
	}
	if e, err := v.Errors(d); err != nil || e != 1 {
		t.Errorf("voted Errors = %d, %v; want 1", e, err)
	}
}
