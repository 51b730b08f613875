package perceptron

import (
	"context"
	"errors"
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
	"gonum.org/v1/gonum/mat"
)

// Radius returns R = max_i ||x_i||, the radius of the smallest ball centred
// at the origin that holds every point. For PLA with a bias the convergence
// theorem uses the radius of Augment(d), max_i sqrt(1 + ||x_i||²). The norms
// are overflow-safe (scaled sums of squares where x·x would leave the
// float64 range); a radius beyond the largest float64 is an ErrNonFinite
// error naming the row.
func Radius(d *Dataset) (float64, error) {
	if err := checkRows(d); err != nil {
		return 0, err
	}
	r := 0.0
	for i := 0; i < d.N(); i++ {
		ni := norm2(d.Row(i))
		if math.IsInf(ni, 0) {
			return 0, kindErrorf(ErrNonFinite, "radius: the norm of row %d overflows float64", i)
		}
		r = math.Max(r, ni)
	}
	return r, nil
}

// MaxMargin returns the hard-margin (maximum-margin) separator of d: the
// hyperplane (w, b) with ||w|| = 1 that maximises
//
//	γ = min_i y_i(w·x_i + b),
//
// and that margin γ > 0. With opt.NoBias the boundary passes through the origin
// (b = 0). It returns ErrNotSeparable when the best margin is not positive.
//
// The answer is exact up to rounding: MaxMargin runs Wolfe's finite
// minimum-norm-point algorithm. Through the origin, with z_i = y_i x_i, the
// optimal w is u/||u|| for u the point of conv{z_i} nearest the origin, and
// γ = ||u||. With a bias, u = p − q is the shortest vector between the convex
// hulls of the positive points (p) and the negative points (q): w = u/||u||,
// γ = ||u||/2, and the boundary passes through the midpoint (p + q)/2.
// A margin below 1e-12 times the data's radius cannot be told from 0 in
// floating point and is reported as ErrNotSeparable. Data whose largest
// value is beyond 2^±400 is scaled by a power of 2 (exactly) first, so that
// no dot product overflows.
//
// MaxMargin stops with an ErrUndecided error after MaxMinNormIterations
// iterations, or when rounding keeps the algorithm from a separator it can
// check (then Separable, which works on standardised features, still
// answers). When opt.Control.Context is done it stops with an error that
// matches ErrUndecided, ErrStopped and the context's error. Of opt it reads
// only NoBias and the Context.
func MaxMargin(d *Dataset, opt Options) (h Hyperplane, gamma float64, err error) {
	if err := d.Validate(); err != nil {
		return Hyperplane{}, 0, err
	}
	noBias := opt.NoBias
	ctx := opt.Control.Context
	if ctx == nil {
		ctx = context.Background()
	}
	e := maxExp(d.X.RawMatrix().Data)
	if e > 400 || e < -400 {
		// Scale by 2^-e (exact unless a value becomes subnormal): w is
		// unchanged, b and γ scale back by 2^e.
		s := scaleData(d, -e)
		h, gamma, err := maxMargin(ctx, s, noBias)
		if err != nil {
			return Hyperplane{}, 0, err
		}
		h.B = math.Ldexp(h.B, e)
		gamma = math.Ldexp(gamma, e)
		if math.IsInf(gamma, 0) || math.IsInf(h.B, 0) {
			return Hyperplane{}, 0, kindErrorf(ErrNonFinite, "max margin: the margin or the bias exceeds the float64 range")
		}
		return h, gamma, nil
	}
	return maxMargin(ctx, d, noBias)
}

// ctxOf returns opt's Context, or context.Background().
func ctxOf(opt Options) context.Context {
	if ctx := opt.Control.Context; ctx != nil {
		return ctx
	}
	return context.Background()
}

// scaleData returns a copy of d with every value multiplied by 2^e.
func scaleData(d *Dataset, e int) *Dataset {
	n, c := d.N(), d.D()
	x := make([]float64, 0, n*c)
	for i := 0; i < n; i++ {
		for _, v := range d.Row(i) {
			x = append(x, math.Ldexp(v, e))
		}
	}
	return &Dataset{X: mat.NewDense(n, c, x), Y: d.Y, Features: d.Features, Classes: d.Classes}
}

