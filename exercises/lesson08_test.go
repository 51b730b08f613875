package exercises

import "testing"

func refLoss(theta []float64, X [][]float64, y []float64, strict bool) (float64, []float64) {
	L, g := 0.0, make([]float64, len(theta))
	for i, x := range X {
		s := y[i] * dotProduct(theta, x)
		if s < 0 || (s == 0 && !strict) {
			L -= s
			for j := range g {
				g[j] -= y[i] * x[j]
			}
		}
	}
	return L, g
}

func TestCheckPerceptronLoss(t *testing.T) {
	ref := func(theta []float64, X [][]float64, y []float64) (float64, []float64) {
		return refLoss(theta, X, y, false)
	}
	wrong := map[string]func([]float64, [][]float64, []float64) (float64, []float64){
		"ties not counted": func(theta []float64, X [][]float64, y []float64) (float64, []float64) {
			return refLoss(theta, X, y, true)
		},
		"gradient sign flipped": func(theta []float64, X [][]float64, y []float64) (float64, []float64) {
			L, g := refLoss(theta, X, y, false)
			for j := range g {
				g[j] = -g[j]
			}
			return L, g
		},
	}
	expectExercise(t, func() bool { return CheckPerceptronLoss(ref) }, func(name string) bool { return CheckPerceptronLoss(wrong[name]) }, sortedKeys(wrong),
		func() bool {
			return CheckPerceptronLoss(func([]float64, [][]float64, []float64) (float64, []float64) { panic("not implemented") })
		})
}

func TestCheckFullBatchStep(t *testing.T) {
	ref := func(theta []float64, X [][]float64, y []float64, eta float64) []float64 {
		_, g := refLoss(theta, X, y, false)
		out := make([]float64, len(theta))
		for j := range theta {
			out[j] = theta[j] - eta*g[j]
		}
		return out
	}
	wrong := map[string]func([]float64, [][]float64, []float64, float64) []float64{
		"a PLA pass": func(theta []float64, X [][]float64, y []float64, eta float64) []float64 {
			for i, x := range X {
				if y[i]*dotProduct(theta, x) <= 0 {
					for j := range theta {
						theta[j] += eta * y[i] * x[j]
					}
				}
			}
			return theta
		},
		"step with the gradient": func(theta []float64, X [][]float64, y []float64, eta float64) []float64 {
			_, g := refLoss(theta, X, y, false)
			for j := range theta {
				theta[j] += eta * g[j]
			}
			return theta
		},
	}
	expectExercise(t, func() bool { return CheckFullBatchStep(ref) }, func(name string) bool { return CheckFullBatchStep(wrong[name]) }, sortedKeys(wrong),
		func() bool {
			return CheckFullBatchStep(func([]float64, [][]float64, []float64, float64) []float64 { panic("not implemented") })
		})
}
