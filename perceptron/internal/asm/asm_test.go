package asm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// eachKernel runs f with each amd64 kernel this CPU can run: AVX-512 and
// AVX2 (avx true) where it has them, then SSE2 (avx false); elsewhere
// once, with the Go loops. hasAVX512 and hasAVX2 are set for the call and
// restored afterwards; kernel names the one running, for the messages.
func eachKernel(f func(avx bool)) {
	have2, have512 := hasAVX2, hasAVX512
	defer func() { hasAVX2, hasAVX512, kernel = have2, have512, "" }()
	for _, k := range []struct {
		name         string
		avx2, avx512 bool
	}{{"AVX-512", true, true}, {"AVX2", true, false}, {"SSE2", false, false}} {
		if k.avx2 && !have2 || k.avx512 && !have512 {
			continue
		}
		hasAVX2, hasAVX512, kernel = k.avx2, k.avx512, k.name
		f(k.avx2)
	}
}

// kernel names the kernel that eachKernel runs.
var kernel string

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
// Dot8Exact (the assembly on amd64, AVX2 and SSE2) against Dot8ExactGo and against dot
// (left to right, one row at a time), and DotFast against DotFastGo and
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
				// pf anywhere in x, or outside it (-1, len(x) and beyond:
				// no prefetch).
				Dot8Exact(w, x, &o, rng.IntN(len(x)+6)-1, &a)
				Dot8ExactGo(w, x, &o, &g)
				for q, oq := range o {
					row := x[oq : oq+n]
					if math.Float64bits(a[q]) != math.Float64bits(g[q]) || math.Float64bits(a[q]) != math.Float64bits(dot(w, row)) {
						t.Fatalf("%s: n=%d trial %d row %d: Dot8Exact %v, Dot8ExactGo %v, dot %v", kernel, n, trial, q, a[q], g[q], dot(w, row))
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
					f, fg := DotFast(w, row), DotFastGo(w, row)
					if math.Float64bits(f) != math.Float64bits(fg) || math.Float64bits(f) != math.Float64bits(want) {
						t.Fatalf("n=%d trial %d row %d: DotFast %v, DotFastGo %v, by hand %v", n, trial, q, f, fg, want)
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
		t.Error("DotFast and Dot8Exact never differ")
	}
}

// TestAxpy checks that Axpy (on amd64 axpyAVX2 and gonum's
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
				Axpy(a, x, got)
				for j := range want {
					if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
						t.Fatalf("%s: n=%d a=%v: w[%d] = %v, want %v", kernel, n, a, j, got[j], want[j])
					}
				}
			}
		}
	})
}

// TestScanFast checks ScanFast (the assembly on amd64) against ScanFastGo,
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
		// Long rows too: the read-ahead runs across rows, and AVX-512
		// holds the first 192 weights in registers, the rest in memory.
		// With AVX-512, widths 88 to 1592 that are multiples of 8 run in
		// scanCert512's loop (fastByCert): 88, 192, 200, 512, 1592 here,
		// 80 and 1600 on either side.
		for _, c := range []int{1, 2, 3, 7, 8, 9, 16, 17, 80, 88, 100, 191, 192, 193, 200, 512, 517, 523, 1592, 1600} {
			for trial := range 300 {
				x, st, w, y, b, eta, bias, maxu := randomScan(rng, c, 30, trial)
				wa, wg := append([]float64(nil), w...), append([]float64(nil), w...)
				k, need, s, ba, u, last := ScanFast(wa, x, c, st, y, b, eta, bias, maxu)
				kg, needg, sg, bg, ug, lastg := ScanFastGo(wg, x, c, st, y, b, eta, bias, maxu)
				ok := k == kg && need == needg && same(ba, bg) && u == ug && last == lastg && same(s, sg)
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok {
					t.Fatalf("%s: c=%d trial %d: ScanFast %d %v %v %v %d %d %v, ScanFastGo %d %v %v %v %d %d %v",
						kernel, c, trial, k, need, s, ba, u, last, wa, kg, needg, sg, bg, ug, lastg, wg)
				}
				countEnd(counts, need, s, u, maxu)
			}
		}
	})
	checkEnds(t, counts, "tie", "non-finite", "budget", "updates")
}

