package perceptron

import (
	"context"
	"math"
	"math/big"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// originMargin is Bound's second opinion through the origin (NoBias), when
// MaxMargin finds d not separable through the origin: that answer rests on
// a tolerance (a margin below 1e-12 of the radius is taken for 0), so it
// must be proved or overturned. With z_i = y_i x_i, d is separable through
// the origin exactly when 0 is not in conv{z_i} (Gordan). It returns
//
//   - a unit separator w and its margin on d, when one is certified (see
//     certifiedMargin): from Wolfe's algorithm on the columns scaled by
//     powers of 2 (exactly; a positive scale of a feature keeps
//     separability through the origin), or from a short run of PLA;
//   - notSep, when convex weights λ ≥ 0 with Σ λ_i z_i = 0 are verified in
//     exact rational arithmetic on the final corral of that algorithm;
//   - an ErrUndecided error otherwise: neither answer can be certified.
func originMargin(ctx context.Context, d *Dataset, notSep error) (Hyperplane, float64, error) {
	n, dim := d.N(), d.D()
	// a_j = 2^-e_j, with 2^e_j above the largest |x_ij| of column j.
	scale := make([]float64, dim)
	for j := range scale {
		m := 0.0
		for i := 0; i < n; i++ {
			m = math.Max(m, math.Abs(d.X.At(i, j)))
		}
		scale[j] = 1
		if m > 0 {
			_, e := math.Frexp(m)
			scale[j] = math.Ldexp(1, -e)
		}
	}
	v := make([]float64, n*dim)
	big2 := 0.0
	for i := 0; i < n; i++ {
		vi := v[i*dim : (i+1)*dim]
		for j, x := range d.Row(i) {
			vi[j] = d.Y[i] * x * scale[j] // exact: a power of 2 (unless subnormal)
		}
		big2 = math.Max(big2, dot(vi, vi))
	}
	oracle := func(x []float64) (int, []float64) {
		best, arg := math.Inf(1), 0
		for i := 0; i < n; i++ {
			if s := dot(x, v[i*dim:(i+1)*dim]); s < best {
				best, arg = s, i
			}
		}
		return arg, v[arg*dim : (arg+1)*dim]
	}
	res, err := minNormPoint(ctx, dim, big2, oracle)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	// The direction of the nearest point, even one taken for 0, may
	// separate: w_j = θ_j a_j on the raw features.
	w := make([]float64, dim)
	for j := range w {
		w[j] = res.X[j] * scale[j]
	}
	if h, m, ok := unitCertified(w, d); ok {
		return h, m, nil
	}
	if res.Status == minnorm.Zero && zeroInHull(rawVertices(d, res.Corral)) {
		return Hyperplane{}, 0, notSep
	}
	// A short run of PLA through the origin: a separator it reaches is
	// certified like any other.
	epochs := max(1, min(100, 10_000_000/max(1, n*dim)))
	if r, err := PLA(d, Options{NoBias: true, MaxEpochs: epochs, Control: Control{Context: ctx}}); err == nil && r.Converged {
		if h, m, ok := unitCertified(r.W, d); ok {
			return h, m, nil
		}
	}
	return Hyperplane{}, 0, kindErrorf(ErrUndecided, "bound: through the origin the classes touch to within rounding (the nearest point of the hull of y_i x_i is %.3g of the radius from 0): neither a separator nor the convex weights of a proof of the contrary can be certified", norm2(res.X)/math.Sqrt(big2))
}

// unitCertified scales w to unit length and returns it with its margin on d
// when certifiedMargin certifies every row.
func unitCertified(w []float64, d *Dataset) (Hyperplane, float64, bool) {
	nw := norm2(w)
	if !(nw > 0) || math.IsInf(nw, 0) {
		return Hyperplane{}, 0, false
	}
	h := Hyperplane{W: make([]float64, len(w))}
	for j, v := range w {
		h.W[j] = v / nw
	}
	m, ok := certifiedMargin(h, d)
	return h, m, ok
}

// rawVertices returns z_i = y_i x_i, unscaled, for the rows of the corral:
// a positive scale of the columns leaves the weights λ of Σ λ_k z_k = 0
// unchanged, and the raw values are exact.
func rawVertices(d *Dataset, corral []minnorm.Vertex) [][]float64 {
	out := make([][]float64, len(corral))
	for k, c := range corral {
		z := make([]float64, d.D())
		for j, x := range d.Row(c.ID) {
			z[j] = d.Y[c.ID] * x
		}
		out[k] = z
	}
	return out
}

// maxExactCells bounds the work of zeroInHull: rows times columns squared
// of its rational elimination.
const maxExactCells = 1 << 18

// zeroInHull reports whether the origin is exactly in the convex hull of
// the vertices vs (a corral of Wolfe's algorithm): whether λ ≥ 0 with
// Σ λ_k = 1 and Σ λ_k v_k = 0 exist, solved in exact rational arithmetic
// (a float64 is a rational). A corral is affinely independent, so the
// solution is unique when it exists. Too large a corral (see
// maxExactCells) is reported false: not proved.
func zeroInHull(vs [][]float64) bool {
	m := len(vs)
	if m == 0 {
		return false
	}
	rows := len(vs[0]) + 1
	if rows*m*m > maxExactCells {
		return false
	}
	// a is the rows × (m+1) augmented matrix [1 … 1 | 1; v_1 … v_m | 0].
	a := make([][]*big.Rat, rows)
	for r := range a {
		a[r] = make([]*big.Rat, m+1)
		for k := 0; k <= m; k++ {
			x := 0.0
			switch {
			case r == 0:
				x = 1
			case k < m:
				x = vs[k][r-1]
			}
			a[r][k] = new(big.Rat).SetFloat64(x)
		}
	}
	// Gauss-Jordan elimination; a column without a pivot means the corral
	// is not independent after all: not proved.
	tmp := new(big.Rat)
	for c, p := 0, 0; c < m; c, p = c+1, p+1 {
		piv := -1
		for r := p; r < rows; r++ {
			if a[r][c].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return false
		}
		a[p], a[piv] = a[piv], a[p]
		inv := new(big.Rat).Inv(a[p][c])
		for k := c; k <= m; k++ {
			a[p][k].Mul(a[p][k], inv)
		}
		for r := 0; r < rows; r++ {
			if r == p || a[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[r][c])
			for k := c; k <= m; k++ {
				a[r][k].Sub(a[r][k], tmp.Mul(f, a[p][k]))
			}
		}
	}
	// Consistent: the rows past the pivots are 0 = 0; λ_k = a[k][m] ≥ 0.
	for r := m; r < rows; r++ {
		if a[r][m].Sign() != 0 {
			return false
		}
	}
	for k := 0; k < m; k++ {
		if a[k][m].Sign() < 0 {
			return false
		}
	}
	return true
}
