package exercises

import "testing"

func TestCheckPocketErrorsTrace(t *testing.T) {
	ref := func(errs []int, n int) []int {
		out, best := make([]int, len(errs)), n
		for k, e := range errs {
			best = min(best, e)
			out[k] = best
		}
		return out
	}
	wrong := map[string]func([]int, int) []int{
		"no pocket (PLA's own errors)": func(errs []int, n int) []int { return errs },
		// (Starting from errs[0] instead of n is no slip: errs[0] ≤ n on
		// every possible trace, and the impossible case that failed it,
		// 12 errors among 10 rows, is gone.)
		"starts at 0 errors": func(errs []int, n int) []int { return ref(errs, 0) },
		"the largest so far": func(errs []int, n int) []int {
			out, worst := make([]int, len(errs)), 0
			for k, e := range errs {
				worst = max(worst, e)
				out[k] = worst
			}
			return out
		},
	}
	expectChecker(t, CheckPocketErrorsTrace, ref, wrong, func([]int, int) []int { panic("not implemented") })
}

func TestCheckRawWeights(t *testing.T) {
	conv := func(wz []float64, bz float64, mean, std []float64, shift bool) ([]float64, float64) {
		w, b := make([]float64, len(wz)), bz
		for j := range wz {
			w[j] = wz[j] / std[j]
			if shift {
				b -= wz[j] * mean[j] / std[j]
			}
		}
		return w, b
	}
	ref := func(wz []float64, bz float64, mean, std []float64) ([]float64, float64) {
		return conv(wz, bz, mean, std, true)
	}
	wrong := map[string]func([]float64, float64, []float64, []float64) ([]float64, float64){
		"b not shifted": func(wz []float64, bz float64, mean, std []float64) ([]float64, float64) {
			return conv(wz, bz, mean, std, false)
		},
		"weights unchanged": func(wz []float64, bz float64, mean, std []float64) ([]float64, float64) { return wz, bz },
	}
	expectChecker(t, CheckRawWeights, ref, wrong, func([]float64, float64, []float64, []float64) ([]float64, float64) { panic("not implemented") })
}
