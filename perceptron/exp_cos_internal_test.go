package perceptron

import (
	"math"
	"testing"
)

// TestCosSin2Pi: cos and sin of 2πk/m against mpmath at 200 bits (the
// cases: quadrant starts, octant middles, both sides of every quadrant's
// middle, angles near 2π, where the rounded angle of math.Cos(2πk/m) is
// off by up to an ulp of 2π), within 2 ulps; +0 where the value is 0; and
// within 2e-15 of math.Cos and math.Sin (whose angle is rounded) for every
// k of several m.
func TestCosSin2Pi(t *testing.T) {
	for _, c := range []struct {
		k, m     int
		cos, sin float64
	}{
		{0, 1, 1.0, 0.0},
		{1, 3, -0.5, 0.8660254037844386},
		{2, 3, -0.5, -0.8660254037844386},
		{1, 4, 5.709968497124349e-62, 1.0},
		{3, 8, -0.7071067811865476, 0.7071067811865476},
		{5, 8, -0.7071067811865476, -0.7071067811865476},
		{1, 7, 0.6234898018587335, 0.7818314824680298},
		{3, 7, -0.9009688679024191, 0.4338837391175581},
		{6, 7, 0.6234898018587335, -0.7818314824680298},
		{1, 12, 0.8660254037844386, 0.5},
		{7, 12, -0.8660254037844386, -0.5},
		{11, 12, 0.8660254037844386, -0.5},
		{37, 250, 0.5979049830575188, 0.8015669848708765},
		{125, 251, -0.9999216720722226, 0.012515978598993244},
		{4084, 4097, 0.9998012669341433, -0.01993556211602756},
		{4094, 4097, 0.9999894162503966, -0.004600802885484949},
		{1, 4097, 0.999998824025978, 0.001533605771106947},
	} {
		gc, gs := cosSin2Pi(c.k, c.m)
		// 2 ulps of the value, and an absolute 1e-16 for the cos of π/2
		// (5.7e-62 exactly: 0 is the float64 answer).
		if !(math.Abs(gc-c.cos) <= 2*ulp(c.cos)+1e-16) || !(math.Abs(gs-c.sin) <= 2*ulp(c.sin)+1e-16) {
			t.Errorf("cosSin2Pi(%d, %d) = %v, %v; want %v, %v", c.k, c.m, gc, gs, c.cos, c.sin)
		}
	}
	for _, m := range []int{1, 2, 3, 4, 5, 8, 100, 251, 1000} {
		for k := range m {
			c, s := cosSin2Pi(k, m)
			a := 2 * math.Pi * float64(k) / float64(m)
			if !(math.Abs(c-math.Cos(a)) <= 2e-15) || !(math.Abs(s-math.Sin(a)) <= 2e-15) {
				t.Errorf("cosSin2Pi(%d, %d) = %v, %v; math: %v, %v", k, m, c, s, math.Cos(a), math.Sin(a))
			}
			if c == 0 && math.Signbit(c) || s == 0 && math.Signbit(s) {
				t.Errorf("cosSin2Pi(%d, %d) = %v, %v: a -0", k, m, c, s)
			}
		}
	}
}
