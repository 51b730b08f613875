package exercises

import (
	"fmt"
	"math"

	"github.com/perceptron-go/lessons/perceptron"
)

// CheckSplitTheta checks lesson 2's Exercise 1: SplitTheta(θ) undoes the
// notational hack, returning w = θ[1:] and b = θ[0], in a new slice (the
// caller's θ must not change when w does).
func CheckSplitTheta(split func(theta []float64) (w []float64, b float64)) bool {
	return runLoop("Exercise 1 (SplitTheta)", split, func(c *checker) {
		rng := c.random()
		for _, theta := range [][]float64{{-2.5, 0.02, 0.05, 0.1, -0.1}, {-40, 1}, {3, 0, 0},
			append([]float64{nonZero(rng, -9, 9)}, ints(rng, 1+rng.IntN(4), -9, 9)...)} {
			want := must(perceptron.FromTheta(theta))
			keep := append([]float64(nil), theta...)
			w, b := split(theta)
			c.equal(fmt.Sprintf("θ = %v: w", keep), want.W, w)
			c.equal(fmt.Sprintf("θ = %v: b", keep), want.B, b)
			if len(w) > 0 {
				w[0] += 1000
			}
			c.equal(fmt.Sprintf("θ = %v after changing w[0]", keep), keep, theta)
		}
	})
}

// CheckLiftedDistance checks lesson 2's Exercise 2: LiftedDistance(w, b,
// x) returns the signed distance of x' = [1, x] to the boundary θ·x' = 0
// of θ = [b, w] in d+1 dimensions, (w·x + b)/sqrt(b² + ||w||²).
func CheckLiftedDistance(lifted func(w []float64, b float64, x []float64) float64) bool {
	return runLoop("Exercise 2 (LiftedDistance)", lifted, func(c *checker) {
		cases := []struct {
			w []float64
			b float64
			x []float64
		}{
			{[]float64{1}, -40, []float64{50}},
			{[]float64{3, 4}, 0, []float64{3, 4}}, // b = 0: the distance of lesson 1
			{[]float64{0.05, -0.1}, -1.1, []float64{29.8, 6.4}},
			{[]float64{0.02, 0.05, 0.1, -0.1}, -2.5, []float64{42, 72.7, 13.2, 7.7}},
		}
		cases = append(cases, randomCases01(c.random(), 2)...)
		for _, tc := range cases {
			theta := perceptron.Hyperplane{W: perceptron.Hyperplane{W: tc.w, B: tc.b}.Theta()}
			want := must(theta.SignedDistance(append([]float64{1}, tc.x...)))
			// 1e-12: another order of the same few operations.
			c.close(fmt.Sprintf("w = %v, b = %v, x = %v", tc.w, tc.b, tc.x), want, lifted(tc.w, tc.b, tc.x), 1e-12)
		}
		c.close("w = [1], b = -40, x = [50] by hand: 10/sqrt(1601)", 10/math.Sqrt(1601), lifted([]float64{1}, -40, []float64{50}), 1e-12)
	})
}
