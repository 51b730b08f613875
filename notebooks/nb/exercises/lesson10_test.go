package exercises

import (
	"math"
	"testing"
)

func TestCheckScoreCard(t *testing.T) {
	scale := func(w []float64, c float64) []float64 {
		out := make([]float64, len(w))
		for j, v := range w {
			out[j] = c * v
		}
		return out
	}
	ref := func(w []float64, b, t float64) []float64 { return scale(w, t/-b) }
	wrong := map[string]func([]float64, float64, float64) []float64{
		"times t only":   func(w []float64, b, t float64) []float64 { return scale(w, t) },
		"over -b only":   func(w []float64, b, t float64) []float64 { return scale(w, 1/-b) },
		"sign of b lost": func(w []float64, b, t float64) []float64 { return scale(w, t/b) },
	}
	expectChecker(t, CheckScoreCard, ref, wrong, func([]float64, float64, float64) []float64 { panic("not implemented") })
}

func TestCheckWindowRule(t *testing.T) {
	ref := func(lo, hi float64) ([]float64, float64) { return []float64{lo + hi, -1}, -lo * hi }
	wrong := map[string]func(float64, float64) ([]float64, float64){
		"outside the window": func(lo, hi float64) ([]float64, float64) { return []float64{-(lo + hi), 1}, lo * hi },
		"b sign":             func(lo, hi float64) ([]float64, float64) { return []float64{lo + hi, -1}, lo * hi },
		"age only":           func(lo, hi float64) ([]float64, float64) { return []float64{1, 0}, -lo },
		// Approves about (24.6, 60.4) for the window (25, 60): right on
		// ages 0.5 from each end, wrong 0.01 outside.
		"b off by 17": func(lo, hi float64) ([]float64, float64) { return []float64{lo + hi, -1}, -lo*hi + 17 },
		// Off by a hair: approves the ends themselves.
		"ends approved": func(lo, hi float64) ([]float64, float64) { return []float64{lo + hi, -1}, -lo*hi + 1e-3 },
		// Off by a hair the other way: rejects ages 0.01 inside.
		"window 0.02 too narrow": func(lo, hi float64) ([]float64, float64) {
			return []float64{lo + hi, -1}, -(lo + 0.02) * (hi - 0.02)
		},
		// Right on whole-year ends, wrong on the bank's (24.5, 60.5),
		// which it turns into (25, 61).
		"ends rounded to whole years": func(lo, hi float64) ([]float64, float64) {
			lo, hi = math.Round(lo), math.Round(hi)
			return []float64{lo + hi, -1}, -lo * hi
		},
	}
	// A positive multiple passes, rounding at the ends included.
	scaled := func(lo, hi float64) ([]float64, float64) {
		return []float64{(lo + hi) / 3.7, -1 / 3.7}, -lo * hi / 3.7
	}
	expectVerdict(t, "scaled", true, func() bool { return CheckWindowRule(scaled) }, "all 5 cases passed")
	expectChecker(t, CheckWindowRule, ref, wrong, func(float64, float64) ([]float64, float64) { panic("not implemented") })
}
