package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// certRow draws a row x for the weights w (w_j = ±1 or ±2, so that the
// products are the values drawn, exactly) on which a fast sum and the
// left-to-right sum disagree, or nearly: kind 0, large products that
// cancel in pairs (±2^40 to ±2^60) among small integers, so that the
// order decides what is absorbed; kind 1, a mix of ±1e308 (whose sums
// overflow in one order and not in another), ±1e-308 and ±1; kind 2,
// subnormal products only (b = 0 in the model's check); kind 3, small integers that sum exactly to -b
// (an exact tie); kind 4, Gaussian values (rows the certificate decides).
func certRow(rng *rand.Rand, w []float64, b float64, kind int) []float64 {
	c := len(w)
	p := make([]float64, c)
	switch kind {
	case 0:
		for j := range p {
			p[j] = float64(rng.IntN(9) - 4)
		}
		for range 1 + c/3 {
			v := math.Ldexp(float64(1+rng.IntN(1<<10)), 30+rng.IntN(21))
			if rng.IntN(2) == 0 {
				v = -v
			}
			p[rng.IntN(c)] = v
			p[rng.IntN(c)] = -v
		}
	case 1:
		for j := range p {
			p[j] = []float64{1e308, -1e308, 1e-308, -1e-308, 1, -1}[rng.IntN(6)]
		}
	case 2:
		for j := range p {
			p[j] = float64(rng.IntN(2001)-1000) * 0x1p-1074
		}
	case 3:
		s := -b
		for j := range p[:c-1] {
			p[j] = float64(rng.IntN(9) - 4)
			s -= p[j]
		}
		p[c-1] = s
	default:
		for j := range p {
			p[j] = rng.NormFloat64()
		}
	}
	x := make([]float64, c)
	for j := range x {
		x[j] = p[j] / w[j]
	}
	return x
}

// certWeights draws w_j = ±1 or ±2.
func certWeights(rng *rand.Rand, c int) []float64 {
	w := make([]float64, c)
	for j := range w {
		w[j] = []float64{1, -1, 2, -2}[rng.IntN(4)]
	}
	return w
}

// TestCertifiedDecisions checks the certificate of the exact scan
// (certCoef, certBlockGo, scanCertGo and the assembly scanCertAVX2) on
// rows built so that the fast sum and the left-to-right sum differ: in
// sign, in being zero, or in being finite. The model: whenever the
// certificate decides a row of a block, the left-to-right score is
// finite, not zero and of the fast score's sign, and rows on which the
// two sums disagree are among those drawn (so that the check can fail).
// The scans: scanCertGo, and ScanExact with the certified scan on every
// row length (AVX2), give ScanExactGo's results bit for bit, and the
// assembly scores again left to right exactly the rows scanCertGo does
// (its fallback count), which are many here.
func TestCertifiedDecisions(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 35))
	sign := func(v float64) int {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	lengths := []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 513, 1000}
	differ := make([]int, 5)
	certain := make([]int, 5)
	for _, c := range lengths {
		for kind := range 5 {
			for range 10 {
				// A block of eight rows of one kind.
				w := certWeights(rng, c)
				b := []float64{0, 1, -1, 0.5}[rng.IntN(4)]
				if kind == 2 {
					b = 0 // subnormal scores, certified by nothing
				}
				x := make([]float64, 0, 8*c)
				var o [8]int
				for q := range o {
					o[q] = q * c
					x = append(x, certRow(rng, w, b, kind)...)
				}
				sF, a := certBlockGo(w, x, c, &o, b)
				for q := range o {
					s := dot(w, x[o[q]:o[q]+c]) + b
					if sign(sF[q]) != sign(s) || finite(sF[q]) != finite(s) {
						differ[kind]++
					}
					if !certified(sF[q], a, certCoef(c)) {
						continue
					}
					certain[kind]++
					if !finite(s) || s == 0 || sign(s) != sign(sF[q]) {
						t.Fatalf("c=%d kind %d: certified fast score %v, but the left-to-right score is %v", c, kind, sF[q], s)
					}
				}
			}
		}
	}
	for kind, what := range []string{"cancellation", "1e308 mix"} {
		if differ[kind] == 0 {
			t.Errorf("no %s row on which the fast and the left-to-right sums differ in sign, zero-ness or finiteness", what)
		}
	}
	if certain[4] == 0 || certain[2]+certain[3] != 0 {
		t.Errorf("certified rows by kind %v: want some Gaussian rows, no subnormal-only row nor exact tie", certain)
	}
	t.Logf("rows on which the sums differ, by kind: %v; certified: %v", differ, certain)

	defer func(cc int) { certCols = cc }(certCols)
	certCols = 1
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	fellBack := 0
	for _, c := range lengths {
		for trial := range 20 {
			// n rows of mixed kinds, labelled by their left-to-right score
			// (random on a tie), so that no update changes w and every row
			// stays adversarial to it; one trial in four flips a few labels.
			n := 8 + rng.IntN(40)
			w := certWeights(rng, c)
			b := []float64{0, 1, -1, 0.5}[rng.IntN(4)]
			x := make([]float64, 0, n*c)
			y := make([]float64, n)
			for i := range y {
				xi := certRow(rng, w, b, rng.IntN(5))
				x = append(x, xi...)
				y[i] = float64(sign(dot(w, xi) + b))
				if y[i] == 0 || trial%4 == 0 && rng.IntN(8) == 0 {
					y[i] = float64(1 - 2*rng.IntN(2))
				}
			}
			wa, wg, wc := append([]float64(nil), w...), append([]float64(nil), w...), append([]float64(nil), w...)
			ba, bg, bc := b, b, b
			for k := 0; k+8 <= n; {
				before := certFallbacks.Load()
				m, need, s, nba, u, last := ScanExact(wa, x[k*c:], c, c, y[k:], ba, 1, true, math.MaxInt, math.MaxInt, false)
				fb := int(certFallbacks.Load() - before)
				mg, needg, sg, nbg, ug, lastg := ScanExactGo(wg, x[k*c:], c, c, y[k:], bg, 1, true, math.MaxInt, math.MaxInt, false)
				mc, needc, sc, nbc, uc, lastc, fbc := scanCertGo(wc, x[k*c:], c, c, y[k:], bc, 1, true, math.MaxInt, math.MaxInt)
				ok := m == mg && need == needg && same(s, sg) && same(nba, nbg) && u == ug && last == lastg
				ok = ok && mc == mg && needc == needg && same(sc, sg) && same(nbc, nbg) && uc == ug && lastc == lastg
				for j := range wa {
					ok = ok && same(wa[j], wg[j]) && same(wc[j], wg[j])
				}
				if !ok {
					t.Fatalf("c=%d trial %d from row %d: ScanExact %d %v %v %v %d %d, scanCertGo %d %v %v %v %d %d, ScanExactGo %d %v %v %v %d %d",
						c, trial, k, m, need, s, nba, u, last, mc, needc, sc, nbc, uc, lastc, mg, needg, sg, nbg, ug, lastg)
				}
				if hasAVX2 && fb != fbc {
					t.Fatalf("c=%d trial %d from row %d: the assembly scored %d rows again left to right, scanCertGo %d", c, trial, k, fb, fbc)
				}
				fellBack += fbc
				ba, bg, bc = nba, nbg, nbc
				k += m
				if need {
					k++ // the caller's step; here the row is passed over
				}
			}
		}
	}
	if fellBack < 100 {
		t.Errorf("the certified scan fell back to the left-to-right score on %d rows, want many", fellBack)
	}
	t.Logf("rows scored again left to right: %d", fellBack)
}
