package perceptron

import (
	"math"
	"math/rand/v2"
	"testing"
)

// eachKernel runs f with each amd64 kernel this CPU can run: AVX2 (avx
// true) where it has it, then SSE2; elsewhere once, with the Go loops.
// hasAVX2 is set for the call and restored afterwards.
func eachKernel(f func(avx bool)) {
	have := hasAVX2
	defer func() { hasAVX2 = have }()
	for _, avx := range []bool{true, false} {
		if avx && !have {
			continue
		}
		hasAVX2 = avx
		f(avx)
	}
}

// randomTerms returns n values of mixed magnitudes and signs (normal,
// scaled by 2^±30, with zeros, -0 and subnormals among them), so that
// sums taken in different orders round differently.
func randomTerms(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for j := range v {
		switch rng.IntN(16) {
		case 0:
			v[j] = 0
		case 1:
			v[j] = math.Copysign(0, -1)
		case 2:
			v[j] = rng.NormFloat64() * 1e-310
		default:
			v[j] = math.Ldexp(rng.NormFloat64(), rng.IntN(61)-30)
		}
	}
	return v
}

// TestDot8 checks the kernels of the epoch against the sums they stand for,
// bit for bit, on rows of every length from 1 to 40 and a few long ones:
// dot8Exact (the assembly on amd64, AVX2 and SSE2) against dot8ExactGo and against dot
// (left to right, one row at a time), and dotFast against dotFastGo and
// against FastSum's order written out here a second way.
func TestDot8(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	lengths := []int{}
	for n := 1; n <= 40; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 99, 100, 101, 255, 1000, 1001)
	differ := 0
	// Both amd64 kernels where the CPU has AVX2 (hasAVX2 picks one).
	eachKernel(func(avx bool) {
		for _, n := range lengths {
			for trial := range 20 {
				// Rows at offsets that are not multiples of the row length, in
				// any order, some repeated, as a permuted visit makes them.
				x := randomTerms(rng, 12*n+5)
				w := randomTerms(rng, n)
				var o [8]int
				for q := range o {
					o[q] = rng.IntN(len(x) - n + 1)
				}
				var a, g [8]float64
				dot8Exact(w, x, &o, rng.IntN(len(x)+5), &a)
				dot8ExactGo(w, x, &o, &g)
				for q, oq := range o {
					row := x[oq : oq+n]
					if math.Float64bits(a[q]) != math.Float64bits(g[q]) || math.Float64bits(a[q]) != math.Float64bits(dot(w, row)) {
						t.Fatalf("AVX2 %v, n=%d trial %d row %d: dot8Exact %v, dot8ExactGo %v, dot %v", avx, n, trial, q, a[q], g[q], dot(w, row))
					}
					var p [8]float64
					m := n / 8 * 8
					for j := range m {
						p[j%8] += float64(w[j] * row[j])
					}
					want := ((p[0] + p[2]) + (p[4] + p[6])) + ((p[1] + p[3]) + (p[5] + p[7]))
					for j := m; j < n; j++ {
						want += float64(w[j] * row[j])
					}
					f, fg := dotFast(w, row), dotFastGo(w, row)
					if math.Float64bits(f) != math.Float64bits(fg) || math.Float64bits(f) != math.Float64bits(want) {
						t.Fatalf("n=%d trial %d row %d: dotFast %v, dotFastGo %v, by hand %v", n, trial, q, f, fg, want)
					}
					if f != a[q] {
						differ++
					}
				}
			}
		}
	})
	// The two orders must round differently on such terms, or this test
	// could not tell them apart.
	if differ == 0 {
		t.Error("dotFast and dot8Exact never differ")
	}
}

