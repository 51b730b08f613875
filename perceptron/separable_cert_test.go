package perceptron_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/perceptron"
	"gonum.org/v1/gonum/mat"
)

// checkCertificate checks the certificate of a Separability without
// trusting the algorithm: a separator must have a positive margin on d
// (recomputed here), and for data that is not separable the weights must be
// convex and Σ λ_i y_i [1, z_i] must be 0 within 1e-9 relative (the
// promise is 1e-12 from the algorithm's own sum; the recomputation here adds
// rounding of order n·2⁻⁵³), with z the features mapped onto [-1, 1].
func checkCertificate(t *testing.T, name string, d *perceptron.Dataset, s perceptron.Separability) {
	t.Helper()
	if s.Separable {
		m, _, err := s.Separator.DatasetMargin(d)
		if err != nil || !(m > 0) || m != s.Margin {
			t.Errorf("%s: separator margin %v (%v), reported %v", name, m, err, s.Margin)
		}
		return
	}
	n, dim := d.N(), d.D()
	if len(s.Weights) != n {
		t.Fatalf("%s: %d weights for %d rows", name, len(s.Weights), n)
	}
	lo, hi := make([]float64, dim), make([]float64, dim)
	for j := range lo {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		for j, v := range d.Row(i) {
			lo[j], hi[j] = math.Min(lo[j], v), math.Max(hi[j], v)
		}
	}
	sum, r := 0.0, 0.0
	comb := make([]float64, dim+1)
	for i, l := range s.Weights {
		if l < 0 {
			t.Fatalf("%s: weight %d is %v < 0", name, i, l)
		}
		sum += l
		y := d.Y[i]
		comb[0] += l * y
		norm := 1.0
		for j, v := range d.Row(i) {
			z := 0.0
			if hi[j] > lo[j] {
				z = (v - (lo[j]/2 + hi[j]/2)) / (hi[j]/2 - lo[j]/2)
			}
			comb[1+j] += l * y * z
			norm += z * z
		}
		r = math.Max(r, math.Sqrt(norm))
	}
	res := mat.Norm(mat.NewVecDense(dim+1, comb), 2) / r
	if !(math.Abs(sum-1) <= 1e-12) || !(res <= 1e-9) || !(s.Residual <= 1e-12) {
		t.Errorf("%s: weights sum to %v, combination %v (reported %v)", name, sum, res, s.Residual)
	}
}

// TestSeparableEveryPair decides every pair of classes of the four embedded
// data sets, within a minute each (a guard against hangs, not a timing: each takes
// milliseconds, see BenchmarkSeparablePairs), with a checked certificate.
// Breast cancer is separable (Wolfe on standardised features finds a
// separator whose margin on the raw data, about 4e-5, is certified), and so
// is every digit pair; Iris versicolor/virginica is the one pair that is
// not.
func TestSeparableEveryPair(t *testing.T) {
	sets := []struct {
		name string
		m    *perceptron.MultiDataset
	}{
		{"iris", perceptron.Iris()}, {"cancer", perceptron.BreastCancer()},
		{"wine", perceptron.Wine()}, {"digits", perceptron.Digits()},
	}
	for _, set := range sets {
		k := len(set.m.ClassNames)
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				d, err := set.m.Binary(a, b)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s %d/%d", set.name, a, b)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				s, err := perceptron.Separable(d, perceptron.Options{Control: perceptron.Control{Context: ctx}})
				cancel()
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				want := !(set.name == "iris" && a == 1 && b == 2)
				if s.Separable != want {
					t.Errorf("%s: separable %v, want %v", name, s.Separable, want)
				}
				checkCertificate(t, name, d, s)
			}
		}
	}
}

