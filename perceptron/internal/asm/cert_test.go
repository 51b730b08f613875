package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// scanCertModel is ScanCert as its assembly decides, written plainly: row
// after row, the decision from the fast score when certified (certScoreGo,
// certified), else from the left-to-right score, which it counts (the
// rows the assembly leaves to ScanCert's Go loop: certFallbacks).
func scanCertModel(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last, fallbacks int) {
	last = -1
	kc := certCoef(c)
	for i, yi := range y {
		xi := x[i*st : i*st+c]
		sF, a := certScoreGo(w, xi, b)
		sc := sF
		if !certified(sF, a, kc) {
			fallbacks++
			sc = dot(w, xi) + b
		}
		t := yi * sc
		if t > 0 && t <= math.MaxFloat64 {
			continue
		}
		if !(t < 0) || t < -math.MaxFloat64 {
			return i, true, sc, b, u, last, fallbacks
		}
		step := float64(eta * yi)
		for j, v := range xi {
			w[j] += float64(v * step)
		}
		if bias {
			b += step
		}
		u++
		last = i
		if u >= maxu {
			return i + 1, false, 0, b, u, last, fallbacks
		}
	}
	return len(y), false, 0, b, u, last, fallbacks
}

// TestScanCert checks the certified exact scan: ScanCert (on amd64 with
// AVX2 the assembly loop, else ScanCertGo) against ScanCertGo, and both
// against scanCertModel, bit for bit (k, need, the score of a row left to
// the caller, w, b, the number of updates and the last updated row), with
// the assembly leaving to the left-to-right score exactly the rows the
// model does (certFallbacks), on the random scans of TestScanFast (rows
// of 1 to 1000 features, ties, NaN, ±Inf, overflow, every budget).
func TestScanCert(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	counts := map[string]int{}
	eachKernel(func(avx bool) {
		for _, c := range []int{1, 2, 3, 7, 8, 9, 16, 17, 100, 191, 192, 193, 199, 513, 1000} {
			for trial := range 200 {
				x, st, w, y, b, eta, bias, maxu := randomScan(rng, c, 40, trial)
				wa, wg, wm := append([]float64(nil), w...), append([]float64(nil), w...), append([]float64(nil), w...)
				fb0 := certFallbacks.Load()
				k, need, s, ba, u, last := ScanCert(wa, x, c, st, y, b, eta, bias, maxu)
				fb := int(certFallbacks.Load() - fb0)
				kg, needg, sg, bg, ug, lastg := ScanCertGo(wg, x, c, st, y, b, eta, bias, maxu)
				km, needm, sm, bm, um, lastm, fbm := scanCertModel(wm, x, c, st, y, b, eta, bias, maxu)
				ok := k == kg && need == needg && same(ba, bg) && u == ug && last == lastg && same(s, sg)
				ok = ok && km == kg && needm == needg && same(bm, bg) && um == ug && lastm == lastg && (!need || same(sm, sg))
				for j := range wa {
					ok = ok && same(wa[j], wg[j]) && same(wm[j], wg[j])
				}
				if !ok {
					t.Fatalf("%s: c=%d trial %d: ScanCert %d %v %v %v %d %d, ScanCertGo %d %v %v %v %d %d, model %d %v %v %v %d %d",
						kernel, c, trial, k, need, s, ba, u, last, kg, needg, sg, bg, ug, lastg, km, needm, sm, bm, um, lastm)
				}
				if avx && fb != fbm {
					t.Fatalf("c=%d trial %d: the assembly left %d rows to the left-to-right score, the model %d", c, trial, fb, fbm)
				}
				countEnd(counts, need, s, u, maxu)
				if avx && fb > 0 {
					counts["fallback"]++
				}
			}
		}
	})
	checkEnds(t, counts, "tie", "non-finite", "budget", "updates")
	if hasAVX2 {
		checkEnds(t, counts, "fallback")
	}
}

// certRow draws a row x for the weights w (w_j = ±1 or ±2, so that the
// products are the values drawn, exactly) on which a fast sum and the
// left-to-right sum disagree, or nearly: kind 0, large products that
// cancel in pairs (±2^30 to ±2^60) among small integers, so that the
// order decides what is absorbed; kind 1, a mix of ±1e308 (whose sums
// overflow in one order and not in another), ±1e-308 and ±1; kind 2,
// subnormal products only (b = 0); kind 3, small integers that sum
// exactly to -b (an exact tie); kind 4, Gaussian values (rows the
// certificate decides).
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

