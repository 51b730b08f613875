package exercises

import (
	"math/rand/v2"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

func TestCheckMisclassified(t *testing.T) {
	wrong := func(strict bool) func(w []float64, b float64, X [][]float64, y []float64) []int {
		return func(w []float64, b float64, X [][]float64, y []float64) []int {
			var rows []int
			for i, x := range X {
				if m := y[i] * score01(w, b, x); m < 0 || !strict && m == 0 {
					rows = append(rows, i)
				}
			}
			return rows
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckMisclassified(wrong(false)) }, "all 4 cases passed")
	expectVerdict(t, "score 0 not a mistake", false, func() bool { return CheckMisclassified(wrong(true)) },
		"FAILED: Exercise 2 (Misclassified): 3 hand-made points, w = [1 0], b = 0 (one score is 0): expected [0 1], got [0]")
	expectVerdict(t, "stub", false, func() bool {
		return CheckMisclassified(func([]float64, float64, [][]float64, []float64) []int { panic("not implemented") })
	}, "NOT DONE: Exercise 2 (Misclassified)")
}

func TestCheckDisagreement(t *testing.T) {
	estimate := func(lo float64) func(f, g perceptron.Hyperplane, n int, seed uint64) float64 {
		return func(f, g perceptron.Hyperplane, n int, seed uint64) float64 {
			rng := rand.New(rand.NewPCG(seed, 0))
			differ := 0
			for range n {
				x := []float64{lo + (1-lo)*rng.Float64(), lo + (1-lo)*rng.Float64()}
				a, _ := f.Predict(x)
				b, _ := g.Predict(x)
				if a != b {
					differ++
				}
			}
			return float64(differ) / float64(n)
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckDisagreement(estimate(-1)) }, "all 8 cases passed")
	grid := func(f, g perceptron.Hyperplane, n int, seed uint64) float64 {
		const k = 400 // a fixed k×k grid of the square: n and seed ignored
		differ := 0
		for i := range k {
			for j := range k {
				x := []float64{-1 + (2*float64(i)+1)/k, -1 + (2*float64(j)+1)/k}
				a, _ := f.Predict(x)
				b, _ := g.Predict(x)
				if a != b {
					differ++
				}
			}
		}
		return float64(differ) / (k * k)
	}
	expectVerdict(t, "a fixed grid", false, func() bool { return CheckDisagreement(grid) },
		"FAILED: Exercise 3 (EstimateDisagreement): quadrants, n = 100, 30 seeds: the spread of the estimates: expected a standard deviation in [0.02, 0.08], got 0")
	expectVerdict(t, "the unit square", false, func() bool { return CheckDisagreement(estimate(0)) }, "FAILED: Exercise 3 (EstimateDisagreement): pair 1")
	expectVerdict(t, "stub", false, func() bool {
		return CheckDisagreement(func(f, g perceptron.Hyperplane, n int, seed uint64) float64 { panic("not implemented") })
	}, "NOT DONE: Exercise 3 (EstimateDisagreement)")
}
