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
	panic("not implemented")
}
