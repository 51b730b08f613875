package perceptron

import (
	"context"
	"fmt"
	"math"
)

// ProofViolation is a step of the convergence proof that a trace breaks:
// at update Update (1-based) the quantity Got should have been at least
// (alignment) or at most (growth) Want.
type ProofViolation struct {
	// Update is the 1-based number of the update that breaks the step.
	Update int
	// Step is "alignment" (θ_t·θ* ≥ θ_{t-1}·θ* + ηγ) or "growth"
	// (||θ_t||² ≤ ||θ_{t-1}||² + η²R²).
	Step string
	// Got is θ_t·θ* (alignment) or ||θ_t||² (growth).
	Got float64
	// Want is the bound Got breaks: θ_{t-1}·θ* + ηγ or ||θ_{t-1}||² + η²R².
	// Both are rounded to float64, +Inf beyond its range (the check itself
	// works on scaled sums that do not overflow).
	Want float64
}

// CheckProof walks the updates of a PLA run (as a Recorder keeps them) and
// checks both steps of the convergence proof at every update t, with θ the
// weights after the update (θ = [b, w] with a bias, w alone with NoBias),
// θ_0 = 0 and θ* the unit-norm target (target.Theta() with a bias, target.W
// with NoBias) of margin γ on data of radius R:
//
//	alignment: θ_t·θ*   ≥ θ_{t-1}·θ* + ηγ
//	growth:    ||θ_t||² ≤ ||θ_{t-1}||² + η²R²
//
// Chained over T updates they give ηγT ≤ θ_T·θ* ≤ ||θ_T|| ≤ ηR√T, so
// T ≤ (R/γ)². Bound computes θ*, γ and R for a data set.
//
// It returns nil when every step holds and otherwise the first violation.
// Each comparison allows a rounding slack of 4(k+2)ε times the size of the
// terms compared (k the length of θ, ε the machine epsilon): θ_t itself is
// a floating-point sum and a dot product of length k carries a relative
// error of at most kε, so a correct run may miss an inequality that holds
// exactly by that much, while a real violation (a tampered w, a wrong γ or R)
// is many orders of magnitude larger. A nil answer says only that both
// steps hold at every update: a γ below γ* or an R above the radius never
// breaks one, and a γ above γ*, an R below the radius or a changed w
// breaks one only where the trace has no room for it (a single update on
// a row of margin 5/√2 passes with γ = 2γ* = 2√2).
//
// The sums are scaled by a power of 2 where the weights or ηR are beyond
// 2^±500, so that ||θ||² and η²R² neither overflow nor underflow.
//
// Bad arguments are errors: γ, R or η not finite and > 0, a target that
// is not finite (ErrNonFinite) or whose θ* is not of unit norm (within
// 1e-9), or an update whose w has a dimension other than the target's.
// Of opt.Control it reads the Context: a done Context (before the call,
// or checked every 1024 updates of a long trace and every 2^18 weights
// read, also while it scans the trace for the scale of its sums) stops
// the walk with no verdict and an error that matches ErrStopped and the
// context's error.
func CheckProof(trace []Update, target Hyperplane, gamma, R float64, opt Options) (*ProofViolation, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	eta, noBias := opt.Eta, opt.NoBias
	for _, a := range []struct {
		name string
		v    float64
	}{{"gamma", gamma}, {"R", R}, {"eta", eta}} {
		if !(a.v > 0) || math.IsInf(a.v, 1) {
			return nil, kindErrorf(ErrOption, "check proof: %s must be a finite number > 0, got %v", a.name, a.v)
		}
	}
	if err := checkFinite(target.W, 0); err != nil || !isFinite(target.B) {
		return nil, kindErrorf(ErrNonFinite, "check proof: the target (w, b) is not finite")
	}
	star := target.W
	if !noBias {
		star = target.Theta()
	} else if target.B != 0 {
		return nil, kindErrorf(ErrOption, "check proof: with NoBias the target must pass through the origin, got b = %v", target.B)
	}
	k := len(star)
	if n := math.Sqrt(dot(star, star)); math.Abs(n-1) > 1e-9 {
		return nil, kindErrorf(ErrOption, "check proof: the target θ* must have unit norm, got ||θ*|| = %v", n)
	}
	slack := 4 * float64(k+2) * 0x1p-52
	ctx := opt.Control.Context
	if err := ctxStopped(ctx); err != nil {
		return nil, causeErrorf([]error{ErrStopped, err}, "check proof: stopped before the first update: %v", err)
	}
	// Where the weights or ηR are far from 1 (beyond 2^±500), every
	// quantity is computed scaled by 2^-m, with 2^m above the largest
	// weight and above ηR: ||θ||², η²R², ηγ and the dot products then
	// neither overflow (weights of 1e200, ηR of 1e300) nor underflow (η of
	// 1e-200 squared). Got and Want are scaled back.
	_, eEta := math.Frexp(eta)
	_, eR := math.Frexp(R)
	m := 0
	tE, err := traceExponent(ctx, trace)
	if err != nil {
		return nil, causeErrorf([]error{ErrStopped, err}, "check proof: stopped before the first update: %v", err)
	}
	if tE > 500 || eEta+eR > 500 || eEta+eR < -500 {
		m = max(tE, eEta+eR)
	}
	etaS := math.Ldexp(eta, -eEta)                // in [1/2, 1)
	etaR := float64(etaS * math.Ldexp(R, eEta-m)) // ηR·2^-m
	etaG := float64(etaS * math.Ldexp(gamma, eEta-m))
	theta := make([]float64, k)
	prevAlign, prevNorm2 := 0.0, 0.0
	work := 0 // values read since the context was last checked
	for t, u := range trace {
		if work += len(u.W) + 1; ctx != nil && (t%1024 == 0 || work >= ctxCheckValues) {
			work = 0
			if err := ctxStopped(ctx); err != nil {
				return nil, causeErrorf([]error{ErrStopped, err}, "check proof: stopped before update %d of %d: %v", t+1, len(trace), err)
			}
		}
		if len(u.W) != len(target.W) {
			return nil, kindErrorf(ErrDimension, "check proof: update %d has w of dimension %d, the target has %d", t+1, len(u.W), len(target.W))
		}
		if noBias {
			copy(theta, u.W)
		} else {
			theta[0] = u.B
			copy(theta[1:], u.W)
		}
		if err := checkFinite(theta, t); err != nil {
			return nil, kindErrorf(ErrNonFinite, "check proof: update %d: weights are not finite", t+1)
		}
		for j := range theta {
			theta[j] = math.Ldexp(theta[j], -m)
		}
		align := dot(theta, star)
		norm2 := dot(theta, theta)
		// ||θ*|| = 1, so |θ·θ*| ≤ ||θ||.
		// The float64 conversions forbid FMAs: the verdict is the same on
		// every platform.
		want := prevAlign + etaG
		tol := float64(slack * (math.Sqrt(norm2) + math.Sqrt(prevNorm2) + etaG))
		if align < want-tol {
			return &ProofViolation{Update: t + 1, Step: "alignment", Got: math.Ldexp(align, m), Want: math.Ldexp(want, m)}, nil
		}
		want = prevNorm2 + float64(etaR*etaR)
		tol = float64(slack * (norm2 + prevNorm2 + float64(etaR*etaR)))
		if norm2 > want+tol {
			return &ProofViolation{Update: t + 1, Step: "growth", Got: ldexp2(norm2, m), Want: ldexp2(want, m)}, nil
		}
		prevAlign, prevNorm2 = align, norm2
	}
	return nil, nil
}