// TestAxpy checks that axpy (on amd64 axpyAVX2 and gonum's
// floats.AddScaled, both tried where the CPU has AVX2) makes the
// update w_j ← w_j + a x_j exactly as the scalar loop does, product rounded
// before the sum, on many random vectors of odd and even lengths, including
// a w that is a prefix of a longer slice.
func TestAxpy(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	eachKernel(func(avx bool) {
		for n := 1; n <= 70; n++ {
			for range 30 {
				x := randomTerms(rng, n)
				w := randomTerms(rng, n+3)
				a := math.Ldexp(rng.NormFloat64(), rng.IntN(21)-10)
				if rng.IntN(4) == 0 {
					a = float64(1 - 2*rng.IntN(2))
				}
				want := append([]float64(nil), w...)
				for j, v := range x {
					want[j] += float64(v * a)
				}
				got := append([]float64(nil), w...)
				axpy(a, x, got)
				for j := range want {
					if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
						t.Fatalf("AVX2 %v, n=%d a=%v: w[%d] = %v, want %v", avx, n, a, j, got[j], want[j])
					}
				}
			}
		}
	})
}

// TestScanFast checks scanFast (the assembly on amd64) against scanFastGo,
// bit for bit (k, need, the last score, w, b, the number of updates and the
// last updated row), on rows with strides wider than the rows and with labels
// and biases that make mistakes, exact ties (t = 0, +0 and -0), NaN scores
// and ±Inf scores, with and without the bias and with small update budgets,
// and on terms of mixed magnitudes, where any other order of the sums
// would round differently.
func TestScanFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	counts := map[string]int{}
	eachKernel(func(avx bool) {
		for _, c := range []int{1, 2, 3, 7, 8, 9, 16, 17, 100} {
			for trial := range 300 {
				n := 1 + rng.IntN(30)
				st := c + rng.IntN(3)
				x := make([]float64, (n-1)*st+c)
				for j := range x {
					x[j] = float64(rng.IntN(5)-2) * 0.5 // small binary fractions: exact ties happen
				}
				w := make([]float64, c)
				for j := range w {
					w[j] = float64(rng.IntN(5) - 2)
				}
				y := make([]float64, n)
				for i := range y {
					y[i] = float64(1 - 2*rng.IntN(2))
				}
				b := float64(rng.IntN(3) - 1)
				if trial%5 == 0 {
					// Mixed magnitudes: every order of summation rounds differently.
					x, w = randomTerms(rng, len(x)), randomTerms(rng, c)
				}
				switch trial % 5 {
				case 1:
					x[rng.IntN(len(x))] = math.NaN()
				case 2:
					x[rng.IntN(len(x))] = math.Inf(1 - 2*rng.IntN(2))
				case 3:
					b = math.Copysign(0, -1)
				case 4:
					x[rng.IntN(len(x))] = 1e308 // overflow to ±Inf in a score or an update
				}
				eta := []float64{1, 0.1, 3}[rng.IntN(3)]
				bias := rng.IntN(2) == 0
				maxu := []int{1, 2, 5, math.MaxInt}[rng.IntN(4)]
				wa, wg := append([]float64(nil), w...), append([]float64(nil), w...)
				k, need, s, ba, u, last := scanFast(wa, x, c, st, y, b, eta, bias, maxu)
				kg, needg, sg, bg, ug, lastg := scanFastGo(wg, x, c, st, y, b, eta, bias, maxu)
				ok := k == kg && need == needg && same(ba, bg) && u == ug && last == lastg && same(s, sg)
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok {
					t.Fatalf("AVX2 %v, c=%d trial %d: scanFast %d %v %v %v %d %d %v, scanFastGo %d %v %v %v %d %d %v",
						avx, c, trial, k, need, s, ba, u, last, wa, kg, needg, sg, bg, ug, lastg, wg)
				}
				switch {
				case need && s == 0:
					counts["tie"]++
				case need:
					counts["non-finite"]++
				case u == maxu:
					counts["budget"]++
				}
				if u > 0 {
					counts["updates"]++
				}
			}
		}
	})
	for _, what := range []string{"tie", "non-finite", "budget", "updates"} {
		if counts[what] == 0 {
			t.Errorf("no trial ended with %s: %v", what, counts)
		}
	}
}
