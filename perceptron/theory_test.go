package perceptron_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron"
)

// mustData builds a Dataset or fails the test.
func mustData(t testing.TB, x [][]float64, y []float64) *perceptron.Dataset {
	t.Helper()
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRadius(t *testing.T) {
	for _, c := range []struct {
		name string
		x    [][]float64
		want float64
	}{
		{"3-4-5", [][]float64{{3, 4}, {-1, 0}}, 5},
		{"origin", [][]float64{{0, 0}, {0, 0}}, 0},
		{"1d", [][]float64{{-7}, {2}}, 7},
	} {
		d := mustData(t, c.x, []float64{1, -1})
		got, err := perceptron.Radius(d)
		if err != nil {
			t.Fatal(err)
		}
		// sqrt of a perfect square is exact.
		if got != c.want {
			t.Errorf("%s: Radius = %v, want %v", c.name, got, c.want)
		}
	}
	if _, err := perceptron.Radius(&perceptron.Dataset{}); !errors.Is(err, perceptron.ErrEmpty) {
		t.Errorf("Radius of empty data: err = %v, want ErrEmpty", err)
	}
}

// TestMaxMarginHand checks MaxMargin on sets whose answer is known in
// closed form. The tolerance 1e-14 is a few ulps of the O(1) results: the
// algorithm is exact up to rounding.
func TestMaxMarginHand(t *testing.T) {
	s := math.Sqrt2 / 2
	for _, c := range []struct {
		name   string
		x      [][]float64
		y      []float64
		noBias bool
		w      []float64
		b      float64
		gamma  float64
	}{
		{"1d bias", [][]float64{{-1}, {3}}, []float64{-1, 1}, false, []float64{1}, -1, 2},
		{"1d origin", [][]float64{{-1}, {3}}, []float64{-1, 1}, true, []float64{1}, 0, 1},
		{"triangle bias", [][]float64{{0, 0}, {2, 0}, {0, 2}}, []float64{-1, 1, 1}, false, []float64{s, s}, -s, s},
		{"mirrored origin", [][]float64{{1, 0}, {0, -1}}, []float64{1, -1}, true, []float64{s, s}, 0, s},
		{"point at origin, bias", [][]float64{{0, 0}, {1, 0}}, []float64{1, -1}, false, []float64{-1, 0}, 0.5, 0.5},
		// Interior points must not change the answer.
		{"interior points", [][]float64{{-1, 0}, {-3, 5}, {-2, -4}, {1, 0}, {4, 1}, {2, -7}}, []float64{-1, -1, -1, 1, 1, 1}, false, []float64{1, 0}, 0, 1},
	} {
		d := mustData(t, c.x, c.y)
		h, gamma, err := perceptron.MaxMargin(d, perceptron.Options{NoBias: c.noBias})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		const tol = 1e-14
		if !(math.Abs(gamma-c.gamma) <= tol) || !(math.Abs(h.B-c.b) <= tol) {
			t.Errorf("%s: gamma = %v, b = %v; want %v, %v", c.name, gamma, h.B, c.gamma, c.b)
		}
		for j := range c.w {
			if !(math.Abs(h.W[j]-c.w[j]) <= tol) {
				t.Errorf("%s: w = %v, want %v", c.name, h.W, c.w)
				break
			}
		}
	}
}

func TestMaxMarginNotSeparable(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      [][]float64
		y      []float64
		noBias bool
	}{
		{"xor", [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, []float64{-1, -1, 1, 1}, false},
		{"xor origin", [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, []float64{-1, -1, 1, 1}, true},
		{"same point", [][]float64{{1, 2}, {1, 2}}, []float64{-1, 1}, false},
		{"point at origin, no bias", [][]float64{{0, 0}, {1, 0}}, []float64{1, -1}, true},
		{"interleaved 1d", [][]float64{{0}, {1}, {2}}, []float64{-1, 1, -1}, false},
		{"opposite rays origin", [][]float64{{1, 1}, {2, 2}}, []float64{1, -1}, true},
	} {
		_, _, err := perceptron.MaxMargin(mustData(t, c.x, c.y), perceptron.Options{NoBias: c.noBias})
		if !errors.Is(err, perceptron.ErrNotSeparable) {
			t.Errorf("%s: err = %v, want ErrNotSeparable", c.name, err)
		}
	}
	if perceptron.ErrNotSeparable.Error() != "perceptron: data is not linearly separable" {
		t.Errorf("message %q", perceptron.ErrNotSeparable)
	}
}

// checkKKT verifies that (h, gamma) is the maximum-margin separator of d by
// its optimality certificate: ||w|| = 1, gamma = min_i y_i(w·x_i + b), and
// w = Σ_S α_i y_i x_i over the support vectors S (rows at the margin) with
// α_i ≥ 0 and, with a bias, Σ_S α_i y_i = 0. These KKT conditions of the
// convex problem min ||w||² s.t. y_i(w·x_i + b) ≥ 1 are sufficient for
// optimality. It returns the number of support vectors.
func checkKKT(t *testing.T, name string, d *perceptron.Dataset, h perceptron.Hyperplane, gamma float64, noBias bool) int {
	t.Helper()
	// Rounding: inputs and results are O(1..10); 1e-12 is a few thousand
	// ulps, far below any error the certificate should catch.
	const tol = 1e-12
	if !(math.Abs(h.Norm()-1) <= tol) {
		t.Errorf("%s: ||w|| = %v, want 1", name, h.Norm())
	}
	if noBias && h.B != 0 {
		t.Errorf("%s: b = %v with noBias", name, h.B)
	}
	m, _, err := h.DatasetMargin(d)
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(m-gamma) <= tol) || !(gamma > 0) {
		t.Errorf("%s: gamma = %v but the data margin is %v", name, gamma, m)
	}
	var sv []int
	for i := 0; i < d.N(); i++ {
		f := d.Y[i] * (dotT(h.W, d.Row(i)) + h.B)
		if f < gamma-tol {
			t.Errorf("%s: row %d has margin %v < gamma %v", name, i, f, gamma)
		}
		// Random continuous data has no row within 1e-9 of the margin
		// unless it is on it.
		if f-gamma < 1e-9 {
			sv = append(sv, i)
		}
	}
	// Solve [y_i x_i; y_i] α = [w; 0] in the least-squares sense.
	rows := d.D()
	if !noBias {
		rows++
	}
	a := mat.NewDense(rows, len(sv), nil)
	rhs := mat.NewVecDense(rows, nil)
	for k, i := range sv {
		for j, v := range d.Row(i) {
			a.Set(j, k, d.Y[i]*v)
		}
		if !noBias {
			a.Set(d.D(), k, d.Y[i])
		}
	}
	for j, v := range h.W {
		rhs.SetVec(j, v)
	}
	var alpha mat.VecDense
	if err := alpha.SolveVec(a, rhs); err != nil {
		t.Errorf("%s: KKT solve: %v", name, err)
		return len(sv)
	}
	var res mat.VecDense
	res.MulVec(a, &alpha)
	res.SubVec(&res, rhs)
	amax := mat.Max(&alpha)
	if r := mat.Norm(&res, math.Inf(1)); !(r <= 1e-9) {
		t.Errorf("%s: w is not in the cone of the support vectors: residual %v (support vectors %v)", name, r, sv)
	}
	for k := range sv {
		if alpha.AtVec(k) < -1e-9*amax {
			t.Errorf("%s: alpha of support vector %d is %v < 0", name, sv[k], alpha.AtVec(k))
		}
	}
	return len(sv)
}

func dotT(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += float64(a[i] * b[i])
	}
	return s
}

