package perceptron

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
	"gonum.org/v1/gonum/mat"
)

// MaxMargin returns the hard-margin (maximum-margin) separator of d: the
// hyperplane (w, b) with ||w|| = 1 that maximises
//
//	γ = min_i y_i(w·x_i + b),
//
// and that margin γ > 0. With opt.NoBias the boundary passes through the origin
// (b = 0). It returns ErrNotSeparable when the best margin is not positive.
//
// MaxMargin runs Wolfe's finite minimum-norm-point algorithm. Through the
// origin, with z_i = y_i x_i, the optimal w is u/||u|| for u the point of
// conv{z_i} nearest the origin, and γ = ||u||. With a bias, u = p − q is
// the shortest vector between the convex hulls of the positive points (p)
// and the negative points (q): w = u/||u||, γ = ||u||/2, and the boundary
// passes through the midpoint (p + q)/2.
//
// The answer is certified: γ is the exact margin min_i y_i(w·x_i + b)/||w||
// of the returned (w, b), rounded down (every score bounded with its
// rounding error, the least computed exactly with math/big), and it is
// within a relative 1e-9 of the maximum margin γ*, since the final
// corral's weights give a point of the hull whose exact norm bounds γ*
// from above. Wolfe's float64 weights are off by about ε(R/γ)², so where
// that leaves a wider gap (a margin of 1e-5 of the radius can, as can
// columns of scales 10^6 apart), the final corral's weights are solved
// again in 256-bit arithmetic (off by about ε R/γ once rounded) and
// certified the same way. Where rounding keeps the algorithm farther from
// γ* even so (a margin of 1e-8 of the data's radius can be: the direction
// of w is found to about ε R/γ), or where no separator it finds can be
// certified (data of subnormal values), the error is ErrUndecided.
//
// A margin below 1e-12 times the data's radius cannot be told from 0 in
// floating point: ErrNotSeparable is then returned only when it is proved,
// as Bound proves it (through the origin, convex weights of the y_i x_i
// that sum to 0, verified exactly; with a bias, Separable's proof), and
// otherwise the error is ErrUndecided (the data may be separable with a
// margin too small to compute, such as two points 1e-14 from a line
// through the origin, or neither answer can be certified). The same
// proofs decide when the algorithm ends with no separator (rounding, as
// with features on scales 10^6 apart, or the MaxMinNormIterations cap):
// ErrNotSeparable when proved, and otherwise ErrUndecided, which gives
// the margin of a certified separator when there is one. Data whose
// largest value is beyond 2^±400 is scaled by a power of 2 (exactly)
// first, so that no dot product overflows.
//
// When opt.Control.Context is done MaxMargin stops with an error that
// matches ErrUndecided, ErrStopped and the context's error.
// Of opt it reads only NoBias and the Context.
func MaxMargin(d *Dataset, opt Options) (h Hyperplane, gamma float64, err error) {
	h, _, corral, err := maxMarginCorral(d, opt)
	if err == nil {
		return certifyMaxMargin(ctxOf(opt), d, h, corral, opt.NoBias)
	}
	// Wolfe's algorithm took the margin for 0 below its tolerance, or
	// ended with no separator (checkMaxMargin) or at its iteration cap:
	// the data may still be separable. Bound's second opinion decides, as
	// in Bound: a proof makes the answer ErrNotSeparable; a certified
	// separator leaves the maximum margin undecided.
	solver := err
	_, m, err, asked := secondOpinion(d, opt, err)
	if !asked {
		return Hyperplane{}, 0, err
	}
	switch {
	case err == nil && errors.Is(solver, ErrNotSeparable):
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "max margin: the data is separable (a separator is certified, with margin %.3g), but its maximum margin is below 1e-12 of the data's radius, too small for the float64 algorithm to find", m)
	case err == nil:
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "max margin: the data is separable (a separator is certified, with margin %.3g), but the maximum margin was not found: %s", m, strings.TrimPrefix(solver.Error(), "perceptron: max margin: "))
	case errors.Is(err, ErrUndecided) && !errors.Is(err, ErrStopped) && !errors.Is(solver, ErrNotSeparable):
		return Hyperplane{}, 0, solver // neither answer proved: the solver's own reason
	}
	return Hyperplane{}, 0, err
}

// maxMarginTol is MaxMargin with its tolerance: a margin below 1e-12 of
// the radius is ErrNotSeparable, unproved. Bound and Separable, which
// prove that answer themselves, call it.
func maxMarginTol(d *Dataset, opt Options) (h Hyperplane, gamma float64, err error) {
	h, gamma, _, err = maxMarginCorral(d, opt)
	return h, gamma, err
}

