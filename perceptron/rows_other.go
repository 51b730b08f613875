//go:build !amd64 || noasm || gccgo || safe

package perceptron

// Without the amd64 assembly the kernels are the Go loops of rows.go.

// dot8Exact is dot8ExactGo (pf, where the assembly prefetches, is unused).
func dot8Exact(w, x []float64, o *[8]int, pf int, out *[8]float64) { dot8ExactGo(w, x, o, out) }

// axpy is axpyGo.
func axpy(a float64, x, w []float64) { axpyGo(a, x, w) }

// dotFast is dotFastGo.
func dotFast(w, x []float64) float64 { return dotFastGo(w, x) }
