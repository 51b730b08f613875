// Package minnorm is Wolfe's minimum-norm-point algorithm (P. Wolfe,
// "Finding the nearest point in a polytope", Math. Programming 11, 1976),
// the engine behind the perceptron package's Separable, MaxMargin and
// Bound. It is internal, as gonum keeps its kernels in internal/asm: the
// package's API speaks of data sets and separators, this one of vertices
// and corrals.
package minnorm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// ErrIterations is the error of Point when it makes its maximum number of
// major iterations without an answer.
var ErrIterations = errors.New("minimum-norm point: no answer")

// Vertex is a vertex of the current corral of Wolfe's algorithm, its
// oracle id (a row, or a pair of rows) and its barycentric weight.
type Vertex struct {
	ID     int64
	V      []float64
	Lambda float64
}

// Status says how Point ended.
type Status int

const (
	// Optimal: the Wolfe gap x·x − min_v x·v is at rounding level, so
	// x is the minimum-norm point to working precision.
	Optimal Status = iota
	// Zero: ||x|| ≤ zeroTol·R, the origin is (to that tolerance) in
	// the hull; the corral's weights are the certificate.
	Zero
	// Stalled: rounding made a step impossible (the best vertex is
	// already in the corral, cannot enter it with a positive weight, or
	// makes it affinely dependent).
	Stalled
)

// ZeroTol is the relative size below which a point of the hull is
// taken for the origin: ||x|| ≤ 1e-12 R, with R the largest vertex norm.
const ZeroTol = 1e-12

// Result is the outcome of Point: the point x, the corral
// whose weights give x = Σ λ_k v_k, how it ended and after how many major
// iterations.
type Result struct {
	X      []float64
	Corral []Vertex
	Status Status
	Iters  int
}

// Point runs Wolfe's minimum-norm-point algorithm (P. Wolfe, "Finding
// the nearest point in a polytope", Math. Programming 11, 1976) on the
// convex hull of the vertices that oracle enumerates: oracle(x) returns
// (id, v) with v a vertex minimising x·v. scale bounds ||v||² for every
// vertex. It stops when x is optimal to working precision, when x is the
// origin to ZeroTol, or on rounding; it returns an ErrIterations error
// after maxIter major iterations, and one that wraps ctx.Err() when ctx is
// done (checked at every major and minor iteration).
//
// The optimality test is the Wolfe gap: for x in the hull and u* the
// minimum-norm point, ||x − u*||² ≤ x·x − min_v x·v, and min_i x·v_i/||x||
// is a margin at least ||x|| − gap/||x||. The gap is compared with the
// rounding error of the dot products, 8·dim·ε·||x||·R.
func Point(ctx context.Context, dim int, scale float64, oracle func(x []float64) (int64, []float64), maxIter int) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("minimum-norm point: stopped before it began: %w", err)
	}
	x0 := make([]float64, dim)
	id, v := oracle(x0)
	corral := []Vertex{{ID: id, V: v, Lambda: 1}}
	x := append([]float64(nil), v...)
	r := math.Sqrt(scale)
	const eps = 0x1p-52
	gram := map[[2]int64]float64{} // dot products of corral vertices, by id
	res := Result{Status: Stalled}
	for major := 0; ; major++ {
		if major >= maxIter {
			return Result{}, fmt.Errorf("%w after %d iterations", ErrIterations, major)
		}
		// Each major iteration scans every vertex (the oracle) and solves
		// a corral's system per minor one: the Context is looked at
		// every one (every 16 left seconds between looks on 1500 × 1200).
		if err := ctx.Err(); err != nil {
			return Result{}, fmt.Errorf("minimum-norm point: stopped after %d iterations: %w", major, err)
		}
		res.Iters = major
		xx := asm.DotExact(x, x)
		nx := math.Sqrt(xx)
		if nx <= ZeroTol*r {
			res.Status = Zero
			break
		}
		id, v := oracle(x)
		if xx-asm.DotExact(x, v) <= 8*float64(dim)*eps*nx*r {
			res.Status = Optimal
			break
		}
		in := false
		for _, c := range corral {
			if c.ID == id {
				in = true
				break
			}
		}
		if in {
			break // rounding: the best vertex is already in the corral
		}
		corral = append(corral, Vertex{ID: id, V: v})
		stalled := false
		for minor := 0; ; minor++ {
			if minor > 0 {
				if err := ctx.Err(); err != nil {
					return Result{}, fmt.Errorf("minimum-norm point: stopped in iteration %d: %w", major, err)
				}
			}
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
					corral[k].Lambda = alpha[k]
				}
				break
			}
			if minor == 0 && !(alpha[len(alpha)-1] > 0) {
				// The new vertex, of weight 0, has α ≤ 0 (±0 included,
				// where its step 0/(0−α) is NaN): rounding, as in exact
				// arithmetic it enters with a positive weight.
				// Dropping it would leave the corral and x as they were, and
				// the oracle would return the same vertex again.
				corral = corral[:len(corral)-1]
				stalled = true
				break
			}
			// Move from λ towards α until a weight reaches 0.
			theta := 1.0
			for k, a := range alpha {
				if a <= 0 {
					l := corral[k].Lambda
					if t := l / (l - a); t < theta {
						theta = t
					}
				}
			}
			kept := corral[:0]
			for k, c := range corral {
				c.Lambda = float64(theta*alpha[k]) + float64((1-theta)*c.Lambda) // no FMA
				if c.Lambda > 1e-15 {
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
			sum += c.Lambda
		}
		for j := range x {
			x[j] = 0
		}
		for k := range corral {
			corral[k].Lambda /= sum
			for j, vj := range corral[k].V {
				x[j] += float64(corral[k].Lambda * vj) // no FMA
			}
		}
	}
	res.X, res.Corral = x, corral
	return res, nil
}

