package perceptron_test

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestMaxMarginIsCertified: MaxMargin's γ is never above the exact margin
// of its (w, b), is within 1e-9 of the maximum, and where it cannot be
// both the error is ErrUndecided (red-team cases: data of subnormal values
// gave γ = 0 and a boundary through a point with no error; three ordinary
// points gave γ = 1.8e-15 where γ* = 7.45e-9).
func TestMaxMarginIsCertified(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x      [][]float64
		y      []float64
		noBias bool
	}{
		{"1-D, subnormal", [][]float64{{-5e-324}, {-1e-323}}, []float64{-1, 1}, false},
		{"integers × 2^-1074", timesPow2([][]float64{{0, 3}, {1, -4}, {-2, -5}, {4, 5}, {1, 4}, {4, -3}, {-5, -3}, {-4, 2}}, -1074), []float64{1, -1, 1, -1, -1, -1, 1, 1}, false},
		{"radius 4e-312, no bias", [][]float64{{4.0474e-320, 1.35807730622e-312}, {4.0474e-320, -4.074231918653e-312}, {6.071e-320, 1.35807730622e-312}, {-6.071e-320, -1.35807730622e-312}, {0, 2.716154612436e-312}}, []float64{-1, 1, 1, -1, -1}, true},
		{"γ*/R = 2.5e-9, no bias", [][]float64{{1, 0}, {-1.7763568394002505e-15, -3.000000000000014}, {-1.4901161193847656e-08, 3.000000000000007}}, []float64{-1, 1, 1}, true},
	} {
		d := mustData(t, tc.x, tc.y)
		h, g, err := perceptron.MaxMargin(d, perceptron.Options{NoBias: tc.noBias})
		if err != nil {
			if !errors.Is(err, perceptron.ErrUndecided) {
				t.Errorf("%s: %v; want an answer or ErrUndecided", tc.name, err)
			}
			continue
		}
		// An answer must separate, with γ at most its exact margin.
		min, n2 := ratMinScore(d, h, false)
		gg := new(big.Rat).SetFloat64(g)
		if !(g > 0) || min.Sign() <= 0 || new(big.Rat).Mul(new(big.Rat).Mul(gg, gg), n2).Cmp(new(big.Rat).Mul(min, min)) > 0 {
			t.Errorf("%s: %v, γ = %v: not a certified margin (exact least score %s)", tc.name, h, g, min.FloatString(20))
		}
		if tc.name == "γ*/R = 2.5e-9, no bias" && !(g > 7.45e-9) {
			t.Errorf("%s: γ = %v; γ* = 7.4506e-9", tc.name, g)
		}
	}
	// Two points, with a bias: γ* = ||p − q||/2 exactly; γ is below it
	// and within 1e-9 of it.
	for seed := uint64(0); seed < 200; seed++ {
		x := make([][]float64, 2)
		for i := range x {
			x[i] = make([]float64, 1+int(seed%5))
			for j := range x[i] {
				v := math.Sin(float64(seed*7+uint64(i*13+j)) * 1.7)
				x[i][j] = math.Ldexp(v, int(seed%9)*40-160)
			}
		}
		d := mustData(t, x, []float64{1, -1})
		_, g, err := perceptron.MaxMargin(d, perceptron.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		half2 := new(big.Rat) // (||p − q||/2)²
		for j := range x[0] {
			c := new(big.Rat).Sub(new(big.Rat).SetFloat64(x[0][j]), new(big.Rat).SetFloat64(x[1][j]))
			half2.Add(half2, c.Mul(c, c))
		}
		half2.Quo(half2, big.NewRat(4, 1))
		gg := new(big.Rat).SetFloat64(g)
		gg.Mul(gg, gg)
		lo := new(big.Rat).Mul(half2, new(big.Rat).SetFloat64((1-1e-9)*(1-1e-9)))
		if gg.Cmp(half2) > 0 || gg.Cmp(lo) < 0 {
			t.Errorf("seed %d: γ = %v; γ*² = %s", seed, g, half2.FloatString(30))
		}
	}
}

// timesPow2 returns x with every value multiplied by 2^e.
func timesPow2(x [][]float64, e int) [][]float64 {
	out := make([][]float64, len(x))
	for i, r := range x {
		out[i] = make([]float64, len(r))
		for j, v := range r {
			out[i][j] = math.Ldexp(v, e)
		}
	}
	return out
}