// TestSeparableHighDimension: the cases that ran for minutes under the LP.
// 20 points in 10 dimensions and n ≤ d+1 points in general position are
// always separable; 2 rows of 10M features must not build a d × 2d matrix
// (the LP's panic) and are separable (two distinct points).
func TestSeparableHighDimension(t *testing.T) {
	d, _, err := perceptron.SeparableData(20, 10, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		d    *perceptron.Dataset
	}{{"SeparableData(20, 10, 0, 2)", d}}
	for _, f := range []int{200, 500} {
		nd, _, err := perceptron.NoisyData(200, f, 0, 0.1, 1)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			d    *perceptron.Dataset
		}{fmt.Sprintf("NoisyData(200, %d, 0, 0.1, 1)", f), nd})
	}
	if !testing.Short() {
		const wide = 10_000_000
		x := make([]float64, 2*wide)
		for j := 0; j < wide; j++ {
			x[j] = float64(j%7) - 3
			x[wide+j] = x[j]
		}
		x[wide+wide/2] += 1e-3 // the two points differ in one feature
		cases = append(cases, struct {
			name string
			d    *perceptron.Dataset
		}{"2 x 10M", &perceptron.Dataset{X: mat.NewDense(2, wide, x), Y: []float64{-1, 1}}})
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a guard against hangs, not a timing
		s, err := perceptron.Separable(c.d, perceptron.Options{Control: perceptron.Control{Context: ctx}})
		cancel()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !s.Separable {
			t.Errorf("%s: not separable", c.name)
		}
		if c.d.N() <= 20 || c.d.D() >= c.d.N() {
			checkCertificate(t, c.name, c.d, s)
		}
	}
}

// TestSeparableUndecided: a done context ends the run with an error of kind
// ErrUndecided that also matches the context's error.
func TestSeparableUndecided(t *testing.T) {
	d, err := perceptron.Digits().Binary(3, 8)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = perceptron.Separable(d, perceptron.Options{Control: perceptron.Control{Context: ctx}})
	const want = "perceptron: separable: stopped before it began: context canceled"
	if err == nil || err.Error() != want || !errors.Is(err, perceptron.ErrUndecided) || !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want %q matching ErrUndecided, ErrStopped and context.Canceled", err, want)
	}
	_, _, err = perceptron.MaxMargin(d, perceptron.Options{Control: perceptron.Control{Context: ctx}})
	if !errors.Is(err, perceptron.ErrUndecided) || !errors.Is(err, context.Canceled) {
		t.Errorf("MaxMargin with a done context: err = %v", err)
	}
}