// TestScanFastLargeSums: rows whose products sum, in magnitude, beyond
// 2^1020 while the score is finite and not 0 (4e307 − 3e307) are left by
// scanCert512 to ScanFastGo, one row at a time (scanFastByCert); the scan
// then goes on, and its results are still ScanFastGo's, s included, with
// such a row last, in the middle, and the update that spends the budget.
func TestScanFastLargeSums(t *testing.T) {
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	rng := rand.New(rand.NewPCG(12, 12))
	eachKernel(func(bool) {
		for _, c := range []int{96, 100, 200} {
			for _, at := range []int{0, 3, 9} {
				for _, maxu := range []int{1, 2, math.MaxInt} {
					const n = 10
					x := make([]float64, n*c)
					for j := range x {
						x[j] = rng.NormFloat64()
					}
					w := make([]float64, c)
					for j := range w {
						w[j] = rng.NormFloat64()
					}
					w[0], w[1] = 1, 1
					x[at*c], x[at*c+1] = 4e307, -3e307
					y := make([]float64, n)
					for i := range y {
						y[i] = float64(1 - 2*rng.IntN(2))
					}
					wa, wg := append([]float64(nil), w...), append([]float64(nil), w...)
					k, need, s, b, u, last := ScanFast(wa, x, c, c, y, 0.5, 1, true, maxu)
					kg, needg, sg, bg, ug, lastg := ScanFastGo(wg, x, c, c, y, 0.5, 1, true, maxu)
					ok := k == kg && need == needg && same(s, sg) && same(b, bg) && u == ug && last == lastg
					for j := range wa {
						ok = ok && same(wa[j], wg[j])
					}
					if !ok || math.IsInf(sg, 0) || need {
						t.Fatalf("%s: c=%d, the large row %d, maxu %d: ScanFast %d %v %v %v %d %d, ScanFastGo %d %v %v %v %d %d",
							kernel, c, at, maxu, k, need, s, b, u, last, kg, needg, sg, bg, ug, lastg)
					}
				}
			}
		}
	})
}

// TestFastByCert: the widths whose FastSum rows run in scanCert512's
// loop with AVX-512 are the multiples of 8 from 88 to 1592.
func TestFastByCert(t *testing.T) {
	for c := 1; c <= 2000; c++ {
		if want := c%8 == 0 && c >= 88 && c <= 1592; fastByCert(c) != want {
			t.Errorf("fastByCert(%d) = %v", c, !want)
		}
	}
}