// svcGolden is testdata/sklearn/svc_golden.json, written by
// testdata/sklearn/make_svc_golden.py with scikit-learn's SVC and polished
// by an exact KKT solve.
type svcGolden struct {
	Cases []struct {
		Name     string    `json:"name"`
		Dataset  string    `json:"dataset"`
		Neg      int       `json:"neg"`
		Pos      int       `json:"pos"`
		Features []int     `json:"features"`
		W        []float64 `json:"w"`
		B        float64   `json:"b"`
		Margin   float64   `json:"margin"`
		R        float64   `json:"R"`
		Bound    float64   `json:"bound"`
		Origin   *struct {
			Theta  []float64 `json:"theta"`
			Margin float64   `json:"margin"`
			RAug   float64   `json:"R_aug"`
			Bound  float64   `json:"bound"`
		} `json:"origin"`
	} `json:"cases"`
}

// TestMaxMarginSklearn compares MaxMargin and Bound with the hard-margin SVM
// of scikit-learn (SVC, linear kernel, C = 1e10, polished by a KKT solve to
// about 1e-12 relative) on real data: Iris and digits pairs. SVC's (w, b)
// scaled by its margin 1/||w|| is our unit separator. The tolerance 1e-9
// (relative) leaves room for the golden's own 1e-12 and our rounding on
// 64 features, and is 1000 times tighter than the 1e-6 we promise.
func TestMaxMarginSklearn(t *testing.T) {
	var g svcGolden
	loadGolden(t, "testdata/sklearn/svc_golden.json", &g)
	if len(g.Cases) < 5 {
		t.Fatalf("only %d golden cases", len(g.Cases))
	}
	load := map[string]func() *perceptron.MultiDataset{"iris": perceptron.Iris, "digits": perceptron.Digits}
	const tol = 1e-9
	close := func(got, want float64) bool { return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want)) }
	for _, c := range g.Cases {
		d, err := load[c.Dataset]().Binary(c.Neg, c.Pos, c.Features...)
		if err != nil {
			t.Fatal(err)
		}
		h, gamma, err := perceptron.MaxMargin(d, perceptron.Options{})
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if !close(gamma, c.Margin) || !close(h.B, c.B*c.Margin) {
			t.Errorf("%s: gamma = %v, b = %v; sklearn %v, %v", c.Name, gamma, h.B, c.Margin, c.B*c.Margin)
		}
		for j := range c.W {
			if !close(h.W[j], c.W[j]*c.Margin) {
				t.Errorf("%s: w[%d] = %v, sklearn %v", c.Name, j, h.W[j], c.W[j]*c.Margin)
			}
		}
		if c.Origin == nil {
			continue
		}
		br, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil || !br.Separable {
			t.Errorf("%s: Bound: %v, separable %v", c.Name, err, br.Separable)
			continue
		}
		theta := br.Target.Theta()
		if !close(br.Gamma, c.Origin.Margin) || !close(br.R, c.Origin.RAug) || !close(br.Bound, c.Origin.Bound) {
			t.Errorf("%s: Bound = %+v; sklearn gamma %v, R %v, bound %v", c.Name, br, c.Origin.Margin, c.Origin.RAug, c.Origin.Bound)
		}
		for j := range theta {
			if !close(theta[j], c.Origin.Theta[j]*c.Origin.Margin) {
				t.Errorf("%s: theta[%d] = %v, sklearn %v", c.Name, j, theta[j], c.Origin.Theta[j]*c.Origin.Margin)
			}
		}
	}
}

