// Package asm holds the kernels of the perceptron's epoch, as gonum's
// internal/asm holds its BLAS kernels: Dot8Exact scores eight rows at a
// time with one w (ExactSum), DotFast scores one row with partial sums
// (FastSum), ScanCert, ScanExact and ScanFast scan rows and make the clear
// updates (ExactSum, one row at a time with certified decisions or eight
// at a time, and FastSum, in order), Axpy makes the update; ReadSum,
// ReadAhead (in order) and ReadStreams (perfcompare's limit) read memory
// as fast as they can.
// On amd64 they are SSE2 and AVX2 assembly, and AVX-512 for the InOrder
// scans where the CPU has it (asm_amd64.s, wrapped by
// asm_amd64.go; Axpy falls back on gonum's floats.AddScaled); elsewhere, with -tags noasm, and in the tests that
// check the assembly bit for bit, they are the Go loops of this file
// (asm_other.go). Every kernel gives the same bits as its Go loop: no
// fused multiply-add anywhere.
package asm

import (
	"math"
	"sync/atomic"
)

// Dot8ExactGo sets out[q] = w·x_q, x_q = x[o[q] : o[q]+len(w)], for q < 8,
// each summed left to right exactly as DotExact sums it.
func Dot8ExactGo(w, x []float64, o *[8]int, out *[8]float64) {
	n := len(w)
	for q, oq := range o {
		out[q] = DotExact(w, x[oq:oq+n:oq+n])
	}
}

// AxpyGo sets w_j ← w_j + a x_j for j < len(x), with the product rounded
// before the sum (no fused multiply-add: the float64 conversion forbids it).
func AxpyGo(a float64, x, w []float64) {
	w = w[:len(x)]
	for j, v := range x {
		w[j] += float64(v * a)
	}
}

// DotFastGo returns Σ w_j x_j, j < len(x), with eight partial sums: s_k
// sums, left to right, the terms of the columns j ≡ k (mod 8) below
// 8⌊len(x)/8⌋; they are combined as ((s_0 + s_2) + (s_4 + s_6)) +
// ((s_1 + s_3) + (s_5 + s_7)), and the last len(x) mod 8 terms are added
// after, left to right. Its rounding differs from dot's; it is the same on
// every run and every machine (no FMA). It is the sum of FastSum (DotFast
// is this function, in SSE2 assembly on amd64).
func DotFastGo(w, x []float64) float64 {
	n := len(x)
	w = w[:n]
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	j := 0
	for ; j+8 <= n; j += 8 {
		xx := x[j : j+8 : j+8]
		ww := w[j : j+8 : j+8]
		s0 += float64(xx[0] * ww[0])
		s1 += float64(xx[1] * ww[1])
		s2 += float64(xx[2] * ww[2])
		s3 += float64(xx[3] * ww[3])
		s4 += float64(xx[4] * ww[4])
		s5 += float64(xx[5] * ww[5])
		s6 += float64(xx[6] * ww[6])
		s7 += float64(xx[7] * ww[7])
	}
	s := ((s0 + s2) + (s4 + s6)) + ((s1 + s3) + (s5 + s7))
	for ; j < n; j++ {
		s += float64(x[j] * w[j])
	}
	return s
}

// ScanFastGo is the FastSum epoch of PLA in the InOrder order over the rows
// x_i = x[i·st : i·st+c], i < len(y), with the updates that need no
// decision of the caller. It scores each row with the current w and b,
// s = DotFast(w, x_i) + b, t = y_i·s. A row with t > 0 and finite is
// correct. A row with t < 0 and finite is a mistake under every tie
// policy: it makes the update of step (w_j ← w_j + x_j·(eta·y_i), and
// b ← b + eta·y_i if bias) and goes on; after maxu updates (maxu ≥ 1) it
// returns k = the next row, need = false. Any other row (t = ±0, NaN, ±Inf:
// a tie or a non-finite score) is left to the caller: k is that row, need
// is true and s is its score. With no such row k = len(y), need = false.
// It also returns b after the updates (bout), their number u, and the row
// of the last one (-1 if none); s is always the last score computed.
func ScanFastGo(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	return scanRows(w, x, c, st, y, b, eta, bias, maxu, DotFastGo)
}

