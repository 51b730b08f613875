package perceptron

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// MaxMinNormIterations caps the major iterations of the minimum-norm-point
// algorithm behind Separable, MaxMargin and Bound. Each adds one vertex, and
// on every data set of the package it ends within a few hundred; the cap
// turns a run that rounding keeps from ending into an ErrUndecided error.
const MaxMinNormIterations = 100000

// corralPoint is a vertex of the current corral of Wolfe's algorithm, its
// oracle id (a row, or a pair of rows) and its barycentric weight.
type corralPoint struct {
	id     int
	v      []float64
	lambda float64
}

// wolfeStatus says how minNormPoint ended.
type wolfeStatus int

const (
	// wolfeOptimal: the Wolfe gap x·x − min_v x·v is at rounding level, so
	// x is the minimum-norm point to working precision.
	wolfeOptimal wolfeStatus = iota
	// wolfeZero: ||x|| ≤ zeroTol·R, the origin is (to that tolerance) in
	// the hull; the corral's weights are the certificate.
	wolfeZero
	// wolfeStalled: rounding made a step impossible (the best vertex is
	// already in the corral, or the corral is affinely dependent).
	wolfeStalled
)

// minNormZeroTol is the relative size below which a point of the hull is
// taken for the origin: ||x|| ≤ 1e-12 R, with R the largest vertex norm.
const minNormZeroTol = 1e-12

// minNormResult is the outcome of minNormPoint: the point x, the corral
// whose weights give x = Σ λ_k v_k, how it ended and after how many major
// iterations.
type minNormResult struct {
	x      []float64
	corral []corralPoint
	status wolfeStatus
	iters  int
}

// minNormPoint runs Wolfe's minimum-norm-point algorithm (P. Wolfe, "Finding
// the nearest point in a polytope", Math. Programming 11, 1976) on the
// convex hull of the vertices that oracle enumerates: oracle(x) returns
// (id, v) with v a vertex minimising x·v. scale bounds ||v||² for every
// vertex. It stops when x is optimal to working precision, when x is the
// origin to minNormZeroTol, or on rounding; it returns an ErrUndecided error
// after MaxMinNormIterations major iterations or when ctx is done.
//
// The optimality test is the Wolfe gap: for x in the hull and u* the
// minimum-norm point, ||x − u*||² ≤ x·x − min_v x·v, and min_i x·v_i/||x||
// is a margin at least ||x|| − gap/||x||. The gap is compared with the
// rounding error of the dot products, 8·dim·ε·||x||·R.
func minNormPoint(ctx context.Context, dim int, scale float64, oracle func(x []float64) (int, []float64)) (minNormResult, error) {
	x0 := make([]float64, dim)
	id, v := oracle(x0)
	corral := []corralPoint{{id: id, v: v, lambda: 1}}
	x := append([]float64(nil), v...)
	r := math.Sqrt(scale)
	const eps = 0x1p-52
	gram := map[[2]int]float64{} // dot products of corral vertices, by id
	res := minNormResult{status: wolfeStalled}
	for major := 0; ; major++ {
		if major >= MaxMinNormIterations {
			return minNormResult{}, kindErrorf(ErrUndecided, "minimum-norm point: no answer after %d iterations", major)
		}
		if major%16 == 0 {
			if err := ctx.Err(); err != nil {
				return minNormResult{}, causeErrorf([]error{ErrUndecided, ErrStopped, err},
					"minimum-norm point: stopped after %d iterations: %v", major, err)
			}
		}
		res.iters = major
		xx := dot(x, x)
		nx := math.Sqrt(xx)
		if nx <= minNormZeroTol*r {
			res.status = wolfeZero
			break
		}
		id, v := oracle(x)
		if xx-dot(x, v) <= 8*float64(dim)*eps*nx*r {
			res.status = wolfeOptimal
			break
		}
		in := false
		for _, c := range corral {
			if c.id == id {
				in = true
				break
			}
		}
		if in {
			break // rounding: the best vertex is already in the corral
		}
		corral = append(corral, corralPoint{id: id, v: v})
		stalled := false
		for minor := 0; ; minor++ {
			alpha, ok := affineMinNorm(corral, scale, gram)
			if !ok {
				// Affinely dependent corral (rounding): drop the new vertex.
				corral = corral[:len(corral)-1]
				stalled = true
				break
			}
			allPos := true
			for _, a := range alpha {
				if a <= 0 {
					allPos = false
					break
				}
			}
			if allPos {
				for k := range corral {
					corral[k].lambda = alpha[k]
				}
				break
			}
			// Move from λ towards α until a weight reaches 0.
			theta := 1.0
			for k, a := range alpha {
				if a <= 0 {
					l := corral[k].lambda
					if t := l / (l - a); t < theta {
						theta = t
					}
				}
			}
			kept := corral[:0]
			for k, c := range corral {
				c.lambda = theta*alpha[k] + (1-theta)*c.lambda
				if c.lambda > 1e-15 {
					kept = append(kept, c)
				}
			}
			corral = kept
			if minor > dim+2 || len(corral) == 0 {
				break
			}
		}
		if stalled || len(corral) == 0 {
			break
		}
		// Renormalise and recompute x from the weights.
		sum := 0.0
		for _, c := range corral {
			sum += c.lambda
		}
		for j := range x {
			x[j] = 0
		}
		for k := range corral {
			corral[k].lambda /= sum
			for j, vj := range corral[k].v {
				x[j] += corral[k].lambda * vj
			}
		}
	}
	res.x, res.corral = x, corral
	return res, nil
}

