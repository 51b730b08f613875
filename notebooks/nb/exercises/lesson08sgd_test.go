package exercises

import (
	"slices"
	"testing"
)

// sgdVariant is lesson 8's SGD with switches for typical mistakes: the test
// < 0 instead of <= 0 (SGD never leaves θ = 0), a step up the gradient
// instead of down, the bias coordinate θ[0] never stepped, and one summed
// step per epoch (full-batch GD) instead of one per row.
func sgdVariant(strict, ascend, noBias, perEpoch bool) SGDFunc {
	return func(X [][]float64, y []float64, eta float64, epochs int) [][]float64 {
		theta := make([]float64, len(X[0]))
		var path [][]float64
		sign := 1.0
		if ascend {
			sign = -1
		}
		for range epochs {
			step := make([]float64, len(theta))
			for i, x := range X {
				m := y[i] * dot(theta, x)
				if m < 0 || (!strict && m == 0) {
					for j := range x {
						if j == 0 && noBias {
							continue
						}
						if perEpoch {
							step[j] += sign * eta * y[i] * x[j]
						} else {
							theta[j] += sign * eta * y[i] * x[j]
						}
					}
				}
				if perEpoch && i == len(X)-1 {
					for j := range theta {
						theta[j] += step[j]
					}
				}
				path = append(path, slices.Clone(theta))
			}
		}
		return path
	}
}

func TestCheckSGD(t *testing.T) {
	wrong := map[string]SGDFunc{
		"< 0 instead of <= 0":    sgdVariant(true, false, false, false),
		"a step up the gradient": sgdVariant(false, true, false, false),
		"the bias never stepped": sgdVariant(false, false, true, false),
		"one summed step a pass": sgdVariant(false, false, false, true),
		"no path, only the end θ": func(X [][]float64, y []float64, eta float64, epochs int) [][]float64 {
			p := sgdVariant(false, false, false, false)(X, y, eta, epochs)
			return p[len(p)-1:]
		},
	}
	expectChecker(t, CheckSGD, sgdVariant(false, false, false, false), wrong, func([][]float64, []float64, float64, int) [][]float64 { panic("not implemented: write SGD") })
}
