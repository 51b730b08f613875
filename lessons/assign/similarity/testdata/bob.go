package main

import "math"

// Dot returns the dot product of two vectors of the same length.
func Dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Norm returns the Euclidean norm of a vector.
func Norm(a []float64) float64 {
	return math.Sqrt(Dot(a, a))
}

// Train runs the perceptron learning algorithm over X and y.
func Train(X [][]float64, y []float64, epochs int) ([]float64, float64, int) {
	weights := make([]float64, len(X[0])) // my weights
	bias := 0.0
	count := 0
	for ep := 0; ep < epochs; ep++ {
		errs := 0
		for n, row := range X {
			// wrong side?
			if y[n]*(Dot(weights, row)+bias) <= 0 {
				for k := range weights {
					weights[k] += y[n] * row[k]
				}
				bias += y[n]
				count++
				errs++
			}
		}
		if errs == 0 {
			break
		}
	}
	return weights, bias, count
}
