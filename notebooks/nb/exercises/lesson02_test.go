package exercises

import (
	"math"
	"testing"
)

func TestCheckSplitTheta(t *testing.T) {
	good := func(theta []float64) ([]float64, float64) { return append([]float64(nil), theta[1:]...), theta[0] }
	alias := func(theta []float64) ([]float64, float64) { return theta[1:], theta[0] } // shares θ's memory
	swapped := func(theta []float64) ([]float64, float64) {
		return append([]float64(nil), theta[:len(theta)-1]...), theta[len(theta)-1]
	}
	expectVerdict(t, "reference", true, func() bool { return CheckSplitTheta(good) }, "all 12 cases passed")
	expectVerdict(t, "w aliases θ", false, func() bool { return CheckSplitTheta(alias) },
		"FAILED: Exercise 1 (SplitTheta): θ = [-40 1] after changing w[0]: expected [-40 1], got [-40 1001]")
	expectVerdict(t, "b taken last", false, func() bool { return CheckSplitTheta(swapped) },
		"FAILED: Exercise 1 (SplitTheta): θ = [-40 1]: b: expected -40, got 1")
	expectVerdict(t, "stub", false, func() bool {
		return CheckSplitTheta(func([]float64) ([]float64, float64) { panic("not implemented") })
	}, "NOT DONE: Exercise 1 (SplitTheta)")
}

func TestCheckLiftedDistance(t *testing.T) {
	dist := func(withB bool) func(w []float64, b float64, x []float64) float64 {
		return func(w []float64, b float64, x []float64) float64 {
			s, n2 := score01(w, b, x), 0.0
			for _, v := range w {
				n2 += v * v
			}
			if withB {
				n2 += b * b
			}
			return s / math.Sqrt(n2)
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckLiftedDistance(dist(true)) }, "all 7 cases passed")
	expectVerdict(t, "lesson 1's distance", false, func() bool { return CheckLiftedDistance(dist(false)) },
		"FAILED: Exercise 2 (LiftedDistance): w = [1], b = -40, x = [50]: expected 0.2499219116020307, got 10")
	expectVerdict(t, "stub", false, func() bool {
		return CheckLiftedDistance(func([]float64, float64, []float64) float64 { panic("not implemented") })
	}, "NOT DONE: Exercise 2 (LiftedDistance)")
}