// countEnd tallies how a scan ended (a tie, a non-finite score, the
// budget) and whether it updated, for checkEnds.
func countEnd(counts map[string]int, need bool, s float64, u, maxu int) {
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

// checkEnds fails the test unless each of kinds was counted: a test's
// random cases must reach every way a scan ends.
func checkEnds(t *testing.T, counts map[string]int, kinds ...string) {
	t.Helper()
	for _, what := range kinds {
		if counts[what] == 0 {
			t.Errorf("no trial ended with %s: %v", what, counts)
		}
	}
}

// BenchmarkKernels times the kernels of the epoch on 100 and 1000 features,
// eight rows in cache: Dot8Exact in AVX2 (where the CPU has it) and SSE2
// against the Go loop it stands for (Dot8ExactGo), DotFast (assembly on
// amd64) against DotFastGo, and Axpy (the update) against AxpyGo.
func BenchmarkKernels(b *testing.B) {
	for _, d := range []int{100, 1000} {
		x := make([]float64, 8*d)
		w := make([]float64, d)
		for j := range x {
			x[j] = float64(j%13) - 6
		}
		for j := range w {
			w[j] = float64(j%7) - 3
		}
		var o [8]int
		for q := range o {
			o[q] = q * d
		}
		var s [8]float64
		avx := hasAVX2
		for _, k := range []string{"Dot8Exact-AVX2", "Dot8Exact-SSE2", "Dot8ExactGo", "DotFast", "DotFastGo", "Axpy", "AxpyGo"} {
			if k == "Dot8Exact-AVX2" && !avx {
				continue
			}
			b.Run(fmt.Sprintf("d=%d/%s", d, k), func(b *testing.B) {
				hasAVX2 = avx && k != "Dot8Exact-SSE2"
				defer func() { hasAVX2 = avx }()
				var sink float64
				for b.Loop() {
					switch k {
					case "Dot8Exact-AVX2", "Dot8Exact-SSE2":
						Dot8Exact(w, x, &o, 0, &s)
						sink += s[0]
					case "Dot8ExactGo":
						Dot8ExactGo(w, x, &o, &s)
						sink += s[0]
					case "DotFast":
						sink += DotFast(w, x[:d])
					case "DotFastGo":
						sink += DotFastGo(w, x[:d])
					case "Axpy":
						Axpy(1e-300, x[:d], w)
					case "AxpyGo":
						AxpyGo(1e-300, x[:d], w)
					}
				}
				if sink == 0.5 {
					b.Log(sink)
				}
			})
		}
	}
}

// dot is Σ w_j x_j summed left to right with every product rounded
// first, the sum ExactSum stands for, written as plainly as it reads.
func dot(w, x []float64) float64 {
	var s float64
	for j, v := range x {
		s += float64(w[j] * v)
	}
	return s
}

// TestReadSum: ReadSum, ReadAhead and ReadStreams (AVX2 where the CPU has
// it) are ReadSumGo (the first two) and ReadStreamsGo bit for bit on every
// length from 0 to 200 and on a long slice, and all of them sum small
// integers exactly (n(n+1)/2).
func TestReadSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 200; n++ {
		x := make([]float64, n)
		ints := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * float64(1+i%7) * 1e3
			ints[i] = float64(i + 1)
		}
		if got, want := ReadSum(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n=%d: ReadSum %v, ReadSumGo %v", n, got, want)
		}
		if got, want := ReadSum(ints), float64(n*(n+1)/2); got != want || ReadSumGo(ints) != want {
			t.Fatalf("n=%d: sum of 1..n: %v, %v, want %v", n, got, ReadSumGo(ints), want)
		}
		if got, want := ReadAhead(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n=%d: ReadAhead %v, ReadSumGo %v", n, got, want)
		}
		if got, want := ReadAhead(ints), float64(n*(n+1)/2); got != want {
			t.Fatalf("n=%d: sum of 1..n read ahead: %v, want %v", n, got, want)
		}
		if got, want := ReadPages(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n=%d: ReadPages %v, ReadSumGo %v", n, got, want)
		}
		if got, want := ReadPages(ints), float64(n*(n+1)/2); got != want {
			t.Fatalf("n=%d: sum of 1..n read with the pages ahead: %v, want %v", n, got, want)
		}
		if got, want := ReadStreams(x), ReadStreamsGo(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("n=%d: ReadStreams %v, ReadStreamsGo %v", n, got, want)
		}
		if got, want := ReadStreams(ints), float64(n*(n+1)/2); got != want || ReadStreamsGo(ints) != want {
			t.Fatalf("n=%d: sum of 1..n read as streams: %v, %v, want %v", n, got, ReadStreamsGo(ints), want)
		}
	}
	x := make([]float64, 1<<16+5)
	for i := range x {
		x[i] = rng.Float64() - 0.5
	}
	if got, want := ReadSum(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("long: ReadSum %v, ReadSumGo %v", got, want)
	}
	if got, want := ReadAhead(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("long: ReadAhead %v, ReadSumGo %v", got, want)
	}
	if got, want := ReadStreams(x), ReadStreamsGo(x); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("long: ReadStreams %v, ReadStreamsGo %v", got, want)
	}
	// 512 KiB, twice the distance of the pages ahead.
	if got, want := ReadPages(x), ReadSumGo(x); math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("long: ReadPages %v, ReadSumGo %v", got, want)
	}
}

