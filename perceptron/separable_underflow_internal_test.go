package perceptron

import (
	"context"
	"math"
	"math/big"
	"testing"
)

// TestCertifiedMarginCountsUnderflow: a score of products below 2^-1022
// is certified only beyond its underflow error, (d+3)·2^-1074, and
// otherwise computed exactly (helper-71: the relative bound alone is 0
// there). Each product 2^-537 · 0.6·2^-537 rounds up to 2^-1074, so the
// computed scores are 2^-1074 above the exact ones: with b = −2·2^-1074
// row 0 scores 2^-1074 > 0 in float64 and −0.2·2^-1074 exactly, and is
// not certified; with b = −2^-1074 it scores 0.8·2^-1074 exactly, and its
// margin, certified, is at most the exact one.
func TestCertifiedMarginCountsUnderflow(t *testing.T) {
	a := math.Ldexp(1, -537)
	x := 0.6 * a
	d, err := NewDataset([][]float64{{x, x, x}, {-1, -1, -1}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{a, a, a}
	if g, ok := certifiedMargin(context.Background(), Hyperplane{W: w, B: -math.Ldexp(1, -1073)}, d); ok {
		t.Errorf("b = -2^-1073: certified, margin %v; row 0 is on the wrong side exactly", g)
	}
	h := Hyperplane{W: w, B: -math.Ldexp(1, -1074)}
	g, ok := certifiedMargin(context.Background(), h, d)
	// The exact margin of row 0, the least: (3 w x + b)/||w||, ||w|| = √3 a.
	s := new(big.Float).SetPrec(200).SetFloat64(x)
	s.Mul(s, big.NewFloat(3*a)).Add(s, big.NewFloat(h.B))
	exact, _ := s.Quo(s, new(big.Float).SetPrec(200).Mul(big.NewFloat(a), new(big.Float).SetPrec(200).Sqrt(big.NewFloat(3)))).Float64()
	if !ok || !(g > 0) || g > exact || g < exact*(1-1e-12) {
		t.Errorf("b = -2^-1074: margin %v, certified %v; want certified, at most the exact %v and within 1e-12 of it", g, ok, exact)
	}
}