// scanRows is the loop of ScanFastGo and ScanCertGo, each row scored
// dot(w, x_i) + b.
func scanRows(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int, dot func(w, x []float64) float64) (k int, need bool, s, bout float64, u, last int) {
	w = w[:c]
	last = -1
	for i, yi := range y {
		o := i * st
		xi := x[o : o+c : o+c]
		s = dot(w, xi) + b
		t := yi * s
		if t > 0 && t <= math.MaxFloat64 {
			continue
		}
		if !(t < 0) || t < -math.MaxFloat64 {
			return i, true, s, b, u, last
		}
		step := float64(eta * yi) // no FMA with the sums below
		AxpyGo(step, xi, w)
		if bias {
			b += step
		}
		u++
		last = i
		if u >= maxu {
			return i + 1, false, s, b, u, last
		}
	}
	return len(y), false, s, b, u, last
}

// ScanCertGo is the ExactSum epoch of PLA in the InOrder order over the
// rows x_i = x[i·st : i·st+c], i < len(y) (labels ±1), with the updates
// that need no decision of the caller, row after row as ScanFastGo, but
// with the left-to-right score s = DotExact(w, x_i) + b (dot's bits): a
// row with t = y_i·s > 0 and finite is correct, a row with t < 0 and
// finite a mistake (the update of step; after maxu updates, maxu ≥ 1, it
// returns k = the next row, need = false), any other row (a tie or a
// non-finite score) is left to the caller: k is that row, need is true and
// s its score. With no such row k = len(y), need = false. It also returns
// b after the updates (bout), their number u and the row of the last one
// (-1 if none); s is 0 unless need. Each row is scored with the w of the
// rows before it, so the epoch is the row-by-row epoch, bit for bit.
// ScanCert (AVX2) gives the same results without summing most rows left
// to right: it decides a row from a fast sum when a certificate proves
// the decision the same (certCoef).
func ScanCertGo(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	k, need, s, bout, u, last = scanRows(w, x, c, st, y, b, eta, bias, maxu, DotExact)
	if !need {
		s = 0
	}
	return k, need, s, bout, u, last
}

// fastByCert reports whether ScanFast runs rows of c values in
// scanCert512's loop rather than scanFast512's, on a CPU with AVX-512:
// for c a multiple of 8 from 88 to 1592. On Zen 4 (docs/performance.md,
// round 12) the lean loop took 1.07-1.42x the time of ExactSum's epoch
// on such rows (c = 96 to 1200), where scanCert512's loop, which also
// sums the magnitudes of the products, took the same time as ExactSum
// (0.99-1.03x); on rows with a scalar tail (c not a multiple of 8), on
// short rows (c ≤ 80) and on long ones (c ≥ 1600) the lean loop was as
// fast or faster (0.81-1.02x). Why one more vector operation a block
// makes the register blocks faster there is not known (the VM has no
// performance counters).
func fastByCert(c int) bool { return c%8 == 0 && c > 80 && c < 1600 }

// certMaxCols bounds the rows certCoef's proof covers ((c + h + 2)·u ≤ 1/4).
const certMaxCols = 1 << 40

// certFallbacks counts the rows whose decision ScanCert's assembly left to
// a left-to-right score (a test hook).
var certFallbacks atomic.Int64

