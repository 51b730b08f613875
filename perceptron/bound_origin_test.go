package perceptron_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestBoundNoBiasNearlyDegenerate: through the origin, Bound never answers
// "not separable" on data that is separable, however thin the margin: it
// certifies a separator (and then the bound holds for PLA's run) or says
// ErrUndecided, as Bound with a bias does. Each set is separable through
// the origin with a margin near 1e-14 (the first is the report's case:
// PLA with NoBias separates it in 2 updates).
func TestBoundNoBiasNearlyDegenerate(t *testing.T) {
	for _, c := range []struct {
		name string
		x    [][]float64
		y    []float64
	}{
		{"two points 2e-14 apart in x2", [][]float64{{1, 1e-14}, {1, -1e-14}}, []float64{1, -1}},
		{"1-D, a point 1e-14 from 0", [][]float64{{1e-14}, {-1}}, []float64{1, -1}},
		{"two points on a diagonal", [][]float64{{1, 1}, {1, 1 - 2e-14}}, []float64{1, -1}},
		{"three points", [][]float64{{1, 1e-14}, {2, -1e-14}, {-1, -3e-14}}, []float64{1, -1, -1}},
	} {
		d := mustData(t, c.x, c.y)
		opt := perceptron.Options{NoBias: true}
		br, err := perceptron.Bound(d, opt)
		if errors.Is(err, perceptron.ErrUndecided) {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !br.Separable {
			t.Errorf("%s: Bound says not separable (%+v), but the data is separable through the origin", c.name, br)
			continue
		}
		// The certified target separates every row, and PLA's run obeys the bound.
		if m, _, err := br.Target.DatasetMargin(d); err != nil || !(m > 0) || br.Target.B != 0 {
			t.Errorf("%s: target %+v has margin %v, %v", c.name, br.Target, m, err)
		}
		res, err := perceptron.PLA(d, perceptron.Options{NoBias: true, MaxEpochs: 100000})
		if err == nil && res.Converged && float64(res.Updates) > br.Bound {
			t.Errorf("%s: PLA made %d updates, above the bound %v", c.name, res.Updates, br.Bound)
		}
	}
	d := mustData(t, [][]float64{{1, 1e-14}, {1, -1e-14}}, []float64{1, -1})
	res, err := perceptron.PLA(d, perceptron.Options{NoBias: true})
	if err != nil || !res.Converged || res.Updates != 2 {
		t.Fatalf("PLA with NoBias on the report's two points: %+v, %v; want 2 updates", res, err)
	}
	br, err := perceptron.Bound(d, perceptron.Options{NoBias: true})
	if err != nil || !br.Separable || br.Bound < 2 {
		t.Errorf("the report's two points: %+v, %v; want a certified bound", br, err)
	}
}

// TestBoundNoBiasNotSeparable: where the origin lies exactly in the hull of
// the y_i x_i, Bound proves it (exact rational arithmetic on the convex
// weights) and answers not separable, bound +Inf, no error.
func TestBoundNoBiasNotSeparable(t *testing.T) {
	for _, c := range []struct {
		name string
		x    [][]float64
		y    []float64
	}{
		{"opposite labels on one ray", [][]float64{{1, 1}, {2, 2}}, []float64{1, -1}},
		{"a point at the origin", [][]float64{{0, 0}, {1, 2}}, []float64{1, -1}},
		{"xor", [][]float64{{1, 1}, {2, 2}, {1, 2}, {2, 1}}, []float64{1, 1, -1, -1}},
		{"1-D both sides", [][]float64{{1}, {-3}, {2}}, []float64{1, 1, -1}},
		{"three points, the origin inside", [][]float64{{1, 1e-14}, {2, -1e-14}, {-1, 3e-14}}, []float64{1, -1, -1}},
		// Ten points within 1e-8 of a line through the origin, one on the
		// wrong side by 1e-8 (helper-45): ErrUndecided when the 1-norm
		// estimate took sign(−0) = +1, where LAPACK's Dlacn2 takes −1.
		{"ten points near a line", [][]float64{
			{-0.07405669939604329, -0.1121640806983247}, {0.24133667780130397, 0.36552141617332445},
			{-0.36956545900914173, -0.5597330109013184}, {0.40465863761525744, 0.6128840359531649},
			{0.7172617854755308, 1.0863436404771987}, {0.30330876955439956, 0.4593825177769688},
			{0.02266485162883934, 0.034327540930572574}, {0.010738284050880287, 0.01626385788209711},
			{0.1470611986251652, 0.2227346018779186}, {0.2959286558700643, 0.4482048204450911},
		}, []float64{1, -1, 1, -1, 1, -1, 1, -1, 1, -1}},
	} {
		br, err := perceptron.Bound(mustData(t, c.x, c.y), perceptron.Options{NoBias: true})
		if err != nil || br.Separable || br.Bound <= 1e308 {
			t.Errorf("%s: %+v, %v; want not separable, bound +Inf, no error", c.name, br, err)
		}
	}
}

// TestExactProofHeedsTheDeadline: Bound through the origin on 250 random
// points in 79 dimensions, 5% of whose entries are Gaussians times
// 2^-400, proves "not separable" in exact integers whose rows shift by
// hundreds of bits: 13 to 28 s on the machine of docs/performance.md. With
// a 300 ms deadline it must stop with ErrUndecided, ErrStopped and
// context.DeadlineExceeded; the elimination did not look at the context,
// and the answer came after those seconds with no error.
func TestExactProofHeedsTheDeadline(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 1))
	x := make([][]float64, 250)
	y := make([]float64, len(x))
	for i := range x {
		x[i] = make([]float64, 79)
		for j := range x[i] {
			x[i][j] = r.NormFloat64()
			if r.Float64() < 0.05 {
				x[i][j] = math.Ldexp(r.NormFloat64(), -400)
			}
		}
		y[i] = float64(2*r.IntN(2) - 1)
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	b, err := perceptron.Bound(d, perceptron.Options{NoBias: true, Control: perceptron.Control{Context: ctx}})
	for _, kind := range []error{perceptron.ErrUndecided, perceptron.ErrStopped, context.DeadlineExceeded} {
		if !errors.Is(err, kind) {
			t.Errorf("Bound: separable %v, %v; want an error that is %v", b.Separable, err, kind)
		}
	}
}

