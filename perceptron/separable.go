package perceptron

import (
	"context"
	"encoding/binary"
	"errors"
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// Separability is the answer of Separable with its certificate,
// which can be checked without trusting the algorithm that found it.
type Separability struct {
	// Separable reports whether some hyperplane (w, b) puts every point
	// strictly on its correct side.
	Separable bool
	// Separator, when Separable, is such a hyperplane (with ||w|| = 1), and
	// Margin its margin min_i y_i(w·x_i + b) on the data, positive. The sign
	// of every y_i(w·x_i + b) is certified: each exceeds the bound on the
	// rounding error of its own computation, or is computed exactly where
	// it does not (see Separable). Margin is DatasetMargin's value,
	// computed in float64 and so within that rounding bound of the exact
	// margin, above or below it (1.1e-4 above on rows near 1e13, helper-69);
	// where some score needed the exact computation, it is a lower bound
	// of the exact margin.
	Separator Hyperplane
	Margin    float64
	// Weights, when not Separable, are convex weights λ_i ≥ 0 (Σ λ_i = 1,
	// one per row) such that Σ_i λ_i y_i [1, z_i] = 0 up to Residual, with
	// z_i the row x_i with every feature mapped affinely onto [-1, 1]
	// (z_ij = (x_ij − mid_j)/half_j over the range of column j). A
	// separator (w, b) would make every y_i(w·x_i + b) > 0, hence their
	// convex combination too, which cannot be 0: no separator exists.
	Weights []float64
	// Residual is ||Σ_i λ_i y_i [1, z_i]|| divided by max_i ||[1, z_i]||:
	// at most 1e-12 when not Separable.
	Residual float64
}

// Separable decides whether some hyperplane (w, b) puts every point of d
// strictly on its correct side, and returns the answer with a certificate
// both ways: a separator when it is, convex weights when it is not. It
// takes milliseconds on the embedded data sets (every pair of classes).
// Of opt it reads Control.Context, which stops it; the question is always
// with a bias, so opt.NoBias must be false (through the origin, MaxMargin
// with NoBias answers).
//
// Method: separability is unchanged when every feature is mapped affinely
// (x_j → a_j x_j + c_j, a_j > 0), so the decision is made on z, the features
// mapped onto [-1, 1] (a constant feature becomes 0), where the problem is
// well conditioned whatever the units. By Gordan's theorem, d is separable
// exactly when the origin is not in the convex hull of the vectors
// v_i = y_i [1, z_i]. Wolfe's minimum-norm-point algorithm (finite, one row
// of n dot products per iteration, memory n·(d+1)) finds the point u of
// that hull nearest the origin:
//
//   - if ||u|| ≤ 1e-12 · max_i ||v_i||, the origin is in the hull to that
//     tolerance, which is not a proof: the answer is "not separable" (the
//     weights of u the certificate, Separability.Weights and Residual)
//     only when the origin is verified, in exact arithmetic, to be in the
//     hull of the raw vectors y_i [1, x_i] of u's corral (or of the corral
//     of the same algorithm on the augmented rows with columns scaled by
//     powers of 2, or two rows are equal with opposite labels); otherwise
//     a separator is sought and certified as below, and failing that the
//     error is ErrUndecided;
//   - otherwise θ = u/||u|| separates the v_i (θ·v_i ≥ ||u|| > 0), and
//     mapped back to the raw features it is the separator returned, unless
//     MaxMargin on the raw data also answers (the usual case), whose
//     maximum-margin separator is then returned instead. Either way the
//     separator is checked in exact terms: for every row, the computed
//     y_i(w·x_i + b) must exceed γ_{d+1}·(Σ_j |w_j x_ij| + |b|) plus
//     (d+3)·2⁻¹⁰⁷⁴, the bound on the rounding error of that computation
//     (γ_k = k·2⁻⁵³/(1 − k·2⁻⁵³); the second term bounds underflow),
//     so its sign is the sign of the exact value (where it does not, the
//     least scores are computed exactly, with math/big). Where the
//     classes touch to the tolerance, the hyperplanes tried are also
//     taken with their bias at the middle of the classes along w, and so
//     are the axes ±e_j.
//
// A separator found on z whose raw margin is below rounding level, the
// iteration cap MaxMinNormIterations and a done context give an
// ErrUndecided error (for the context, one that also matches ErrStopped
// and the context's error). Data that is not valid (empty, non-finite, one
// class) is an error of its kind.
func Separable(d *Dataset, opt Options) (Separability, error) {
	if opt.NoBias {
		return Separability{}, kindErrorf(ErrOption, "separable: NoBias is not supported: Separable decides separability with a bias (through the origin, use MaxMargin with NoBias)")
	}
	if err := d.Validate(); err != nil {
		return Separability{}, err
	}
	if err := stoppedBefore(opt, "separable"); err != nil {
		return Separability{}, err
	}
	ctx := opt.Control.Context
	if ctx == nil {
		ctx = context.Background()
	}
	n, dim := d.N(), d.D()
	mid, half := columnRanges(d)
	// v_i = y_i [1, z_i], stored row after row.
	k := dim + 1
	v := make([]float64, n*k)
	scale := 0.0
	for i := 0; i < n; i++ {
		if err := prepStopped(ctx, i, dim, "separable"); err != nil {
			return Separability{}, err
		}
		y := d.Y[i]
		vi := v[i*k : (i+1)*k]
		vi[0] = y
		for j, x := range d.Row(i) {
			vi[1+j] = y * ((x - mid[j]) / half[j])
		}
		scale = math.Max(scale, dot(vi, vi))
	}
	oracle := func(x []float64) (int64, []float64) {
		best, arg := math.Inf(1), 0
		for i := 0; i < n; i++ {
			if s := dot(x, v[i*k:(i+1)*k]); s < best {
				best, arg = s, i
			}
		}
		return int64(arg), v[arg*k : (arg+1)*k]
	}
	res, err := minNormPoint(ctx, k, scale, oracle)
	if err != nil {
		return Separability{}, err
	}
	if res.Status == minnorm.Zero {
		w := make([]float64, n)
		for _, c := range res.Corral {
			w[c.ID] += c.Lambda
		}
		sep := Separability{Weights: w, Residual: norm2(res.X) / math.Sqrt(scale)}
		if i, j, ok := oppositeTwins(d); ok {
			// Two equal rows with opposite labels: λ = 1/2 on each is an
			// exact certificate, whatever the tolerances below say
			// ({0+, 0−, −3−, 1e13−} was undecided, helper-60).
			w := make([]float64, n)
			w[i], w[j] = 0.5, 0.5
			return Separability{Weights: w}, nil
		}
		// The certificate proves "not separable" only if the features were
		// mapped faithfully and the hull reaches the origin to rounding
		// level; otherwise a separator whose margin hides below the
		// tolerance may exist (1-D {-1e13, 0 → -1; 1, 2 → +1}, residual
		// 5e-14; two points 5e-324 apart, mapped onto one z), and it is
		// sought below as for a certificate that fails the exact test:
		// {-1e13, 0 | 1, 2} has one, x = 0.5, that was ErrUndecided.
		var unproved error
		if j := collapsedColumn(d, mid, half); j >= 0 {
			unproved = kindErrorf(ErrUndecided, "separable: column %d holds distinct values less than 2^-968 apart, too close to be standardised in float64: neither answer can be certified", j)
		} else if sep.Residual > maxProofResidual {
			unproved = kindErrorf(ErrUndecided, "separable: the classes touch to within %.3g (relative) on standardised features, above the rounding level %g: neither answer can be certified", sep.Residual, maxProofResidual)
		}
		if unproved == nil {
			// The tolerance is not a proof: the origin must be in the hull
			// of the corral's raw vectors y_i [1, x_i] exactly (an affine
			// map of the features keeps the weights). Rows on both sides of
			// the diagonal x2 = x1 at 1e-15 from it were "not separable"
			// here.
			raw := make([][]float64, len(res.Corral))
			for c, v := range res.Corral {
				raw[c] = append([]float64{d.Y[v.ID]}, d.Row(int(v.ID))...)
				for j := 1; j < len(raw[c]); j++ {
					raw[c][j] *= d.Y[v.ID]
				}
			}
			if in, err := zeroInHull(ctx, raw); err != nil {
				return Separability{}, err
			} else if in {
				return sep, nil
			}
		}
		// Not proved (standardising may merge rows 3e-16 apart into one
		// point, so that the corral is not exact): a separator hiding
		// below the tolerance may be certified (the direction of the
		// nearest point, or MaxMargin's), else the question goes to
		// Bound's second opinion through the origin on the augmented rows
		// [1, x_i], whose columns are scaled by powers of 2 only (exactly):
		// a proof either way, or neither answer is certain.
		if s, ok := firstCertified(ctx, d, standardToRaw(res.X, mid, half), maxMarginOf(ctx, d)); ok {
			return s, nil
		}
		theta, _, err := originMargin(ctx, Augment(d), ErrNotSeparable)
		switch {
		case errors.Is(err, ErrNotSeparable) && unproved != nil:
			// Weights that certify nothing are no certificate to return.
			return Separability{}, unproved
		case errors.Is(err, ErrNotSeparable):
			return sep, nil
		case err != nil && (ctx.Err() != nil || !errors.Is(err, ErrUndecided)):
			return Separability{}, err
		}
		if err == nil {
			h, _ := FromTheta(theta.W)
			if wn := h.Norm(); wn > 0 && !math.IsInf(wn, 0) {
				for j := range h.W {
					h.W[j] /= wn
				}
				h.B /= wn
			}
			if s, ok := firstCertified(ctx, d, h); ok {
				return s, nil
			}
		}
		if unproved != nil {
			return Separability{}, unproved
		}
		return Separability{}, kindErrorf(ErrUndecided, "separable: the classes touch to within %.3g (relative) on standardised features, but neither the convex weights of a proof of the contrary nor a separator can be certified: neither answer is certain", sep.Residual)
	}
	nu := norm2(res.X)
	h := standardToRaw(res.X, mid, half)
	// Prefer the maximum-margin separator when MaxMargin finds one.
	if mm, _, err := maxMarginTol(d, Options{Control: Control{Context: ctx}}); err == nil {
		if m, ok := certifiedMargin(ctx, mm, d); ok {
			return Separability{Separable: true, Separator: mm, Margin: m}, nil
		}
	} else if errors.Is(err, ErrUndecided) && ctx.Err() != nil {
		return Separability{}, err
	}
	if s, ok := firstCertified(ctx, d, h); ok {
		return s, nil
	}
	return Separability{}, kindErrorf(ErrUndecided, "separable: a separator found on standardised features (margin %.3g there, in float64) has no margin on the raw data above rounding level, and none other is certified: neither answer is certain", nu)
}

// oppositeTwins returns two rows of d that are equal with opposite
// labels, if there are any.
func oppositeTwins(d *Dataset) (i, j int, ok bool) {
	seen := make(map[string]int, d.N())
	var key []byte
	for r := 0; r < d.N(); r++ {
		key = key[:0]
		for _, x := range d.Row(r) {
			if x == 0 {
				x = 0 // −0 and +0 are the same point
			}
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(x))
		}
		k := string(key)
		if o, dup := seen[k]; dup && d.Y[o] != d.Y[r] {
			return o, r, true
		} else if !dup {
			seen[k] = r
		}
	}
	return 0, 0, false
}

