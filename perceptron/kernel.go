package perceptron

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/perceptron-go/lessons/perceptron/internal/delim"
	"gonum.org/v1/gonum/mat"
)

// Kernel is a similarity k(x, z) = φ(x)·φ(z) for some feature map φ; the
// kernel perceptron learns a linear separator in φ's space without forming φ.
type Kernel interface {
	// Eval returns k(x, z) of two vectors of the same length (the
	// package's kernels panic on two lengths: a misuse of shapes, whose
	// value would be silently wrong).
	Eval(x, z []float64) float64
	// String returns the name ParseKernel reads back.
	String() string
}

// LinearKernel is k(x, z) = x·z: the kernel perceptron with it is Dual.
type LinearKernel struct{}

// Eval returns x·z.
func (LinearKernel) Eval(x, z []float64) float64 {
	sameLength("linear", x, z)
	return dot(x, z)
}

// sameLength panics, naming the kernel (its kind, a constant, so that no
// call allocates), when x and z differ in length: dot read z's values as
// far as x went, past z's length within its capacity, and the RBF kernel
// ignored z's last values, silently wrong values (helper-53).
func sameLength(kind string, x, z []float64) {
	if len(x) != len(z) {
		panic("perceptron: " + kind + " kernel: Eval of vectors of " + strconv.Itoa(len(x)) + " and " + strconv.Itoa(len(z)) + " features")
	}
}

// String returns "linear".
func (LinearKernel) String() string { return "linear" }

// PolyKernel is the polynomial kernel k(x, z) = (x·z + C)^Degree, whose
// feature space holds every monomial of the features of degree up to Degree
// (exactly Degree when C = 0).
type PolyKernel struct {
	// Degree is the power, from 1 to MaxPolyDegree.
	Degree int
	// C is the constant added to x·z; it must be finite.
	C float64
}

// MaxPolyDegree is the largest Degree of a PolyKernel. Eval makes one
// multiply per degree, so the cap bounds its cost (the Gram matrix takes n²
// of them); beyond it (x·z + C)^Degree overflows or vanishes in float64 for
// all but |x·z + C| within a hair of 1 anyway (1.01^64 is 1.9, 2^64 is
// 1.8e19; 2^1024 overflows).
const MaxPolyDegree = 64

// Eval returns (x·z + C)^Degree, multiplied left to right. A Degree
// beyond MaxPolyDegree, which the learners refuse, is raised by repeated
// squaring, so that a hand-made kernel costs at most about 2·63 multiplies;
// a Degree below 1, which is no kernel the learners take, gives NaN, so that
// a kernel wrapping a PolyKernel (a type of the caller's, which the learners
// check as any kernel, by its values) is refused, not learned with 1s.
func (k PolyKernel) Eval(x, z []float64) float64 {
	sameLength("poly", x, z)
	if k.Degree < 1 {
		return math.NaN()
	}
	s := dot(x, z) + k.C
	p := 1.0
	if k.Degree > MaxPolyDegree {
		for e := k.Degree; e > 0; e >>= 1 {
			if e&1 == 1 {
				p *= s
			}
			s *= s
		}
		return p
	}
	for i := 0; i < k.Degree; i++ {
		p *= s
	}
	return p
}

// String returns "poly:Degree:C".
func (k PolyKernel) String() string {
	return "poly:" + strconv.Itoa(k.Degree) + ":" + strconv.FormatFloat(k.C, 'g', -1, 64)
}

// RBFKernel is the Gaussian (radial basis function) kernel
// k(x, z) = exp(−Gamma ||x − z||²).
type RBFKernel struct {
	// Gamma is the inverse width, > 0.
	Gamma float64
}

// Eval returns exp(−Gamma ||x − z||²), with an exp of its own that gives
// the same bits on every platform (within about an ulp of math.Exp).
// Where ||x − z||² overflows float64 (points 1e154 apart) while
// Gamma ||x − z||² does not (a Gamma below 1e-305), it is computed from
// x − z scaled by its largest component: exp(−1e-310 · 4e308) is 0.96,
// not exp(−Inf) = 0. A Gamma that is not a finite number > 0 gives NaN
// (as a Degree below 1 does PolyKernel.Eval): exp(+||x − z||²) is no kernel.
func (k RBFKernel) Eval(x, z []float64) float64 {
	sameLength("rbf", x, z)
	if !(k.Gamma > 0) || k.Gamma > math.MaxFloat64 {
		return math.NaN()
	}
	var s float64
	for j, v := range x {
		d := v - z[j]
		s += float64(d * d) // no FMA: the same bits on every platform
	}
	if math.IsInf(s, 1) {
		return exp(-scaledGammaDist2(k.Gamma, x, z))
	}
	return exp(-k.Gamma * s) // the same bits on every platform (see exp)
}

