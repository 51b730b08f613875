package perceptron

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExp: the platform-independent exp is within 2 ulps of math.Exp over
// the whole range (the RBF kernel's arguments are ≤ 0), exact at 0,
// +Inf past overflow, 0 past underflow, NaN for NaN; golden values from
// Python's math.exp (glibc, correctly rounded there).
func TestExp(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{0, 1},
		{-6.5, 0.0015034391929775724},
		{1, 2.718281828459045},
		{-1, 0.36787944117144233},
		{-700, 9.85967654375977e-305},
		{709, 8.218407461554972e+307},
		// math.Exp on amd64 (assembly) overflows to +Inf from 709.436 on,
		// below ln(MaxFloat64) = 709.7827: Python says finite.
		{709.5072164194365, 1.3647998355623319e+308},
		{709.78, 1.7928227943945155e+308},
		{710, math.Inf(1)},
		{-746, 0},
		{math.Inf(-1), 0},
	} {
		got := exp(c.x)
		if got != c.want && !(math.Abs(got-c.want) <= 2*ulp(c.want)) {
			t.Errorf("exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(exp(math.NaN())) {
		t.Errorf("exp(NaN) is not NaN")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		x := (rng.Float64()*2 - 1) * 745
		got, want := exp(x), math.Exp(x)
		if want < 0x1p-1000 {
			continue // subnormal: ulps are coarse
		}
		if math.IsInf(want, 1) && x < math.Log(math.MaxFloat64) {
			continue // amd64's math.Exp overflows early: the golden values above check these
		}
		if got != want && !(math.Abs(got-want) <= 2*ulp(want)) { // equal: also both +Inf
			t.Fatalf("exp(%v) = %v, math.Exp %v: more than 2 ulps apart", x, got, want)
		}
	}
}

func ulp(x float64) float64 {
	return math.Nextafter(math.Abs(x), math.Inf(1)) - math.Abs(x)
}