// standardToRaw maps θ = u/||u||, a hyperplane on the standardised
// features z, back to the raw features: θ_0 + Σ θ_j (x_j − mid_j)/half_j,
// scaled to ||w|| = 1 when w is not 0.
func standardToRaw(u, mid, half []float64) Hyperplane {
	nu := norm2(u)
	h := Hyperplane{W: make([]float64, len(mid)), B: u[0] / nu}
	for j := range h.W {
		t := u[1+j] / nu
		h.W[j] = t / half[j]
		h.B -= float64(t * (mid[j] / half[j])) // no FMA
	}
	if wn := h.Norm(); wn > 0 && !math.IsInf(wn, 0) {
		for j := range h.W {
			h.W[j] /= wn
		}
		h.B /= wn
	}
	return h
}

// maxMarginOf is MaxMargin's separator of d, or the zero Hyperplane.
func maxMarginOf(ctx context.Context, d *Dataset) Hyperplane {
	h, _, err := maxMarginTol(d, Options{Control: Control{Context: ctx}})
	if err != nil {
		return Hyperplane{}
	}
	return h
}

// maxProofResidual is the largest Residual of a certificate of
// non-separability that Separable accepts: about 50 ulps. The
// minimum-norm-point solver stops at 1e-12; on data that is not separable
// (XOR, Iris versicolor/virginica, the wine pairs on two features, lesson
// 10's banks and ages, NoisyData in 1 to 30 dimensions) its residual is at
// most 8e-16, while separable data whose classes nearly touch after
// standardisation leaves 1e-14 and more (5e-14 for {-1e13, 0 | 1, 2}).
const maxProofResidual = 1e-14

