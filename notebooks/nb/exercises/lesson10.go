package exercises

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CheckScoreCard checks lesson 10's Exercise 1: f(w, b, t) rescales the
// rule "approve when w·x + b > 0" (b < 0) to a score card "approve when
// w'·x > t" with the same decisions: w' = (t/(−b))·w.
func CheckScoreCard(f func(w []float64, b, t float64) []float64) bool {
	return runOwn("Exercise 1 (ScoreCard)", f, func(c *checker) {
		for _, tc := range []struct {
			w    []float64
			b, t float64
			want []float64
		}{
			{[]float64{0.04, 0.1, 0.2, -0.2}, -5, 2.5, []float64{0.02, 0.05, 0.1, -0.1}},
			{[]float64{1, -2}, -0.5, 1, []float64{2, -4}},
			{[]float64{3}, -3, 2.5, []float64{2.5}},
			randomScoreCard(c.random()),
		} {
			c.closeSlice(fmt.Sprintf("w = %v, b = %v, t = %v", tc.w, tc.b, tc.t), tc.want, f(tc.w, tc.b, tc.t), 1e-12)
		}
	})
}

// randomScoreCard draws w, b < 0 and t > 0 with w' = (t/(−b))·w.
func randomScoreCard(rng *rand.Rand) struct {
	w    []float64
	b, t float64
	want []float64
} {
	w, b, t := normals(rng, 1+rng.IntN(4), 1), -0.5-5*rng.Float64(), 0.5+5*rng.Float64()
	want := make([]float64, len(w))
	for j := range w {
		want[j] = t / -b * w[j]
	}
	return struct {
		w    []float64
		b, t float64
		want []float64
	}{w, b, t, want}
}

// CheckWindowRule checks lesson 10's Exercise 2: f(lo, hi) returns a
// hyperplane (w, b) on the features [age, age²] that approves (w·x + b > 0)
// exactly the ages strictly between lo and hi, for any real ends: the
// lesson's bank uses (24.5, 60.5), the whole years 25 to 60. It is checked
// on ages far from the window, 0.01 inside and 0.01 outside each end, and
// at the ends themselves, which must not be approved: there a right
// answer's score is 0 up to rounding, so a score of at most
// windowTol·(|w₁|a + |w₂|a² + |b|) counts as not approved. Any positive
// multiple of a right answer passes.
func CheckWindowRule(f func(lo, hi float64) (w []float64, b float64)) bool {
	return runOwn("Exercise 2 (WindowRule)", f, func(c *checker) {
		rng := c.random()
		lo := float64(19+rng.IntN(30)) + 0.5*float64(rng.IntN(2)) // a whole or a half year
		for _, win := range [][2]float64{{25, 60}, {24.5, 60.5}, {30, 40}, {19, 75}, {lo, lo + float64(2+rng.IntN(25))}} {
			lo, hi := win[0], win[1]
			w, b := f(lo, hi)
			ages := []float64{18, lo - 0.01, lo, lo + 0.01, (lo + hi) / 2, hi - 0.01, hi, hi + 0.01, 80}
			want := make([]bool, len(ages))
			got := make([]bool, len(ages))
			for k, a := range ages {
				want[k] = a > lo && a < hi
				if len(w) == 2 {
					score := w[0]*a + w[1]*a*a + b
					got[k] = score > windowTol*(math.Abs(w[0])*a+math.Abs(w[1])*a*a+math.Abs(b))
				}
			}
			c.equal(fmt.Sprintf("window %v, approved ages among %v", win, ages), want, got)
		}
	})
}

// windowTol is CheckWindowRule's relative tolerance on a score at the
// window's ends: rounding in w·x + b, a sum of three terms, is a few ulps
// of the terms' sizes, far below 1e-9 of them, while a rule whose boundary
// is off by 0.01 year scores about 1e-4 of them there.
const windowTol = 1e-9
