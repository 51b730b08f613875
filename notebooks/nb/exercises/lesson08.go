package exercises

import (
	"fmt"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// lesson8Rows are the augmented rows x' = [1, x] of the points x = -1, 0.5,
// 2 with labels -1, +1, +1.
var lesson8Rows, lesson8Labels = [][]float64{{1, -1}, {1, 0.5}, {1, 2}}, []float64{-1, 1, 1}

// CheckPerceptronLoss checks lesson 8's Exercise 1: f(theta, X, y) returns
// the perceptron loss L(θ) = Σ_i max(0, −y_i θ·x_i) and its gradient
// −Σ y_i x_i over the rows with y_i θ·x_i ≤ 0 (a score of exactly 0 counts,
// as in PLA), compared as the slice [L, grad...].
func CheckPerceptronLoss(f func(theta []float64, X [][]float64, y []float64) (L float64, grad []float64)) bool {
	return runOwn("Exercise 1 (PerceptronLoss)", f, func(c *checker) {
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
		// Random: integer rows and θ, so that scores of 0 come up.
		rng := c.random()
		d := randomData(rng, 5+rng.IntN(10), 2, 0.2)
		X, y := perceptron.Augment(d).Rows(), d.Y
		theta := ints(rng, 3, -2, 2)
		want := make([]float64, 4)
		for i, x := range X {
			if m := y[i] * dotProduct(theta, x); m <= 0 {
				want[0] -= m
				for j := range x {
					want[j+1] -= y[i] * x[j]
				}
			}
		}
		L, g := f(slices.Clone(theta), clone2(X), slices.Clone(y))
		c.closeSlice(fmt.Sprintf("random: θ = %v, X = %v, y = %v: [L grad]", theta, X, y), want, append([]float64{L}, g...), 1e-12)
	})
}