func maxMargin(ctx context.Context, d *Dataset, noBias bool) (Hyperplane, float64, error) {
	if noBias {
		return maxMarginOrigin(ctx, d)
	}
	return maxMarginBias(ctx, d)
}

// checkMaxMargin returns h and its margin on d when it is positive, and
// otherwise an ErrUndecided error: Wolfe's algorithm ended (status) with a
// point that does not separate d.
func checkMaxMargin(h Hyperplane, d *Dataset, status minnorm.Status) (Hyperplane, float64, error) {
	gamma, row, err := h.DatasetMargin(d)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !(gamma > 0) {
		why := "it ended"
		if status == minnorm.Stalled {
			why = "rounding stopped it"
		}
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "max margin: the minimum-norm-point algorithm found no separator before %s (margin %v at row %d); Separable decides on standardised features", why, gamma, row)
	}
	return h, gamma, nil
}

// maxMarginOrigin is MaxMargin through the origin.
func maxMarginOrigin(ctx context.Context, d *Dataset) (Hyperplane, float64, error) {
	n, dim := d.N(), d.D()
	z := make([][]float64, n)
	scale := 0.0
	for i := range z {
		z[i] = make([]float64, dim)
		for j, v := range d.Row(i) {
			z[i][j] = d.Y[i] * v
		}
		scale = math.Max(scale, dot(z[i], z[i]))
	}
	oracle := func(x []float64) (int, []float64) {
		best, arg := math.Inf(1), 0
		for i, zi := range z {
			if s := dot(x, zi); s < best {
				best, arg = s, i
			}
		}
		return arg, z[arg]
	}
	w, status, err := unitMinNorm(ctx, dim, scale, oracle)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	return checkMaxMargin(Hyperplane{W: w}, d, status)
}

