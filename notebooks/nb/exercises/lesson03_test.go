package exercises

import (
	"math"
	"slices"
	"testing"
)

func TestCheckUpdatesInARow(t *testing.T) {
	formula := func(ceil bool) func(w []float64, b float64, x []float64, y, eta float64) int {
		return func(w []float64, b float64, x []float64, y, eta float64) int {
			ys := y * score01(w, b, x)
			if ys > 0 {
				return 0
			}
			sq := 1.0
			for _, v := range x {
				sq += v * v
			}
			if ceil { // the plausible slip: wrong when the ratio is whole
				return int(math.Max(1, math.Ceil(-ys/(eta*sq))))
			}
			return int(math.Floor(-ys/(eta*sq))) + 1
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckUpdatesInARow(formula(false)) }, "all 14 cases passed")
	expectVerdict(t, "ceil", false, func() bool { return CheckUpdatesInARow(formula(true)) },
		"FAILED: Exercise 3 (UpdatesInARow): w = [5 0], b = 0, x = [2 0], y = -1, η = 1: expected 3, got 2")
	expectVerdict(t, "simulation", false, func() bool {
		return CheckUpdatesInARow(func(w []float64, b float64, x []float64, y, eta float64) int {
			w = slices.Clone(w)
			k := 0
			for ; y*score01(w, b, x) <= 0; k++ {
				for j := range w {
					w[j] += eta * y * x[j]
				}
				b += eta * y
			}
			return k
		})
	}, "(about 10⁹ updates: count them with a formula): expected 1000", "got no answer within 1 s")
	expectVerdict(t, "stub", false, func() bool {
		return CheckUpdatesInARow(func([]float64, float64, []float64, float64, float64) int { panic("not implemented") })
	}, "NOT DONE: Exercise 3 (UpdatesInARow)")
}

func TestCheckOnlineMistakes(t *testing.T) {
	online := func(useOrder, tieRight bool) func(X [][]float64, y []float64, order []int) int {
		return func(X [][]float64, y []float64, order []int) int {
			w, b, mistakes := make([]float64, len(X[0])), 0.0, 0
			if !useOrder {
				order = order[:0]
				for i := range X {
					order = append(order, i)
				}
			}
			for _, i := range order {
				m := y[i] * score01(w, b, X[i])
				if m > 0 || tieRight && m == 0 {
					continue
				}
				for j := range w {
					w[j] += y[i] * X[i][j]
				}
				b += y[i]
				mistakes++
			}
			return mistakes
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckOnlineMistakes(online(true, false)) }, "all 6 cases passed")
	expectVerdict(t, "order ignored", false, func() bool { return CheckOnlineMistakes(online(false, false)) }, "FAILED: Exercise 2 (OnlineMistakes): the stream reversed")
	expectVerdict(t, "score 0 counted right", false, func() bool { return CheckOnlineMistakes(online(true, true)) },
		"FAILED: Exercise 2 (OnlineMistakes): lesson 3's stream, in order: expected 35, got 0")
	expectVerdict(t, "stub", false, func() bool {
		return CheckOnlineMistakes(func([][]float64, []float64, []int) int { panic("not implemented") })
	}, "NOT DONE: Exercise 2 (OnlineMistakes)")
}