// scaledGammaDist2 returns γ ||x − z||² computed without overflow in its
// parts: with h = (x − z)/2 (halves, so that no difference overflows) and
// M = max_j |h_j|, γ ||x − z||² = ((γ M) M) · 4 Σ_j (h_j/M)²; it is +Inf
// only when the product itself is beyond float64.
func scaledGammaDist2(gamma float64, x, z []float64) float64 {
	h := make([]float64, len(x))
	m := 0.0
	for j, v := range x {
		h[j] = float64(v/2) - float64(z[j]/2)
		m = math.Max(m, math.Abs(h[j]))
	}
	if m == 0 {
		return 0
	}
	var t float64
	for _, v := range h {
		r := v / m
		t += float64(r * r) // no FMA
	}
	return float64(float64(float64(gamma*m)*m)*4) * t
}

// String returns "rbf:Gamma".
func (k RBFKernel) String() string {
	return "rbf:" + strconv.FormatFloat(k.Gamma, 'g', -1, 64)
}

// ParseKernel parses a kernel name: "linear", "poly:DEGREE" (C = 1),
// "poly:DEGREE:C" or "rbf:GAMMA", for example "poly:2", "poly:3:0" or
// "rbf:0.5". The parameters are checked as KernelPerceptron checks them.
func ParseKernel(s string) (Kernel, error) {
	parts := strings.Split(s, ":")
	var k Kernel
	switch {
	case parts[0] == "linear" && len(parts) == 1:
		k = LinearKernel{}
	case parts[0] == "poly" && (len(parts) == 2 || len(parts) == 3):
		// In 64 bits whatever the int: a degree beyond an int (or an int64)
		// is too large, not "not an integer", on every build.
		deg, err := strconv.ParseInt(parts[1], 10, 64)
		big := errors.Is(err, strconv.ErrRange)
		switch {
		case big && strings.HasPrefix(parts[1], "-") || err == nil && deg < 1:
			return nil, polyDegreeError(parts[1], true)
		case big || err == nil && deg > MaxPolyDegree:
			return nil, polyDegreeError(parts[1], false)
		case err != nil:
			return nil, kindErrorf(ErrOption, "kernel %q: degree %q is not an integer", s, parts[1])
		}
		c := 1.0
		if len(parts) == 3 {
			c, err = strconv.ParseFloat(parts[2], 64)
			if err != nil {
				return nil, kindErrorf(ErrOption, "kernel %q: constant %q %s", s, parts[2], floatSyntax(err))
			}
		}
		k = PolyKernel{Degree: int(deg), C: c}
	case parts[0] == "rbf" && len(parts) == 2:
		g, err := strconv.ParseFloat(parts[1], 64)
		if err != nil {
			return nil, kindErrorf(ErrOption, "kernel %q: gamma %q %s", s, parts[1], floatSyntax(err))
		}
		if v, ok := delim.ParseNumber(parts[1]); g == 0 && ok && v.Cmp(delim.Number{}) > 0 {
			// "rbf:1e-400" was "Gamma must be a finite number > 0, got
			// 0", of a gamma written > 0 (its exact value, helper-70).
			// One written < 0 ("-1e-400") is not > 0 whatever its size,
			// as "-1" is not (helper-73: it was called below the float64
			// range).
			return nil, kindErrorf(ErrOption, "kernel %q: gamma %q is below the float64 range (it rounds to 0, and Gamma must be > 0; the smallest is about 4.9e-324)", s, parts[1])
		}
		k = RBFKernel{Gamma: g}
	default:
		return nil, kindErrorf(ErrOption, "unknown kernel %q: want linear, poly:DEGREE[:C] or rbf:GAMMA", s)
	}
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	return k, nil
}

// floatSyntax says why strconv.ParseFloat refused a parameter: a number
// beyond the float64 range (1e400), or not a number at all.
func floatSyntax(err error) string {
	if errors.Is(err, strconv.ErrRange) {
		return "is beyond the float64 range (about ±1.8e308)"
	}
	return "is not a number"
}

// polyDegreeError is the ErrOption error of a polynomial degree below 1
// (low) or above MaxPolyDegree, as written (got).
func polyDegreeError(got string, low bool) error {
	if low {
		return kindErrorf(ErrOption, "poly kernel: Degree must be >= 1, got %s", got)
	}
	return kindErrorf(ErrOption, "poly kernel: Degree must be <= %d (MaxPolyDegree), got %s", MaxPolyDegree, got)
}

