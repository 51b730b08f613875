package exercises

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// lesson01Cases are the hyperplanes and points of lesson 1's checkers: a
// hand-made 3-4-5 case, the lesson's two-feature bank and a 4-D rule.
var lesson01Cases = []struct {
	w []float64
	b float64
	x []float64
}{
	{[]float64{3, 4}, -5, []float64{3, 4}},   // score 20
	{[]float64{3, 4}, -5, []float64{0, 0}},   // score -5
	{[]float64{3, 4}, -5, []float64{1, 0.5}}, // score 0: on the boundary
	{[]float64{0.05, -0.1}, -1.1, []float64{43, 2.3}},
	{[]float64{0.05, -0.1}, -1.1, []float64{29.8, 6.4}},
	{[]float64{0.02, 0.05, 0.1, -0.1}, -2.5, []float64{42, 72.7, 13.2, 7.7}},
}

// randomCases01 draws k random cases of lesson 1's checkers: 2 to 4
// features, small integers (so that a score of exactly 0 comes up), b ≠ 0.
func randomCases01(rng *rand.Rand, k int) []struct {
	w []float64
	b float64
	x []float64
} {
	out := make([]struct {
		w []float64
		b float64
		x []float64
	}, k)
	for i := range out {
		d := 2 + rng.IntN(3)
		out[i].w, out[i].b, out[i].x = ints(rng, d, -3, 3), nonZero(rng, -4, 4), ints(rng, d, -3, 3)
		if out[i].w[0] == 0 {
			out[i].w[0] = 1 // a hyperplane needs w ≠ 0
		}
	}
	return out
}

// CheckPredict checks lesson 1's Exercise 1: Predict(w, b, x) returns
// sign(w·x + b), +1 or -1, and 0 for a score of exactly 0 (undecided,
// counted as a mistake for either label).
func CheckPredict(predict func(w []float64, b float64, x []float64) float64) bool {
	return runLoop("Exercise 1 (Predict)", predict, func(c *checker) {
		for _, tc := range append(slices.Clone(lesson01Cases), randomCases01(c.random(), 6)...) {
			want := must(perceptron.Hyperplane{W: tc.w, B: tc.b}.Predict(tc.x))
			c.equal(fmt.Sprintf("w = %v, b = %v, x = %v", tc.w, tc.b, tc.x), want, predict(tc.w, tc.b, tc.x))
		}
	})
}

// CheckNearestOnBoundary checks lesson 1's Exercise 2:
// NearestOnBoundary(w, b, x) returns the point of the boundary w·x + b = 0
// nearest to x, x − (w·x + b)/||w||² · w. Besides the point itself, it
// checks the two properties that make it the nearest: its score is 0 and
// its distance to x is |signed distance of x|.
func CheckNearestOnBoundary(nearest func(w []float64, b float64, x []float64) []float64) bool {
	return runLoop("Exercise 2 (NearestOnBoundary)", nearest, func(c *checker) {
		for _, tc := range append(slices.Clone(lesson01Cases), randomCases01(c.random(), 2)...) {
			h := perceptron.Hyperplane{W: tc.w, B: tc.b}
			s, _ := h.Score(tc.x)
			nw2 := h.Norm() * h.Norm()
			want := make([]float64, len(tc.x))
			for j := range want {
				want[j] = tc.x[j] - s/nw2*tc.w[j]
			}
			got := nearest(tc.w, tc.b, tc.x)
			what := fmt.Sprintf("w = %v, b = %v, x = %v", tc.w, tc.b, tc.x)
			// 1e-9: the formula in another order of operations, on values
			// up to about 100, differs by a few roundings.
			c.closeSlice(what, want, got, 1e-9)
			if len(got) != len(tc.x) {
				continue
			}
			sg, _ := h.Score(got)
			dist, _ := h.SignedDistance(tc.x)
			var gap float64
			for j := range got {
				gap += (got[j] - tc.x[j]) * (got[j] - tc.x[j])
			}
			c.close(what+": score of your point", 0, sg, 1e-9)
			c.close(what+": its distance to x", math.Abs(dist), math.Sqrt(gap), 1e-9)
		}
	})
}

// CheckTrainingError checks lesson 1's Exercise 3: TrainingError(w, b, X,
// y) returns the mean 0-1 loss of sign(w·x + b) on the rows of X, a score
// of 0 counting as a mistake.
func CheckTrainingError(trainingError func(w []float64, b float64, X [][]float64, y []float64) float64) bool {
	return runLoop("Exercise 3 (TrainingError)", trainingError, func(c *checker) {
		// Hand-made: scores 20, -5, 0, 11 for labels +1, +1, -1, +1: the
		// second is wrong and the third undecided, so 2 mistakes in 4.
		X := [][]float64{{3, 4}, {0, 0}, {1, 0.5}, {4, 1}}
		// 1e-12: a mean summed in another order is off by a few roundings.
		c.close("w = [3 4], b = -5 on 4 hand-made points (one score is 0)", 0.5,
			trainingError([]float64{3, 4}, -5, X, []float64{1, 1, -1, 1}), 1e-12)
		d, rule, err := perceptron.CreditApplicants(1000, 0.05, 1)
		if err != nil {
			panic(err)
		}
		want, _ := rule.ErrorRate(d)
		c.close("the hidden rule on 1000 applicants, 5% overruled", want, trainingError(rule.W, rule.B, d.Rows(), d.Y), 1e-12)
		h := perceptron.Hyperplane{W: []float64{0.05, -0.1, 0.01, 0.02}, B: -1}
		want, _ = h.ErrorRate(d)
		c.close(fmt.Sprintf("w = %v, b = %v on the same applicants", h.W, h.B), want, trainingError(h.W, h.B, d.Rows(), d.Y), 1e-12)
		// Random: small integer points and labels, so that scores of 0 come up.
		rng := c.random()
		for range 2 {
			n := 5 + rng.IntN(20)
			X, y := make([][]float64, n), make([]float64, n)
			for i := range X {
				X[i], y[i] = ints(rng, 2, -3, 3), float64(2*rng.IntN(2)-1)
			}
			h := perceptron.Hyperplane{W: ints(rng, 2, -2, 2), B: nonZero(rng, -2, 2)}
			rd := must(perceptron.NewDataset(X, y))
			want, _ := h.ErrorRate(rd)
			c.close(fmt.Sprintf("random: w = %v, b = %v on %d points X = %v, y = %v", h.W, h.B, n, X, y), want, trainingError(h.W, h.B, clone2(X), slices.Clone(y)), 1e-12)
		}
	})
}