// collapsedColumn returns a column of d whose values differ but whose half
// range is too small (subnormal) for the mapping onto [-1, 1] to keep them
// apart, or -1.
func collapsedColumn(d *Dataset, mid, half []float64) int {
	for j := range half {
		if half[j] != 1 && half[j] >= 0x1p-969 {
			continue
		}
		x0 := d.X.At(0, j)
		for i := 1; i < d.N(); i++ {
			if x := d.X.At(i, j); x != x0 && math.Abs(x-x0) < 0x1p-968 {
				return j
			}
		}
	}
	return -1
}

// columnRanges returns, for every column j of d, its midrange mid_j and its
// half range half_j (1 for a constant column), computed without overflow.
func columnRanges(d *Dataset) (mid, half []float64) {
	dim := d.D()
	lo, hi := make([]float64, dim), make([]float64, dim)
	copy(lo, d.Row(0))
	copy(hi, d.Row(0))
	for i := 1; i < d.N(); i++ {
		for j, x := range d.Row(i) {
			lo[j] = math.Min(lo[j], x)
			hi[j] = math.Max(hi[j], x)
		}
	}
	for j := range lo {
		l, h := lo[j], hi[j]
		lo[j], hi[j] = float64(l/2)+float64(h/2), float64(h/2)-float64(l/2) // no FMA
		if !(hi[j] > 0) {
			hi[j] = 1
		}
	}
	return lo, hi // now the midranges and the half ranges
}

