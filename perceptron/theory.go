package perceptron

import (
	"errors"
	"math"
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

// BoundResult holds the quantities of the perceptron convergence theorem for
// a data set: every run of PLA on separable data makes at most
// Bound = (R/γ)² updates (with η > 0 and w, b starting at 0).
type BoundResult struct {
	// R is the radius max_i ||x_i|| of the data the theorem runs on.
	R float64
	// Gamma is the margin of Target, certified never to exceed γ*, the
	// best margin through the origin of that data (see Bound). It is γ*
	// to within a relative 1e-9 where MaxMargin answers on that data (on
	// Augment(d) through the origin, with a bias), and smaller, a valid
	// but looser bound, where rounding keeps the algorithm from the
	// maximum.
	Gamma float64
	// Bound is (R/Gamma)², or +Inf when the data is not separable (or,
	// with Bound's ErrNonFinite error, when (R/Gamma)² overflows).
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
// reads only NoBias, Eta (see below) and Control.Context (which stops
// MaxMargin and Separable): pass the Options of the PLA run the bound is
// about. Options PLA would refuse (an η that is NaN, negative or
// subnormal, an unknown order) are its ErrOption error. Data so small
// that PLA's scores η x_i·x_j underflow float64 (ηR² below 2^-1022) is an
// ErrUndecided error, returned with the result:
// the theorem bounds the exact run, and the float64 run on such data loses
// every product (it never converges on data of radius 4e-320).
//
// On separable data whose bound (R/γ)² exceeds the float64 range (a margin
// of 1e-300 on data of radius 1), the error is ErrNonFinite, returned with
// the result (Separable, R, Gamma and Target, and Bound +Inf): +Inf is the
// answer for data that is not separable, never an overflow's.
//
// Bound is a true upper bound on PLA's number of updates. Gamma is the
// margin of Target certified from below: every row's score y θ*·x is
// bounded below by its floating-point value less its rounding error (or,
// where that cannot show it positive, computed exactly with math/big),
// and ||θ*|| bounded above exactly; a Target that cannot be certified to
// separate is ErrUndecided. Then R is rounded up by its rounding error
// and every operation of (R/γ)² up by an ulp, so that a theorem's bound
// of exactly k is never printed below k (orthonormal points: 2, not
// 1.9999999999999996), nor a bound below the exact (R/γ*)² where the
// scores cancel (two points 4.4e-16 apart).
// "Not separable" is always proved, never taken from a tolerance. Through
// the origin (NoBias), when MaxMargin finds no margin above its tolerance
// (or no separator that can be certified), Bound certifies a separator (its margin, at most γ*, gives a valid bound
// and is Gamma) or verifies, in exact rational arithmetic, convex weights
// λ ≥ 0 with Σ λ_i y_i x_i = 0; when it can do neither, the error is
// ErrUndecided.
// With a bias, Bound agrees with Separable: when the maximum-margin solver
// cannot certify a separator of the augmented data (badly scaled data, such
// as timestamps near 1.7e9, or two points 1e-3 apart at x = 1000) but
// Separable proves the data separable, the
// margin of Separable's separator, which is at most γ*, gives a valid,
// larger bound (and Gamma is that margin); when Separable cannot decide
// either, the error is ErrUndecided.
func Bound(d *Dataset, opt Options) (BoundResult, error) {
	if err := d.Validate(); err != nil {
		return BoundResult{}, err
	}
	if err := opt.validate(); err != nil {
		return BoundResult{}, wrapf(err, "bound: the options of the run")
	}
	if err := stoppedBefore(opt, "bound"); err != nil {
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
	h, gamma, corral, err := maxMarginCorral(data, Options{NoBias: true, Control: ctl.Control})
	certified := false
	if err == nil {
		// γ certified from below (the computed margin can exceed the exact
		// one where the scores cancel); a separator that cannot be
		// certified asks the second opinion.
		gamma, _, err = marginLow(ctxOf(opt), h.W, h.B, data, "bound")
		certified = err == nil
		// Where γ may be further than maxMarginGap from the corral's
		// bound on γ* (a float64 estimate of it, hullNormNear: the exact
		// one took a fifth of Bound's time on 200 x 2000, helper-64), the
		// corral's weights solved again in more bits, as MaxMargin does,
		// so that Gamma is γ* to 1e-9 wherever MaxMargin answers.
		if !(certified && gamma >= hullNormNear(data, corral)*(1-maxMarginGap/2)) {
			if ph, _, ok := polishCorral(ctxOf(opt), data, corral, true); ok {
				if pg, _, perr := marginLow(ctxOf(opt), ph.W, ph.B, data, "bound"); perr == nil && (!certified || pg > gamma) {
					h, gamma, err, certified = ph, pg, nil, true
				}
			}
		}
	}
	// A solver that found no separator it can certify (points 1e-3 apart
	// at x = 1000: γ*/R of 5e-7 in the augmented space) has not found the
	// data not separable either: only a proof makes that the answer.
	if h2, g2, err2, asked := secondOpinion(d, opt, err); asked {
		h, gamma, err = h2, g2, err2
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
	if !certified {
		// The second opinion's separator, certified as the solver's is.
		if gamma, _, err = marginLow(ctxOf(opt), h.W, h.B, data, "bound"); err != nil {
			return BoundResult{}, err
		}
	}
	// (R/γ)² rounded up step by step.
	bound := upperBound(r, gamma, data.D())
	res := BoundResult{R: r, Gamma: gamma, Bound: bound, Target: target, Separable: true}
	// PLA's scores are sums of η x_i·x_j: below 2^-1022 they lose their
	// bits to underflow (data of radius 4e-320 has every product 0), and
	// the float64 run is not the one the theorem bounds.
	if eta := opt.Eta; float64(eta*r)*r < 0x1p-1022 {
		return res, kindErrorf(ErrUndecided, "bound: the data is separable (margin γ = %.3g), but its radius R = %.3g is so small that PLA's scores η x_i·x_j (η = %g) underflow float64: the theorem's bound (R/γ)² = %.3g does not hold for its float64 run; scale the data", gamma, r, eta, bound)
	}
	if math.IsInf(bound, 0) {
		return res, kindErrorf(ErrNonFinite, "bound: the data is separable (margin γ = %.3g, radius R = %.3g), but the bound (R/γ)² on the updates exceeds the float64 range", gamma, r)
	}
	return res, nil
}

// secondOpinion is what Bound and MaxMargin do when the solver's err took
// the margin for 0 (ErrNotSeparable, to its tolerance) or found no
// separator it can certify (ErrUndecided, not a stop): the data may still
// be separable, and only a proof makes it not. Through the origin
// (opt.NoBias) originMargin decides d, with a bias separatorMargin does:
// a certified separator and its margin, ErrNotSeparable when proved, or
// their error. asked is false, and err stands, for any other err.
func secondOpinion(d *Dataset, opt Options, err error) (h Hyperplane, gamma float64, _ error, asked bool) {
	switch {
	case errors.Is(err, ErrNotSeparable):
	case errors.Is(err, ErrUndecided) && !errors.Is(err, ErrStopped):
		err = ErrNotSeparable
	default:
		return Hyperplane{}, 0, err, false
	}
	if opt.NoBias {
		h, gamma, err = originMargin(ctxOf(opt), d, err)
	} else {
		h, gamma, err = separatorMargin(d, Options{Control: Control{Context: opt.Control.Context}}, err)
	}
	return h, gamma, err, true
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