// ctxStopped returns nil when ctx is nil or not done, and otherwise its
// error, with its cause when the cause says more (as a run's checkStop).
func ctxStopped(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	why := ctx.Err()
	if c := context.Cause(ctx); c != nil && c != why {
		why = fmt.Errorf("%w: %w", why, c)
	}
	return why
}

// traceExponent returns the least m with every finite weight of the trace
// (w and b) below 2^m in magnitude (and m ≥ −1022).
func traceExponent(ctx context.Context, trace []Update) (int, error) {
	big := 0.0
	work := 0
	for _, u := range trace {
		if work += len(u.W) + 1; work >= ctxCheckValues {
			work = 0
			if err := ctxStopped(ctx); err != nil {
				return 0, err
			}
		}
		if isFinite(u.B) {
			big = math.Max(big, math.Abs(u.B))
		}
		for _, v := range u.W {
			if isFinite(v) {
				big = math.Max(big, math.Abs(v))
			}
		}
	}
	_, e := math.Frexp(big)
	return max(e, -1022), nil
}

// ctxCheckValues is how many values a scan reads between two looks at its
// context (well under a millisecond of work): CheckProof (besides every
// 1024 updates: updates of 20,000 weights made 1024 of them 20 million
// values), the learners' check of their data (checkTrainCtx) and their
// epochs (run.checkRows), the theory's preparation of the data.
const ctxCheckValues = 1 << 18

// ldexp2 returns x·2^(2m) (+Inf beyond the float64 range), in two steps
// that do not overflow before the end.
func ldexp2(x float64, m int) float64 { return math.Ldexp(math.Ldexp(x, m), m) }