// TestCertificate checks ScanCert's certificate (certCoef, certScoreGo,
// certified) on rows built so that the fast sum and the left-to-right sum
// differ in sign, in being zero, or in being finite: whenever it decides a
// row, the left-to-right score is finite, not zero and of the fast
// score's sign. The rows must be able to catch a wrong bound: with K = 0
// some row on which the sums disagree passes. Then ScanCert on n such
// rows (labelled by their left-to-right score, so that every row stays
// adversarial) gives ScanCertGo's results bit for bit, with many rows left
// to the left-to-right score.
func TestCertificate(t *testing.T) {
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
	weights := func(c int) []float64 {
		w := make([]float64, c)
		for j := range w {
			w[j] = []float64{1, -1, 2, -2}[rng.IntN(4)]
		}
		return w
	}
	lengths := []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 513, 1000}
	differ, certain, wrongAtZero := make([]int, 5), make([]int, 5), 0
	for _, c := range lengths {
		for kind := range 5 {
			for range 80 {
				w := weights(c)
				b := []float64{0, 1, -1, 0.5}[rng.IntN(4)]
				if kind == 2 {
					b = 0 // subnormal scores, certified by nothing
				}
				x := certRow(rng, w, b, kind)
				sF, a := certScoreGo(w, x, b)
				s := dot(w, x) + b
				bad := sign(sF) != sign(s) || finite(sF) != finite(s) || s == 0
				if bad {
					differ[kind]++
				}
				if bad && certified(sF, a, 0) {
					wrongAtZero++
				}
				if !certified(sF, a, certCoef(c)) {
					continue
				}
				certain[kind]++
				if !finite(s) || s == 0 || sign(s) != sign(sF) {
					t.Fatalf("c=%d kind %d: certified fast score %v (bound %v), but the left-to-right score is %v", c, kind, sF, a, s)
				}
			}
		}
	}
	if differ[0] == 0 || differ[1] == 0 {
		t.Errorf("rows on which the two sums differ, by kind: %v; want some cancellation and 1e308-mix rows", differ)
	}
	if wrongAtZero == 0 {
		t.Errorf("no row would have been decided wrongly with K = 0: the rows cannot catch a wrong bound")
	}
	if certain[4] == 0 || certain[2]+certain[3] != 0 {
		t.Errorf("certified rows by kind %v: want some Gaussian rows, no subnormal-only row nor exact tie", certain)
	}
	t.Logf("rows on which the sums differ, by kind: %v; certified: %v; wrongly decided with K = 0: %d", differ, certain, wrongAtZero)

	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	fellBack := 0
	for _, c := range lengths {
		for trial := range 20 {
			n := 8 + rng.IntN(40)
			w := weights(c)
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
			wa, wg := append([]float64(nil), w...), append([]float64(nil), w...)
			ba, bg := b, b
			for k := 0; k < n; {
				fb0 := certFallbacks.Load()
				m, need, s, nba, u, last := ScanCert(wa, x[k*c:], c, c, y[k:], ba, 1, true, math.MaxInt)
				fb := int(certFallbacks.Load() - fb0)
				mg, needg, sg, nbg, ug, lastg := ScanCertGo(wg, x[k*c:], c, c, y[k:], bg, 1, true, math.MaxInt)
				ok := m == mg && need == needg && same(s, sg) && same(nba, nbg) && u == ug && last == lastg
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok {
					t.Fatalf("c=%d trial %d from row %d: ScanCert %d %v %v %v %d %d, ScanCertGo %d %v %v %v %d %d",
						c, trial, k, m, need, s, nba, u, last, mg, needg, sg, nbg, ug, lastg)
				}
				fellBack += fb
				ba, bg = nba, nbg
				k += m
				if need {
					k++ // the caller's step; here the row is passed over
				}
			}
		}
	}
	if hasAVX2 && fellBack < 100 {
		t.Errorf("the assembly left %d rows to the left-to-right score, want many", fellBack)
	}
	t.Logf("rows left to the left-to-right score: %d", fellBack)
}

// TestScanBounds: ScanCert and ScanFast refuse, with a panic as an index
// out of range would, rows that do not lie in x (a negative stride, a
// stride whose (n−1)·st overflows, rows longer than x), before their
// assembly reads anything; the same rows in x are scanned.
func TestScanBounds(t *testing.T) {
	y := []float64{1, -1, 1, 1}
	wrap := int(^uint(0)/3 + 1) // 3·wrap overflows to 2
	for _, tc := range []struct {
		c, st, n, lenx int
		ok             bool
	}{
		{4, -1, 2, 4, false},
		{1, wrap, 4, 8, false},
		{3, 3, 2, 5, false},
		{5, 5, 1, 4, false},
		{4, 4, 2, 8, true},
		{2, 3, 3, 8, true},
		{1, 0, 4, 1, true},
	} {
		for _, scan := range []struct {
			name string
			f    func(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (int, bool, float64, float64, int, int)
		}{{"ScanCert", ScanCert}, {"ScanFast", ScanFast}} {
			x := make([]float64, tc.lenx)
			for i := range x {
				x[i] = 1
			}
			w := make([]float64, tc.c)
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				scan.f(w, x, tc.c, tc.st, y[:tc.n], 1, 1, true, math.MaxInt)
				return false
			}()
			if panicked == tc.ok {
				t.Errorf("%s, %d rows of %d at stride %d in %d values: panicked %v", scan.name, tc.n, tc.c, tc.st, tc.lenx, panicked)
			}
		}
	}
}
