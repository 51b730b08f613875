package main

import "math"

func augment(x []float64) []float64 {
	return append([]float64{1}, x...)
}

// Train runs the perceptron learning algorithm over X and y.
func Train(X [][]float64, y []float64, epochs int) ([]float64, float64, int) {
	theta := make([]float64, len(X[0])+1)
	total := 0
	converged := false
	e := 0
	for !converged && e < epochs {
		converged = true
		e++
		idx := 0
		for idx < len(X) {
			z := augment(X[idx])
			if math.Signbit(y[idx]*Dot(theta, z)) || Dot(theta, z) == 0 {
				converged = false
				total = total + 1
				for q := 0; q < len(theta); q = q + 1 {
					theta[q] = theta[q] + y[idx]*z[q]
				}
			}
			idx = idx + 1
		}
	}
	return theta[1:], theta[0], total
}
