package exercises

import "fmt"

// lesson8Rows are the augmented rows x' = [1, x] of the points x = -1, 0.5,
// 2 with labels -1, +1, +1.
var lesson8Rows, lesson8Labels = [][]float64{{1, -1}, {1, 0.5}, {1, 2}}, []float64{-1, 1, 1}

// CheckPerceptronLoss checks lesson 8's Exercise 1: f(theta, X, y) returns
// the perceptron loss L(θ) = Σ_i max(0, −y_i θ·x_i) and its gradient
// −Σ y_i x_i over the rows with y_i θ·x_i ≤ 0 (a score of exactly 0 counts,
// as in PLA), compared as the slice [L, grad...].
func CheckPerceptronLoss(f func(theta []float64, X [][]float64, y []float64) (L float64, grad []float64)) bool {
	return run("Exercise 1 (PerceptronLoss)", func(c *checker) {
		for _, tc := range []struct {
			theta, want []float64
		}{
			{[]float64{0, 0}, []float64{0, -1, -3.5}}, // every score is 0: all three count
			{[]float64{1, -1}, []float64{3, 0, -3}},
			{[]float64{0.5, 1}, []float64{0, 0, 0}},
		} {
			L, g := f(tc.theta, lesson8Rows, lesson8Labels)
			c.closeSlice(fmt.Sprintf("θ = %v: [L grad]", tc.theta), tc.want, append([]float64{L}, g...), 1e-12)
		}
	})
}
