package perceptron

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// countPos returns the number of +1 labels.
func countPos(y []float64) int {
	k := 0
	for _, v := range y {
		if v > 0 {
			k++
		}
	}
	return k
}

func TestSeparableData(t *testing.T) {
	for _, tc := range []struct {
		n, d   int
		margin float64
		seed   uint64
	}{
		{2, 1, 0, 1},
		{100, 2, 0.1, 1},
		{50, 5, 0.3, 2},
		{200, 10, 0.05, 3},
		{20, 1, 0.4, 4},
	} {
		data, h, err := SeparableData(tc.n, tc.d, tc.margin, tc.seed)
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if data.N() != tc.n || data.D() != tc.d || len(data.Features) != tc.d {
			t.Errorf("%+v: got %d×%d", tc, data.N(), data.D())
		}
		if err := data.Validate(); err != nil {
			t.Errorf("%+v: %v", tc, err)
		}
		// ||w*|| = 1 up to the rounding of a division by a square root.
		if !(math.Abs(h.Norm()-1) <= 1e-14) {
			t.Errorf("%+v: ||w*|| = %v, want 1", tc, h.Norm())
		}
		// The boundary passes through p in [-1/2, 1/2]^d: |b*| = |w*·p| <= ||w*||_1 / 2.
		l1 := 0.0
		for _, v := range h.W {
			l1 += math.Abs(v)
		}
		if !(math.Abs(h.B) <= l1/2) {
			t.Errorf("%+v: |b*| = %v > ||w*||_1/2 = %v", tc, math.Abs(h.B), l1/2)
		}
		for i := range data.N() {
			x := data.Row(i)
			for j, v := range x {
				if v < -1 || v > 1 {
					t.Errorf("%+v: row %d, column %d = %v outside [-1, 1]", tc, i, j, v)
				}
			}
			s := dot(h.W, x) + h.B
			if math.Abs(s) < tc.margin || s == 0 || math.Signbit(s) != (data.Y[i] < 0) {
				t.Errorf("%+v: row %d has score %v and label %v (margin %v)", tc, i, s, data.Y[i], tc.margin)
			}
		}
		// Separable data: PLA converges.
		opt := Options{}
		opt.MaxEpochs = 100000
		if r, err := PLA(data, opt); err != nil || !r.Converged {
			t.Errorf("%+v: PLA did not converge: %v", tc, err)
		}
	}
}

func TestSeparableDataSeeds(t *testing.T) {
	a, ha, _ := SeparableData(50, 3, 0.1, 1)
	b, hb, _ := SeparableData(50, 3, 0.1, 1)
	c, hc, _ := SeparableData(50, 3, 0.1, 2)
	if !mat.Equal(a.X, b.X) || !reflect.DeepEqual(a.Y, b.Y) || !reflect.DeepEqual(ha, hb) {
		t.Error("the same seed gave different data")
	}
	if mat.Equal(a.X, c.X) || reflect.DeepEqual(ha, hc) {
		t.Error("seeds 1 and 2 gave the same data")
	}
}

func TestSeparableDataBalance(t *testing.T) {
	// Over many seeds the boundary through [-1/2, 1/2]^d keeps both classes
	// well represented on average: each has at least 10% of 20 data sets of
	// 100 points in total (a loose sanity bound, far from the expected 50%).
	pos := 0
	for seed := range uint64(20) {
		data, _, err := SeparableData(100, 2, 0.05, seed)
		if err != nil {
			t.Fatal(err)
		}
		pos += countPos(data.Y)
	}
	if pos < 200 || pos > 1800 {
		t.Errorf("%d of 2000 points are +1", pos)
	}
}

func TestSeparableDataErrors(t *testing.T) {
	for _, tc := range []struct {
		n, d   int
		margin float64
		want   error
	}{
		{1, 2, 0.1, ErrOption},
		{10, 0, 0.1, ErrOption},
		{10, 2, -0.1, ErrOption},
		{10, 2, math.NaN(), ErrOption},
		{10, 2, math.Inf(1), ErrOption},
		// 2√d: no point of the cube is that far from a boundary through it.
		{10, 1, 2, ErrOption},
		// Possible on one side only, so sampling fails.
		{10, 1, 1.4, ErrOption},
	} {
		if _, _, err := SeparableData(tc.n, tc.d, tc.margin, 1); !errors.Is(err, tc.want) {
			t.Errorf("SeparableData(%d, %d, %v): error %v, want %v", tc.n, tc.d, tc.margin, err, tc.want)
		}
	}
}

