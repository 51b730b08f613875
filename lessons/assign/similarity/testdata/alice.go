package main

// Train runs the perceptron learning algorithm over X and y.
func Train(X [][]float64, y []float64, epochs int) ([]float64, float64, int) {
	w := make([]float64, len(X[0]))
	b := 0.0
	updates := 0
	for epoch := 0; epoch < epochs; epoch++ {
		mistakes := 0
		for i, x := range X {
			if y[i]*(Dot(w, x)+b) <= 0 {
				for j := range w {
					w[j] += y[i] * x[j]
				}
				b += y[i]
				updates++
				mistakes++
			}
		}
		if mistakes == 0 {
			break
		}
	}
	return w, b, updates
}