// certCoef returns the constant K of ScanCert's certificate for rows of c
// features: K = (c + h)·2⁻⁵², h = ⌊c/8⌋ + 11.
//
// The certificate. For one row let p_j = fl(w_j·x_j) (one IEEE multiply,
// no FMA: the same bits in both sums below), P = Σ_j p_j + b exactly and
// A = Σ_j |p_j| + |b|. Without overflow an IEEE add satisfies
// fl(a + b) = (a + b)(1 + ε), |ε| ≤ u = 2⁻⁵³, also in the subnormal range
// (where it is exact): both sums add the same products, so no absolute
// (underflow) term enters. Let γ_m = m·u/(1 − m·u).
//
//  1. The left-to-right score s (DotExact, then + b) passes each term
//     through at most c adds: |s − P| ≤ γ_c·A (Higham, Accuracy and
//     Stability of Numerical Algorithms, 2nd ed., §4.2: any order, m adds
//     on a term's path).
//  2. The fast score s_F (certScoreGo: DotFastGo's order, then + b)
//     passes each term through at most h = ⌊c/8⌋ + 11 adds (⌊c/8⌋ in its
//     lane's chain, 3 to combine the eight lanes, at most 7 for the last
//     c mod 8 columns, 1 for b): |s_F − P| ≤ γ_h·A.
//  3. â, the same sum of the |p_j| and |b|, adds non-negative terms
//     through at most h adds, each rounding down by at most a factor
//     (1 − u): â ≥ (1 − u)^h·A.
//  4. T = fl(K·fl(â + 2⁻⁹⁰⁰)) ≥ (1 − u)²·K·â: K·(â + 2⁻⁹⁰⁰) ≥ 2⁻⁹⁵² lies
//     in the normal range, so both roundings are relative.
//
// With m = c + h, m·u ≤ 1/4 and (h + 2)·u ≤ 1/4 (c ≤ certMaxCols):
// γ_c + γ_h ≤ m·u/(1 − m·u) ≤ (4/3)·m·u and (1 − u)^(h+2) ≥ 3/4, so
// |s − s_F| ≤ (γ_c + γ_h)·A ≤ (4/3)·m·u·â/(1 − u)^h
// ≤ (16/9)·m·u·(1 − u)²·â ≤ T. Hence |s_F| > T implies s ≠ 0 and
// sign(s) = sign(s_F); and with â ≤ 2¹⁰²⁰ every partial sum of s is at
// most (1 + γ_c)·A ≤ 2¹⁰²¹ in magnitude, so no step of s overflows and s
// is finite. For y = ±1, t = y·s is then finite, not zero and of the sign
// of y·s_F: the decision (correct, or a mistake under every tie policy)
// is the one of the left-to-right score. Any other row (|s_F| ≤ T,
// â > 2¹⁰²⁰, or a NaN or an infinity anywhere, which make the comparisons
// false) is scored again left to right.
func certCoef(c int) float64 {
	h := c/8 + 11
	return float64(c+h) * 0x1p-52
}

// certScoreGo returns the fast score s_F and the bound â of the row x for
// ScanCert's certificate, as scanCertAVX2 and scanCert512 compute them
// (the same bits):
// s_F = DotFastGo(w, x) + b, and â the same sum of the |w_j·x_j|, plus |b|.
func certScoreGo(w, x []float64, b float64) (sF, a float64) {
	n := len(x)
	w = w[:n]
	var s, m [8]float64
	j := 0
	for ; j+8 <= n; j += 8 {
		for k := range 8 {
			p := float64(x[j+k] * w[j+k])
			s[k] += p
			m[k] += math.Abs(p)
		}
	}
	sF = ((s[0] + s[2]) + (s[4] + s[6])) + ((s[1] + s[3]) + (s[5] + s[7]))
	a = ((m[0] + m[2]) + (m[4] + m[6])) + ((m[1] + m[3]) + (m[5] + m[7]))
	for ; j < n; j++ {
		p := float64(x[j] * w[j])
		sF += p
		a += math.Abs(p)
	}
	return sF + b, a + math.Abs(b)
}

// certified reports whether ScanCert's certificate decides a row from its
// fast score sF and bound a (certScoreGo) with K = certCoef(c).
func certified(sF, a, k float64) bool {
	return a <= 0x1p1020 && math.Abs(sF) > k*(a+0x1p-900)
}