func TestNoisyData(t *testing.T) {
	for _, tc := range []struct {
		n     int
		flip  float64
		flips int
	}{
		{100, 0, 0},
		{100, 0.1, 10},
		{100, 0.333, 33},
		{7, 0.25, 2},    // round(1.75)
		{40, 0.0125, 1}, // round(0.5) = 1: halves round away from zero.
	} {
		clean, h0, err := SeparableData(tc.n, 2, 0.1, 5)
		if err != nil {
			t.Fatal(err)
		}
		noisy, h, err := NoisyData(tc.n, 2, 0.1, tc.flip, 5)
		if err != nil {
			t.Errorf("flip %v: %v", tc.flip, err)
			continue
		}
		if !mat.Equal(clean.X, noisy.X) || !reflect.DeepEqual(h, h0) {
			t.Errorf("flip %v: the points or target differ from SeparableData's", tc.flip)
		}
		diff := 0
		for i := range noisy.Y {
			if noisy.Y[i] != clean.Y[i] {
				diff++
			}
		}
		if diff != tc.flips {
			t.Errorf("n=%d flip %v: %d labels flipped, want %d", tc.n, tc.flip, diff, tc.flips)
		}
		if errs, _ := h.Errors(noisy); errs != tc.flips {
			t.Errorf("n=%d flip %v: the target makes %d mistakes, want %d", tc.n, tc.flip, errs, tc.flips)
		}
		if err := noisy.Validate(); err != nil {
			t.Errorf("flip %v: %v", tc.flip, err)
		}
	}
	a, _, _ := NoisyData(100, 2, 0.1, 0.2, 9)
	b, _, _ := NoisyData(100, 2, 0.1, 0.2, 9)
	if !reflect.DeepEqual(a.Y, b.Y) {
		t.Error("the same seed flipped different labels")
	}
}

func TestLFDData(t *testing.T) {
	for _, n := range []int{2, 10, 100} {
		for seed := range uint64(20) {
			data, f, err := LFDDataBothClasses(n, seed)
			if err != nil {
				t.Fatalf("n=%d seed %d: %v", n, seed, err)
			}
			if data.N() != n || data.D() != 2 {
				t.Fatalf("n=%d: got %d×%d", n, data.N(), data.D())
			}
			if err := data.Validate(); err != nil {
				t.Errorf("n=%d seed %d: %v", n, seed, err)
			}
			if !(math.Abs(f.Norm()-1) <= 1e-14) {
				t.Errorf("||w|| = %v, want 1", f.Norm())
			}
			// The line passes through a point of the square, so its
			// distance to the origin, |b|/||w||, is at most √2.
			if !(math.Abs(f.B) <= math.Sqrt2) {
				t.Errorf("n=%d seed %d: |b| = %v > √2", n, seed, f.B)
			}
			for i := range n {
				x := data.Row(i)
				if !(math.Abs(x[0]) <= 1) || !(math.Abs(x[1]) <= 1) {
					t.Errorf("row %d = %v outside the square", i, x)
				}
				if p, _ := f.Predict(x); p != data.Y[i] {
					t.Errorf("n=%d seed %d row %d: label %v, target says %v", n, seed, i, data.Y[i], p)
				}
			}
		}
	}
	a, fa, _ := LFDData(10, 3)
	b, fb, _ := LFDData(10, 3)
	c, fc, _ := LFDData(10, 4)
	if !mat.Equal(a.X, b.X) || !reflect.DeepEqual(fa, fb) {
		t.Error("the same seed gave different data")
	}
	if mat.Equal(a.X, c.X) || reflect.DeepEqual(fa, fc) {
		t.Error("seeds 3 and 4 gave the same data")
	}
	if _, _, err := LFDData(1, 1); !errors.Is(err, ErrOption) {
		t.Errorf("LFDData(1): error %v", err)
	}
}

func hp(w0, w1, b float64) Hyperplane { return Hyperplane{W: []float64{w0, w1}, B: b} }

func TestDisagreementExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		f, g Hyperplane
		want float64
	}{
		{"same", hp(0.3, -0.7, 0.2), hp(0.3, -0.7, 0.2), 0},
		{"scaled", hp(0.3, -0.7, 0.2), hp(2.4, -5.6, 1.6), 0}, // × 8, exactly
		// × 10 is not exact: fl(0.3)·10 ≠ 3, and the two lines differ.
		{"scaled by 10", hp(0.3, -0.7, 0.2), hp(3, -7, 2), 1.699320956058913e-17},
		{"opposite", hp(0.3, -0.7, 0.2), hp(-0.3, 0.7, -0.2), 1},
		{"x-axis vs y-axis", hp(0, 1, 0), hp(1, 0, 0), 0.5},
		// The strip 0 < x1 < 1/2 has area 1 of 4.
		{"parallel lines", hp(1, 0, 0), hp(1, 0, -0.5), 0.25},
		// Two triangles of area 1/2 between x1 = x2 and x1 = 0.
		{"diagonal", hp(1, -1, 0), hp(1, 0, 0), 0.25},
		// A line outside the square: g is -1 everywhere on it.
		{"outside", hp(1, 0, 0), hp(1, 0, -5), 0.5},
		// w = 0: the constant +1.
		{"constant", hp(0, 0, 1), hp(1, 1, 1), 1.0 / 8},
		// The corner triangle x1 + x2 > 1 has area 1/2.
		{"corner", hp(1, 1, -1), hp(0, 0, -1), 1.0 / 8},
		// A red-team case: rounding gave 6.9e-17.
		{"itself", hp(-1.7880778339221388, -0.08319756138542189, -0.20924164002275603), hp(-1.7880778339221388, -0.08319756138542189, -0.20924164002275603), 0},
		// x2 > 2^-40 x1 against x2 > 0: two triangles of area 2^-41
		// each (base 1, height 2^-40), 2^-40 of 4: tiny, and exact.
		{"a sliver", hp(-0x1p-40, 1, 0), hp(0, 1, 0), 0x1p-42},
		// Coefficients of 1e308 and subnormal ones, exactly.
		{"huge", hp(1e308, 1e308, 1e308), hp(-1e308, 1e308, 0), 0.5},
		{"subnormal", hp(5e-324, 0, 0), hp(0, 5e-324, 0), 0.5},
	} {
		got, err := Disagreement(tc.f, tc.g)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		// Exact: the clipping is in rational arithmetic.
		if got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if back, _ := Disagreement(tc.g, tc.f); back != got {
			t.Errorf("%s: not symmetric: %v and %v", tc.name, got, back)
		}
	}
}

func TestDisagreementMonteCarlo(t *testing.T) {
	const samples = 200000
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 10 {
		_, f, _ := LFDData(2, uint64(trial))
		g := hp(rng.NormFloat64(), rng.NormFloat64(), 0.5*rng.NormFloat64())
		exact, err := Disagreement(f, g)
		if err != nil {
			t.Fatal(err)
		}
		diff := 0
		x := make([]float64, 2)
		for range samples {
			x[0], x[1] = 2*rng.Float64()-1, 2*rng.Float64()-1
			if (dot(f.W, x)+f.B > 0) != (dot(g.W, x)+g.B > 0) {
				diff++
			}
		}
		est := float64(diff) / samples
		// Five standard errors of the estimate (plus a floor for p near 0):
		// a correct Disagreement fails this with probability below 1e-6.
		tol := 5*math.Sqrt(exact*(1-exact)/samples) + 1e-4
		if !(math.Abs(est-exact) <= tol) {
			t.Errorf("trial %d: exact %v, Monte Carlo %v ± %v", trial, exact, est, tol)
		}
	}
}

func TestDisagreementErrors(t *testing.T) {
	good := hp(1, 0, 0)
	for _, tc := range []struct {
		f, g Hyperplane
		want error
	}{
		{Hyperplane{W: []float64{1, 2, 3}}, good, ErrDimension},
		{good, Hyperplane{}, ErrDimension},
		{hp(math.NaN(), 0, 0), good, ErrNonFinite},
		{good, hp(0, 0, math.Inf(-1)), ErrNonFinite},
		{hp(0, 0, 0), good, ErrOption},
	} {
		if _, err := Disagreement(tc.f, tc.g); !errors.Is(err, tc.want) {
			t.Errorf("Disagreement(%v, %v): error %v, want %v", tc.f, tc.g, err, tc.want)
		}
	}
}