// TestBoundHand checks Bound on 1d data {(-1, -1), (3, +1)}. Through the
// origin R = 3 and gamma = 1, so the bound is 9. With a bias the rows are
// [1, -1] and [1, 3]; z = y[1, x] gives (-1, 1) and (1, 3), whose hull's
// nearest point to 0 is (-1, 1): theta* = (-1, 1)/√2, gamma = √2, R = √10,
// bound 10/2 = 5. The tolerance is a few ulps.
func TestBoundHand(t *testing.T) {
	d := mustData(t, [][]float64{{-1}, {3}}, []float64{-1, 1})
	s := math.Sqrt2 / 2
	for _, c := range []struct {
		noBias          bool
		r, gamma, bound float64
		w, b            float64
	}{
		{true, 3, 1, 9, 1, 0},
		{false, math.Sqrt(10), math.Sqrt2, 5, s, -s},
	} {
		br, err := perceptron.Bound(d, perceptron.Options{NoBias: c.noBias})
		if err != nil {
			t.Fatal(err)
		}
		const tol = 1e-14
		if !br.Separable || !(math.Abs(br.R-c.r) <= tol) || !(math.Abs(br.Gamma-c.gamma) <= tol) ||
			!(math.Abs(br.Bound-c.bound) <= 1e-13) || !(math.Abs(br.Target.W[0]-c.w) <= tol) || !(math.Abs(br.Target.B-c.b) <= tol) {
			t.Errorf("noBias %v: %+v, want R %v gamma %v bound %v w %v b %v", c.noBias, br, c.r, c.gamma, c.bound, c.w, c.b)
		}
	}
	xor := mustData(t, [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}, []float64{-1, -1, 1, 1})
	br, err := perceptron.Bound(xor, perceptron.Options{})
	if err != nil || br.Separable || !math.IsInf(br.Bound, 1) {
		t.Errorf("xor: %+v, %v; want not separable, bound +Inf, no error", br, err)
	}
}

