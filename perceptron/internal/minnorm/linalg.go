package minnorm

import (
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// The two small dense solves of Wolfe's minor cycle, written here rather
// than taken from gonum's mat (LU and QR, through its BLAS and LAPACK) so
// that every build computes the same bits: gonum's Go code, which arm64,
// ppc64, riscv64 and s390x run (and amd64 with -tags noasm), may be fused
// by the compiler into multiply-adds, which round once where amd64's
// assembly rounds twice. Here every product is rounded by a float64
// conversion before it meets an add (the Go spec's way to forbid the
// fusion), and the loops run in one fixed order on every platform.
//
// Both solves estimate a condition number, as gonum did through LAPACK:
// the LU solve the 1-norm one of its matrix (Dgecon), the QR solve the
// ∞-norm one of R (Dtrcon, as gonum's QR.Cond), from a few solves with the
// matrix and its transpose (Hager's estimate of ||A⁻¹||₁, W. W. Hager, "Condition
// estimates", SIAM J. Sci. Stat. Comput. 5, 1984, with N. J. Higham's
// extra test vector, ACM TOMS 14, 1988): the minor cycle falls back from
// the first to the second, and gives up, on the same thresholds as before.

// lu is the LU factorisation with partial pivoting P·A = L·U of an n×n
// matrix, held in one row-major slice: U on and above the diagonal, L
// (unit diagonal) below it. piv[k] is the row swapped with row k at step k.
type lu struct {
	n   int
	a   []float64
	piv []int
}

// factorLU factors the n×n row-major matrix a in place. It returns false
// when a pivot is 0 (the matrix is singular to working precision).
func factorLU(a []float64, n int) (lu, bool) {
	f := lu{n: n, a: a, piv: make([]int, n)}
	for k := 0; k < n; k++ {
		p, big := k, math.Abs(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(a[i*n+k]); v > big {
				p, big = i, v
			}
		}
		f.piv[k] = p
		if !(big > 0) {
			return f, false
		}
		if p != k {
			for j := 0; j < n; j++ {
				a[k*n+j], a[p*n+j] = a[p*n+j], a[k*n+j]
			}
		}
		d := a[k*n+k]
		for i := k + 1; i < n; i++ {
			l := a[i*n+k] / d
			a[i*n+k] = l
			if l == 0 {
				continue
			}
			// row ← row − l·pivot, each product rounded before the add
			// (asm.Axpy: AVX2 or SSE2 on amd64, Go elsewhere, the same
			// bits; −(l·p) is (−l)·p exactly).
			asm.Axpy(-l, a[k*n+k+1:k*n+n], a[i*n+k+1:i*n+n])
		}
	}
	return f, true
}

// solve overwrites b with A⁻¹b.
func (f lu) solve(b []float64) {
	n, a := f.n, f.a
	for k, p := range f.piv {
		b[k], b[p] = b[p], b[k]
	}
	for i := 1; i < n; i++ { // L y = P b
		s := b[i]
		for j := 0; j < i; j++ {
			s -= float64(a[i*n+j] * b[j]) // no FMA
		}
		b[i] = s
	}
	for i := n - 1; i >= 0; i-- { // U x = y
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= float64(a[i*n+j] * b[j]) // no FMA
		}
		b[i] = s / a[i*n+i]
	}
}

// solveT overwrites b with A⁻ᵀb: Aᵀ = Uᵀ Lᵀ P.
func (f lu) solveT(b []float64) {
	n, a := f.n, f.a
	for i := 0; i < n; i++ { // Uᵀ z = b
		s := b[i]
		for j := 0; j < i; j++ {
			s -= float64(a[j*n+i] * b[j]) // no FMA
		}
		b[i] = s / a[i*n+i]
	}
	for i := n - 2; i >= 0; i-- { // Lᵀ w = z
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= float64(a[j*n+i] * b[j]) // no FMA
		}
		b[i] = s
	}
	for k := n - 1; k >= 0; k-- { // x = Pᵀ w
		p := f.piv[k]
		b[k], b[p] = b[p], b[k]
	}
}

