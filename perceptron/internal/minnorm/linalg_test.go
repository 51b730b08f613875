package minnorm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomMatrix returns an n×n row-major matrix of standard normal values.
func randomMatrix(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	return a
}

// TestLUAgainstGonum: factorLU's solves agree with gonum's LU (an
// independent implementation, LAPACK's) to rounding on random systems of
// sizes 1 to 40, A⁻ᵀ included, and the estimate of ||A⁻¹||₁ is a lower
// bound on the exact value (from gonum's inverse) and within a factor of
// 10 of it. Hager's estimate is usually within 3; on 5,000 such matrices
// it came within 4.6 (gonum's own, LAPACK's Dlacn2, within 7.7).
func TestLUAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + trial%40
		a := randomMatrix(rng, n)
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		am := mat.NewDense(n, n, append([]float64(nil), a...))
		var want, wantT mat.VecDense
		if err := want.SolveVec(am, mat.NewVecDense(n, b)); err != nil {
			t.Fatalf("n=%d: gonum: %v", n, err)
		}
		if err := wantT.SolveVec(am.T(), mat.NewVecDense(n, b)); err != nil {
			t.Fatalf("n=%d: gonum: %v", n, err)
		}
		var inv mat.Dense
		if err := inv.Inverse(am); err != nil {
			t.Fatalf("n=%d: gonum: %v", n, err)
		}
		exact := mat.Norm(&inv, 1)
		f, ok := factorLU(append([]float64(nil), a...), n)
		if !ok {
			t.Fatalf("n=%d: singular", n)
		}
		got, gotT := append([]float64(nil), b...), append([]float64(nil), b...)
		f.solve(got)
		f.solveT(gotT)
		tol := 1e-10 * exact * norm1(a, n)
		for i := 0; i < n; i++ {
			if d := math.Abs(got[i] - want.AtVec(i)); !(d <= tol*math.Max(1, math.Abs(want.AtVec(i)))) {
				t.Fatalf("n=%d: x[%d] = %v, gonum %v", n, i, got[i], want.AtVec(i))
			}
			if d := math.Abs(gotT[i] - wantT.AtVec(i)); !(d <= tol*math.Max(1, math.Abs(wantT.AtVec(i)))) {
				t.Fatalf("n=%d: Aᵀ: x[%d] = %v, gonum %v", n, i, gotT[i], wantT.AtVec(i))
			}
		}
		est := invNorm1(n, f.solve, f.solveT)
		if !(est <= exact*(1+1e-9)) || !(est >= exact/10) {
			t.Errorf("n=%d: ||A⁻¹||₁ estimated %v, exactly %v", n, est, exact)
		}
	}
}

// TestLUSingular: a zero pivot (a zero column, or a repeated row) is
// reported, not divided by.
func TestLUSingular(t *testing.T) {
	for _, a := range [][]float64{
		{1, 0, 2, 0}, // zero column
		{1, 2, 2, 4}, // second row twice the first
		{0, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		n := int(math.Sqrt(float64(len(a))))
		if _, ok := factorLU(append([]float64(nil), a...), n); ok {
			t.Errorf("%v: factored, want singular", a)
		}
	}
}

// TestLeastSquaresAgainstGonum: leastSquares agrees with gonum's QR
// least-squares solve to rounding on tall random problems, and its
// condition estimate of R is a lower bound on the exact ∞-norm condition
// number of R (the norm of gonum's QR.Cond, whose estimate the threshold
// maxCondQR was set for) and within a factor of 10 of it.
func TestLeastSquaresAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		p := 1 + trial%20
		m := p + trial%7
		cols := make([][]float64, p)
		dm := mat.NewDense(m, p, nil)
		for c := range cols {
			cols[c] = make([]float64, m)
			for i := range cols[c] {
				cols[c][i] = rng.NormFloat64()
				dm.Set(i, c, cols[c][i])
			}
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var q mat.QR
		q.Factorize(dm)
		var want mat.VecDense
		if err := q.SolveVecTo(&want, false, mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			t.Fatalf("%d×%d: gonum: %v", m, p, err)
		}
		var r, rinv mat.Dense
		q.RTo(&r)
		rsq := r.Slice(0, p, 0, p)
		if err := rinv.Inverse(rsq); err != nil {
			t.Fatalf("%d×%d: gonum: %v", m, p, err)
		}
		exact := mat.Norm(rsq, math.Inf(1)) * mat.Norm(&rinv, math.Inf(1))
		got, cond := leastSquares(cols, b)
		for i := 0; i < p; i++ {
			if d := math.Abs(got[i] - want.AtVec(i)); !(d <= 1e-10*exact*math.Max(1, math.Abs(want.AtVec(i)))) {
				t.Fatalf("%d×%d: β[%d] = %v, gonum %v", m, p, i, got[i], want.AtVec(i))
			}
		}
		if !(cond <= exact*(1+1e-9)) || !(cond >= exact/10) {
			t.Errorf("%d×%d: cond(R) estimated %v, exactly %v", m, p, cond, exact)
		}
	}
}

