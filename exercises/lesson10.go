package exercises

import "fmt"

// CheckScoreCard checks lesson 10's Exercise 1: f(w, b, t) rescales the
// rule "approve when w·x + b > 0" (b < 0) to a score card "approve when
// w'·x > t" with the same decisions: w' = (t/(−b))·w.
func CheckScoreCard(f func(w []float64, b, t float64) []float64) bool {
	return run("Exercise 1 (ScoreCard)", func(c *checker) {
		for _, tc := range []struct {
			w    []float64
			b, t float64
			want []float64
		}{
			{[]float64{0.04, 0.1, 0.2, -0.2}, -5, 2.5, []float64{0.02, 0.05, 0.1, -0.1}},
			{[]float64{1, -2}, -0.5, 1, []float64{2, -4}},
			{[]float64{3}, -3, 2.5, []float64{2.5}},
		} {
			c.closeSlice(fmt.Sprintf("w = %v, b = %v, t = %v", tc.w, tc.b, tc.t), tc.want, f(tc.w, tc.b, tc.t), 1e-12)
		}
	})
}

// CheckWindowRule checks lesson 10's Exercise 2: f(lo, hi) returns a
// hyperplane (w, b) on the features [age, age²] that approves (w·x + b > 0)
// exactly the ages strictly between lo and hi. It is checked on ages away
// from lo and hi, so any positive multiple of a right answer passes.
func CheckWindowRule(f func(lo, hi float64) (w []float64, b float64)) bool {
	return run("Exercise 2 (WindowRule)", func(c *checker) {
		ages := []float64{18, 20, 24.5, 25.5, 30, 45, 59.5, 60.5, 70, 80}
		for _, win := range [][2]float64{{25, 60}, {30, 40}, {19, 75}} {
			w, b := f(win[0], win[1])
			want := make([]bool, len(ages))
			got := make([]bool, len(ages))
			for k, a := range ages {
				want[k] = a > win[0] && a < win[1]
				if len(w) == 2 {
					got[k] = w[0]*a+w[1]*a*a+b > 0
				}
			}
			c.equal(fmt.Sprintf("window %v, approved ages among %v", win, ages), want, got)
		}
	})
}
