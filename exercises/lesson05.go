package exercises

import (
	"fmt"
	"math"
)

// CheckAugmentedMargin checks lesson 5's Exercise 1: f(geo, w, b) turns the
// geometric margin geo of a separator (w, b), measured over ||w|| as in
// lesson 1, into the margin the convergence bound uses, measured over
// ||[b, w]||: geo·||w||/||[b, w]||.
func CheckAugmentedMargin(f func(geo float64, w []float64, b float64) float64) bool {
	return run("Exercise 1 (AugmentedMargin)", func(c *checker) {
		for _, tc := range []struct {
			geo float64
			w   []float64
			b   float64
		}{
			{0.5, []float64{3, 4}, 0},  // no bias: nothing changes
			{0.2, []float64{3, 4}, 12}, // ||w|| = 5, ||[b, w]|| = 13
			{0.0552, []float64{0.18957, -0.98187}, -0.29601},
			{1, []float64{-1}, 1}, // 1-D: 1/√2
		} {
			want := tc.geo * math.Sqrt(dotProduct(tc.w, tc.w)) / math.Sqrt(dotProduct(tc.w, tc.w)+tc.b*tc.b)
			c.close(fmt.Sprintf("geo = %v, w = %v, b = %v", tc.geo, tc.w, tc.b), want, f(tc.geo, tc.w, tc.b), 1e-9)
		}
	})
}

// CheckProofBounds checks lesson 5's Exercise 2: with learning rate η, after
// t updates the proof's lower bound on θ_t·θ* is tηγ and its upper bound on
// ||θ_t|| is ηR√t; f(t, R, gamma, eta) returns both.
func CheckProofBounds(f func(t int, R, gamma, eta float64) (lower, upper float64)) bool {
	return run("Exercise 2 (ProofBounds)", func(c *checker) {
		for _, tc := range []struct {
			t             int
			R, gamma, eta float64
		}{
			{0, 1.6, 0.05, 1},
			{4, 2, 0.5, 1},
			{100, 1.611, 0.0529, 1},
			{9, 3, 0.25, 0.1},
			{16, 1, 0.5, 2.5},
		} {
			lo, up := f(tc.t, tc.R, tc.gamma, tc.eta)
			t := float64(tc.t)
			c.closeSlice(fmt.Sprintf("t = %d, R = %v, γ = %v, η = %v: [lower upper]", tc.t, tc.R, tc.gamma, tc.eta),
				[]float64{t * tc.eta * tc.gamma, tc.eta * tc.R * math.Sqrt(t)}, []float64{lo, up}, 1e-9)
		}
	})
}

func dotProduct(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
