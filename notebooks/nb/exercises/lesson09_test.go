package exercises

import (
	"math"
	"testing"
)

func TestCheckGramBreakEven(t *testing.T) {
	ref := func(n, active int) int { return n*(n+1)/2/active + 1 }
	wrong := map[string]func(int, int) int{
		"n²/2, not n(n+1)/2": func(n, active int) int { return n*n/2/active + 1 },
		"ties count":         func(n, active int) int { return (n*(n+1)/2 + active - 1) / active },
		"in epochs":          func(n, active int) int { return (n*(n+1)/2/active + 1) / n },
	}
	expectChecker(t, CheckGramBreakEven, ref, wrong, func(int, int) int { panic("not implemented") })
}

func TestCheckPhiPoly2(t *testing.T) {
	r2 := math.Sqrt2
	ref := func(x []float64) []float64 {
		return []float64{x[0] * x[0], x[1] * x[1], r2 * x[0] * x[1], r2 * x[0], r2 * x[1], 1}
	}
	wrong := map[string]func([]float64) []float64{
		"no √2": func(x []float64) []float64 {
			return []float64{x[0] * x[0], x[1] * x[1], x[0] * x[1], x[0], x[1], 1}
		},
		"no constant": func(x []float64) []float64 {
			return []float64{x[0] * x[0], x[1] * x[1], r2 * x[0] * x[1], r2 * x[0], r2 * x[1]}
		},
		"(x·z)² only": func(x []float64) []float64 {
			return []float64{x[0] * x[0], x[1] * x[1], r2 * x[0] * x[1], 0, 0, 0}
		},
	}
	expectChecker(t, CheckPhiPoly2, ref, wrong, func([]float64) []float64 { panic("not implemented") })
}