// TestMaxMarginKKT checks the optimality certificate of MaxMargin (see
// checkKKT) on 300 random separable sets of 1 to 8 features, with a free
// bias and through the origin (on the augmented rows, which a hyperplane
// through the origin separates), and that Bound agrees with it.
func TestMaxMarginKKT(t *testing.T) {
	for seed := uint64(1); seed <= 150; seed++ {
		n := 5 + int(seed*37%200)
		dim := 1 + int(seed%8)
		margin := 0.01 + float64(seed%5)*0.05
		d, target, err := perceptron.SeparableData(n, dim, margin, seed)
		if err != nil {
			t.Fatal(err)
		}
		h, gamma, err := perceptron.MaxMargin(d, perceptron.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkKKT(t, "bias", d, h, gamma, false)
		// The data's own target separates with margin >= margin, so the
		// best margin can only be larger.
		if gamma < margin-1e-12 {
			t.Errorf("seed %d: gamma %v < the generator's margin %v", seed, gamma, margin)
		}
		_ = target
		aug := perceptron.Augment(d)
		ho, gammaO, err := perceptron.MaxMargin(aug, perceptron.Options{NoBias: true})
		if err != nil {
			t.Fatalf("seed %d origin: %v", seed, err)
		}
		checkKKT(t, "origin", aug, ho, gammaO, true)
		br, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, _ := perceptron.Radius(aug)
		// Bound runs the same computation, then certifies γ from below
		// (the exact margin of the same θ* to a few ulps) and rounds
		// (R/γ)² up.
		if br.R != r || !(math.Abs(br.Gamma-gammaO) <= 1e-14*gammaO) || !(br.Bound >= (r/br.Gamma)*(r/br.Gamma)) || !(br.Bound <= (r/gammaO)*(r/gammaO)*(1+1e-13)) {
			t.Errorf("seed %d: Bound %+v, want gamma %v R %v", seed, br, gammaO, r)
		}
	}
}

// TestMaxMarginScale checks that MaxMargin does not depend on the units of
// the data: scaling every x by s scales γ by s and leaves w unchanged. The
// relative tolerance 1e-12 is a few thousand ulps; before the KKT system
// was scaled, s = 1e8 lost 30% of γ.
func TestMaxMarginScale(t *testing.T) {
	base, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, noBias := range []bool{false, true} {
		d := base
		if noBias {
			d = perceptron.Augment(base)
		}
		h0, g0, err := perceptron.MaxMargin(d, perceptron.Options{NoBias: noBias})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []float64{1e-100, 1e-8, 1e8, 1e100} {
			x := d.Rows()
			for i := range x {
				for j := range x[i] {
					x[i][j] *= s
				}
			}
			h, g, err := perceptron.MaxMargin(mustData(t, x, d.Y), perceptron.Options{NoBias: noBias})
			if err != nil {
				t.Errorf("scale %v: %v", s, err)
				continue
			}
			if !(math.Abs(g/s/g0-1) <= 1e-12) {
				t.Errorf("noBias %v, scale %v: gamma/s = %v, want %v", noBias, s, g/s, g0)
			}
			for j := range h.W {
				if !(math.Abs(h.W[j]-h0.W[j]) <= 1e-12) {
					t.Errorf("noBias %v, scale %v: w = %v, want %v", noBias, s, h.W, h0.W)
					break
				}
			}
		}
	}
}

// TestBoundOverflowIsAnError: two points at a margin of 1e-300 from a
// boundary through the origin are separable (w = (0, 1) separates them,
// and PLA does after 2 updates with a bias) and Bound certifies it, but
// (R/γ)² = 1e600 is beyond float64. That is an ErrNonFinite error, with
// the result (separable, its R, γ and target), never a silent +Inf, which
// means "not separable" (and which JSON cannot hold).
func TestBoundOverflowIsAnError(t *testing.T) {
	d := mustData(t, [][]float64{{1, 1e-300}, {1, -1e-300}}, []float64{1, -1})
	for _, noBias := range []bool{true, false} {
		b, err := perceptron.Bound(d, perceptron.Options{NoBias: noBias})
		if !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("noBias %v: %+v, %v; want ErrNonFinite", noBias, b, err)
		}
		if !b.Separable || !(b.Gamma > 0) || b.Gamma > 1e-300 || !math.IsInf(b.Bound, 1) {
			t.Errorf("noBias %v: %+v; want separable with 0 < γ <= 1e-300 and the bound +Inf", noBias, b)
		}
	}
	// A margin of 1e-150 gives a bound of about 1e300 (2e300 with a
	// bias, R² = 2): in range, no error.
	d = mustData(t, [][]float64{{1, 1e-150}, {1, -1e-150}}, []float64{1, -1})
	for _, c := range []struct {
		noBias bool
		want   float64
	}{{true, 1e300}, {false, 2e300}} {
		b, err := perceptron.Bound(d, perceptron.Options{NoBias: c.noBias})
		if err != nil || !b.Separable || !(math.Abs(b.Bound/c.want-1) <= 1e-12) {
			t.Errorf("margin 1e-150, noBias %v: %+v, %v; want a bound of %v", c.noBias, b, err, c.want)
		}
	}
}

