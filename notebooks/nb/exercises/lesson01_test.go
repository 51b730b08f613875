package exercises

import (
	"math"
	"testing"
)

func score01(w []float64, b float64, x []float64) float64 {
	s := b
	for j := range w {
		s += w[j] * x[j]
	}
	return s
}

func TestCheckPredict(t *testing.T) {
	good := func(w []float64, b float64, x []float64) float64 {
		switch s := score01(w, b, x); {
		case s > 0:
			return 1
		case s < 0:
			return -1
		}
		return 0
	}
	// math.Copysign(1, s) says +1 for a score of 0: the tie is not undecided.
	noTie := func(w []float64, b float64, x []float64) float64 { return math.Copysign(1, score01(w, b, x)) }
	expectVerdict(t, "reference", true, func() bool { return CheckPredict(good) }, "all 12 cases passed")
	expectVerdict(t, "sign(0) = +1", false, func() bool { return CheckPredict(noTie) }, "FAILED: Exercise 1 (Predict): w = [3 4], b = -5, x = [1 0.5]: expected 0, got 1")
	expectVerdict(t, "stub", false, func() bool {
		return CheckPredict(func([]float64, float64, []float64) float64 { return stub[float64]() })
	}, "NOT DONE: Exercise 1 (Predict): your function panicked: not implemented")
}

func TestCheckNearestOnBoundary(t *testing.T) {
	nearest := func(norm bool) func(w []float64, b float64, x []float64) []float64 {
		return func(w []float64, b float64, x []float64) []float64 {
			nw2 := 0.0
			for _, v := range w {
				nw2 += v * v
			}
			if norm { // the plausible slip: divide by ||w|| instead of ||w||²
				nw2 = math.Sqrt(nw2)
			}
			s := score01(w, b, x)
			out := make([]float64, len(x))
			for j := range x {
				out[j] = x[j] - s/nw2*w[j]
			}
			return out
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckNearestOnBoundary(nearest(false)) }, "all 24 cases passed")
	expectVerdict(t, "divided by ||w||", false, func() bool { return CheckNearestOnBoundary(nearest(true)) },
		"FAILED: Exercise 2 (NearestOnBoundary): w = [3 4], b = -5, x = [3 4]: score of your point: expected 0, got -80")
	expectVerdict(t, "stub", false, func() bool {
		return CheckNearestOnBoundary(func([]float64, float64, []float64) []float64 { return stub[[]float64]() })
	}, "NOT DONE: Exercise 2 (NearestOnBoundary)")
}

func TestCheckTrainingError(t *testing.T) {
	rate := func(strict bool) func(w []float64, b float64, X [][]float64, y []float64) float64 {
		return func(w []float64, b float64, X [][]float64, y []float64) float64 {
			wrong := 0
			for i, x := range X {
				m := y[i] * score01(w, b, x)
				if m < 0 || !strict && m == 0 {
					wrong++
				}
			}
			return float64(wrong) / float64(len(X))
		}
	}
	expectVerdict(t, "reference", true, func() bool { return CheckTrainingError(rate(false)) }, "all 5 cases passed")
	expectVerdict(t, "a score of 0 counted right", false, func() bool { return CheckTrainingError(rate(true)) },
		"FAILED: Exercise 3 (TrainingError): w = [3 4], b = -5 on 4 hand-made points (one score is 0): expected 0.5, got 0.25")
	expectVerdict(t, "stub", false, func() bool {
		return CheckTrainingError(func([]float64, float64, [][]float64, []float64) float64 { return stub[float64]() })
	}, "NOT DONE: Exercise 3 (TrainingError)")
}