// TestMaxMarginHugeScale: multiplying the data by 2^1000 (exact) multiplies
// the maximum margin and b by 2^1000 and leaves w unchanged, bit for bit
// (MaxMargin scales such data back by a power of 2 before it computes);
// the data near 1e308 is still separable, and Radius and Bound answer.
func TestMaxMarginHugeScale(t *testing.T) {
	d, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	big := scaled(d, 1000)
	h, g, err := perceptron.MaxMargin(d, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hb, gb, err := perceptron.MaxMargin(big, perceptron.Options{})
	if err != nil {
		t.Fatalf("2^1000 × iris: %v", err)
	}
	if gb != math.Ldexp(g, 1000) || hb.B != math.Ldexp(h.B, 1000) {
		t.Errorf("gamma %v, b %v; want %v, %v", gb, hb.B, math.Ldexp(g, 1000), math.Ldexp(h.B, 1000))
	}
	for j := range h.W {
		if hb.W[j] != h.W[j] {
			t.Errorf("w[%d] = %v, want %v", j, hb.W[j], h.W[j])
		}
	}
	answer, err := perceptron.Separable(big, perceptron.Options{})
	ok := answer.Separable
	if err != nil || !ok {
		t.Errorf("Separable(2^1000 × iris) = %v, %v", ok, err)
	}
	r, err := perceptron.Radius(big)
	r0, _ := perceptron.Radius(d)
	if err != nil || !(math.Abs(r/math.Ldexp(r0, 1000)-1) <= 1e-15) {
		t.Errorf("Radius = %v, %v; want %v", r, err, math.Ldexp(r0, 1000))
	}
	// Two points ±(1e308, 5e307): separable through the origin and with a
	// bias, with margin ||x|| = 1.118e308 either way (to 1e-15).
	near := mustData(t, [][]float64{{-1e308, -5e307}, {1e308, 5e307}}, []float64{-1, 1})
	want := math.Hypot(1e308, 5e307)
	for _, noBias := range []bool{false, true} {
		if _, g, err := perceptron.MaxMargin(near, perceptron.Options{NoBias: noBias}); err != nil || !(math.Abs(g/want-1) <= 1e-15) {
			t.Errorf("MaxMargin(±1e308, noBias %v) = %v, %v; want %v", noBias, g, err, want)
		}
	}
}

// scaled returns d with every value multiplied by 2^e.
func scaled(d *perceptron.Dataset, e int) *perceptron.Dataset {
	rows := d.Rows()
	for _, r := range rows {
		for j := range r {
			r[j] = math.Ldexp(r[j], e)
		}
	}
	out, err := perceptron.NewDataset(rows, d.Y)
	if err != nil {
		panic(err)
	}
	return out
}

// BenchmarkSeparablePairs decides every digit pair (45 pairs, 64 features).
func BenchmarkSeparablePairs(b *testing.B) {
	m := perceptron.Digits()
	var ds []*perceptron.Dataset
	for a := 0; a < 10; a++ {
		for c := a + 1; c < 10; c++ {
			d, _ := m.Binary(a, c)
			ds = append(ds, d)
		}
	}
	for b.Loop() {
		for _, d := range ds {
			if _, err := perceptron.Separable(d, perceptron.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestNotSeparableIsProved: rows on both sides of the diagonal x2 = x1,
// at 1e-14 and 1e-15 from it, are separable exactly (x2 − x1, computed
// without rounding by Sterbenz's lemma, has the sign of the label on every
// row), but standardising the features leaves a hull that reaches the
// origin to within 1e-15: Separable said "not separable", and Bound with a
// bias +Inf, from that tolerance. "Not separable" must be proved (convex
// weights verified exactly) and "separable" certified; here neither can
// be, so both are perceptron.ErrUndecided. Rows equal with opposite labels are
// proved not separable, with the weights 1/2 on the two.
func TestNotSeparableIsProved(t *testing.T) {
	for _, eps := range []float64{1e-14, 1e-15} {
		var x [][]float64
		var y []float64
		for i := range 10 {
			v := float64(i)
			x = append(x, []float64{v, v + eps}, []float64{v, v - eps})
			y = append(y, 1, -1)
		}
		for i, r := range x { // the independent check: strictly on its side
			if s := r[1] - r[0]; y[i]*s <= 0 {
				t.Fatalf("eps %g: row %d is not strictly on its side", eps, i)
			}
		}
		d := mustData(t, x, y)
		s, err := perceptron.Separable(d, perceptron.Options{})
		if err == nil && !s.Separable {
			t.Errorf("eps %g: Separable says not separable (residual %g) on separable data", eps, s.Residual)
		}
		if err != nil && !errors.Is(err, perceptron.ErrUndecided) {
			t.Errorf("eps %g: Separable: %v, want an answer or perceptron.ErrUndecided", eps, err)
		}
		b, err := perceptron.Bound(d, perceptron.Options{})
		if err == nil && !b.Separable {
			t.Errorf("eps %g: Bound says not separable on separable data", eps)
		}
		if err != nil && !errors.Is(err, perceptron.ErrUndecided) {
			t.Errorf("eps %g: Bound: %v, want an answer or perceptron.ErrUndecided", eps, err)
		}
	}
	// Two equal rows with opposite labels among others: not separable,
	// the weights 1/2 on the twins an exact certificate.
	d := mustData(t, [][]float64{{0, 3e-16}, {0, -3e-16}, {2, 2}, {5, 1}, {2, 2}}, []float64{1, -1, 1, -1, -1})
	s, err := perceptron.Separable(d, perceptron.Options{})
	if err != nil || s.Separable {
		t.Fatalf("twins: %+v, %v; want not separable", s, err)
	}
	var sum [3]float64 // Σ λ_i y_i [1, x_i] must be 0 exactly
	for i, l := range s.Weights {
		sum[0] += l * d.Y[i]
		sum[1] += l * d.Y[i] * d.X.At(i, 0)
		sum[2] += l * d.Y[i] * d.X.At(i, 1)
	}
	if sum != [3]float64{} {
		t.Errorf("twins: weights %v combine to %v, want 0", s.Weights, sum)
	}
}
