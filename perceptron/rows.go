package perceptron

// Eight rows at a time: the kernels that score a block of rows with one w.
// On amd64 they are written in SSE2 assembly (rows_amd64.s); elsewhere, and
// in the tests that check the assembly bit for bit, they are the Go loops
// below.

// dot8ExactGo sets out[q] = w·x_q, x_q = x[o[q] : o[q]+len(w)], for q < 8,
// each summed left to right exactly as dotExact sums it.
func dot8ExactGo(w, x []float64, o *[8]int, out *[8]float64) {
	n := len(w)
	for q, oq := range o {
		out[q] = dotExact(w, x[oq:oq+n:oq+n])
	}
}

// dot8FastGo is dot8ExactGo with the sums of dotFast.
func dot8FastGo(w, x []float64, o *[8]int, out *[8]float64) {
	n := len(w)
	for q, oq := range o {
		out[q] = dotFast(w, x[oq:oq+n:oq+n])
	}
}

// axpyGo sets w_j ← w_j + a x_j for j < len(x), with the product rounded
// before the sum (no fused multiply-add: the float64 conversion forbids it).
func axpyGo(a float64, x, w []float64) {
	w = w[:len(x)]
	for j, v := range x {
		w[j] += float64(v * a)
	}
}
