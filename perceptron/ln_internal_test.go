package perceptron

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestLnIsAmd64Log: ln gives math.Log's bits where math.Log is computed
// without fused multiply-adds (amd64's assembly, 386's Go), on a million
// draws of the generators' kind (Float64, in [0, 1)) and a million over
// every normal exponent, and the special values; hypot gives math.Hypot's
// bits there, on a million pairs of every scale. Elsewhere (arm64, where
// math.Log and math.Hypot fuse) the two are compared with golden values
// only: TestNoFusedMultiplyAdd keeps ln and hypot free of fused
// operations, so they compute these same bits there. Golden values from
// Python 3.11's math.log and math.hypot (glibc, correctly rounded there).
func TestLnIsAmd64Log(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1, 0},
		{2, 0.6931471805599453},
		{0.5, -0.6931471805599453},
		{math.E, 1},
		{0x1p-53, -36.7368005696771},
		{1e300, 690.7755278982137},
		{0.1, -2.3025850929940455},
		{0x1p-1022, -708.3964185322641},
		{0x1p-1074, -744.4400719213812}, // subnormal: right, where amd64's assembly is not
		{0, math.Inf(-1)},
		{math.Inf(1), math.Inf(1)},
	} {
		if got := ln(c.x); got != c.want {
			t.Errorf("ln(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	for _, x := range []float64{-1, math.Inf(-1), math.NaN()} {
		if got := ln(x); !math.IsNaN(got) {
			t.Errorf("ln(%v) = %v, want NaN", x, got)
		}
	}
	for _, c := range []struct{ p, q, want float64 }{
		{3, 4, 5},
		{-3, 4, 5},
		{0, 0, 0},
		{1e300, 1e300, 1.4142135623730952e+300},
		{1, 1e-20, 1},
		{0.6, 0.8, 1},
		{math.Inf(-1), math.NaN(), math.Inf(1)},
	} {
		if got := hypot(c.p, c.q); got != c.want {
			t.Errorf("hypot(%v, %v) = %v, want %v", c.p, c.q, got, c.want)
		}
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "386" {
		t.Skipf("math.Log and math.Hypot fuse on %s: compared with golden values only", runtime.GOARCH)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	differ := 0
	for i := range 2000000 {
		x := rng.Float64()
		if i%2 == 1 {
			x = math.Ldexp(1+x, rng.IntN(2046)-1022) // every normal exponent
		}
		if got, want := ln(x), math.Log(x); math.Float64bits(got) != math.Float64bits(want) {
			if differ++; differ <= 5 {
				t.Errorf("ln(%b) = %b, math.Log %b", x, got, want)
			}
		}
		p, q := math.Ldexp(rng.Float64()-0.5, rng.IntN(40)-20), math.Ldexp(rng.Float64()-0.5, rng.IntN(40)-20)
		if got, want := hypot(p, q), math.Hypot(p, q); math.Float64bits(got) != math.Float64bits(want) {
			if differ++; differ <= 5 {
				t.Errorf("hypot(%v, %v) = %b, math.Hypot %b", p, q, got, want)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of 4,000,000 answers differ from math's", differ)
	}
}
