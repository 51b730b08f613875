package perceptron

import (
	"fmt"
	"math"
)

// nonFiniteError names the epoch and row at which a run met a non-finite
// value.
func nonFiniteError(format string, args ...any) error {
	return kindErrorf(ErrNonFinite, format, args...)
}

// isFinite reports whether x is neither NaN nor ±Inf: |x| ≤ MaxFloat64
// is false for both. It is the package's one finiteness test, from the
// data's checks to the training loops' (where it costs a mask and one
// comparison). It was x − x == 0, which is as cheap, but where x is a
// product inlined into it a compiler that fuses (arm64, ppc64, riscv64,
// GOAMD64=v3) may compute x − x as a fused multiply-subtract, whose answer
// is the product's rounding error and not 0.
func isFinite(x float64) bool { return math.Abs(x) <= math.MaxFloat64 }

// firstNonFinite returns the index of the first non-finite value of w, or
// -1.
func firstNonFinite(w []float64) int {
	for j, v := range w {
		if !isFinite(v) {
			return j
		}
	}
	return -1
}

// checkWeights returns an ErrNonFinite error when w or b is not finite:
// what names it (e.g. "the weights", "the averaged weights") and the update
// that made them so (row, epoch).
func checkWeights(what string, w []float64, b float64, row, epoch int) error {
	return weightsError(what, w, b, func() string { return fmt.Sprintf("with the update on row %d in epoch %d", row, epoch) })
}

// weightsError returns an ErrNonFinite error when w or b is not finite:
// what names them and when() says when they became so.
func weightsError(what string, w []float64, b float64, when func() string) error {
	j := firstNonFinite(w)
	if j < 0 && isFinite(b) {
		return nil
	}
	where := fmt.Sprintf("b = %v", b)
	if j >= 0 {
		where = fmt.Sprintf("w[%d] = %v", j, w[j])
	}
	return nonFiniteError("%s became non-finite (%s) %s: the data or Eta is too large (overflow); scale the data or lower Eta",
		what, where, when())
}