// sum8 is the scalar read perfcompare's limit used to be: eight scalar
// accumulators.
func sum8(x []float64) float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	i := 0
	for ; i+8 <= len(x); i += 8 {
		v := x[i : i+8 : i+8]
		s0 += v[0]
		s1 += v[1]
		s2 += v[2]
		s3 += v[3]
		s4 += v[4]
		s5 += v[5]
		s6 += v[6]
		s7 += v[7]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

var sinkSum float64

// BenchmarkReadSum: the in-order vector read (ReadSum) against its Go
// twin, the scalar eight-accumulator loop, the same read with the scans'
// read-ahead (ReadAhead) and the vector read of eight streams side by side
// (ReadStreams, perfcompare's limit), on 80 MB (from memory)
// and 256 KB (from cache). The bytes per second are the read's bandwidth.
func BenchmarkReadSum(b *testing.B) {
	for _, n := range []int{1 << 15, 10_000_000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i % 7)
		}
		for _, k := range []struct {
			name string
			f    func([]float64) float64
		}{{"ReadSum", ReadSum}, {"ReadSumGo", ReadSumGo}, {"scalar8", sum8}, {"ReadAhead", ReadAhead}, {"ReadPages", ReadPages}, {"ReadStreams", ReadStreams}} {
			b.Run(fmt.Sprintf("%s/n=%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(8 * n))
				for range b.N {
					sinkSum += k.f(x)
				}
			})
		}
	}
}

// BenchmarkFirstNonUnit: the label check of every learner (FirstNonUnit,
// AVX2 where the CPU has it) against its Go twin, on 1M labels (8 MB,
// about the cache's size: the first of perfcompare's sizes has 100k, the
// second 1M) and 32k (from cache).
func BenchmarkFirstNonUnit(b *testing.B) {
	for _, n := range []int{1 << 15, 1_000_000} {
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(1 - 2*(i*7919%13%2))
		}
		for _, k := range []struct {
			name string
			f    func([]float64) int
		}{{"FirstNonUnit", FirstNonUnit}, {"FirstNonUnitGo", FirstNonUnitGo}} {
			b.Run(fmt.Sprintf("%s/n=%d", k.name, n), func(b *testing.B) {
				b.SetBytes(int64(8 * n))
				for range b.N {
					if k.f(y) != n {
						b.Fatal("a label is not ±1")
					}
				}
			})
		}
	}
}

// TestScanExact checks the ExactSum scan of the InOrder epoch: ScanExact
// (on amd64 the AVX2 assembly loop, and the SSE2 kernel in ScanExactGo's
// loop) against ScanExactGo, bit for bit, on rows of 1 to 100 features
// with ties, NaN, ±Inf and overflow among them, every budget and lim; and
// ScanExactGo against the plain row-by-row epoch (dot, then the update,
// row after row): the rows before k leave the same w, b, updates and last
// mistake, and a row left to the caller has dot's score, not clear.
func TestScanExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	counts := map[string]int{}
	eachKernel(func(avx bool) {
		for _, c := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100} {
			for trial := range 300 {
				x, st, w, y, b, eta, bias, maxu := randomScan(rng, c, 60, trial)
				n := len(y)
				lim := []int{1, 8, 13, math.MaxInt}[rng.IntN(4)]
				pf := rng.IntN(2) == 0
				wa, wg := append([]float64(nil), w...), append([]float64(nil), w...)
				k, need, s, ba, u, last := ScanExact(wa, x, c, st, y, b, eta, bias, maxu, lim, pf)
				kg, needg, sg, bg, ug, lastg := ScanExactGo(wg, x, c, st, y, b, eta, bias, maxu, lim, pf)
				ok := k == kg && need == needg && same(ba, bg) && u == ug && last == lastg && same(s, sg)
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok {
					t.Fatalf("%s: c=%d trial %d: ScanExact %d %v %v %v %d %d %v, ScanExactGo %d %v %v %v %d %d %v",
						kernel, c, trial, k, need, s, ba, u, last, wa, kg, needg, sg, bg, ug, lastg, wg)
				}
				// The plain epoch over the rows before k.
				wr, br, ur, lastr := append([]float64(nil), w...), b, 0, -1
				for i := range k {
					xi := x[i*st : i*st+c]
					sr := dot(wr, xi) + br
					tr := y[i] * sr
					if tr > 0 && tr <= math.MaxFloat64 {
						continue
					}
					if !(tr < 0) || tr < -math.MaxFloat64 {
						t.Fatalf("c=%d trial %d: row %d < k = %d has t = %v, not decided by the scan", c, trial, i, k, tr)
					}
					step := float64(eta * y[i])
					for j, v := range xi {
						wr[j] += float64(v * step)
					}
					if bias {
						br += step
					}
					ur++
					lastr = i
				}
				ok = same(br, bg) && ur == ug && lastr == lastg
				for j := range wr {
					ok = ok && same(wr[j], wg[j])
				}
				if !ok {
					t.Fatalf("c=%d trial %d: scan %v %v %d updates, last %d; row by row %v %v %d, last %d", c, trial, wg, bg, ug, lastg, wr, br, ur, lastr)
				}
				switch {
				case need:
					sr := dot(wr, x[k*st:k*st+c]) + br
					if tr := y[k] * sr; !same(sr, s) || tr > 0 && tr <= math.MaxFloat64 || tr < 0 && tr >= -math.MaxFloat64 {
						t.Fatalf("c=%d trial %d: row %d left to the caller with score %v, dot gives %v", c, trial, k, s, sr)
					}
					if s == 0 {
						counts["tie"]++
					} else {
						counts["non-finite"]++
					}
				case u == maxu:
					counts["budget"]++
				case k < n && n-k >= 8:
					if k < lim {
						t.Fatalf("c=%d trial %d: stopped at row %d of %d before lim %d", c, trial, k, n, lim)
					}
					counts["lim"]++
				default:
					if n-k >= 8 {
						t.Fatalf("c=%d trial %d: stopped at row %d of %d", c, trial, k, n)
					}
					counts["end"]++
				}
				if u > 0 {
					counts["updates"]++
				}
				if u > 0 && k-last > 1 {
					counts["block after update"]++
				}
			}
		}
	})
	for _, what := range []string{"tie", "non-finite", "budget", "updates", "lim", "end", "block after update"} {
		if counts[what] == 0 {
			t.Errorf("no trial ended with %s: %v", what, counts)
		}
	}
}

