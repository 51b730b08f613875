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
	expectChecker(t, CheckPerceptronLoss, ref, wrong, func([]float64, [][]float64, []float64) (float64, []float64) { panic("not implemented") })
}
