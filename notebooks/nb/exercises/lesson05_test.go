package exercises

import (
	"math"
	"strings"
	"testing"
)

func euclidNorm(v []float64) float64 { return math.Sqrt(dotProduct(v, v)) }

// augmentedMarginRef computes min_i y_i(w·x_i + b)/||[b, w]||; over
// divides by another length (a typical slip), useMax takes the largest and
// abs takes |w·x_i + b| instead of y_i(w·x_i + b).
func augmentedMarginRef(over func(w []float64, b float64) float64, useMax, abs bool) AugmentedMarginFunc {
	return func(X [][]float64, y []float64, w []float64, b float64) float64 {
		m := math.Inf(1)
		if useMax {
			m = math.Inf(-1)
		}
		for i, x := range X {
			v := y[i] * (dotProduct(w, x) + b) / over(w, b)
			if abs {
				v = math.Abs(v)
			}
			if useMax == (v > m) {
				m = v
			}
		}
		return m
	}
}

func TestCheckAugmentedMargin(t *testing.T) {
	theta := func(w []float64, b float64) float64 { return math.Hypot(euclidNorm(w), b) }
	ref := augmentedMarginRef(theta, false, false)
	wrong := map[string]AugmentedMarginFunc{
		"over ||w||, lesson 1's margin": augmentedMarginRef(func(w []float64, b float64) float64 { return euclidNorm(w) }, false, false),
		"the largest, not the smallest": augmentedMarginRef(theta, true, false),
		"|w·x + b|, not y(w·x + b)":     augmentedMarginRef(theta, false, true),
	}
	expectChecker(t, CheckAugmentedMargin, ref, wrong, func([][]float64, []float64, []float64, float64) float64 { panic("not implemented") })
}

func TestCheckProofBounds(t *testing.T) {
	ref := func(n int, R, gamma, eta float64) (float64, float64) {
		return float64(n) * eta * gamma, eta * R * math.Sqrt(float64(n))
	}
	wrong := map[string]func(int, float64, float64, float64) (float64, float64){
		"η forgotten": func(n int, R, gamma, eta float64) (float64, float64) {
			return float64(n) * gamma, R * math.Sqrt(float64(n))
		},
		"R·t, not R√t": func(n int, R, gamma, eta float64) (float64, float64) {
			return float64(n) * eta * gamma, eta * R * float64(n)
		},
		"η² on the length": func(n int, R, gamma, eta float64) (float64, float64) {
			return float64(n) * eta * gamma, eta * eta * R * math.Sqrt(float64(n))
		},
	}
	expectChecker(t, CheckProofBounds, ref, wrong, func(int, float64, float64, float64) (float64, float64) { panic("not implemented") })
}

// expectExercise asserts that the reference passes with every case printed
// "passed", that each named wrong solution fails with at least one case
// printed "FAILED", and that the stub is reported NOT DONE.
func expectExercise(t *testing.T, ref func() bool, wrong func(name string) bool, names []string, stub func() bool) {
	t.Helper()
	var ok bool
	out := capture(t, func() { ok = ref() })
	if !ok || strings.Contains(out, "FAILED") || !strings.Contains(out, "cases passed") {
		t.Errorf("reference solution: ok = %v, printed\n%s", ok, out)
	}
	for _, name := range names {
		out := capture(t, func() { ok = wrong(name) })
		if ok || !strings.Contains(out, "FAILED") {
			t.Errorf("wrong solution %q: ok = %v, printed\n%s", name, ok, out)
		}
	}
	out = capture(t, func() { ok = stub() })
	if ok || !strings.Contains(out, "NOT DONE") || !strings.Contains(out, "not implemented") {
		t.Errorf("stub: ok = %v, printed\n%s", ok, out)
	}
}

// expectChecker is expectExercise for check, the checker of functions of
// type F: the reference ref, each solution of wrong by its name, and stub,
// a function that panics "not implemented".
func expectChecker[F any](t *testing.T, check func(F) bool, ref F, wrong map[string]F, stub F) {
	t.Helper()
	expectExercise(t, func() bool { return check(ref) }, func(name string) bool { return check(wrong[name]) }, sortedKeys(wrong),
		func() bool { return check(stub) })
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