// TestMaxMarginNotSeparableIsProved: MaxMargin took a margin below 1e-12
// of the radius for 0 and said ErrNotSeparable, a claim it had not
// proved: two points 1e-14 from a line through the origin (w = (0, 1)
// separates them, and PLA does in 2 updates), rows 1e-15 on either side of
// the diagonal with a bias. Such data is ErrUndecided now, and data that
// is not separable keeps its proved ErrNotSeparable (XOR and the others
// of TestMaxMarginNotSeparable, a point at the origin through the origin).
func TestMaxMarginNotSeparableIsProved(t *testing.T) {
	tiny := mustData(t, [][]float64{{1, 1e-14}, {1, -1e-14}}, []float64{1, -1})
	r, err := perceptron.PLA(tiny, perceptron.Options{NoBias: true})
	if err != nil || !r.Converged {
		t.Fatalf("PLA through the origin: %v, %v; want converged", r, err)
	}
	if _, _, err := perceptron.MaxMargin(tiny, perceptron.Options{NoBias: true}); !errors.Is(err, perceptron.ErrUndecided) {
		t.Errorf("margin 1e-14 through the origin: %v, want ErrUndecided", err)
	}
	var x [][]float64
	var y []float64
	for i := range 10 {
		v := float64(i)
		x = append(x, []float64{v, v + 1e-15}, []float64{v, v - 1e-15})
		y = append(y, 1, -1)
	}
	if _, _, err := perceptron.MaxMargin(mustData(t, x, y), perceptron.Options{}); !errors.Is(err, perceptron.ErrUndecided) {
		t.Errorf("the diagonal at 1e-15: %v, want ErrUndecided", err)
	}
	origin := mustData(t, [][]float64{{0, 0}, {1, 0}, {2, 5}}, []float64{1, -1, -1})
	if _, _, err := perceptron.MaxMargin(origin, perceptron.Options{NoBias: true}); !errors.Is(err, perceptron.ErrNotSeparable) {
		t.Errorf("a point at the origin through the origin: %v, want ErrNotSeparable", err)
	}
}

// TestBoundUnderflowIsAnError: two points of radius 4e-320 at a margin of
// 1e-322 through the origin: the theorem's bound is (R/γ)² ≈ 1.6e5, but
// PLA's scores x_i·x_j underflow to 0, every score is a mistake, and the
// float64 run never converges (it made 200,000 updates in 100,000
// epochs): Bound is an ErrUndecided error with its result. On points of
// radius 1e-160 (products 1e-320, subnormal) η = 1 is refused alike, and
// η = 2^600 lifts the scores out of the underflow: no error, and PLA's
// updates stay within the bound.
func TestBoundUnderflowIsAnError(t *testing.T) {
	d := mustData(t, [][]float64{{4e-320, 1e-322}, {4e-320, -1e-322}}, []float64{1, -1})
	r, err := perceptron.PLA(d, perceptron.Options{NoBias: true, MaxEpochs: 100_000})
	if err != nil || r.Converged {
		t.Fatalf("PLA: %v, %v; want no convergence (every product underflows)", r, err)
	}
	b, err := perceptron.Bound(d, perceptron.Options{NoBias: true})
	if !errors.Is(err, perceptron.ErrUndecided) || !b.Separable {
		t.Errorf("Bound = %+v, %v; want separable with ErrUndecided", b, err)
	}
	d = mustData(t, [][]float64{{1e-160, 1e-162}, {1e-160, -1e-162}}, []float64{1, -1})
	if b, err := perceptron.Bound(d, perceptron.Options{NoBias: true}); !errors.Is(err, perceptron.ErrUndecided) {
		t.Errorf("radius 1e-160, η = 1: Bound = %+v, %v; want ErrUndecided", b, err)
	}
	opt := perceptron.Options{NoBias: true, Eta: 0x1p600}
	r, err = perceptron.PLA(d, opt)
	if err != nil || !r.Converged {
		t.Fatalf("PLA with η = 2^600: %v, %v; want converged", r, err)
	}
	if b, err := perceptron.Bound(d, opt); err != nil || float64(r.Updates) > b.Bound {
		t.Errorf("η = 2^600: Bound %+v, %v; want at least the %d updates", b, err, r.Updates)
	}
}

