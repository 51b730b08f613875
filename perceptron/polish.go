package perceptron

import (
	"context"
	"math"
	"math/big"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// polishPrec is the precision of polishCorral's arithmetic: its system
// squares the condition of the corral's vertices (up to 2^66 where
// MaxMargin still answers), far below 2^-polishPrec.
const polishPrec = 256

// maxPolishWork bounds polishCorral's work, m²·d products for a corral of
// m vertices of d values (about 0.3 s at the bound).
const maxPolishWork = 1 << 22

// polishCorral solves again, in polishPrec-bit arithmetic, for the point
// of least norm in the affine hull of the corral's vertices (y_i x_i, or
// x_p − x_q with a bias, as hullNormUp reads them): the KKT system
// [G 1; 1ᵀ 0][λ; μ] = [0; 1], G the vertices' Gram matrix. Wolfe's
// float64 solution of that system loses bits as (R/γ)² (two points of
// margin 2.3e-5 and radius 1.3 left a relative gap of 4e-8, beyond
// maxMarginGap, helper-60); this one loses them as R/γ once rounded to
// float64. It returns the separator u/||u|| (its bias set as
// maxMarginBias sets it) and the corral with the new weights, or ok
// false when a weight is not > 0 (the corral is not the support: its
// affine hull's least point is outside its hull), the work is beyond
// maxPolishWork, or ctx is done.
func polishCorral(ctx context.Context, d *Dataset, corral []minnorm.Vertex, noBias bool) (Hyperplane, []minnorm.Vertex, bool) {
	m, dim := len(corral), d.D()
	if m == 0 || m*m*dim > maxPolishWork {
		return Hyperplane{}, nil, false
	}
	newF := func() *big.Float { return new(big.Float).SetPrec(polishPrec) }
	vs := make([][]*big.Float, m)
	for k, c := range corral {
		vs[k] = make([]*big.Float, dim)
		for j := range vs[k] {
			vs[k][j] = setVertexValue(newF(), d, c.ID, j, noBias)
		}
	}
	// The augmented system, (m+1) × (m+2).
	sys := make([][]*big.Float, m+1)
	t := newF()
	for r := range sys {
		sys[r] = make([]*big.Float, m+2)
		for c := range sys[r] {
			sys[r][c] = newF()
		}
	}
	for k := 0; k < m; k++ {
		if ctx.Err() != nil {
			return Hyperplane{}, nil, false
		}
		for l := 0; l <= k; l++ {
			g := newF()
			for j := 0; j < dim; j++ {
				g.Add(g, t.Mul(vs[k][j], vs[l][j]))
			}
			sys[k][l].Set(g)
			sys[l][k].Set(g)
		}
		sys[k][m].SetInt64(1)
		sys[m][k].SetInt64(1)
	}
	sys[m][m+1].SetInt64(1)
	// Gaussian elimination with partial pivoting, then back substitution.
	for c := 0; c <= m; c++ {
		p := c
		for r := c + 1; r <= m; r++ {
			if new(big.Float).Abs(sys[r][c]).Cmp(new(big.Float).Abs(sys[p][c])) > 0 {
				p = r
			}
		}
		if sys[p][c].Sign() == 0 {
			return Hyperplane{}, nil, false
		}
		sys[c], sys[p] = sys[p], sys[c]
		for r := c + 1; r <= m; r++ {
			f := newF().Quo(sys[r][c], sys[c][c])
			for k := c; k <= m+1; k++ {
				sys[r][k].Sub(sys[r][k], t.Mul(f, sys[c][k]))
			}
		}
	}
	sol := make([]*big.Float, m+1)
	for r := m; r >= 0; r-- {
		s := newF().Set(sys[r][m+1])
		for k := r + 1; k <= m; k++ {
			s.Sub(s, t.Mul(sys[r][k], sol[k]))
		}
		sol[r] = s.Quo(s, sys[r][r])
	}
	out := make([]minnorm.Vertex, m)
	for k, c := range corral {
		l, _ := sol[k].Float64()
		if !(l > 0) {
			return Hyperplane{}, nil, false
		}
		out[k] = minnorm.Vertex{ID: c.ID, Lambda: l}
	}
	u := make([]*big.Float, dim)
	norm := newF()
	for j := range u {
		u[j] = newF()
		for k := range vs {
			u[j].Add(u[j], t.Mul(sol[k], vs[k][j]))
		}
		norm.Add(norm, t.Mul(u[j], u[j]))
	}
	if norm.Sign() == 0 {
		return Hyperplane{}, nil, false
	}
	norm.Sqrt(norm)
	w := make([]float64, dim)
	for j := range w {
		w[j], _ = t.Quo(u[j], norm).Float64()
	}
	h := Hyperplane{W: w}
	if !noBias {
		h.B = midpointBias(w, d)
	}
	return h, out, true
}

// midpointBias returns b = −(min_P w·p + max_N w·q)/2 for the rows p of
// class +1 and q of class −1: the boundary through the middle of the
// classes' nearest points along w (see maxMarginBias).
func midpointBias(w []float64, d *Dataset) float64 {
	minP, maxN := math.Inf(1), math.Inf(-1)
	for i := 0; i < d.N(); i++ {
		if d.Y[i] > 0 {
			minP = math.Min(minP, dot(w, d.Row(i)))
		} else {
			maxN = math.Max(maxN, dot(w, d.Row(i)))
		}
	}
	return -(minP + maxN) / 2
}
