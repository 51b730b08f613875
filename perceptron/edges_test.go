package perceptron

import (
	"context"
	"errors"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The break tests of issue 24, item 8, and more of the same kind: no wrong
// answer at the edges of float64.

func TestGDNonFiniteIsAnError(t *testing.T) {
	iris := Iris()
	d, err := iris.Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	big := &Dataset{X: mat.NewDense(d.N(), d.D(), nil), Y: d.Y}
	big.X.Scale(1e307, d.X)
	for _, c := range []struct {
		name string
		d    *Dataset
		opt  GDOptions
	}{
		{"Eta 1e308", d, GDOptions{Eta: 1e308, Steps: 100}},
		{"iris × 1e307", big, GDOptions{Eta: 1, Steps: 100}},
		{"Eta 1e308, 1 step", d, GDOptions{Eta: 1e308, Steps: 1000, Seed: 3}},
	} {
		for _, l := range gdLearners {
			g, err := l.fit(c.d, c.opt)
			if !errors.Is(err, ErrNonFinite) {
				t.Errorf("%s, %s: error %v, want ErrNonFinite", l.name, c.name, err)
			}
			if g != nil && g.Converged {
				t.Errorf("%s, %s: Converged with weights %v", l.name, c.name, g.W)
			}
		}
	}
}

func TestLossNonFiniteScores(t *testing.T) {
	d := &Dataset{X: mat.NewDense(2, 2, []float64{1e308, 1e308, -1, 2}), Y: []float64{-1, 1}}
	for _, h := range []Hyperplane{
		{W: []float64{1e308, -1e308}}, // +Inf − Inf: NaN score on row 0
		{W: []float64{1e308, 1e308}},  // +Inf score on row 0
	} {
		if _, err := Loss(h, d); !errors.Is(err, ErrNonFinite) {
			t.Errorf("Loss(%v): %v, want ErrNonFinite", h.W, err)
		}
		if _, _, err := LossGradient(h, d); !errors.Is(err, ErrNonFinite) {
			t.Errorf("LossGradient(%v): %v, want ErrNonFinite", h.W, err)
		}
	}
	// A finite score stays as it was: the loss of a plain case.
	if l, err := Loss(Hyperplane{W: []float64{0, 1}}, d); err != nil || l != 1e308 {
		t.Errorf("Loss: %v, %v; want 1e308", l, err)
	}
}

func TestDistanceScaled(t *testing.T) {
	for _, c := range []struct {
		w, x []float64
		b    float64
		want float64
	}{
		{[]float64{1e300, 1e300}, []float64{1e10, 1e10}, 0, 2e10 / math.Sqrt2},
		{[]float64{1e-300, 1e-300}, []float64{1e-30, 1e-30}, 0, 2e-30 / math.Sqrt2},
		{[]float64{1e308, -1e308}, []float64{1e308, 1e308}, 0, 0},
		{[]float64{3, 4}, []float64{1e-200, 1e-200}, 1e-170, 1e-170 / 5},
		{[]float64{1e-200}, []float64{1e300}, -1e100, 0},
		{[]float64{3, 4}, []float64{1, 2}, 1, 12.0 / 5},
	} {
		h := Hyperplane{W: c.w, B: c.b}
		got, err := h.SignedDistance(c.x)
		if err != nil || !(math.Abs(got-c.want) <= 1e-15*math.Abs(c.want)) {
			t.Errorf("SignedDistance(w %v, b %v, x %v) = %v, %v; want %v", c.w, c.b, c.x, got, err, c.want)
		}
		m, err := h.Margin(c.x, -1)
		if err != nil || m != -got {
			t.Errorf("Margin(w %v, x %v, -1) = %v, %v; want %v", c.w, c.x, m, err, -got)
		}
	}
	// A distance beyond the float64 range is an error, not +Inf.
	h := Hyperplane{W: []float64{1e-300}}
	if _, err := h.SignedDistance([]float64{1e300}); err != nil {
		t.Errorf("in range: %v", err)
	}
	h = Hyperplane{W: []float64{1e-300, 0}, B: 1e300}
	if d, err := h.SignedDistance([]float64{1, 1}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("1e300/1e-300: %v, %v; want ErrNonFinite", d, err)
	}
}

func TestSeparableUndecidedAtTheEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
		y    []float64
	}{
		{"-1e13, 0 | 1, 2", []float64{-1e13, 0, 1, 2}, []float64{-1, -1, 1, 1}},
		{"5e-324 apart", []float64{0, 5e-324}, []float64{-1, 1}},
		{"subnormals apart", []float64{1e-320, 2e-320, 3e-320}, []float64{-1, -1, 1}},
	} {
		d := &Dataset{X: mat.NewDense(len(c.x), 1, c.x), Y: c.y}
		answer, err := Separable(d, Options{})
		ok := answer.Separable
		if ok {
			continue // separable with a certified separator is right too
		}
		if !errors.Is(err, ErrUndecided) {
			t.Errorf("%s: Separable = false, %v; want true or ErrUndecided", c.name, err)
		}
	}
	// Data that is not separable keeps its certificate.
	for _, d := range []*Dataset{XORData(), must(Iris().Binary(1, 2))} {
		if s, err := Separable(d, Options{}); s.Separable || err != nil {
			t.Errorf("not separable: %v, %v; want false, nil", s.Separable, err)
		}
	}
}

