package exercises

import "fmt"

// CheckPocketErrorsTrace checks lesson 6's Exercise 2: given the training
// errors errs[t] of PLA's weights after update t+1 on n rows, f(errs, n)
// returns the pocket's training errors after every update. The pocket
// starts at w = 0, b = 0, which makes n errors (a score of 0 is a
// mistake), and takes new weights only when they make strictly fewer.
func CheckPocketErrorsTrace(f func(errs []int, n int) []int) bool {
	return run("Exercise 2 (PocketErrorsTrace)", func(c *checker) {
		for _, tc := range []struct {
			errs []int
			n    int
			want []int
		}{
			{[]int{5, 3, 4, 2}, 10, []int{5, 3, 3, 2}},
			{[]int{12, 10, 11}, 10, []int{10, 10, 10}},
			{[]int{0}, 4, []int{0}},
			{[]int{7, 7, 6, 9, 1, 3}, 8, []int{7, 7, 6, 6, 1, 1}},
		} {
			c.equal(fmt.Sprintf("errs = %v, n = %d", tc.errs, tc.n), tc.want, f(tc.errs, tc.n))
		}
	})
}

// CheckRawWeights checks lesson 6's Exercise 3: a hyperplane (wz, bz)
// learned on standardised features z_j = (x_j − mean_j)/std_j is the same
// classifier as (w, b) on the raw features, with w_j = wz_j/std_j and
// b = bz − Σ_j wz_j·mean_j/std_j; f(wz, bz, mean, std) returns w and b
// (compared as the slice [w..., b]).
func CheckRawWeights(f func(wz []float64, bz float64, mean, std []float64) (w []float64, b float64)) bool {
	return run("Exercise 3 (RawWeights)", func(c *checker) {
		for _, tc := range []struct {
			wz, mean, std []float64
			bz            float64
			want          []float64
		}{
			{[]float64{1, 2}, []float64{0, 0}, []float64{1, 1}, 0.5, []float64{1, 2, 0.5}},
			{[]float64{2}, []float64{3}, []float64{4}, 1, []float64{0.5, -0.5}},
			{[]float64{1, -1}, []float64{10, 0.1}, []float64{100, 0.01}, 0, []float64{0.01, -100, 9.9}},
		} {
			w, b := f(tc.wz, tc.bz, tc.mean, tc.std)
			c.closeSlice(fmt.Sprintf("wz = %v, bz = %v, mean = %v, std = %v: [w b]", tc.wz, tc.bz, tc.mean, tc.std),
				tc.want, append(append([]float64(nil), w...), b), 1e-12)
		}
	})
}
