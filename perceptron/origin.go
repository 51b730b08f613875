package perceptron

import (
	"context"
	"math"
	"math/big"
	"slices"

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
	// A row of zeros scores 0 under every w: λ = 1 on it is an exact
	// certificate (Wolfe's solver, next to rows 1e13 long, left it
	// undecided, helper-60).
	if zeroRow(d) >= 0 {
		return Hyperplane{}, 0, notSep
	}
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
	oracle := func(x []float64) (int64, []float64) {
		best, arg := math.Inf(1), 0
		for i := 0; i < n; i++ {
			if s := dot(x, v[i*dim:(i+1)*dim]); s < best {
				best, arg = s, i
			}
		}
		return int64(arg), v[arg*dim : (arg+1)*dim]
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
	if h, m, ok := unitCertified(ctx, w, d); ok {
		return h, m, nil
	}
	// The exact test of the corral, also where the solver stopped short
	// of 0, with the vertex the oracle picks at the final point when the
	// corral lacks it: the solver drops a vertex whose system rounding
	// makes singular, and with it the origin ({1, −1e12}: stalled at 1,
	// 1e-12 of the radius from 0, undecided, helper-60). A set that is
	// not affinely independent is "not proved", never a wrong proof.
	// The corral alone first: one more vertex makes a full corral (d + 1
	// vertices in d dimensions) dependent.
	cands := [][]minnorm.Vertex{res.Corral}
	if id, _ := oracle(res.X); !slices.ContainsFunc(res.Corral, func(c minnorm.Vertex) bool { return c.ID == id }) {
		cands = append(cands, append(slices.Clip(res.Corral), minnorm.Vertex{ID: id}))
	}
	for _, cand := range cands {
		in, err := zeroInHull(ctx, rawVertices(d, cand))
		if err != nil {
			return Hyperplane{}, 0, err
		}
		if in {
			return Hyperplane{}, 0, notSep
		}
	}
	// A short run of PLA through the origin: a separator it reaches is
	// certified like any other.
	epochs := max(1, min(100, 10_000_000/max(1, n*dim)))
	if r, err := PLA(d, Options{NoBias: true, MaxEpochs: epochs, Control: Control{Context: ctx}}); err == nil && r.Converged {
		if h, m, ok := unitCertified(ctx, r.W, d); ok {
			return h, m, nil
		}
	}
	return Hyperplane{}, 0, kindErrorf(ErrUndecided, "bound: through the origin the classes touch to within rounding (the nearest point of the hull of y_i x_i is %.3g of the radius from 0): neither a separator nor the convex weights of a proof of the contrary can be certified", norm2(res.X)/math.Sqrt(big2))
}

// zeroRow returns the first row of d whose values are all 0 (or −0), or
// −1.
func zeroRow(d *Dataset) int {
	for i := 0; i < d.N(); i++ {
		zero := true
		for _, x := range d.Row(i) {
			if x != 0 {
				zero = false
				break
			}
		}
		if zero {
			return i
		}
	}
	return -1
}

// unitCertified scales w to unit length and returns it with its margin on d
// when certifiedMargin certifies every row.
func unitCertified(ctx context.Context, w []float64, d *Dataset) (Hyperplane, float64, bool) {
	nw := norm2(w)
	if !(nw > 0) || math.IsInf(nw, 0) {
		return Hyperplane{}, 0, false
	}
	h := Hyperplane{W: make([]float64, len(w))}
	for j, v := range w {
		h.W[j] = v / nw
	}
	m, ok := certifiedMargin(ctx, h, d)
	return h, m, ok
}

// rawVertices returns z_i = y_i x_i, unscaled, for the rows of the corral:
// a positive scale of the columns leaves the weights λ of Σ λ_k z_k = 0
// unchanged, and the raw values are exact.
func rawVertices(d *Dataset, corral []minnorm.Vertex) [][]float64 {
	out := make([][]float64, len(corral))
	for k, c := range corral {
		z := make([]float64, d.D())
		for j, x := range d.Row(int(c.ID)) {
			z[j] = d.Y[c.ID] * x
		}
		out[k] = z
	}
	return out
}

// maxExactCells bounds the work of zeroInHull: rows times columns squared
// of its integer elimination: a corral of 66 vectors in 65 dimensions, the
// 64 pixels of the digits and the bias (66·67·66 ≈ 2^18.2), takes about
// 0.2 s.
const maxExactCells = 1 << 19

// zeroInHull reports whether the origin is exactly in the convex hull of
// the vertices vs (a corral of Wolfe's algorithm): whether λ ≥ 0 with
// Σ λ_k = 1 and Σ λ_k v_k = 0 exist, solved in exact arithmetic (a float64
// is an integer times a power of 2). A corral is affinely independent, so
// the solution is unique when it exists. Too large a corral (see
// maxExactCells) is reported false: not proved. A done ctx, checked at
// every entry of the elimination, stops it with an ErrUndecided error
// that matches ErrStopped and ctx.Err() (its integers may grow to
// thousands of bits on data whose values span many powers of 2).
//
// The system [1 … 1 | 1; v_1 … v_m | 0] has one row per coordinate; each
// row is scaled by a power of 2 (which keeps the solution) to integers;
// fraction-free elimination (Bareiss's, every division exact) and back
// substitution give D·λ_k in integers, D the determinant of the pivot
// rows, whose signs decide.
func zeroInHull(ctx context.Context, vs [][]float64) (bool, error) {
	m := len(vs)
	if m == 0 {
		return false, nil
	}
	rows := len(vs[0]) + 1
	if rows*m*m > maxExactCells {
		return false, nil
	}
	// a is the rows × (m+1) augmented matrix, each row an integer vector.
	a := make([][]*big.Int, rows)
	val := func(r, k int) float64 {
		switch {
		case r == 0:
			return 1
		case k < m:
			return vs[k][r-1]
		}
		return 0
	}
	row := make([]float64, m+1)
	for r := range a {
		for k := range row {
			row[k] = val(r, k)
		}
		a[r] = integerMultiple(row)
	}
	// Fraction-free forward elimination (Bareiss): below the pivots only;
	// every division is exact and a[c][c] becomes the leading c+1 minor.
	prev := big.NewInt(1)
	t1, t2 := new(big.Int), new(big.Int)
	for c := 0; c < m; c++ {
		piv := -1
		for r := c; r < rows; r++ {
			if a[r][c].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return false, nil // no pivot: not independent after all, not proved
		}
		a[c], a[piv] = a[piv], a[c]
		p := a[c][c]
		for r := c + 1; r < rows; r++ {
			if err := ctx.Err(); err != nil {
				return false, causeErrorf([]error{ErrUndecided, ErrStopped, err}, "exact proof that the origin is in the hull: stopped at column %d of %d: %v", c, m, err)
			}
			f := a[r][c]
			for k := c + 1; k <= m; k++ {
				// a[r][k] = (p·a[r][k] − f·a[c][k]) / prev, exactly.
				t1.Mul(p, a[r][k])
				t2.Mul(f, a[c][k])
				t1.Sub(t1, t2)
				a[r][k].Quo(t1, prev)
			}
			a[r][c] = new(big.Int)
		}
		prev = p
	}
	// Consistent: the rows past the pivots are 0 = 0.
	for r := m; r < rows; r++ {
		if a[r][m].Sign() != 0 {
			return false, nil
		}
	}
	// Back substitution for y_k = D·λ_k, D = a[m-1][m-1] the determinant
	// of the pivot rows: integers (Cramer's rule), so every division by
	// a[k][k] is exact.
	d := a[m-1][m-1]
	y := make([]*big.Int, m)
	for k := m - 1; k >= 0; k-- {
		t1.Mul(a[k][m], d)
		for j := k + 1; j < m; j++ {
			t1.Sub(t1, t2.Mul(a[k][j], y[j]))
		}
		y[k] = new(big.Int).Quo(t1, a[k][k])
	}
	// λ_k = y_k/D ≥ 0.
	for k := 0; k < m; k++ {
		if y[k].Sign()*d.Sign() < 0 {
			return false, nil
		}
	}
	return true, nil
}

// integerMultiple returns the integers xs·2^s for the least s that makes
// them all integers: a positive multiple of xs, exactly. Each x is
// f·2^e with f·2^53 an integer, so x = (f·2^53)·2^(e−53), and all are
// shifted to the least e − 53 among them.
func integerMultiple(xs []float64) []*big.Int {
	least := math.MaxInt
	for _, x := range xs {
		if x != 0 {
			_, e := math.Frexp(x)
			least = min(least, e-53)
		}
	}
	out := make([]*big.Int, len(xs))
	for k, x := range xs {
		out[k] = new(big.Int)
		if x != 0 {
			f, e := math.Frexp(x)
			out[k].SetInt64(int64(f * (1 << 53)))
			out[k].Lsh(out[k], uint(e-53-least))
		}
	}
	return out
}