// TestSeparableSeeksASeparatorWhenTheCertificateIsUnproved: weights whose
// residual is above rounding level (or on a column too close to
// standardise) prove nothing, and Separable's doc says a separator is then
// sought and certified before the answer is ErrUndecided. {-1e13, 0 | 1, 2}
// is split by x = 0.5; it was ErrUndecided at once, and so were Bound and
// MaxMargin, which take Separable's answer.
func TestSeparableSeeksASeparatorWhenTheCertificateIsUnproved(t *testing.T) {
	for _, c := range []struct{ x, y []float64 }{
		{[]float64{-1e13, 0, 1, 2}, []float64{-1, -1, 1, 1}},
		{[]float64{-1, 0, -1e13}, []float64{1, -1, 1}}, // internals.md's "left undecided"
	} {
		d := &Dataset{X: mat.NewDense(len(c.x), 1, c.x), Y: c.y}
		s, err := Separable(d, Options{})
		if err != nil || !s.Separable {
			t.Errorf("%v: Separable = %v, %v; want a certified separator", c.x, s.Separable, err)
			continue
		}
		if m, ok := certifiedMargin(context.Background(), s.Separator, d); !ok || m <= 0 {
			t.Errorf("%v: separator %+v: certified margin %v, %v", c.x, s.Separator, m, ok)
		}
		b, err := Bound(d, Options{})
		if err != nil || !b.Separable || !(b.Bound >= 1) || math.IsInf(b.Bound, 0) {
			t.Errorf("%v: Bound = %+v, %v; want a finite bound", c.x, b, err)
		}
	}
}

func must(d *Dataset, err error) *Dataset {
	if err != nil {
		panic(err)
	}
	return d
}

