package perceptron

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// separableTol is the least LP margin t that counts as separable. The LP runs
// on data scaled to max |x_ij| = 1 with |w_j|, |b| ≤ 1, so t is a margin
// measured on a unit scale; the simplex works to reduced costs of 1e-10 and
// its pivots on such data are accurate to about 1e-12, so t ≤ 1e-9 cannot be
// told from 0. Every positive answer is also certified with DatasetMargin.
const separableTol = 1e-9

// Separable decides by linear programming whether some hyperplane (w, b)
// puts every point strictly on its correct side. With θ = [w, b] and
// z_i = y_i[x_i, 1] on the data scaled so that max |x_ij| = 1 (which changes
// b's scale, not the answer), the linear program is
//
//	maximise t  subject to  z_i·θ ≥ t,  −1 ≤ θ_j ≤ 1,  t ≤ 1,
//
// and d is separable when its optimal t exceeds 1e-9 (smaller margins,
// relative to the data's scale, are reported as not separable). Its optimum
// t* is computed with gonum's simplex method (lp.Simplex) on the LP dual,
//
//	minimise Σ_j (μ⁺_j + μ⁻_j) + ν  subject to  Σ_i λ_i + ν = 1,
//	Σ_i λ_i z_i = μ⁺ − μ⁻,  λ, μ⁺, μ⁻, ν ≥ 0,
//
// which has d + 2 rows instead of n + d + 2 (fast, and it starts from the
// feasible basis {ν, μ⁺}); strong duality makes the two optima equal.
//
// When separable, the certificate returned is the maximum-margin separator
// of MaxMargin, checked to have a positive DatasetMargin; if the LP and that
// check disagree, an error says so.
func Separable(d *Dataset) (bool, Hyperplane, error) {
	if err := d.Validate(); err != nil {
		return false, Hyperplane{}, err
	}
	n, dim := d.N(), d.D()
	scale := 0.0
	for i := 0; i < n; i++ {
		for _, v := range d.Row(i) {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale == 0 {
		scale = 1
	}
	// Columns: λ_0..λ_{n-1}, μ⁺_0..μ⁺_dim, μ⁻_0..μ⁻_dim, ν.
	// Rows: 0 (the t row), 1..dim+1 (θ_j, with θ_dim = b).
	k := dim + 1
	ip, im, inu := n, n+k, n+2*k
	cols, rows := inu+1, k+1
	a := mat.NewDense(rows, cols, nil)
	for i := 0; i < n; i++ {
		y := d.Y[i]
		a.Set(0, i, 1)
		for j, v := range d.Row(i) {
			a.Set(1+j, i, -y*v/scale)
		}
		a.Set(1+dim, i, -y)
	}
	c := make([]float64, cols)
	basic := []int{inu}
	for j := 0; j < k; j++ {
		a.Set(1+j, ip+j, 1)
		a.Set(1+j, im+j, -1)
		c[ip+j], c[im+j] = 1, 1
		basic = append(basic, ip+j)
	}
	a.Set(0, inu, 1)
	c[inu] = 1
	b := make([]float64, rows)
	b[0] = 1
	t, _, err := lp.Simplex(c, a, b, 1e-10, basic)
	if err != nil {
		return false, Hyperplane{}, errorf("separable: linear program failed: %v", err)
	}
	if !(t > separableTol) {
		return false, Hyperplane{}, nil
	}
	h, _, err := MaxMargin(d, false)
	if errors.Is(err, ErrNotSeparable) {
		return false, Hyperplane{}, errorf("separable: the linear program found margin %v but no separator could be certified", t)
	}
	if err != nil {
		return false, Hyperplane{}, err
	}
	if m, _, err := h.DatasetMargin(d); err != nil || !(m > 0) {
		return false, Hyperplane{}, errorf("separable: the linear program found margin %v but the separator has margin %v", t, m)
	}
	return true, h, nil
}