// norm1 is the 1-norm (the largest column sum of magnitudes) of the n×n
// row-major matrix a.
func norm1(a []float64, n int) float64 {
	best := 0.0
	for j := 0; j < n; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			s += math.Abs(a[i*n+j])
		}
		best = math.Max(best, s)
	}
	return best
}

// invNorm1 estimates ||A⁻¹||₁ of an n×n matrix A from solve (b ← A⁻¹b)
// and solveT (b ← A⁻ᵀb), by Hager's method as LAPACK's Dlacn2 runs it
// (N. J. Higham, ACM TOMS 14, 1988, Algorithm 4.1): from x = (1/n, …) it
// moves to the unit vector e_j that the gradient of ||A⁻¹x||₁ points to,
// ξ = sign(A⁻¹x) and j = argmax |A⁻ᵀξ|, until the signs repeat, the
// estimate stops growing, j repeats or five solves are made; then it
// takes the larger of that and Higham's estimate from
// x_i = ±(1 + i/(n−1)), alternating in sign. Every value it returns is
// ||A⁻¹x||₁/||x||₁ for some x, a lower bound on ||A⁻¹||₁; on the random
// and near-singular systems of the tests it is within a factor of 10.
func invNorm1(n int, solve, solveT func([]float64)) float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	solve(x)
	if n == 1 {
		return math.Abs(x[0])
	}
	est := sumAbs(x)
	sign := make([]float64, n)
	takeSigns(x, sign)
	solveT(x) // z = A⁻ᵀξ
	j := argmaxAbs(x)
	for iter := 2; ; iter++ {
		for i := range x {
			x[i] = 0
		}
		x[j] = 1
		solve(x)
		e := sumAbs(x)
		if takeSigns(x, sign) || !(e > est) {
			est = math.Max(est, e)
			break
		}
		est = e
		solveT(x)
		last := j
		j = argmaxAbs(x)
		if x[last] == math.Abs(x[j]) || iter >= 5 {
			break
		}
	}
	for i := range x {
		x[i] = 1 + float64(i)/float64(n-1)
		if i%2 == 1 {
			x[i] = -x[i]
		}
	}
	solve(x)
	return math.Max(est, float64(2*sumAbs(x))/float64(3*n))
}

// takeSigns sets sign_i and x_i to sign(x_i), sign(−0) = −1 as in Dlacn2,
// and reports whether every sign was already sign_i.
func takeSigns(x, sign []float64) bool {
	same := true
	for i, v := range x {
		s := math.Copysign(1, v)
		same = same && s == sign[i]
		sign[i], x[i] = s, s
	}
	return same
}

// argmaxAbs is the first index of the largest |x_i|.
func argmaxAbs(x []float64) int {
	j := 0
	for i, v := range x {
		if math.Abs(v) > math.Abs(x[j]) {
			j = i
		}
	}
	return j
}

// sumAbs is Σ|x_i|.
func sumAbs(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Abs(v)
	}
	return s
}

// qr is the Householder QR factorisation of an m×p matrix (m ≥ p), held by
// columns: on and above the diagonal of the first p rows, R (its diagonal
// in diag); the reflectors themselves are applied as they are made and
// not kept.
type qr struct {
	p    int
	cols [][]float64
	diag []float64
}