func TestBoundIsAnUpperBound(t *testing.T) {
	// Orthonormal points through the origin: PLA makes 2 updates, the
	// theorem's bound is exactly 2; rounding once gave 1.9999999999999996.
	d := &Dataset{X: mat.NewDense(2, 2, []float64{1, 0, 0, 1}), Y: []float64{1, -1}}
	res, err := PLA(d, Options{NoBias: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Bound(d, Options{NoBias: true})
	if err != nil || !b.Separable || b.Bound < float64(res.Updates) || b.Bound < 2 {
		t.Errorf("Bound %+v (%v) with %d updates: want >= 2", b, err, res.Updates)
	}
	// Timestamps near 1.7e9: Separable proves them separable, and Bound
	// agrees (a finite bound, at least PLA's updates).
	ts := &Dataset{X: mat.NewDense(4, 1, []float64{1.7e9, 1.7e9 + 1, 1.7e9 + 2, 1.7e9 + 3}), Y: []float64{-1, -1, 1, 1}}
	answer, err := Separable(ts, Options{})
	ok := answer.Separable
	if !ok || err != nil {
		t.Fatalf("Separable(timestamps) = %v, %v", ok, err)
	}
	b, err = Bound(ts, Options{})
	if err != nil || !b.Separable || math.IsInf(b.Bound, 0) {
		t.Errorf("Bound(timestamps) = %+v, %v; want separable with a finite bound", b, err)
	}
	// Every other seed of a small separable family: the bound holds.
	for seed := uint64(0); seed < 20; seed++ {
		d, _, err := SeparableData(20, 2, 0.05, seed)
		if err != nil {
			t.Fatal(err)
		}
		res, err := PLA(d, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Bound(d, Options{})
		if err != nil || float64(res.Updates) > b.Bound {
			t.Errorf("seed %d: %d updates > bound %v (%v)", seed, res.Updates, b.Bound, err)
		}
	}
}

func TestUnscaleOverflow(t *testing.T) {
	d := &Dataset{X: mat.NewDense(3, 1, []float64{0, 1e-300, 2e-300}), Y: []float64{-1, 1, 1}}
	s, err := FitScaler(d)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := s.Unscale(Hyperplane{W: []float64{-1e300}, B: 1}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Unscale: %v, %v; want ErrNonFinite", h, err)
	}
	if _, err := s.Unscale(Hyperplane{W: []float64{1}, B: 0}); err != nil {
		t.Errorf("Unscale in range: %v", err)
	}
}

// TestGDNaNScoreIsAMistake: a score that is NaN is never counted as right:
// the descents' pass stops on it and names its row (the first, here),
// which their record turns into an ErrNonFinite error.
func TestGDNaNScoreIsAMistake(t *testing.T) {
	d := &Dataset{X: mat.NewDense(2, 2, []float64{1e308, 1e308, 1, 1}), Y: []float64{1, 1}}
	gw := make([]float64, 2)
	if p, stopped := scorePoint(gw, []float64{1e308, -1e308}, 0, d, nil); p.bad != 0 || stopped {
		t.Errorf("scorePoint: %+v, stopped %v; want row 0 (a NaN score) named bad", p, stopped)
	}
	if _, err := Loss(Hyperplane{W: []float64{1e308, -1e308}}, d); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Loss: %v, want ErrNonFinite (a mistake of unknown size)", err)
	}
}

// TestDatasetMarginScaled: the margin of a data set is computed as
// SignedDistance is, without overflow or underflow in its parts.
func TestDatasetMarginScaled(t *testing.T) {
	for _, c := range []struct {
		w    []float64
		x    []float64 // two rows of len(w)
		want float64
	}{
		{[]float64{1e-300, 1e-300}, []float64{1e-30, 1e-30, -2e-30, -2e-30}, 2e-30 / math.Sqrt2},
		{[]float64{1e300, 1e300}, []float64{1e10, 1e10, -3e10, -3e10}, 2e10 / math.Sqrt2},
	} {
		d := &Dataset{X: mat.NewDense(2, len(c.w), c.x), Y: []float64{1, -1}}
		m, row, err := Hyperplane{W: c.w}.DatasetMargin(d)
		if err != nil || row != 0 || !(math.Abs(m-c.want) <= 1e-15*c.want) {
			t.Errorf("DatasetMargin(w %v): %v at row %d, %v; want %v at row 0", c.w, m, row, err, c.want)
		}
	}
}

// TestLossSumOverflows: every score finite, their sum not: an error.
func TestLossSumOverflows(t *testing.T) {
	d := &Dataset{X: mat.NewDense(2, 1, []float64{1e308, 1e308}), Y: []float64{-1, -1}}
	if l, err := Loss(Hyperplane{W: []float64{1.5}}, d); !errors.Is(err, ErrNonFinite) {
		t.Errorf("Loss = %v, %v; want ErrNonFinite", l, err)
	}
	if _, _, err := LossGradient(Hyperplane{W: []float64{0}, B: 0}, &Dataset{X: mat.NewDense(2, 1, []float64{1e308, 1e308}), Y: []float64{1, 1}}); !errors.Is(err, ErrNonFinite) {
		t.Errorf("LossGradient: %v; want ErrNonFinite (the gradient's sum overflows)", err)
	}
}

// TestSeparableNotSeparableDecided: the stricter acceptance of the
// not-separable certificate (maxProofResidual) still decides data that is
// not separable: noisy data in 1 to 30 dimensions is never undecided.
func TestSeparableNotSeparableDecided(t *testing.T) {
	notSep := 0
	for _, dim := range []int{1, 2, 5, 30} {
		for seed := uint64(0); seed < 10; seed++ {
			d, _, err := NoisyData(200, dim, 0.05, 0.1, seed)
			if err != nil {
				t.Fatal(err)
			}
			answer, err := Separable(d, Options{})
			ok := answer.Separable
			if err != nil {
				t.Errorf("dim %d, seed %d: %v", dim, seed, err)
			}
			if !ok {
				notSep++
			}
		}
	}
	if notSep < 30 {
		t.Errorf("only %d of 40 noisy data sets not separable: the test checks too little", notSep)
	}
}

// TestSeparableSplitsOneDimensionalClassesThatNearlyTouch: 1-D classes
// that a float64 threshold splits, but whose standardised hull reaches 0 to
// the solver's tolerance, were ErrUndecided: neither the solver's
// direction nor MaxMargin's (which answers "not separable" to its
// tolerance) was certified, and a score of 4.4e-16 that is positive
// exactly failed the bound on its rounding. The axis with its bias at the
// middle of the classes is tried, and certified exactly where the bound
// cannot tell; the separator is checked here in rational arithmetic.
func TestSeparableSplitsOneDimensionalClassesThatNearlyTouch(t *testing.T) {
	for _, x := range [][]float64{
		{-1e13, 0, 1e-13, 2},
		{-1e13, 0, 1e-300, 2},
		{-1e300, 0, 1, 1e300},
		{-5, 2.999999999999999, 3, 3.0000000000000013},
	} {
		y := []float64{-1, -1, 1, 1}
		d := &Dataset{X: mat.NewDense(len(x), 1, x), Y: y}
		s, err := Separable(d, Options{})
		if err != nil || !s.Separable {
			t.Errorf("%v: Separable = %v, %v; want a certified separator", x, s.Separable, err)
			continue
		}
		for i, v := range x {
			sc := new(big.Rat).Mul(new(big.Rat).SetFloat64(s.Separator.W[0]), new(big.Rat).SetFloat64(v))
			sc.Add(sc, new(big.Rat).SetFloat64(s.Separator.B))
			if sc.Sign() != int(y[i]) {
				t.Errorf("%v: separator %+v puts row %d on the wrong side (exact score %s)", x, s.Separator, i, sc.FloatString(20))
			}
		}
		// Bound, which takes Separable's separator, may still be
		// ErrNonFinite (R/γ beyond float64) or ErrUndecided (its unit θ
		// rounds the 4.4e-16 away), but never "not separable".
		if b, err := Bound(d, Options{}); err == nil && !b.Separable {
			t.Errorf("%v: Bound says not separable", x)
		}
	}
}