// TestExactCertificatesOfTouchingClasses: data that is not separable for
// a reason exact arithmetic sees at once gets that answer, where
// tolerances left it ErrUndecided (helper-60): the same point with both
// labels next to a row 1e13 long (with a bias); a row of zeros through the
// origin (no w scores it); {1 → +1, 1e12 → −1} through the origin, where
// Wolfe's solver drops the second vertex (its system singular to
// rounding) and stalls at the first, 1e-12 of the radius from 0.
func TestExactCertificatesOfTouchingClasses(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      [][]float64
		y      []float64
		noBias bool
	}{
		{"twins", [][]float64{{0}, {0}, {-3}, {1e13}}, []float64{1, -1, -1, -1}, false},
		{"a row of zeros", [][]float64{{-1}, {0}, {-1e13}}, []float64{1, -1, 1}, true},
		{"1 and 1e12", [][]float64{{1}, {1e12}}, []float64{1, -1}, true},
	} {
		d, err := perceptron.NewDataset(c.x, c.y)
		if err != nil {
			t.Fatal(err)
		}
		opt := perceptron.Options{NoBias: c.noBias}
		b, err := perceptron.Bound(d, opt)
		if err != nil || b.Separable || !math.IsInf(b.Bound, 1) {
			t.Errorf("%s: Bound %+v, %v; want not separable, +Inf, no error", c.name, b, err)
		}
		if _, _, err := perceptron.MaxMargin(d, opt); !errors.Is(err, perceptron.ErrNotSeparable) {
			t.Errorf("%s: MaxMargin: %v; want ErrNotSeparable", c.name, err)
		}
		if c.noBias {
			continue
		}
		s, err := perceptron.Separable(d, opt)
		if err != nil || s.Separable {
			t.Errorf("%s: Separable %+v, %v; want not separable", c.name, s, err)
			continue
		}
		// The certificate: convex weights whose combination of y_i [1, x_i] is 0.
		var sum, comb0, comb1 float64
		for i, w := range s.Weights {
			sum += w
			comb0 += w * c.y[i]
			comb1 += w * c.y[i] * c.x[i][0]
		}
		if sum != 1 || comb0 != 0 || comb1 != 0 {
			t.Errorf("%s: weights %v: sum %v, combination (%v, %v); want 1 and 0", c.name, s.Weights, sum, comb0, comb1)
		}
	}
}
