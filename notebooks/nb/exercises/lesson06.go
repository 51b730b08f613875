package exercises

import (
	"fmt"
	"math/rand/v2"
)

// CheckPocketErrorsTrace checks lesson 6's Exercise 2: given the training
// errors errs[t] of PLA's weights after update t+1 on n rows, f(errs, n)
// returns the pocket's training errors after every update. The pocket
// starts at w = 0, b = 0, which makes n errors (a score of 0 is a
// mistake), and takes new weights only when they make strictly fewer.
func CheckPocketErrorsTrace(f func(errs []int, n int) []int) bool {
	return runOwn("Exercise 2 (PocketErrorsTrace)", f, func(c *checker) {
		for _, tc := range []struct {
			errs []int
			n    int
			want []int
		}{
			{[]int{5, 3, 4, 2}, 10, []int{5, 3, 3, 2}},
			{[]int{10, 9, 10}, 10, []int{10, 9, 9}},
			{[]int{0}, 4, []int{0}},
			{[]int{7, 7, 6, 9, 1, 3}, 8, []int{7, 7, 6, 6, 1, 1}},
			randomTrace(c.random()),
		} {
			c.equal(fmt.Sprintf("errs = %v, n = %d", tc.errs, tc.n), tc.want, f(tc.errs, tc.n))
		}
	})
}

// randomTrace draws a random case of CheckPocketErrorsTrace: n rows, a
// few errors counts of at most n, and the pocket's trace worked out.
func randomTrace(rng *rand.Rand) struct {
	errs []int
	n    int
	want []int
} {
	n := 5 + rng.IntN(50)
	errs, want := make([]int, 3+rng.IntN(10)), []int{}
	best := n
	for k := range errs {
		errs[k] = rng.IntN(n + 1)
		best = min(best, errs[k])
		want = append(want, best)
	}
	return struct {
		errs []int
		n    int
		want []int
	}{errs, n, want}
}

// randomRaw draws a random case of CheckRawWeights, b ≠ 0, with its
// answer from the formula.
func randomRaw(rng *rand.Rand) struct {
	wz, mean, std []float64
	bz            float64
	want          []float64
} {
	d := 1 + rng.IntN(4)
	wz, mean, std := normals(rng, d, 2), normals(rng, d, 10), make([]float64, d)
	bz := nonZero(rng, -5, 5)
	b := bz
	w := make([]float64, d)
	for j := range std {
		std[j] = 0.1 + 5*rng.Float64()
		w[j] = wz[j] / std[j]
		b -= wz[j] * mean[j] / std[j]
	}
	return struct {
		wz, mean, std []float64
		bz            float64
		want          []float64
	}{wz, mean, std, bz, append(w, b)}
}

// CheckRawWeights checks lesson 6's Exercise 3: a hyperplane (wz, bz)
// learned on standardised features z_j = (x_j − mean_j)/std_j is the same
// classifier as (w, b) on the raw features, with w_j = wz_j/std_j and
// b = bz − Σ_j wz_j·mean_j/std_j; f(wz, bz, mean, std) returns w and b
// (compared as the slice [w..., b]).
func CheckRawWeights(f func(wz []float64, bz float64, mean, std []float64) (w []float64, b float64)) bool {
	return runOwn("Exercise 3 (RawWeights)", f, func(c *checker) {
		for _, tc := range []struct {
			wz, mean, std []float64
			bz            float64
			want          []float64
		}{
			{[]float64{1, 2}, []float64{0, 0}, []float64{1, 1}, 0.5, []float64{1, 2, 0.5}},
			{[]float64{2}, []float64{3}, []float64{4}, 1, []float64{0.5, -0.5}},
			{[]float64{1, -1}, []float64{10, 0.1}, []float64{100, 0.01}, 0, []float64{0.01, -100, 9.9}},
			randomRaw(c.random()),
		} {
			w, b := f(tc.wz, tc.bz, tc.mean, tc.std)
			c.closeSlice(fmt.Sprintf("wz = %v, bz = %v, mean = %v, std = %v: [w b]", tc.wz, tc.bz, tc.mean, tc.std),
				tc.want, append(append([]float64(nil), w...), b), 1e-12)
		}
	})
}
