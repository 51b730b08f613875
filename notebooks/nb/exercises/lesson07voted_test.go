package exercises

import (
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// votedVariant is lesson 7's VotedAveraged with switches for typical
// mistakes: the test < 0 instead of <= 0, the count of a new vector not
// counting the step that created it, and the average over the updates
// instead of the steps.
func votedVariant(strictTest, countCreatingStep, averageSteps bool) VotedAveragedFunc {
	return func(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
		w, b := make([]float64, len(X[0])), 0.0
		vectors, counts := []perceptron.Hyperplane{{W: slices.Clone(w)}}, []int{0}
		sumW, sumB, terms := make([]float64, len(w)), 0.0, 0
		for range epochs {
			for i, x := range X {
				m := y[i] * (b + dot(w, x))
				if m < 0 || (m == 0 && !tieSkipped(strictTest, m, w, b)) {
					for j := range w {
						w[j] += eta * y[i] * x[j]
					}
					b += eta * y[i]
					vectors, counts = append(vectors, perceptron.Hyperplane{W: slices.Clone(w), B: b}), append(counts, 0)
					if !countCreatingStep {
						continue
					}
				}
				counts[len(counts)-1]++
				if averageSteps || m <= 0 {
					for j := range w {
						sumW[j] += w[j]
					}
					sumB += b
					terms++
				}
			}
		}
		for j := range sumW {
			sumW[j] /= float64(terms)
		}
		return vectors, counts, perceptron.Hyperplane{W: sumW, B: sumB / float64(terms)}
	}
}

func TestCheckVotedAveraged(t *testing.T) {
	wrong := map[string]VotedAveragedFunc{
		"< 0 instead of <= 0":                votedVariant(true, true, true),
		"counts miss the step of the update": votedVariant(false, false, true),
		"average over updates, not steps":    votedVariant(false, true, false),
		"< 0, the first update forced": func(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
			forceFirst = true
			defer func() { forceFirst = false }()
			return votedVariant(true, true, true)(X, y, eta, epochs)
		},
		"stops after a clean pass": func(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
			_, _, perEpoch := batchRef(false, false, false)(X, y, eta, epochs)
			return votedVariant(false, true, true)(X, y, eta, len(perEpoch))
		},
	}
	expectChecker(t, CheckVotedAveraged, votedVariant(false, true, true), wrong, func([][]float64, []float64, float64, int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
		panic("not implemented: write VotedAveraged")
	})
}