// maxMarginBias is MaxMargin with a free bias: the minimum-norm point of
// conv(P) − conv(N). A vertex of that difference is a pair (p, q); the
// linear-minimisation oracle picks the p of least u·p and the q of largest
// u·q, O(n) per call.
func maxMarginBias(ctx context.Context, d *Dataset) (Hyperplane, float64, error) {
	n, dim := d.N(), d.D()
	var pos, neg []int
	for i := 0; i < n; i++ {
		if d.Y[i] > 0 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	scale := 0.0
	for i := 0; i < n; i++ {
		x := d.Row(i)
		scale = math.Max(scale, dot(x, x))
	}
	scale *= 4 // ||p - q||² ≤ (2 max ||x||)²
	vec := func(pi, qi int) []float64 {
		p, q := d.Row(pi), d.Row(qi)
		v := make([]float64, dim)
		for j := range v {
			v[j] = p[j] - q[j]
		}
		return v
	}
	oracle := func(x []float64) (int, []float64) {
		bp, ap := math.Inf(1), 0
		for _, i := range pos {
			if s := dot(x, d.Row(i)); s < bp {
				bp, ap = s, i
			}
		}
		bq, aq := math.Inf(-1), 0
		for _, i := range neg {
			if s := dot(x, d.Row(i)); s > bq {
				bq, aq = s, i
			}
		}
		return ap*n + aq, vec(ap, aq)
	}
	w, status, err := unitMinNorm(ctx, dim, scale, oracle)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	// At the optimum min_P w·p = w·p* and max_N w·q = w·q* for the nearest
	// points p*, q*, so b = −(min_P w·p + max_N w·q)/2 puts the boundary
	// through their midpoint and gives both classes the margin ||u||/2.
	minP, maxN := math.Inf(1), math.Inf(-1)
	for _, i := range pos {
		minP = math.Min(minP, dot(w, d.Row(i)))
	}
	for _, i := range neg {
		maxN = math.Max(maxN, dot(w, d.Row(i)))
	}
	b := -(minP + maxN) / 2
	return checkMaxMargin(Hyperplane{W: w, B: b}, d, status)
}

// BoundResult holds the quantities of the perceptron convergence theorem for
// a data set: every run of PLA on separable data makes at most
// Bound = (R/γ)² updates (with η > 0 and w, b starting at 0).
type BoundResult struct {
	// R is the radius max_i ||x_i|| of the data the theorem runs on.
	R float64
	// Gamma is the best margin through the origin of that data.
	Gamma float64
	// Bound is (R/Gamma)², or +Inf when the data is not separable.
	Bound float64
	// Target is the unit separator θ* that attains Gamma, split into (w, b).
	Target Hyperplane
	// Separable reports whether a separator with a positive margin exists.
	Separable bool
}

// Bound returns the convergence theorem's quantities for PLA as this
// package runs it. With a bias, PLA is the perceptron through the origin on
// Augment(d), so R = max_i ||[1, x_i]||, γ is the maximum margin through the
// origin of the augmented data (||θ*|| = 1) and Target is θ* = [b, w] split
// into (w, b). With opt.NoBias the theorem runs on d itself. Data that is
// not separable gives Separable false, Bound +Inf and no error. Of opt it
// reads only NoBias and Control.Context (which stops MaxMargin and
// Separable): pass the Options of the PLA run the bound is about.
//
// Bound is a true upper bound on PLA's number of updates: (R/γ)² computed in
// floating point is rounded up by 2⁻⁴⁷ relative, more than the rounding
// errors of R, γ and the quotient, so that a theorem's bound of exactly k
// is never printed below k (orthonormal points: 2, not 1.9999999999999996).
// "Not separable" is always proved, never taken from a tolerance. Through
// the origin (NoBias), when MaxMargin finds no margin above its tolerance,
// Bound certifies a separator (its margin, at most γ*, gives a valid bound
// and is Gamma) or verifies, in exact rational arithmetic, convex weights
// λ ≥ 0 with Σ λ_i y_i x_i = 0; when it can do neither, the error is
// ErrUndecided.
// With a bias, Bound agrees with Separable: when the maximum-margin solver
// cannot certify a separator of the augmented data (badly scaled data, such
// as timestamps near 1.7e9) but Separable proves the data separable, the
// margin of Separable's separator, which is at most γ*, gives a valid,
// larger bound (and Gamma is that margin); when Separable cannot decide
// either, the error is ErrUndecided.
func Bound(d *Dataset, opt Options) (BoundResult, error) {
	if err := d.Validate(); err != nil {
		return BoundResult{}, err
	}
	noBias := opt.NoBias
	data := d
	if !noBias {
		data = Augment(d)
	}
	r, err := Radius(data)
	if err != nil {
		return BoundResult{}, err
	}
	ctl := Options{Control: Control{Context: opt.Control.Context}}
	h, gamma, err := MaxMargin(data, Options{NoBias: true, Control: ctl.Control})
	if errors.Is(err, ErrNotSeparable) {
		if noBias {
			h, gamma, err = originMargin(ctxOf(opt), d, err)
		} else {
			h, gamma, err = separatorMargin(d, ctl, err)
		}
	}
	if errors.Is(err, ErrNotSeparable) {
		return BoundResult{R: r, Bound: math.Inf(1)}, nil
	}
	if err != nil {
		return BoundResult{}, err
	}
	target := h
	if !noBias {
		target, err = FromTheta(h.W)
		if err != nil {
			return BoundResult{}, err
		}
	}
	bound := (r / gamma) * (r / gamma)
	bound *= 1 + 0x1p-47 // round up: a true upper bound
	return BoundResult{R: r, Gamma: gamma, Bound: bound, Target: target, Separable: true}, nil
}

// separatorMargin is Bound's second opinion when MaxMargin finds the
// augmented data not separable: Separable decides d. If it proves d
// separable, its separator θ = [b, w]/||[b, w]|| and its margin on the
// augmented data are returned (a margin at most γ*, so the bound stays
// valid); if it proves d not separable, notSep is returned; otherwise its
// ErrUndecided error.
func separatorMargin(d *Dataset, opt Options, notSep error) (Hyperplane, float64, error) {
	s, err := Separable(d, opt)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !s.Separable {
		return Hyperplane{}, 0, notSep
	}
	h := s.Separator
	theta := Hyperplane{W: h.Theta()}
	n := theta.Norm()
	for j := range theta.W {
		theta.W[j] /= n
	}
	gamma, _, err := theta.DatasetMargin(Augment(d))
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !(gamma > 0) {
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "bound: the data is separable (Separable) but no margin of a separator of the augmented data is certified positive")
	}
	return theta, gamma, nil
}
