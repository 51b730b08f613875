//go:build !amd64 || noasm || gccgo || safe

package perceptron

// Without the amd64 assembly the kernels are the Go loops of rows.go.

// hasAVX2 is false: there is no assembly here.
var hasAVX2 = false

// dot8Exact is dot8ExactGo (pf, where the assembly prefetches, is unused).
func dot8Exact(w, x []float64, o *[8]int, pf int, out *[8]float64) { dot8ExactGo(w, x, o, out) }

// axpy is axpyGo.
func axpy(a float64, x, w []float64) { axpyGo(a, x, w) }

// dotFast is dotFastGo.
func dotFast(w, x []float64) float64 { return dotFastGo(w, x) }

// scanFast is scanFastGo.
func scanFast(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	return scanFastGo(w, x, c, st, y, b, eta, bias, maxu)
}