// TestBoundRefusesBadOptions: Bound reads Eta to refuse data on which
// PLA's scores underflow; an η PLA refuses (NaN, negative, +Inf,
// subnormal) and other options PLA refuses are ErrOption (a bad η used to
// skip the underflow check and answer "separable, bound 2.5").
func TestBoundRefusesBadOptions(t *testing.T) {
	d := mustData(t, [][]float64{{1e-160, 2e-160}, {-1e-160, -1e-160}}, []float64{1, -1})
	if _, err := perceptron.Bound(d, perceptron.Options{NoBias: true}); !errors.Is(err, perceptron.ErrUndecided) {
		t.Fatalf("η = 1: %v; want ErrUndecided (the scores underflow)", err)
	}
	for _, opt := range []perceptron.Options{
		{Eta: math.NaN()}, {Eta: -1}, {Eta: math.Inf(1)}, {Eta: 5e-324},
		{MaxEpochs: -1}, {Order: perceptron.Order(9)}, {Summation: perceptron.Summation(7)},
	} {
		opt.NoBias = true
		if _, pe := perceptron.PLA(d, opt); !errors.Is(pe, perceptron.ErrOption) {
			t.Fatalf("%+v: PLA %v; want ErrOption", opt, pe)
		}
		if b, err := perceptron.Bound(d, opt); !errors.Is(err, perceptron.ErrOption) {
			t.Errorf("%+v: Bound = %+v, %v; want ErrOption, as PLA's", opt, b, err)
		}
	}
}

// TestMaxMarginColumnScaleKeepsTheAnswer: multiplying a column by 2^k > 0
// (exactly) keeps the data separable, or not, with or without a bias
// (the weight of that column scales by 2^-k). Through the origin these 60
// points are not separable; with one column 2^20 to 2^40 times the others,
// Wolfe's algorithm stalls on the rounding with no separator, and
// MaxMargin said ErrUndecided where Bound proved "not separable"
// (helper-46). It must prove it too. With a bias they are separable: the
// scaled copies are never "not separable", and an ErrUndecided gives the
// margin of a certified separator.
func TestMaxMarginColumnScaleKeepsTheAnswer(t *testing.T) {
	for _, k := range []int{0, 20, 30, 31, 40} {
		d, _, err := perceptron.SeparableData(60, 4, 0.01, 22)
		if err != nil {
			t.Fatal(err)
		}
		for i := range d.N() {
			d.X.Set(i, 0, math.Ldexp(d.X.At(i, 0), k))
		}
		_, _, err = perceptron.MaxMargin(d, perceptron.Options{NoBias: true})
		if !errors.Is(err, perceptron.ErrNotSeparable) || errors.Is(err, perceptron.ErrUndecided) {
			t.Errorf("2^%d, through the origin: %v; want ErrNotSeparable (as without the scale)", k, err)
		}
		b, err := perceptron.Bound(d, perceptron.Options{NoBias: true})
		if err != nil || b.Separable {
			t.Errorf("2^%d, Bound through the origin: %+v, %v; want not separable", k, b, err)
		}
		_, g, err := perceptron.MaxMargin(d, perceptron.Options{})
		switch {
		case err == nil && g > 0:
		case errors.Is(err, perceptron.ErrUndecided) && !errors.Is(err, perceptron.ErrNotSeparable):
			if msg := err.Error(); strings.Contains(msg, "found no separator") && !strings.Contains(msg, "the data is separable") {
				t.Errorf("2^%d, with a bias: %v; want it to say that a separator is certified", k, err)
			}
		default:
			t.Errorf("2^%d, with a bias: γ = %v, %v; want a margin or ErrUndecided (the data is separable)", k, g, err)
		}
	}
}
