package perceptron_test

import (
	"math/big"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// ratMinScore returns min_i y_i θ·x_i and ||θ||² exactly, for θ = [b, w]
// on the rows [1, x_i] (bias) or θ = w on x_i.
func ratMinScore(d *perceptron.Dataset, h perceptron.Hyperplane, bias bool) (min, norm2 *big.Rat) {
	theta := h.W
	if bias {
		theta = h.Theta()
	}
	norm2 = new(big.Rat)
	for _, v := range theta {
		r := new(big.Rat).SetFloat64(v)
		norm2.Add(norm2, r.Mul(r, r))
	}
	for i := 0; i < d.N(); i++ {
		x := d.Row(i)
		if bias {
			x = append([]float64{1}, x...)
		}
		s := new(big.Rat)
		for j, v := range x {
			s.Add(s, new(big.Rat).Mul(new(big.Rat).SetFloat64(theta[j]), new(big.Rat).SetFloat64(v)))
		}
		if d.Y[i] < 0 {
			s.Neg(s)
		}
		if min == nil || s.Cmp(min) < 0 {
			min = s
		}
	}
	return min, norm2
}

// TestBoundGammaIsCertified: Bound's Gamma never exceeds the exact margin
// of its Target (so never γ*), and Bound never falls below the exact
// (R/γ*)². Two points 4.4e-16 apart (and two near −2) had Gamma 0.8%
// above γ* and a bound 1.5% below the theorem's, from the cancellation in
// the computed scores.
func TestBoundGammaIsCertified(t *testing.T) {
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	for _, x := range [][2]float64{{0.125, 0.12499999999999956}, {-2, -1.9999999999997726}} {
		d := mustData(t, [][]float64{{x[0]}, {x[1]}}, []float64{-1, 1})
		b, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil || !b.Separable {
			t.Fatalf("x = %v: %+v, %v", x, b, err)
		}
		// γ*: the distance from 0 to the segment between z1 = −[1, x1]
		// and z2 = [1, x2], exactly: z1 + t(z2 − z1) with t clamped.
		z1 := [2]*big.Rat{rat(-1), new(big.Rat).Neg(rat(x[0]))}
		z2 := [2]*big.Rat{rat(1), rat(x[1])}
		dz := [2]*big.Rat{new(big.Rat).Sub(z2[0], z1[0]), new(big.Rat).Sub(z2[1], z1[1])}
		num := new(big.Rat).Add(new(big.Rat).Mul(z1[0], dz[0]), new(big.Rat).Mul(z1[1], dz[1]))
		den := new(big.Rat).Add(new(big.Rat).Mul(dz[0], dz[0]), new(big.Rat).Mul(dz[1], dz[1]))
		tt := new(big.Rat).Neg(new(big.Rat).Quo(num, den))
		if tt.Sign() < 0 || tt.Cmp(big.NewRat(1, 1)) > 0 {
			t.Fatalf("x = %v: the nearest point is a vertex (t = %v)", x, tt)
		}
		g2 := new(big.Rat)
		for k := range 2 {
			c := new(big.Rat).Add(z1[k], new(big.Rat).Mul(tt, dz[k]))
			g2.Add(g2, c.Mul(c, c))
		}
		r2 := new(big.Rat)
		for _, v := range x {
			s := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(rat(v), rat(v)))
			if s.Cmp(r2) > 0 {
				r2 = s
			}
		}
		// Gamma ≤ γ*, and Bound·γ*² ≥ R².
		if gg := new(big.Rat).Mul(rat(b.Gamma), rat(b.Gamma)); gg.Cmp(g2) > 0 {
			t.Errorf("x = %v: Gamma %v above the exact γ* (γ*² = %s)", x, b.Gamma, g2.FloatString(40))
		}
		if new(big.Rat).Mul(rat(b.Bound), g2).Cmp(r2) < 0 {
			t.Errorf("x = %v: Bound %v below the exact (R/γ*)²", x, b.Bound)
		}
	}
	// On random separable sets, with a bias and without: Gamma·||θ*|| is
	// at most the exact least score of Target, and within 1e-14 of it.
	for seed := uint64(1); seed <= 40; seed++ {
		d, _, err := perceptron.SeparableData(10+int(seed%7)*20, 1+int(seed%6), 0.02, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, noBias := range []bool{false, true} {
			data := d
			if noBias {
				data = perceptron.Augment(d)
			}
			b, err := perceptron.Bound(data, perceptron.Options{NoBias: noBias})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			min, n2 := ratMinScore(data, b.Target, !noBias)
			g := rat(b.Gamma)
			lhs := new(big.Rat).Mul(new(big.Rat).Mul(g, g), n2) // (γ||θ||)²
			if min.Sign() <= 0 || lhs.Cmp(new(big.Rat).Mul(min, min)) > 0 {
				t.Errorf("seed %d, no bias %v: Gamma %v above the exact margin of Target", seed, noBias, b.Gamma)
			}
			up := new(big.Rat).Mul(lhs, rat((1+1e-14)*(1+1e-14)))
			if up.Cmp(new(big.Rat).Mul(min, min)) < 0 {
				t.Errorf("seed %d, no bias %v: Gamma %v more than 1e-14 below the exact margin of Target", seed, noBias, b.Gamma)
			}
		}
	}
}

// TestBoundWithBiasAgreesWithSeparable: with a bias, Bound answers
// wherever Separable proves the data separable, from Separable's
// separator when the maximum-margin solver finds none it can certify. Two
// points 1e-3 apart at x = 1000 (γ*/R about 5e-7 in the augmented space)
// were ErrUndecided ("found no separator") though Separable certified a
// separator: 27 of 63 such pairs. Gamma is certified: it is at most the
// exact margin of Target, which separates exactly.
func TestBoundWithBiasAgreesWithSeparable(t *testing.T) {
	for _, c := range [][2]float64{{1000, 1e-6}, {1, 1e-8}, {3, 1e-9}, {100, 1e-7}, {0.5, 1e-10}, {10, 1e-8}, {1e6, 1e-9}, {-50, 1e-8}} {
		s, e := c[0], c[1]
		d, err := perceptron.NewDataset([][]float64{{s}, {s + s*e}}, []float64{1, -1})
		if err != nil {
			t.Fatal(err)
		}
		sep, err := perceptron.Separable(d, perceptron.Options{})
		if err != nil || !sep.Separable {
			t.Fatalf("x = %g and %g: Separable %+v, %v", s, s+s*e, sep, err)
		}
		b, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil || !b.Separable || !(b.Gamma > 0) || !(b.Bound >= b.R*b.R/(b.Gamma*b.Gamma)) {
			t.Errorf("x = %g and %g: Bound %+v, %v; Separable proved the data separable", s, s+s*e, b, err)
			continue
		}
		min, norm2 := ratMinScore(d, b.Target, true)
		g := new(big.Rat).SetFloat64(b.Gamma)
		if min.Sign() <= 0 || new(big.Rat).Mul(g, g).Cmp(new(big.Rat).Quo(new(big.Rat).Mul(min, min), norm2)) > 0 {
			t.Errorf("x = %g and %g: Target's exact least score %v (||θ||² %v), Gamma %v above its margin", s, s+s*e, min.FloatString(20), norm2.FloatString(20), b.Gamma)
		}
	}
}