// checkKernel checks the parameters of the kernels of this package, given
// as values or as pointers (a *PolyKernel is a Kernel too, and skipped the
// checks: a Degree of 2^40 made KernelPerceptron spin for hours).
func checkKernel(k Kernel) error {
	switch k := k.(type) {
	case nil:
		return kindErrorf(ErrOption, "kernel is nil")
	case *LinearKernel:
		if k == nil {
			return kindErrorf(ErrOption, "kernel is a nil *LinearKernel")
		}
	case *PolyKernel:
		if k == nil {
			return kindErrorf(ErrOption, "kernel is a nil *PolyKernel")
		}
		return checkKernel(*k)
	case *RBFKernel:
		if k == nil {
			return kindErrorf(ErrOption, "kernel is a nil *RBFKernel")
		}
		return checkKernel(*k)
	case PolyKernel:
		if k.Degree < 1 || k.Degree > MaxPolyDegree {
			return polyDegreeError(strconv.Itoa(k.Degree), k.Degree < 1)
		}
		if !isFinite(k.C) {
			return kindErrorf(ErrOption, "poly kernel: C must be finite, got %v", k.C)
		}
	case RBFKernel:
		if !(k.Gamma > 0) || math.IsInf(k.Gamma, 1) {
			return kindErrorf(ErrOption, "rbf kernel: Gamma must be a finite number > 0, got %v", k.Gamma)
		}
	}
	return nil
}

// GramMatrix returns the Gram matrix G_ij = k(x_i, x_j) of the rows of d,
// the matrix that Dual (with LinearKernel) and KernelPerceptron compute
// once and learn from. It is n × n (mat.SymDense keeps the whole square,
// 8·n² bytes): a matrix above DefaultMaxGramBytes is refused with an
// error before it is allocated, as is a value k(x_i, x_j) that is not
// finite.
func GramMatrix(d *Dataset, k Kernel) (*mat.SymDense, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	// The rows as the learners check them: one class is a data set
	// KernelPerceptron trains (Validate, the theory's check, refused it).
	if err := checkTrain(d); err != nil {
		return nil, err
	}
	n := d.N()
	// GramMatrix has no Control to raise the budget in: its own error.
	if need := squareBytes(n); need > DefaultMaxGramBytes {
		return nil, kindErrorf(ErrOption, "GramMatrix: the %d × %d Gram matrix needs %d bytes (8·n²), more than DefaultMaxGramBytes (%d bytes), the most GramMatrix computes: compute it for fewer rows (KernelPerceptron and Dual keep half of it, within their Options' Control.MaxGramBytes)",
			n, n, need, DefaultMaxGramBytes)
	}
	gram := mat.NewSymDense(n, nil)
	raw := gram.RawSymmetric() // the upper triangle, row by row
	_, err := gramRows(d, k, nil, func(i int) []float64 { return raw.Data[i*raw.Stride+i : i*raw.Stride+n] })
	if err != nil {
		return nil, err
	}
	return gram, nil
}

// checkGramBytes refuses a Gram matrix of n rows that needs more than
// budget bytes (0 means DefaultMaxGramBytes) or more than an int counts,
// before it is allocated; formula says how need was counted.
func checkGramBytes(n int, budget, need int64, formula string) error {
	if budget == 0 {
		budget = DefaultMaxGramBytes
	}
	if need > budget {
		return kindErrorf(ErrOption, "the %d × %d Gram matrix needs %d bytes (%s), more than Control.MaxGramBytes allows (%d bytes; 0 means DefaultMaxGramBytes): raise MaxGramBytes if the memory is there, or train on fewer rows (PLA needs no Gram matrix)",
			n, n, need, formula, budget)
	}
	// Whatever the budget, no more bytes than an int counts (2^31 − 1 on
	// 386, where n = 2^16 made n·n wrap to 0).
	if need > math.MaxInt {
		return kindErrorf(ErrOption, "the %d × %d Gram matrix needs %d bytes (%s), more than this platform can address (%d bytes): train on fewer rows (PLA needs no Gram matrix)",
			n, n, need, formula, int64(math.MaxInt))
	}
	return nil
}

// gram is the Gram matrix of the learners: its upper triangle, row by row
// (rows[i][j-i] = G_ij for j ≥ i), about half the square's bytes. The
// rows are carved from blocks of whole rows of about 4 MiB each
// (gramBlockAt), each allocated when its first row is reached, between the
// Context's checks: 1 GiB in one piece took 0.5-0.9 s to zero, during
// which a deadline went unseen (helper-53), and one allocation a row cost
// 5-7% more than the values (the allocator's size classes; helper-56).
// gramBytes bounds what is allocated.
type gram [][]float64

// at returns G_ij.
func (g gram) at(i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return g[i][j-i]
}

// gramBlock is the size of the blocks of the learners' Gram matrix: a
// block holds whole rows, as many as fit in it (one at least). 4 MiB is
// zeroed in about 0.3 ms, and its rounding to pages costs under 0.2%.
const gramBlock = 4 << 20