// TestLeastSquaresScaleFree: scaling the problem by a power of 2, even far
// beyond where a sum of squares overflows or underflows, gives the same β
// bit for bit and the same condition estimate; a column that is a
// multiple of another gives a condition estimate beyond maxCondQR.
func TestLeastSquaresScaleFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const m, p = 9, 4
	cols := make([][]float64, p)
	for c := range cols {
		cols[c] = make([]float64, m)
		for i := range cols[c] {
			cols[c][i] = rng.NormFloat64()
		}
	}
	b := make([]float64, m)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	scaled := func(e int) ([][]float64, []float64) {
		cs := make([][]float64, p)
		for c := range cs {
			cs[c] = append([]float64(nil), cols[c]...)
			scaleBy(cs[c], e)
		}
		bs := append([]float64(nil), b...)
		scaleBy(bs, e)
		return cs, bs
	}
	want, wantCond := leastSquares(scaled(0))
	for _, e := range []int{-900, -600, -1, 1, 600, 900} {
		got, cond := leastSquares(scaled(e))
		if cond != wantCond {
			t.Errorf("2^%d: cond %v, unscaled %v", e, cond, wantCond)
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("2^%d: β[%d] = %v, unscaled %v", e, i, got[i], want[i])
			}
		}
	}
	cs, bs := scaled(0)
	for i := range cs[2] {
		cs[2][i] = 3 * cs[0][i]
	}
	if _, cond := leastSquares(cs, bs); !(cond > maxCondQR) {
		t.Errorf("a column 3 times another: cond %v, want beyond %v", cond, maxCondQR)
	}
}

// TestLeastSquaresTinyColumns: columns far smaller than b (here 1e-170 of
// it, where every square underflows to 0) are still solved, and agree with
// gonum's QR, whose norms and reflectors are scaled as LAPACK's are. The
// first version summed unscaled squares, found a norm of 0 and answered
// "dependent" (an infinite condition number) on this well-conditioned
// problem; its τ = 1/(||x||(||x||+|x₀|)) overflowed for columns below
// about 1e-154.
func TestLeastSquaresTinyColumns(t *testing.T) {
	for _, tiny := range []float64{1e-150, 1e-170, 1e-300} {
		cols := [][]float64{{3 * tiny, 4 * tiny, 0, tiny}, {0, tiny, 2 * tiny, 0}}
		b := []float64{1, 2, -1, 0.5}
		dm := mat.NewDense(len(b), len(cols), nil)
		for c := range cols {
			for i, v := range cols[c] {
				dm.Set(i, c, v)
			}
		}
		var q mat.QR
		q.Factorize(dm)
		var want mat.VecDense
		if err := q.SolveVecTo(&want, false, mat.NewVecDense(len(b), append([]float64(nil), b...))); err != nil {
			t.Fatalf("%g: gonum: %v", tiny, err)
		}
		got, cond := leastSquares(cols, append([]float64(nil), b...))
		if !(cond <= 10*q.Cond()) || !(cond >= q.Cond()/10) {
			t.Errorf("%g: cond %v, gonum's %v", tiny, cond, q.Cond())
		}
		for i := range got {
			if w := want.AtVec(i); !(math.Abs(got[i]-w) <= 1e-12*math.Abs(w)) {
				t.Errorf("%g: β[%d] = %v, gonum %v", tiny, i, got[i], w)
			}
		}
	}
}

// BenchmarkSolves times the two solves of the minor cycle against gonum's
// on random problems of a corral of n vertices: the KKT system (LU, the
// solve and the condition estimate) and least squares on n×(n+1)
// (Householder QR, the solve and the estimate).
func BenchmarkSolves(b *testing.B) {
	for _, n := range []int{30, 100, 300} {
		rng := rand.New(rand.NewPCG(9, uint64(n)))
		a := randomMatrix(rng, n)
		rhs := make([]float64, n+1)
		for i := range rhs {
			rhs[i] = rng.NormFloat64()
		}
		b.Run(fmt.Sprintf("LU/n=%d", n), func(b *testing.B) {
			work, x := make([]float64, n*n), make([]float64, n)
			for b.Loop() {
				copy(work, a)
				f, _ := factorLU(work, n)
				copy(x, rhs)
				f.solve(x)
				invNorm1(n, f.solve, f.solveT)
			}
		})
		b.Run(fmt.Sprintf("gonum-LU/n=%d", n), func(b *testing.B) {
			var lu mat.LU
			var x mat.VecDense
			for b.Loop() {
				lu.Factorize(mat.NewDense(n, n, append([]float64(nil), a...)))
				_ = lu.SolveVecTo(&x, false, mat.NewVecDense(n, append([]float64(nil), rhs[:n]...)))
			}
		})
		b.Run(fmt.Sprintf("QR/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				cols := make([][]float64, n)
				for c := range cols {
					cols[c] = append(make([]float64, 0, n+1), a[c*n:c*n+n]...)
					cols[c] = append(cols[c], 1)
				}
				leastSquares(cols, append([]float64(nil), rhs...))
			}
		})
		b.Run(fmt.Sprintf("gonum-QR/n=%d", n), func(b *testing.B) {
			var q mat.QR
			var x mat.VecDense
			for b.Loop() {
				m := mat.NewDense(n+1, n, nil)
				for c := 0; c < n; c++ {
					for i := 0; i < n; i++ {
						m.Set(i, c, a[c*n+i])
					}
					m.Set(n, c, 1)
				}
				q.Factorize(m)
				_ = q.SolveVecTo(&x, false, mat.NewVecDense(n+1, append([]float64(nil), rhs...)))
			}
		})
	}
}