func TestCreditApplicants(t *testing.T) {
	const n = 1000
	clean, rule, err := CreditApplicants(n, 0, 42)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rule, Hyperplane{W: []float64{0.02, 0.05, 0.1, -0.1}, B: -2.5}) {
		t.Errorf("rule %v differs from the documented one", rule)
	}
	if !reflect.DeepEqual(clean.Features, []string{"age (years)", "salary (k$)", "years in job", "debt (k$)"}) ||
		clean.Classes != [2]string{"denied", "approved"} {
		t.Errorf("names %q %q", clean.Features, clean.Classes)
	}
	for i := range n {
		x := clean.Row(i)
		age, salary, years, debt := x[0], x[1], x[2], x[3]
		if age != math.Trunc(age) || age < 18 || age > 75 || salary <= 0 || years < 0 || years > age-18 || debt < 0 {
			t.Errorf("row %d = %v is not a plausible applicant", i, x)
		}
		if p, _ := rule.Predict(x); p != clean.Y[i] {
			t.Errorf("row %d: decision %v, the rule says %v", i, clean.Y[i], p)
		}
	}
	// The rule approves about half (51% for this seed); 30-70% is a loose check.
	if pos := countPos(clean.Y); pos < 300 || pos > 700 {
		t.Errorf("%d of %d approved", pos, n)
	}
	noisy, _, err := CreditApplicants(n, 0.15, 42)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(noisy.X, clean.X) {
		t.Error("noise changed the applicants")
	}
	if errs, _ := rule.Errors(noisy); errs != 150 {
		t.Errorf("%d decisions differ from the rule, want 150", errs)
	}
	other, _, _ := CreditApplicants(n, 0, 43)
	again, _, _ := CreditApplicants(n, 0, 42)
	if mat.Equal(other.X, clean.X) || !mat.Equal(again.X, clean.X) {
		t.Error("seeding is wrong")
	}
}

func TestXORData(t *testing.T) {
	d := XORData()
	if want := [][]float64{{1, 1}, {2, 2}, {1, 2}, {2, 1}}; !reflect.DeepEqual(d.Rows(), want) {
		t.Errorf("x = %v, want %v", d.Rows(), want)
	}
	if want := []float64{1, 1, -1, -1}; !reflect.DeepEqual(d.Y, want) {
		t.Errorf("y = %v, want %v", d.Y, want)
	}
	// Not linearly separable: PLA never makes a clean pass.
	opt := Options{}
	opt.MaxEpochs = 200
	if r, err := PLA(d, opt); err != nil || r.Converged {
		t.Errorf("PLA converged on XOR (%v)", err)
	}
}