// pageBytes is the allocator's unit: a slice above 32 KiB takes whole 8
// KiB pages, and every smaller size class is at most the next multiple of
// 8 KiB, so rounding up to it bounds what any allocation takes.
const pageBytes = 8 << 10

// gramBlockAt returns the block of an n-row triangle that starts at row
// first: it ends before row end and holds bytes of values, 8·Σ(n−i).
func gramBlockAt(n, first int) (end int, bytes int64) {
	end = first
	for end < n && (end == first || bytes+8*int64(n-end) <= gramBlock) {
		bytes += 8 * int64(n-end)
		end++
	}
	return end, bytes
}

// pages rounds b up to whole pages (pageBytes).
func pages(b int64) int64 { return (b + pageBytes - 1) / pageBytes * pageBytes }

// gramOf returns the learners' Gram matrix of d under k; stop, if not
// nil, is called before every row is computed (and before a block is
// allocated, at its first row): when it reports true, gramOf returns nil
// and no error. A value that is not finite is an error naming the pair.
func gramOf(d *Dataset, k Kernel, stop func() bool) (gram, error) {
	n := d.N()
	g := make(gram, n)
	done, err := gramRows(d, k, stop, func(i int) []float64 {
		if g[i] == nil { // the first row of the next block: allocate it
			end, bytes := gramBlockAt(n, i)
			buf := make([]float64, bytes/8)
			for r := i; r < end; r++ {
				g[r], buf = buf[:n-r:n-r], buf[n-r:]
			}
		}
		return g[i]
	})
	if err != nil || !done {
		return nil, err
	}
	return g, nil
}

// gramRows computes G_ij = k(x_i, x_j) for i ≤ j (G is symmetric) into
// row(i)[j-i], row by row, or returns an error naming the first pair
// whose value is not finite. stop, if not nil, is called before every
// row and every evalsPerCheck values within one: when it reports true,
// gramRows returns early, done false, and no error.
func gramRows(d *Dataset, k Kernel, stop func() bool, row func(i int) []float64) (done bool, err error) {
	n := d.N()
	every := evalsPerCheck(k, d.D())
	for i := 0; i < n; i++ {
		if stop != nil && stop() {
			return false, nil
		}
		r := row(i)
		xi := d.Row(i)
		left := every
		for j := i; j < n; j++ {
			if left--; left == 0 {
				left = every
				if stop != nil && stop() {
					return false, nil
				}
			}
			g := k.Eval(xi, d.Row(j))
			if !isFinite(g) {
				return false, kindErrorf(ErrNonFinite, "kernel %v: k(x_%d, x_%d) = %v is not finite", k, i, j, g)
			}
			r[j-i] = g
		}
	}
	return true, nil
}

// evalsPerCheck is the number of kernel values gramRows computes between
// two calls of stop within a row: the kernels of this package read about
// 2d values each, so ctxCheckValues/d of them; a kernel of the caller's
// may cost anything, so 64 (a kernel of 200 µs a value made a row of
// 2000 values 0.4 s without a look at the Context, helper-59).
func evalsPerCheck(k Kernel, d int) int {
	switch k.(type) {
	case LinearKernel, *LinearKernel, PolyKernel, *PolyKernel, RBFKernel, *RBFKernel:
		return max(1, ctxCheckValues/max(d, 1))
	}
	return 64
}

// squareBytes returns 8·n², the bytes of an n × n matrix of float64,
// saturated at MaxInt64 (from n = 2^30 on: 8·2^60 is 2^63).
func squareBytes(n int) int64 {
	if n >= 1<<30 {
		return math.MaxInt64
	}
	return 8 * int64(n) * int64(n)
}

// gramBytes returns what gramOf may allocate for n rows, the count
// checked against MaxGramBytes: the rows' slice headers in whole pages,
// the values of the upper triangle, 8·n(n+1)/2 bytes, and a page for
// every block it may take (gramBlockAt fills a block until the next row
// does not fit, so two blocks in a row hold more than gramBlock: there
// are at most 2·values/gramBlock + 1 of them), each rounded up to whole
// pages. It grows with n, so a budget that takes n rows takes fewer (the
// exact count did not: 3,317 rows packed into fewer pages than 3,316,
// helper-57), and it is above what is allocated by at most 0.4% of the
// values and a page. It saturates at MaxInt64 from n = 2^30.
func gramBytes(n int) int64 {
	if n >= 1<<30 {
		return math.MaxInt64
	}
	values := 4 * int64(n) * (int64(n) + 1)
	blocks := 2*values/gramBlock + 1
	return pages(int64(n)*int64(unsafe.Sizeof([]float64(nil)))) + values + blocks*pageBytes
}