// maxMarginCorral is maxMarginTol with the final corral of Wolfe's
// algorithm, whose ids name rows of d (see maxMarginOrigin and
// maxMarginBias).
func maxMarginCorral(d *Dataset, opt Options) (h Hyperplane, gamma float64, corral []minnorm.Vertex, err error) {
	if err := d.Validate(); err != nil {
		return Hyperplane{}, 0, nil, err
	}
	if err := stoppedBefore(opt, "max margin"); err != nil {
		return Hyperplane{}, 0, nil, err
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
		h, gamma, corral, err := maxMargin(ctx, s, noBias)
		if err != nil {
			return Hyperplane{}, 0, nil, err
		}
		h.B = math.Ldexp(h.B, e)
		gamma = math.Ldexp(gamma, e)
		if math.IsInf(gamma, 0) || math.IsInf(h.B, 0) {
			return Hyperplane{}, 0, nil, kindErrorf(ErrNonFinite, "max margin: the margin or the bias exceeds the float64 range")
		}
		return h, gamma, corral, nil
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

// stoppedBefore returns the error of a theory function (what) whose
// context is done before it begins: ErrUndecided, ErrStopped and the
// context's error, as when it is stopped later. They call it right after
// the data's validation (invalid data is an error of its kind whatever the
// context), before any other pass over it (Bound, Separable and MaxMargin
// read it several times more before they first looked: 0.2-0.6 s at
// 1000 x 20,000).
func stoppedBefore(opt Options, what string) error {
	if err := ctxStopped(opt.Control.Context); err != nil {
		return causeErrorf([]error{ErrUndecided, ErrStopped, err}, "%s: stopped before it began: %v", what, err)
	}
	return nil
}

// prepStopped is stoppedBefore for the theory's passes over the rows
// before Wolfe's algorithm (a copy of them scaled or signed, their norms),
// asked at every row i and looking at ctx every rowsPerCheck(cols) rows:
// those passes ran 0.1-0.15 s on 400 × 30,000 without a look.
func prepStopped(ctx context.Context, i, cols int, what string) error {
	if i%rowsPerCheck(cols) != 0 {
		return nil
	}
	return stoppedBefore(Options{Control: Control{Context: ctx}}, what)
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

func maxMargin(ctx context.Context, d *Dataset, noBias bool) (Hyperplane, float64, []minnorm.Vertex, error) {
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
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "max margin: the minimum-norm-point algorithm found no separator before %s (margin %v at row %d)", why, gamma, row)
	}
	return h, gamma, nil
}

// maxMarginOrigin is MaxMargin through the origin; the corral's vertex ids
// are rows.
func maxMarginOrigin(ctx context.Context, d *Dataset) (Hyperplane, float64, []minnorm.Vertex, error) {
	n, dim := d.N(), d.D()
	z := make([][]float64, n)
	scale := 0.0
	for i := range z {
		if err := prepStopped(ctx, i, dim, "max margin"); err != nil {
			return Hyperplane{}, 0, nil, err
		}
		z[i] = make([]float64, dim)
		for j, v := range d.Row(i) {
			z[i][j] = d.Y[i] * v
		}
		scale = math.Max(scale, dot(z[i], z[i]))
	}
	oracle := func(x []float64) (int64, []float64) {
		best, arg := math.Inf(1), 0
		for i, zi := range z {
			if s := dot(x, zi); s < best {
				best, arg = s, i
			}
		}
		return int64(arg), z[arg]
	}
	w, res, err := unitMinNorm(ctx, dim, scale, oracle)
	if err != nil {
		return Hyperplane{}, 0, nil, err
	}
	h, gamma, err := checkMaxMargin(Hyperplane{W: w}, d, res.Status)
	return h, gamma, res.Corral, err
}

// maxMarginBias is MaxMargin with a free bias: the minimum-norm point of
// conv(P) − conv(N). A vertex of that difference is a pair (p, q); the
// linear-minimisation oracle picks the p of least u·p and the q of largest
// u·q, O(n) per call. The corral's vertex ids are p·n + q.
func maxMarginBias(ctx context.Context, d *Dataset) (Hyperplane, float64, []minnorm.Vertex, error) {
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
		if err := prepStopped(ctx, i, dim, "max margin"); err != nil {
			return Hyperplane{}, 0, nil, err
		}
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
	oracle := func(x []float64) (int64, []float64) {
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
		// An int64 id: ap·n + aq passes 2^31 on 386 from n = 46,341 rows.
		return int64(ap)*int64(n) + int64(aq), vec(ap, aq)
	}
	w, res, err := unitMinNorm(ctx, dim, scale, oracle)
	if err != nil {
		return Hyperplane{}, 0, nil, err
	}
	// At the optimum min_P w·p = w·p* and max_N w·q = w·q* for the nearest
	// points p*, q*, so b = −(min_P w·p + max_N w·q)/2 puts the boundary
	// through their midpoint and gives both classes the margin ||u||/2.
	b := midpointBias(w, d)
	h, gamma, err := checkMaxMargin(Hyperplane{W: w, B: b}, d, res.Status)
	return h, gamma, res.Corral, err
}