// ScanExactGo is the ExactSum epoch of PLA in the InOrder order over the
// rows x_i = x[i·st : i·st+c], i < len(y), with the updates that need no
// decision of the caller, as ScanFastGo is FastSum's. It scores the rows
// in blocks of eight, all with the current w and b (Dot8ExactGo: each sum
// left to right, dot's bits), s = w·x_i + b, t = y_i·s, and takes the
// block's rows in order: a row with t > 0 and finite is correct. A row
// with t < 0 and finite is a mistake under every tie policy: it makes the
// update of step (w_j ← w_j + x_j·(eta·y_i), and b ← b + eta·y_i if bias),
// and the next block starts at the row after it (the later scores of the
// block were made with the old w); after maxu updates (maxu ≥ 1) it
// returns k = the next row, need = false. Any other row (t = ±0, NaN,
// ±Inf: a tie or a non-finite score) is left to the caller: k is that row,
// need is true and s is its score. Otherwise it returns need = false when
// fewer than eight rows are left or the next block would start at row lim
// or beyond, k being that block's first row (the caller scores the last
// rows, fewer than eight, itself). It also returns b after the updates
// (bout), their number u and the row of the last one (-1 if none); s is 0
// unless need. pf asks the assembly to prefetch the rows ahead of the
// block (short rows: see perceptron's prefetchMax); it changes no result.
func ScanExactGo(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu, lim int, pf bool) (k int, need bool, s, bout float64, u, last int) {
	dot8 := func(w, x []float64, o *[8]int, _ int, out *[8]float64) { Dot8ExactGo(w, x, o, out) }
	return scanExact(w, x, c, st, y, b, eta, bias, maxu, lim, pf, dot8, AxpyGo)
}

// scanExact is ScanExactGo with the kernels dot8 (Dot8ExactGo's sums) and
// axpy (AxpyGo's update) given.
func scanExact(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu, lim int, pf bool,
	dot8 func(w, x []float64, o *[8]int, pf int, out *[8]float64), axpy func(a float64, x, w []float64)) (k int, need bool, s, bout float64, u, last int) {
	w = w[:c]
	last = -1
	var o [8]int
	var sc [8]float64
	i := 0
	for i+8 <= len(y) && i < lim {
		for q := range o {
			o[q] = (i + q) * st
		}
		p := -1
		if pf {
			p = (i + 8) * st
		}
		dot8(w, x, &o, p, &sc)
		q := 0
		for ; q < 8; q++ {
			s := sc[q] + b
			t := y[i+q] * s
			if t > 0 && t <= math.MaxFloat64 {
				continue
			}
			if !(t < 0) || t < -math.MaxFloat64 {
				return i + q, true, s, b, u, last
			}
			step := float64(eta * y[i+q]) // no FMA with the sums below
			axpy(step, x[o[q]:o[q]+c:o[q]+c], w)
			if bias {
				b += step
			}
			u++
			last = i + q
			if u >= maxu {
				return i + q + 1, false, 0, b, u, last
			}
			break
		}
		i += min(q+1, 8)
	}
	return i, false, 0, b, u, last
}

// DotExact returns Σ w_j x_j summed left to right, bit for bit the sum of
// dot, unrolled by four. The float64 conversions forbid fusing the multiply
// and the add into an FMA, which would change the rounding.
func DotExact(w, x []float64) float64 {
	n := len(x)
	w = w[:n]
	var s float64
	j := 0
	for ; j+4 <= n; j += 4 {
		xx := x[j : j+4 : j+4]
		ww := w[j : j+4 : j+4]
		s += float64(ww[0] * xx[0])
		s += float64(ww[1] * xx[1])
		s += float64(ww[2] * xx[2])
		s += float64(ww[3] * xx[3])
	}
	for ; j < n; j++ {
		s += float64(w[j] * x[j])
	}
	return s
}

