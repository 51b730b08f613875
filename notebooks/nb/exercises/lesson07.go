package exercises

import (
	"fmt"
	"math/rand/v2"
)

// CheckSurvivalCounts checks lesson 7's Exercise 2: f(mistakes, S) returns
// the survival counts c_0..c_K of a run of S steps whose K updates happened
// at the (1-based, increasing) steps in mistakes: c_k is the number of
// steps after which w_k (the weights after k updates) was the current
// weight vector, the step that created it included.
func CheckSurvivalCounts(f func(mistakes []int, S int) []int) bool {
	return runOwn("Exercise 2 (SurvivalCounts)", f, func(c *checker) {
		for _, tc := range []struct {
			mistakes []int
			S        int
			want     []int
		}{
			{[]int{1}, 3, []int{0, 3}},
			{[]int{2, 5}, 6, []int{1, 3, 2}},
			{nil, 4, []int{4}},
			{[]int{1, 2, 3}, 3, []int{0, 1, 1, 1}},
			{[]int{3, 4, 10}, 12, []int{2, 1, 6, 3}},
			randomSurvival(c.random()),
		} {
			c.equal(fmt.Sprintf("mistakes at steps %v of %d", tc.mistakes, tc.S), tc.want, f(tc.mistakes, tc.S))
		}
	})
}

// randomSurvival draws a random run of CheckSurvivalCounts: S steps, K
// updates at distinct steps, and the counts worked out step by step.
func randomSurvival(rng *rand.Rand) struct {
	mistakes []int
	S        int
	want     []int
} {
	S := 5 + rng.IntN(40)
	var mistakes []int
	want := []int{0}
	for step := 1; step <= S; step++ {
		if rng.IntN(3) == 0 {
			mistakes = append(mistakes, step)
			want = append(want, 0)
		}
		want[len(want)-1]++
	}
	return struct {
		mistakes []int
		S        int
		want     []int
	}{mistakes, S, want}
}

// randomAverage draws random vectors and counts (the first vector 0, as a
// run's), with their count-weighted average.
func randomAverage(rng *rand.Rand) struct {
	ws     [][]float64
	counts []int
	want   []float64
} {
	d, k := 1+rng.IntN(3), 2+rng.IntN(5)
	ws, counts, want := [][]float64{make([]float64, d)}, []int{rng.IntN(3)}, make([]float64, d)
	total := counts[0]
	for range k {
		ws, counts = append(ws, ints(rng, d, -5, 5)), append(counts, 1+rng.IntN(9))
		total += counts[len(counts)-1]
	}
	for i, w := range ws {
		for j := range want {
			want[j] += float64(counts[i]) * w[j] / float64(total)
		}
	}
	return struct {
		ws     [][]float64
		counts []int
		want   []float64
	}{ws, counts, want}
}

// CheckCountWeightedAverage checks lesson 7's Exercise 3: f(ws, counts)
// returns Σ_k c_k w_k / Σ_k c_k, the averaged perceptron's weights read
// from the voted perceptron's vectors and survival counts.
func CheckCountWeightedAverage(f func(ws [][]float64, counts []int) []float64) bool {
	return runOwn("Exercise 3 (CountWeightedAverage)", f, func(c *checker) {
		for _, tc := range []struct {
			ws     [][]float64
			counts []int
			want   []float64
		}{
			{[][]float64{{0, 0}, {1, 2}}, []int{0, 4}, []float64{1, 2}},
			{[][]float64{{0, 0}, {2, -2}, {4, 0}}, []int{1, 1, 2}, []float64{2.5, -0.5}},
			{[][]float64{{0}, {3}}, []int{3, 1}, []float64{0.75}},
			{[][]float64{{0, 0, 0}, {1, 1, 1}, {1, 0, 2}}, []int{2, 5, 3}, []float64{0.8, 0.5, 1.1}},
			randomAverage(c.random()),
		} {
			c.closeSlice(fmt.Sprintf("ws = %v, counts = %v", tc.ws, tc.counts), tc.want, f(tc.ws, tc.counts), 1e-12)
		}
	})
}