func TestCircles(t *testing.T) {
	// scikit-learn 1.2.1: make_circles(n_samples=7, shuffle=False, factor=0.5).
	want := [][]float64{
		{1.0, 0.0}, {-0.4999999999999997, 0.8660254037844387}, {-0.5000000000000003, -0.8660254037844383},
		{0.5, 0.0}, {3.061616997868383e-17, 0.5}, {-0.5, 6.123233995736766e-17}, {-9.184850993605148e-17, -0.5},
	}
	d, err := Circles(7, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Y, []float64{-1, -1, -1, 1, 1, 1, 1}) {
		t.Errorf("y = %v", d.Y)
	}
	for i, w := range want {
		// The angles 2πk/m and NumPy's linspace may differ in the last bit.
		for j := range w {
			if got := d.Row(i)[j]; !(math.Abs(got-w[j]) <= 1e-15) {
				t.Errorf("row %d = %v, want %v", i, d.Row(i), w)
				break
			}
		}
	}
	// With noise, each coordinate moves by N(0, σ²) from its place on the
	// circle: the sample standard deviation of 4000 such moves is within 5%
	// of σ (its relative standard error is about 1/√8000 ≈ 1.1%).
	const n, sigma = 2000, 0.1
	clean, _ := Circles(n, 0, 1)
	noisy, err := Circles(n, sigma, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ss float64
	for i := range n {
		for j := range 2 {
			e := noisy.Row(i)[j] - clean.Row(i)[j]
			ss += e * e
		}
	}
	if sd := math.Sqrt(ss / (2 * n)); !(math.Abs(sd-sigma) <= 0.05*sigma) {
		t.Errorf("noise sd %v, want %v", sd, sigma)
	}
	again, _ := Circles(n, sigma, 1)
	other, _ := Circles(n, sigma, 2)
	if !mat.Equal(again.X, noisy.X) || mat.Equal(other.X, noisy.X) {
		t.Error("seeding is wrong")
	}
}

// TestLFDDataAsTheBook: LFDData draws once, as the book does, so some
// samples are one-sided; LFDDataBothClasses agrees with it on every seed
// whose first draw holds both classes and redraws the others. At n = 10 the
// one-sided samples are a few percent of 400 seeds (the chance that 10
// uniform points miss one side of a random line), neither none nor most.
func TestLFDDataAsTheBook(t *testing.T) {
	const seeds = 400
	oneSided := 0
	for seed := range uint64(seeds) {
		book, fb, err := LFDData(10, seed)
		if err != nil {
			t.Fatal(err)
		}
		both, f2, err := LFDDataBothClasses(10, seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := both.Validate(); err != nil {
			t.Errorf("seed %d: conditioned sample: %v", seed, err)
		}
		if hasBothClasses(book.Y) {
			if !mat.Equal(book.X, both.X) || !reflect.DeepEqual(fb, f2) {
				t.Errorf("seed %d: the two samplers differ on a two-class first draw", seed)
			}
			continue
		}
		oneSided++
		if err := book.Validate(); !errors.Is(err, ErrOneClass) {
			t.Errorf("seed %d: one-sided sample: Validate = %v, want ErrOneClass", seed, err)
		}
	}
	if oneSided == 0 || oneSided > seeds/5 {
		t.Errorf("%d of %d book samples one-sided", oneSided, seeds)
	}
	t.Logf("%d of %d samples at n = 10 are one-sided", oneSided, seeds)
}

// TestSynthOptionErrors: NoisyData, CreditApplicants and Circles refuse a
// size or a noise level they cannot honour with ErrOption.
func TestSynthOptionErrors(t *testing.T) {
	noisy := func(n int, flip float64) error { _, _, err := NoisyData(n, 2, 0.1, flip, 1); return err }
	credit := func(n int, noise float64) error { _, _, err := CreditApplicants(n, noise, 1); return err }
	circles := func(n int, noise float64) error { _, err := Circles(n, noise, 1); return err }
	for _, tc := range []struct {
		name string
		call func(n int, x float64) error
		n    int
		x    float64
	}{
		{"NoisyData flip", noisy, 10, 0.5},
		{"NoisyData flip", noisy, 10, -0.1},
		{"NoisyData flip", noisy, 10, math.NaN()},
		{"NoisyData flip", noisy, 2, 0.4},
		{"NoisyData flip", noisy, 1, 0.1},
		{"CreditApplicants noise", credit, 1, 0},
		{"CreditApplicants noise", credit, 10, 0.5},
		{"CreditApplicants noise", credit, 10, -1},
		{"Circles noise", circles, 1, 0},
		{"Circles noise", circles, 10, -0.1},
		{"Circles noise", circles, 10, math.NaN()},
	} {
		if err := tc.call(tc.n, tc.x); !errors.Is(err, ErrOption) {
			t.Errorf("%s: n=%d, %v: error %v, want ErrOption", tc.name, tc.n, tc.x, err)
		}
	}
}

// TestDisagreementExtremeScales: hyperplanes whose coefficients are near
// 1e308 or subnormal describe the same half-planes as their scaled-down or
// scaled-up twins, and get their areas: (1e308, 1e308, 1e308) against
// (−1e308, 1e308, 0) is x1 + x2 > −1 against x2 > x1, whose disagreement
// is the same as for (1, 1, 1) against (−1, 1, 0), 1/2 (it was NaN, no
// error): x2 < x1 has area 2, a quarter of it in the corner x1 + x2 < −1,
// where x2 > x1 adds another quarter: (2 − 1/4 + 1/4)/4. (1e-320, 0,
// 1e-320) is x1 > −1, all of the square, against x1 > 0: 1/2.
func TestDisagreementExtremeScales(t *testing.T) {
	for _, tc := range []struct {
		name string
		f, g Hyperplane
		want float64
	}{
		{"near 1e308", hp(1e308, 1e308, 1e308), hp(-1e308, 1e308, 0), 0.5},
		{"the same, at scale 1", hp(1, 1, 1), hp(-1, 1, 0), 0.5},
		{"subnormal", hp(1e-320, 0, 1e-320), hp(1, 0, 0), 0.5},
		{"both extremes", hp(1e-320, 1e-320, 0), hp(1e308, 1e308, 0), 0},
	} {
		got, err := Disagreement(tc.f, tc.g)
		if err != nil || !(math.Abs(got-tc.want) <= 1e-15) { // a NaN fails too
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}