// ReadSumGo returns Σ x_i with sixteen partial sums: s_k sums, left to
// right, the x_i with i ≡ k (mod 16) below 16⌊len(x)/16⌋; they are
// combined as t_k = (s_k + s_{k+4}) + (s_{k+8} + s_{k+12}), k < 4, then
// (t_0 + t_2) + (t_1 + t_3), and the last len(x) mod 16 values are added
// after, left to right. ReadSum is this read in AVX2 assembly where the
// CPU has it (four 256-bit accumulators), and ReadAhead the same with the
// AVX2 scans' read-ahead (faster than ReadSum on Zen 3, slower on Zen 4),
// and ReadPages the same with the AVX-512 scans' pages ahead (the fastest
// on Zen 4); ReadStreams reads x at eight places at once. perfcompare's
// limit is the fastest of the four.
func ReadSumGo(x []float64) float64 {
	// Sixteen variables, not an array, so that the sums stay in registers.
	var s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15 float64
	i := 0
	for ; i+16 <= len(x); i += 16 {
		v := x[i : i+16 : i+16]
		s0, s1, s2, s3 = s0+v[0], s1+v[1], s2+v[2], s3+v[3]
		s4, s5, s6, s7 = s4+v[4], s5+v[5], s6+v[6], s7+v[7]
		s8, s9, s10, s11 = s8+v[8], s9+v[9], s10+v[10], s11+v[11]
		s12, s13, s14, s15 = s12+v[12], s13+v[13], s14+v[14], s15+v[15]
	}
	s := [16]float64{s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15}
	return readSumTail(&s, x[i:])
}

// readSumTail combines the sixteen partial sums as ReadSumGo says and adds
// the tail.
func readSumTail(s *[16]float64, tail []float64) float64 {
	var t [4]float64
	for k := range t {
		t[k] = (s[k] + s[k+4]) + (s[k+8] + s[k+12])
	}
	r := (t[0] + t[2]) + (t[1] + t[3])
	for _, v := range tail {
		r += v
	}
	return r
}

// ReadStreamsGo returns Σ x_i read as eight streams side by side: x is cut
// into eight chunks of m = 4⌊len(x)/32⌋ values, chunk q = x[q·m : (q+1)·m];
// s_{q,k} sums, left to right, the values of chunk q at the offsets
// ≡ k (mod 4); r_q = (s_{q,0} + s_{q,2}) + (s_{q,1} + s_{q,3}), the r_q
// are combined as ((r_0 + r_1) + (r_2 + r_3)) + ((r_4 + r_5) + (r_6 + r_7)),
// and the last len(x) - 8m values are added after, left to right.
// ReadStreams (AVX2 where the CPU has it) reads memory at eight places at
// once, where ReadSum, ReadAhead and ReadPages read it in order: it was
// the fastest read of memory on the Zen 3 machine of docs/performance.md
// (rounds 7 and 8), not on Zen 4 (rounds 9 and 10).
func ReadStreamsGo(x []float64) float64 {
	m := len(x) / 32 * 4
	var s [32]float64
	for q := range 8 {
		c := x[q*m : (q+1)*m]
		for i, v := range c {
			s[4*q+i%4] += v
		}
	}
	return readStreamsTail(&s, x[8*m:])
}

// readStreamsTail combines the 32 partial sums as ReadStreamsGo says and
// adds the tail.
func readStreamsTail(s *[32]float64, tail []float64) float64 {
	var r [8]float64
	for q := range r {
		r[q] = (s[4*q] + s[4*q+2]) + (s[4*q+1] + s[4*q+3])
	}
	t := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
	for _, v := range tail {
		t += v
	}
	return t
}

// FirstNonUnitGo returns the index of the first y_i that is neither -1 nor
// +1 (NaN, ±0, ±Inf and every other value), or len(y) when every one is.
// FirstNonUnit is the same index, found sixteen labels at a time in AVX2
// assembly where the CPU has it.
func FirstNonUnitGo(y []float64) int {
	for i, v := range y {
		if math.Abs(v) != 1 { // NaN too
			return i
		}
	}
	return len(y)
}