// certifiedMargin returns the margin of h on d and whether every row is
// certified to be strictly on its correct side: the computed y_i(w·x_i + b)
// exceeds twice the bound γ_{d+1}·(Σ_j |w_j x_ij| + |b|) on its rounding
// error (twice, to cover the rounding of the bound's own sum) plus
// (d+3)·2^-1074 for underflow, or, where
// some row's does not, marginLow certifies the margin positive, the least
// scores computed exactly. The margin returned is DatasetMargin's in the
// first case, marginLow's (a lower bound) in the second; a done ctx,
// which stops marginLow, leaves h not certified.
func certifiedMargin(ctx context.Context, h Hyperplane, d *Dataset) (float64, bool) {
	if h.checkWeights() != nil || len(h.W) != d.D() {
		return 0, false
	}
	const u = 0x1p-53
	k := float64(d.D() + 1)
	gamma := float64(k*u) / (1 - float64(k*u))
	// Below 2^-1022 a product's error is up to 2^-1075 whatever its
	// size: d + 3 of them bound the underflow of a score (helper-71:
	// scores of subnormal products were "certified" by the relative
	// bound alone, which is 0 there; DatasetMargin's scaled recount
	// caught them).
	under := float64(float64(d.D()+3) * 0x1p-1074) // no FMA with the add below
	for i := 0; i < d.N(); i++ {
		s, abs := scoreAndSize(h.W, h.B, d.Row(i), d.Y[i])
		if math.IsInf(abs, 0) || !(s > float64(2*gamma*abs)+under) {
			// A score below the bound on its rounding may still be
			// positive exactly: x = 3 against the boundary
			// x = 2.9999999999999996 scores 4.4e-16, exactly, under a
			// bound of 2.7e-15 ({-5, 2.999999999999999 | 3,
			// 3.0000000000000013} was ErrUndecided).
			// Its margin is then marginLow's, rounded down: DatasetMargin's,
			// computed in floating point, can be far above it (3.2e-30 for
			// an exact 2.2e-30, points 1e-14 from the diagonal x2 = x1).
			g, _, err := marginLow(ctx, h.W, h.B, d, "separable")
			return g, err == nil
		}
	}
	m, _, err := h.DatasetMargin(d)
	if err != nil || !(m > 0) {
		return 0, false
	}
	return m, true
}

// maxAxisFeatures is the most features on which firstCertified tries the
// axes ±e_j.
const maxAxisFeatures = 8

// firstCertified returns the first of the hyperplanes hs whose margin on d
// certifiedMargin certifies, trying each as given and then with its bias
// moved to the middle of the classes along its w (midpointBias), and then
// each axis ±e_j with such a bias: where the classes nearly touch, the
// direction found in floating point may be right while its bias is not,
// and in few dimensions an axis may split the classes where no direction
// found does ({-1e13, 0 → −1; 1e-13, 2 → +1}, split by x = 5e-14, and
// {-5, 2.999999999999999 → −1; 3, 3.0000000000000013 → +1}, by
// x = 2.9999999999999996, were ErrUndecided). The axes are tried on up to
// maxAxisFeatures features only: each costs a pass over the data, and on
// 100 features a set that is not separable (and stays ErrUndecided) took
// 3-4 times as long with them. A done ctx ends the search (not certified).
func firstCertified(ctx context.Context, d *Dataset, hs ...Hyperplane) (Separability, bool) {
	if d.D() <= maxAxisFeatures {
		for j := 0; j < d.D(); j++ {
			for _, sg := range []float64{1, -1} {
				w := make([]float64, d.D())
				w[j] = sg
				hs = append(hs, Hyperplane{W: w})
			}
		}
	}
	for _, h := range hs {
		if ctx.Err() != nil {
			break
		}
		if h.checkWeights() != nil || len(h.W) != d.D() {
			continue
		}
		m := Hyperplane{W: h.W, B: midpointBias(h.W, d), Tie: h.Tie}
		for _, c := range []Hyperplane{h, m} {
			if !isFinite(c.B) {
				continue
			}
			if g, ok := certifiedMargin(ctx, c, d); ok {
				return Separability{Separable: true, Separator: c, Margin: g}, true
			}
		}
	}
	return Separability{}, false
}