// randomScan draws a scan's inputs for TestScanFast and TestScanExact:
// 1 to maxN rows of c columns at a stride of c to c+2, small binary
// fractions (exact ties happen) or, one trial in five, mixed magnitudes;
// by trial a NaN, an infinity, a bias of -0 or a 1e308 that overflows;
// η, the bias switch and the update budget.
func randomScan(rng *rand.Rand, c, maxN, trial int) (x []float64, st int, w, y []float64, b, eta float64, bias bool, maxu int) {
	n := 1 + rng.IntN(maxN)
	st = c + rng.IntN(3)
	x = make([]float64, (n-1)*st+c)
	for j := range x {
		x[j] = float64(rng.IntN(5)-2) * 0.5
	}
	w = make([]float64, c)
	for j := range w {
		w[j] = float64(rng.IntN(5) - 2)
	}
	y = make([]float64, n)
	for i := range y {
		y[i] = float64(1 - 2*rng.IntN(2))
	}
	b = float64(rng.IntN(3) - 1)
	if trial%5 == 0 {
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
	eta = []float64{1, 0.1, 3}[rng.IntN(3)]
	bias = rng.IntN(2) == 0
	maxu = []int{1, 2, 5, math.MaxInt}[rng.IntN(4)]
	return x, st, w, y, b, eta, bias, maxu
}

// TestScanSharedWeights: the scans give the Go twins' results when w is a
// row of x, or holds labels of y, that the scan reads after updating w
// (helper-47). The AVX-512 scans hold w in registers, so they must leave
// such calls to the Go twins; with w kept in registers row 1 was scored
// with w as it was (s = -1, one update) instead of as updated (s = 7).
func TestScanSharedWeights(t *testing.T) {
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	type scan func(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (int, bool, float64, float64, int, int)
	cases := []struct {
		name string
		// make returns w, x and y, sharing memory as the case says.
		make func() (w, x, y []float64)
		cert bool
	}{
		{"w is row 1 of x", func() ([]float64, []float64, []float64) {
			x := []float64{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}
			return x[8:16], x, []float64{1, -1}
		}, true},
		{"w is row 1 of x, 200 features", func() ([]float64, []float64, []float64) {
			x := make([]float64, 400)
			for j := range 200 {
				x[j] = float64(j%5) - 2
			}
			return x[200:400], x, []float64{1, -1}
		}, true},
		{"w holds the labels", func() ([]float64, []float64, []float64) {
			w := []float64{0, 0, 0, 0, 0, 0, 3, 3}
			x := []float64{1, 1, 1, 1, 1, 1, -1, -4, 1, 1, 1, 1, 1, 1, 1, 1}
			return w, x, w[6:8]
		}, false},
	}
	eachKernel(func(bool) {
		for _, tc := range cases {
			for _, sc := range []struct {
				name      string
				asm, twin scan
			}{{"ScanFast", ScanFast, ScanFastGo}, {"ScanCert", ScanCert, ScanCertGo}} {
				if sc.name == "ScanCert" && !tc.cert {
					continue
				}
				wa, xa, ya := tc.make()
				wg, xg, yg := tc.make()
				c := len(wa)
				k, need, s, b, u, last := sc.asm(wa, xa, c, c, ya, -1, 1, false, 100)
				kg, needg, sg, bg, ug, lastg := sc.twin(wg, xg, c, c, yg, -1, 1, false, 100)
				ok := k == kg && need == needg && same(s, sg) && same(b, bg) && u == ug && last == lastg
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok {
					t.Errorf("%s, %s, %s: %d %v %v %v %d %d, w %v; the Go twin %d %v %v %v %d %d, w %v",
						kernel, sc.name, tc.name, k, need, s, b, u, last, wa, kg, needg, sg, bg, ug, lastg, wg)
				}
			}
		}
	})
}

// TestScanShiftedOverlap: with w a few values off a row of x (w = x[3:3+c],
// the row x[0:c]), every scan and Axpy give the Go twins' bits. The Go
// twins update w one value at a time and read the row as updated; the
// AVX2 and SSE2 loops read four or two values before writing them, and
// left buf[6] at 0 where the twins leave 1 (helper-55). Such calls now go
// to the Go twins, as calls with w sharing memory with x or y did
// already on AVX-512.
func TestScanShiftedOverlap(t *testing.T) {
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	eachKernel(func(bool) {
		for _, c := range []int{8, 88, 100, 200} {
			mk := func() []float64 {
				buf := make([]float64, c+3)
				for i := range buf {
					buf[i] = 1
				}
				return buf
			}
			type call func(buf []float64) (int, bool, float64, float64, int, int)
			y := []float64{-1}
			for _, sc := range []struct {
				name      string
				asm, twin call
			}{
				{"ScanFast", func(b []float64) (int, bool, float64, float64, int, int) {
					return ScanFast(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1)
				},
					func(b []float64) (int, bool, float64, float64, int, int) {
						return ScanFastGo(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1)
					}},
				{"ScanCert", func(b []float64) (int, bool, float64, float64, int, int) {
					return ScanCert(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1)
				},
					func(b []float64) (int, bool, float64, float64, int, int) {
						return ScanCertGo(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1)
					}},
				{"ScanExact", func(b []float64) (int, bool, float64, float64, int, int) {
					return ScanExact(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1, 1, false)
				}, func(b []float64) (int, bool, float64, float64, int, int) {
					return ScanExactGo(b[3:3+c], b[:c], c, c, y, 0, 1, false, 1, 1, false)
				}},
				{"Axpy", func(b []float64) (int, bool, float64, float64, int, int) {
					Axpy(-1, b[:c], b[3:3+c])
					return 0, false, 0, 0, 0, 0
				},
					func(b []float64) (int, bool, float64, float64, int, int) {
						AxpyGo(-1, b[:c], b[3:3+c])
						return 0, false, 0, 0, 0, 0
					}},
			} {
				ba, bg := mk(), mk()
				k, need, s, b, u, last := sc.asm(ba)
				kg, needg, sg, bgo, ug, lastg := sc.twin(bg)
				ok := k == kg && need == needg && same(s, sg) && same(b, bgo) && u == ug && last == lastg
				for j := range ba {
					ok = ok && same(ba[j], bg[j])
				}
				if !ok {
					t.Errorf("%s, %s, c=%d: %d %v %v %v %d %d, buf %v; the Go twin %d %v %v %v %d %d, buf %v",
						kernel, sc.name, c, k, need, s, b, u, last, ba[:10], kg, needg, sg, bgo, ug, lastg, bg[:10])
				}
			}
		}
	})
}

// TestFirstNonUnit plants one value that is not a label, or none, at every
// place of rows of ±1 of every length up to 70 (whole blocks of sixteen
// and tails, from an aligned and an unaligned start), and a second one
// after it, and checks that every kernel finds the first: its index is
// where math.Abs(v) != 1 first holds, whatever the bits of the value.
func TestFirstNonUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	bad := []float64{
		math.NaN(), math.Float64frombits(0xfff8000000000001), // NaNs (one negative)
		math.Float64frombits(0x7ff0000000000001), // a signalling NaN
		0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
		2, -2, 0.5, -0.5, 3, 1e-310, -math.MaxFloat64,
		math.Nextafter(1, 2), math.Nextafter(1, 0), math.Nextafter(-1, -2), math.Nextafter(-1, 0),
		math.Float64frombits(0x3ff0000000000000 | 1<<51), // 1.5
		math.Float64frombits(0x3ff0000000000000 ^ 1<<60), // 1.0 with an exponent bit flipped
	}
	for _, v := range bad {
		if math.Abs(v) == 1 {
			t.Fatalf("%v is a label", v)
		}
	}
	eachKernel(func(bool) {
		for n := 0; n <= 70; n++ {
			buf := make([]float64, n+1)
			for _, start := range []int{0, 1} {
				y := buf[start : start+n]
				for p := -1; p < n; p++ {
					for i := range y {
						y[i] = float64(2*rng.IntN(2) - 1)
					}
					if got := FirstNonUnit(y); p < 0 && got != n {
						t.Fatalf("%s, n=%d: FirstNonUnit = %d on labels only, want %d", kernel, n, got, n)
					}
					if p < 0 {
						continue
					}
					v := bad[rng.IntN(len(bad))]
					y[p] = v
					if q := p + 1 + rng.IntN(n-p); q < n {
						y[q] = bad[rng.IntN(len(bad))]
					}
					if got, want := FirstNonUnit(y), FirstNonUnitGo(y); got != p || want != p {
						t.Fatalf("%s, n=%d, start %d: %v (bits %#x) at %d: FirstNonUnit = %d, FirstNonUnitGo = %d",
							kernel, n, start, v, math.Float64bits(v), p, got, want)
					}
				}
			}
		}
	})
}

// TestScanPagesAhead runs the InOrder scans over x of 0.6 to 4 MB, past the
// distance at which the AVX-512 scans ask for pages ahead (256 KiB), with
// rows at a stride and x ending at the last row, and checks every kernel
// against the Go twins bit for bit: the pages asked for change no result.
func TestScanPagesAhead(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	for _, shape := range []struct{ c, st, n int }{{4, 4, 20000}, {100, 100, 3000}, {100, 103, 1000}, {523, 523, 300}, {600, 1200, 200}} {
		c, st, n := shape.c, shape.st, shape.n
		x := make([]float64, (n-1)*st+c)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		w0 := make([]float64, c)
		for j := range w0 {
			w0[j] = rng.NormFloat64()
		}
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(2*rng.IntN(2) - 1)
		}
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		eachKernel(func(bool) {
			for _, sc := range []struct {
				name    string
				f, twin func(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (int, bool, float64, float64, int, int)
			}{{"ScanFast", ScanFast, ScanFastGo}, {"ScanCert", ScanCert, ScanCertGo}} {
				wa, wg := append([]float64(nil), w0...), append([]float64(nil), w0...)
				k, need, s, b, u, last := sc.f(wa, x, c, st, y, 0.25, 1, true, n)
				kg, needg, sg, bg, ug, lastg := sc.twin(wg, x, c, st, y, 0.25, 1, true, n)
				ok := k == kg && need == needg && same(s, sg) && same(b, bg) && u == ug && last == lastg
				for j := range wa {
					ok = ok && same(wa[j], wg[j])
				}
				if !ok || u < n/10 {
					t.Errorf("%s, %s, %d x %d at stride %d: k %d/%d need %v/%v s %v/%v b %v/%v updates %d/%d last %d/%d, same w %v",
						kernel, sc.name, n, c, st, k, kg, need, needg, s, sg, b, bg, u, ug, last, lastg, ok)
				}
			}
		})
	}
}
