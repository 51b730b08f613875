package exercises

import (
	"fmt"
	"math"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// AugmentedMarginFunc is the signature of lesson 5's Exercise 2.
type AugmentedMarginFunc func(X [][]float64, y []float64, w []float64, b float64) float64

// CheckAugmentedMargin checks lesson 5's Exercise 2: f(X, y, w, b)
// computes, from the data, the margin the convergence bound uses for the
// hyperplane (w, b): min_i y_i(w·x_i + b)/||[b, w]||, the margin of θ =
// [b, w] on the augmented points [1, x_i]. The expected values come from
// perceptron's DatasetMargin on Augment(d), compared within a relative
// 1e-9; the cases include a hyperplane that misclassifies a point (a
// negative margin), one through the origin (b = 0, where it equals
// lesson 1's margin) and one where the smallest |w·x + b| and the smallest
// y(w·x + b) belong to different points (so min |score| fails). A function that calls the package fails with "write
// it with a loop, not perceptron.X".
func CheckAugmentedMargin(f AugmentedMarginFunc) bool {
	return runLoop("Exercise 2 (AugmentedMargin)", f, func(c *checker) {
		sep := drawn(perceptron.SeparableData(50, 2, 0.03, 5))
		svm, _, err := perceptron.MaxMargin(sep, perceptron.Options{})
		if err != nil {
			panic(err)
		}
		small := must(perceptron.NewDataset([][]float64{{3, 4}, {0, 0}, {2, 2}, {1, -1}}, []float64{1, -1, 1, -1}))
		rng := c.random()
		rd := randomData(rng, 5+rng.IntN(10), 2, 0.2)
		rh := perceptron.Hyperplane{W: ints(rng, 2, -3, 3), B: nonZero(rng, -3, 3)}
		for _, tc := range []struct {
			what string
			d    *perceptron.Dataset
			h    perceptron.Hyperplane
		}{
			{fmt.Sprintf("random: X = %v, y = %v, w = %v, b = %v", rd.Rows(), rd.Y, rh.W, rh.B), rd, rh},
			{"4 points, w = [3 4], b = -5", small, perceptron.Hyperplane{W: []float64{3, 4}, B: -5}},
			{"4 points, w = [1 1], b = 0 (through the origin)", small, perceptron.Hyperplane{W: []float64{1, 1}}},
			{"4 points, w = [1 0], b = -2.5 (misclassifies (2, 2): a negative margin)", small, perceptron.Hyperplane{W: []float64{1, 0}, B: -2.5}},
			{"4 points, w = [1 -1], b = 0 (two points on the line, two misclassified)", small, perceptron.Hyperplane{W: []float64{1, -1}}},
			{"lesson 5's oneRun() and its SVM line", sep, svm},
		} {
			want, _, err := perceptron.Hyperplane{W: tc.h.Theta()}.DatasetMargin(perceptron.Augment(tc.d))
			if err != nil {
				panic(err)
			}
			c.close(tc.what, want, f(tc.d.Rows(), slices.Clone(tc.d.Y), slices.Clone(tc.h.W), tc.h.B), 1e-9)
		}
	})
}

// CheckProofBounds checks lesson 5's Exercise 1: with learning rate η, after
// t updates the proof's lower bound on θ_t·θ* is tηγ and its upper bound on
// ||θ_t|| is ηR√t; f(t, R, gamma, eta) returns both.
func CheckProofBounds(f func(t int, R, gamma, eta float64) (lower, upper float64)) bool {
	return runOwn("Exercise 1 (ProofBounds)", f, func(c *checker) {
		for _, tc := range []struct {
			t             int
			R, gamma, eta float64
		}{
			{0, 1.6, 0.05, 1},
			{4, 2, 0.5, 1},
			{100, 1.611, 0.0529, 1},
			{9, 3, 0.25, 0.1},
			{16, 1, 0.5, 2.5},
			{c.random().IntN(1000), 1 + 4*c.random().Float64(), 0.01 + 0.5*c.random().Float64(), []float64{0.1, 0.5, 1, 2}[c.random().IntN(4)]},
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
