package exercises

import (
	"regexp"
	"slices"
	"testing"
)

// batchGDVariant is lesson 8's BatchGD with switches for typical mistakes:
// the test < 0 instead of <= 0 (the descent never leaves θ = 0), PLA's
// update after each mistake instead of one summed step, and no stop when
// the gradient is 0.
func batchGDVariant(strict, perRow, noStop bool) BatchGDFunc {
	return func(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
		theta := make([]float64, len(X[0]))
		path := [][]float64{slices.Clone(theta)}
		for len(path)-1 < maxSteps {
			step := make([]float64, len(theta))
			mistakes := 0
			for i, x := range X {
				m := y[i] * dot(theta, x)
				if m > 0 || tieSkipped(strict, m, theta, 0) {
					continue
				}
				mistakes++
				for j := range x {
					if perRow {
						theta[j] += eta * y[i] * x[j]
					} else {
						step[j] += eta * y[i] * x[j]
					}
				}
			}
			zero := !slices.ContainsFunc(step, func(v float64) bool { return v != 0 })
			if (mistakes == 0 || (zero && !perRow)) && !noStop {
				break
			}
			for j := range theta {
				theta[j] += step[j]
			}
			path = append(path, slices.Clone(theta))
		}
		return path
	}
}

func TestCheckBatchGD(t *testing.T) {
	wrong := map[string]BatchGDFunc{
		"< 0 instead of <= 0":          batchGDVariant(true, false, false),
		"PLA's updates, row after row": batchGDVariant(false, true, false),
		"no stop at a zero gradient":   batchGDVariant(false, false, true),
		"< 0, the first step forced": func(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
			forceFirst = true
			defer func() { forceFirst = false }()
			return batchGDVariant(true, false, false)(X, y, eta, maxSteps)
		},
	}
	expectChecker(t, CheckBatchGD, batchGDVariant(false, false, false), wrong, func([][]float64, []float64, float64, int) [][]float64 { panic("not implemented: write BatchGD") })
	// A loop that runs one step too many or too few fails on the fixed
	// cases that reach the limit, whatever the random case does.
	for name, off := range map[string]int{"one step past the limit": 1, "one step short of the limit": -1} {
		f := func(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
			return batchGDVariant(false, false, false)(X, y, eta, maxSteps+off)
		}
		var ok bool
		out := capture(t, func() { ok = CheckBatchGD(f) })
		if ok || !limitFailed.MatchString(out) {
			t.Errorf("%s: ok = %v, no limit case failed; printed\n%s", name, ok, out)
		}
	}
}

// limitFailed finds a failed case of CheckBatchGD about the limit.
var limitFailed = regexp.MustCompile(`(?m)^FAILED: Exercise 2 \(BatchGD\): iris [^\n]*the limit`)