// leastSquares returns the β of least ||Mβ − b||₂ for the m×p matrix M
// given by its p columns (each of length m ≥ p, overwritten, as is b),
// with an estimate of the ∞-norm condition number of R, +Inf when a
// column is (to working precision) a combination of the ones before it.
// The matrix and b are first scaled by one power of 2 (exactly), so that
// the largest magnitude lies in [1, 2): the squares and products of the
// reflectors neither overflow nor lose digits to underflow, and β is
// unchanged.
func leastSquares(cols [][]float64, b []float64) ([]float64, float64) {
	p := len(cols)
	big := maxAbs(b)
	for _, c := range cols {
		big = math.Max(big, maxAbs(c))
	}
	if !(big > 0) || math.IsInf(big, 0) || math.IsNaN(big) {
		return nil, math.Inf(1)
	}
	_, e := math.Frexp(big) // big = f·2^e, f in [1/2, 1)
	for _, c := range cols {
		scaleBy(c, 1-e)
	}
	scaleBy(b, 1-e)
	f := qr{p: p, cols: cols, diag: make([]float64, p)}
	for j := 0; j < p; j++ {
		x := cols[j][j:]
		nrm := norm2(x)
		if !(nrm > 0) {
			return nil, math.Inf(1)
		}
		alpha := -math.Copysign(nrm, x[0])
		// H = I − τvvᵀ with v = (x − αe₁)/(x₀ − α), so that v₀ = 1 and
		// τ = 2/vᵀv = (||x|| + |x₀|)/||x|| lies in [1, 2] (LAPACK's
		// Dlarfg): neither overflows however small the column. v
		// overwrites x; |x₀ − α| = ||x|| + |x₀| bounds every |x_i|.
		v0 := x[0] - alpha
		tau := (nrm + math.Abs(x[0])) / nrm
		x[0] = 1
		for i := 1; i < len(x); i++ {
			x[i] /= v0
		}
		for c := j + 1; c < p; c++ {
			reflect(x, cols[c][j:], tau)
		}
		reflect(x, b[j:], tau)
		f.diag[j] = alpha
	}
	beta := append([]float64(nil), b[:p]...)
	f.solve(beta)
	// ||R⁻¹||∞ = ||R⁻ᵀ||₁: the ∞-norm condition number, as gonum's QR.Cond
	// (LAPACK's Dtrcon with the largest row sum) gives it.
	cond := f.normInf() * invNorm1(p, f.solveT, f.solve)
	return beta, cond
}

// reflect applies I − τvvᵀ to y, every product rounded before its add
// (vᵀy in asm.DotFast's eight partial sums, the same bits on every build).
func reflect(v, y []float64, tau float64) {
	s := float64(asm.DotFast(v, y) * tau)
	asm.Axpy(-s, v, y)
}

// solve overwrites b (length p) with R⁻¹b.
func (f qr) solve(b []float64) {
	for i := f.p - 1; i >= 0; i-- {
		s := b[i]
		for c := i + 1; c < f.p; c++ {
			s -= float64(f.cols[c][i] * b[c]) // no FMA
		}
		b[i] = s / f.diag[i]
	}
}

// solveT overwrites b (length p) with R⁻ᵀb.
func (f qr) solveT(b []float64) {
	for c := 0; c < f.p; c++ {
		s := b[c]
		for i := 0; i < c; i++ {
			s -= float64(f.cols[c][i] * b[i]) // no FMA
		}
		b[c] = s / f.diag[c]
	}
}

// normInf is the ∞-norm of R, its largest row sum of magnitudes.
func (f qr) normInf() float64 {
	best := 0.0
	for i := 0; i < f.p; i++ {
		s := math.Abs(f.diag[i])
		for c := i + 1; c < f.p; c++ {
			s += math.Abs(f.cols[c][i])
		}
		best = math.Max(best, s)
	}
	return best
}

// norm2 is ||x||₂, computed on x scaled by a power of 2 that brings its
// largest magnitude into [1/2, 1): no square overflows, and none that
// matters underflows, however small the part of the column.
func norm2(x []float64) float64 {
	big := maxAbs(x)
	if !(big > 0) {
		return 0
	}
	_, e := math.Frexp(big)
	s := 0.0
	for _, v := range x {
		v = math.Ldexp(v, -e)
		s += float64(v * v) // no FMA
	}
	return math.Ldexp(math.Sqrt(s), e)
}

// maxAbs is the largest |x_i| (NaN when one is NaN, 0 for no values).
func maxAbs(x []float64) float64 {
	big := 0.0
	for _, v := range x {
		big = math.Max(big, math.Abs(v))
	}
	return big
}

// scaleBy multiplies x by 2^e, exactly unless it underflows.
func scaleBy(x []float64, e int) {
	for i, v := range x {
		x[i] = math.Ldexp(v, e)
	}
}