// affineMinNorm returns the weights α (Σ α = 1) of the point of least norm
// in the affine hull of the corral, from the KKT system
//
//	[VᵀV s1; s1ᵀ 0] [α; μ/s] = [0; s],
//
// where s = scale (the largest ||v||²) keeps every entry of the matrix of
// the same order whatever the units of the data. The dot products are
// cached in gram by vertex id. When that system is too ill-conditioned (it
// squares the condition of V), the same point is found by least squares
// with QR: min ||v_0 + Σ_k β_k (v_k − v_0)||, α_0 = 1 − Σ β.
func affineMinNorm(corral []corralPoint, scale float64, gram map[[2]int]float64) ([]float64, bool) {
	k := len(corral)
	a := mat.NewDense(k+1, k+1, nil)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			key := [2]int{corral[i].id, corral[j].id}
			if key[0] > key[1] {
				key[0], key[1] = key[1], key[0]
			}
			g, ok := gram[key]
			if !ok {
				g = dot(corral[i].v, corral[j].v)
				gram[key] = g
			}
			a.Set(i, j, g)
			a.Set(j, i, g)
		}
		a.Set(i, k, scale)
		a.Set(k, i, scale)
	}
	rhs := mat.NewVecDense(k+1, nil)
	rhs.SetVec(k, scale)
	var sol mat.VecDense
	if err := sol.SolveVec(a, rhs); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) || float64(cond) > 1e14 {
			return affineMinNormQR(corral)
		}
	}
	alpha := make([]float64, k)
	for i := range alpha {
		alpha[i] = sol.AtVec(i)
		if math.IsNaN(alpha[i]) || math.IsInf(alpha[i], 0) {
			return nil, false
		}
	}
	return alpha, true
}

// affineMinNormQR is affineMinNorm by least squares on the differences
// v_k − v_0, whose condition is that of V, not its square.
func affineMinNormQR(corral []corralPoint) ([]float64, bool) {
	k := len(corral)
	if k == 1 {
		return []float64{1}, true
	}
	dim := len(corral[0].v)
	if k-1 > dim {
		return nil, false
	}
	v0 := corral[0].v
	m := mat.NewDense(dim, k-1, nil)
	for c := 1; c < k; c++ {
		for j := 0; j < dim; j++ {
			m.Set(j, c-1, corral[c].v[j]-v0[j])
		}
	}
	rhs := mat.NewVecDense(dim, nil)
	for j := 0; j < dim; j++ {
		rhs.SetVec(j, -v0[j])
	}
	var qr mat.QR
	qr.Factorize(m)
	if qr.Cond() > 1e14 {
		return nil, false
	}
	var beta mat.VecDense
	if err := qr.SolveVecTo(&beta, false, rhs); err != nil {
		return nil, false
	}
	alpha := make([]float64, k)
	alpha[0] = 1
	for c := 1; c < k; c++ {
		b := beta.AtVec(c - 1)
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return nil, false
		}
		alpha[c] = b
		alpha[0] -= b
	}
	return alpha, true
}

// unitMinNorm runs Wolfe's algorithm with the oracle and returns its
// minimum-norm point u scaled to unit length, ErrNotSeparable when u is 0
// (||u|| ≤ 1e-12 of the largest vertex norm: the origin is in the hull), or
// an ErrUndecided error.
func unitMinNorm(ctx context.Context, dim int, scale float64, oracle func([]float64) (int, []float64)) ([]float64, wolfeStatus, error) {
	res, err := minNormPoint(ctx, dim, scale, oracle)
	if err != nil {
		return nil, 0, err
	}
	if res.status == wolfeZero {
		return nil, res.status, ErrNotSeparable
	}
	nu := norm2(res.x)
	w := make([]float64, dim)
	for j := range w {
		w[j] = res.x[j] / nu
	}
	return w, res.status, nil
}
