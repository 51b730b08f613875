package perceptron

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrNotSeparable is returned by MaxMargin when no hyperplane (through the
// origin with noBias) has every point strictly on its correct side.
var ErrNotSeparable = errors.New("perceptron: data is not linearly separable")

// Radius returns R = max_i ||x_i||, the radius of the smallest ball centred
// at the origin that holds every point. For PLA with a bias the convergence
// theorem uses the radius of Augment(d), max_i sqrt(1 + ||x_i||²).
func Radius(d *Dataset) (float64, error) {
	if err := checkRows(d); err != nil {
		return 0, err
	}
	r := 0.0
	for i := 0; i < d.N(); i++ {
		x := d.Row(i)
		r = math.Max(r, math.Sqrt(dot(x, x)))
	}
	return r, nil
}

// MaxMargin returns the hard-margin (maximum-margin) separator of d: the
// hyperplane (w, b) with ||w|| = 1 that maximises
//
//	γ = min_i y_i(w·x_i + b),
//
// and that margin γ > 0. With noBias the boundary passes through the origin
// (b = 0). It returns ErrNotSeparable when the best margin is not positive.
//
// The answer is exact up to rounding: MaxMargin runs Wolfe's finite
// minimum-norm-point algorithm. Through the origin, with z_i = y_i x_i, the
// optimal w is u/||u|| for u the point of conv{z_i} nearest the origin, and
// γ = ||u||. With a bias, u = p − q is the shortest vector between the convex
// hulls of the positive points (p) and the negative points (q): w = u/||u||,
// γ = ||u||/2, and the boundary passes through the midpoint (p + q)/2.
// A margin below 1e-12 times the data's radius cannot be told from 0 in
// floating point and is reported as ErrNotSeparable.
func MaxMargin(d *Dataset, noBias bool) (h Hyperplane, gamma float64, err error) {
	if err := d.Validate(); err != nil {
		return Hyperplane{}, 0, err
	}
	if noBias {
		return maxMarginOrigin(d)
	}
	return maxMarginBias(d)
}

// maxMarginOrigin is MaxMargin through the origin.
func maxMarginOrigin(d *Dataset) (Hyperplane, float64, error) {
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
	w, err := unitMinNorm(dim, scale, oracle)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	h := Hyperplane{W: w}
	gamma, _, err := h.DatasetMargin(d)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !(gamma > 0) {
		return Hyperplane{}, 0, ErrNotSeparable
	}
	return h, gamma, nil
}

// maxMarginBias is MaxMargin with a free bias: the minimum-norm point of
// conv(P) − conv(N). A vertex of that difference is a pair (p, q); the
// linear-minimisation oracle picks the p of least u·p and the q of largest
// u·q, O(n) per call.
func maxMarginBias(d *Dataset) (Hyperplane, float64, error) {
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
	w, err := unitMinNorm(dim, scale, oracle)
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
	h := Hyperplane{W: w, B: b}
	gamma, _, err := h.DatasetMargin(d)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !(gamma > 0) {
		return Hyperplane{}, 0, ErrNotSeparable
	}
	return h, gamma, nil
}

// corralPoint is a vertex of the current corral of Wolfe's algorithm, its
// oracle id and its barycentric weight.
type corralPoint struct {
	id     int
	v      []float64
	lambda float64
}

// minNormPoint runs Wolfe's minimum-norm-point algorithm on the convex hull
// of the vertices that oracle enumerates: oracle(x) returns (id, v) with v a
// vertex minimising x·v. scale bounds ||v||². It returns the minimum-norm
// point and the final corral (vertices with positive weights summing to 1).
func minNormPoint(dim int, scale float64, oracle func(x []float64) (int, []float64)) ([]float64, []corralPoint) {
	x0 := make([]float64, dim)
	id, v := oracle(x0)
	corral := []corralPoint{{id: id, v: v, lambda: 1}}
	x := append([]float64(nil), v...)
	// Stop when the Wolfe gap x·x − min_v x·v is at rounding level.
	eps := 1e-15 * scale
	const maxMajor = 100000
	for major := 0; major < maxMajor; major++ {
		id, v := oracle(x)
		xx := dot(x, x)
		if xx-dot(x, v) <= eps || xx <= eps*1e-10 {
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
		for minor := 0; ; minor++ {
			alpha, ok := affineMinNorm(corral, scale)
			if !ok {
				// Affinely dependent corral (rounding): drop the new vertex.
				corral = corral[:len(corral)-1]
				return x, corral
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
	return x, corral
}

// affineMinNorm returns the weights α (Σ α = 1) of the point of least norm
// in the affine hull of the corral, from the KKT system
//
//	[VᵀV s1; s1ᵀ 0] [α; μ/s] = [0; s],
//
// where s = scale (the largest ||v||²) keeps every entry of the matrix of
// the same order whatever the units of the data.
func affineMinNorm(corral []corralPoint, scale float64) ([]float64, bool) {
	k := len(corral)
	a := mat.NewDense(k+1, k+1, nil)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			g := dot(corral[i].v, corral[j].v)
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
			return nil, false
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
// into (w, b). With noBias the theorem runs on d itself. Data that is not
// separable gives Separable false, Bound +Inf and no error.
func Bound(d *Dataset, noBias bool) (BoundResult, error) {
	if err := d.Validate(); err != nil {
		return BoundResult{}, err
	}
	data := d
	if !noBias {
		data = Augment(d)
	}
	r, err := Radius(data)
	if err != nil {
		return BoundResult{}, err
	}
	h, gamma, err := MaxMargin(data, true)
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
	return BoundResult{R: r, Gamma: gamma, Bound: (r / gamma) * (r / gamma), Target: target, Separable: true}, nil
}

// unitMinNorm runs Wolfe's algorithm with the oracle and returns its
// minimum-norm point u scaled to unit length, or ErrNotSeparable when u is 0
// (below 1e-12 of the data's scale): the origin is in the hull.
func unitMinNorm(dim int, scale float64, oracle func([]float64) (int, []float64)) ([]float64, error) {
	u, _ := minNormPoint(dim, scale, oracle)
	nu := math.Sqrt(dot(u, u))
	if !(nu > 1e-12*math.Sqrt(scale)) {
		return nil, ErrNotSeparable
	}
	w := make([]float64, dim)
	for j := range w {
		w[j] = u[j] / nu
	}
	return w, nil
}