// affineMinNorm returns the weights α (Σ α = 1) of the point of least norm
// in the affine hull of the corral, from the KKT system
//
//	[VᵀV s1; s1ᵀ 0] [α; μ/s] = [0; s],
//
// where s = scale (the largest ||v||²) keeps every entry of the matrix of
// the same order whatever the units of the data. The dot products are
// cached in gram by vertex id. It is solved by LU with partial pivoting
// (linalg.go). When that system is singular or too ill-conditioned (it
// squares the condition of V), the same point is found by least squares
// with QR: min ||v_0 + Σ_k β_k (v_k − v_0)||, α_0 = 1 − Σ β.
func affineMinNorm(corral []Vertex, scale float64, gram map[[2]int64]float64) ([]float64, bool) {
	k := len(corral)
	n := k + 1
	a := make([]float64, n*n)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			key := [2]int64{corral[i].ID, corral[j].ID}
			if key[0] > key[1] {
				key[0], key[1] = key[1], key[0]
			}
			g, ok := gram[key]
			if !ok {
				g = asm.DotExact(corral[i].V, corral[j].V)
				gram[key] = g
			}
			a[i*n+j], a[j*n+i] = g, g
		}
		a[i*n+k], a[k*n+i] = scale, scale
	}
	anorm := norm1(a, n)
	f, ok := factorLU(a, n)
	if !ok {
		return affineMinNormQR(corral)
	}
	sol := make([]float64, n)
	sol[k] = scale
	f.solve(sol)
	if cond := anorm * invNorm1(n, f.solve, f.solveT); !(cond <= maxCondKKT) {
		return affineMinNormQR(corral)
	}
	alpha := sol[:k]
	for _, a := range alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, false
		}
	}
	return alpha, true
}

// maxCondKKT and maxCondQR are the largest condition numbers (estimated,
// in the 1-norm) at which affineMinNorm trusts the KKT system, and
// affineMinNormQR its least-squares problem: gonum's mat.Solve flags a
// system beyond 1e16 (mat.ConditionTolerance), the threshold the solver
// had when it used it; the least-squares fallback is trusted to 1e14.
const (
	maxCondKKT = 1e16
	maxCondQR  = 1e14
)

// affineMinNormQR is affineMinNorm by least squares on the differences
// v_k − v_0, whose condition is that of V, not its square.
func affineMinNormQR(corral []Vertex) ([]float64, bool) {
	k := len(corral)
	if k == 1 {
		return []float64{1}, true
	}
	dim := len(corral[0].V)
	if k-1 > dim {
		return nil, false
	}
	v0 := corral[0].V
	cols := make([][]float64, k-1)
	for c := 1; c < k; c++ {
		col := make([]float64, dim)
		for j := range col {
			col[j] = corral[c].V[j] - v0[j]
		}
		cols[c-1] = col
	}
	rhs := make([]float64, dim)
	for j := range rhs {
		rhs[j] = -v0[j]
	}
	beta, cond := leastSquares(cols, rhs)
	if !(cond <= maxCondQR) {
		return nil, false
	}
	alpha := make([]float64, k)
	alpha[0] = 1
	for c := 1; c < k; c++ {
		b := beta[c-1]
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return nil, false
		}
		alpha[c] = b
		alpha[0] -= b
	}
	return alpha, true
}
