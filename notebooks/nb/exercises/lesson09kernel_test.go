package exercises

import "testing"

// kernelVariant is lesson 9's KernelPLA with switches for typical
// mistakes: the test < 0 instead of <= 0, no bias update, and no stop
// after a clean pass (it makes no difference to α and b, so it must pass:
// the check is on what was learned).
func kernelVariant(strict, noBias, noStop bool) KernelPLAFunc {
	return func(X [][]float64, y []float64, k func(x, z []float64) float64, maxEpochs int) ([]int, float64) {
		alpha, b := make([]int, len(X)), 0.0
		for range maxEpochs {
			mistakes := 0
			for j := range X {
				s := b
				for i, a := range alpha {
					if a != 0 {
						s += float64(a) * y[i] * k(X[i], X[j])
					}
				}
				if m := y[j] * s; m < 0 || (!strict && m == 0) {
					alpha[j]++
					if !noBias {
						b += y[j]
					}
					mistakes++
				}
			}
			if mistakes == 0 && !noStop {
				break
			}
		}
		return alpha, b
	}
}

func TestCheckKernelPLA(t *testing.T) {
	wrong := map[string]KernelPLAFunc{
		"< 0 instead of <= 0": kernelVariant(true, false, false),
		"no bias update":      kernelVariant(false, true, false),
	}
	expectChecker(t, CheckKernelPLA, kernelVariant(false, false, false), wrong, func([][]float64, []float64, func(x, z []float64) float64, int) ([]int, float64) {
		panic("not implemented: write KernelPLA")
	})
	expectVerdict(t, "no stop after a clean pass", true, func() bool { return CheckKernelPLA(kernelVariant(false, false, true)) }, "PASSED")
}
