package exercises

import (
	"testing"
)

// dualVariant is lesson 9's DualPLA with switches for typical mistakes: the
// test < 0 instead of <= 0, no bias, and a score that leaves out eta.
// alphaAsW is alpha as floats: zero exactly when the dual weights are.
func alphaAsW(alpha []int) []float64 {
	w := make([]float64, len(alpha))
	for i, a := range alpha {
		w[i] = float64(a)
	}
	return w
}

func dualVariant(strict, bias, scoreEta bool) DualFunc {
	return func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
		alpha, b := make([]int, len(X)), 0.0
		for epoch := 0; epoch < maxEpochs; epoch++ {
			mistakes := 0
			for j := range X {
				s := b
				for i := range X {
					if alpha[i] > 0 {
						c := float64(alpha[i]) * y[i]
						if scoreEta {
							c *= eta
						}
						s += c * dot(X[i], X[j])
					}
				}
				if m := y[j] * s; m < 0 || (m == 0 && !tieSkipped(strict, m, alphaAsW(alpha), b)) {
					alpha[j]++
					if bias {
						b += eta * y[j]
					}
					mistakes++
				}
			}
			if mistakes == 0 {
				break
			}
		}
		return alpha, b
	}
}

func TestCheckDualPLA(t *testing.T) {
	wrong := map[string]DualFunc{
		"< 0 instead of <= 0": dualVariant(true, true, true),
		"no bias":             dualVariant(false, false, true),
		"score without eta":   dualVariant(false, true, false),
		"< 0, the first update forced": func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
			forceFirst = true
			defer func() { forceFirst = false }()
			return dualVariant(true, true, true)(X, y, eta, maxEpochs)
		},
		"eta left out everywhere": func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
			return dualVariant(false, true, false)(X, y, 1, maxEpochs)
		},
	}
	expectChecker(t, CheckDualPLA, dualVariant(false, true, true), wrong, func([][]float64, []float64, float64, int) ([]int, float64) { panic("not implemented: write DualPLA") })
}
