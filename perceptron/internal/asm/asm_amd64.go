//go:build !noasm && !gccgo && !safe

package asm

import (
	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/floats"
)

// The assembly kernels of asm_amd64.s; the wrappers check the bounds that
// the assembly does not.

//go:noescape
func dot8ExactAsm(w *float64, n int, rows *[9]*float64, out *[8]float64)

//go:noescape
func dot8ExactAVX2(w *float64, n int, rows *[9]*float64, out *[8]float64)

// hasAVX2 says that the CPU (and the OS) support AVX2: Dot8Exact then uses
// dot8ExactAVX2, else the SSE2 kernel.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func dotFastAsm(w *float64, x *float64, n int) float64

//go:noescape
func scanFastAsm(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, avx int) (k, need int, s, bout float64, u, last int)

// ScanFast is ScanFastGo, bit for bit: in SSE2 (scanFastAsm), with AVX2
// where the CPU has it, and long rows (four rows of fastBlocks bytes or
// more) four at a time (scanFastAVX2).
func ScanFast(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	n := len(y)
	if n == 0 || c == 0 || maxu < 1 {
		return ScanFastGo(w, x, c, st, y, b, eta, bias, maxu)
	}
	_, _ = w[c-1], x[(n-1)*st+c-1]
	bi := 0
	if bias {
		bi = 1
	}
	if !hasAVX2 {
		k, nd, s, bout, u, last := scanFastAsm(&w[0], &x[0], c, st, n, &y[0], b, eta, bi, maxu, 0)
		return k, nd != 0, s, bout, u, last
	}
	k0, nd, s, bout, u, last := 0, 0, 0.0, b, 0, -1
	if n >= 4 && 4*c*8 >= fastBlocks {
		k0, nd, s, bout, u, last = scanFastAVX2(&w[0], &x[0], c, st, n, &y[0], b, eta, bi, maxu)
		if nd != 0 || u >= maxu || k0 == n {
			return k0, nd != 0, s, bout, u, last
		}
	}
	// Short rows, or the last rows, fewer than four: one at a time.
	k, nd, s, bout, u1, last1 := scanFastAsm(&w[0], &x[k0*st], c, st, n-k0, &y[k0], bout, eta, bi, maxu-u, 1)
	if last1 >= 0 {
		last = k0 + last1
	}
	return k0 + k, nd != 0, s, bout, u + u1, last
}

// fastBlocks is the size of four rows (bytes) from which ScanFast scores
// rows four at a time (scanFastAVX2, rows of 512 features and more): four
// rows read side by side are four streams of memory, which this machine
// reads faster than one (see ReadStreams). On the machine of
// docs/performance.md (issue 33, round 5) one FastSum epoch of
// 100k × 1000 took 1.11-1.20x ReadSum's time in blocks, 1.29-1.42x a row
// at a time; on 100k × 100 the blocks were slower (1.33-1.56x against
// 1.19-1.35x: every update restarts a block), so short rows are scanned
// one at a time.
const fastBlocks = 16 << 10

//go:noescape
func scanFastAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int) (k, need int, s, bout float64, u, last int)

// exactPrefetch is how far the exact scan's prefetch may run ahead: at
// most this many bytes beyond the first row of the next block. The
// prefetch goes on across blocks (a block restarts after an update, so
// that rows are scored again; their lines are not prefetched again), see
// scanExactAVX2.
const exactPrefetch = 16 << 10

//go:noescape
func scanExactAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, lim, pf int) (k, need int, s, bout float64, u, last int)

// ScanExact is ScanExactGo, bit for bit: with AVX2 one assembly loop
// (scanExactAVX2), which returns to Go only at a tie, a non-finite score,
// the budget, lim or the last rows; without it the Go loop of ScanExactGo
// around the SSE2 kernel (Dot8Exact) and Axpy.
func ScanExact(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu, lim int, pf bool) (k int, need bool, s, bout float64, u, last int) {
	n := len(y)
	if !hasAVX2 || n < 8 || c == 0 || maxu < 1 || lim < 1 {
		return scanExact(w, x, c, st, y, b, eta, bias, maxu, lim, pf, Dot8Exact, Axpy)
	}
	_, _ = w[c-1], x[(n-1)*st+c-1]
	bi, p := 0, 0
	if bias {
		bi = 1
	}
	if pf {
		p = exactPrefetch
	}
	k, nd, s, bout, u, last := scanExactAVX2(&w[0], &x[0], c, st, n, &y[0], b, eta, bi, maxu, lim, p)
	return k, nd != 0, s, bout, u, last
}

// DotFast is DotFastGo, bit for bit, in SSE2.
func DotFast(w, x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	_ = w[len(x)-1]
	return dotFastAsm(&w[0], &x[0], len(x))
}

// rowPtrs sets p to the addresses of the rows x[o[q] : o[q]+n], after
// checking that they lie in x (n ≥ 1), and p[8] to that of x[pf], where the
// kernel prefetches the next 8·8·n bytes (the next block of rows when they
// are stored one after the other); pf outside x (or < 0) sets p[8] to nil:
// no prefetch.
func rowPtrs(p *[9]*float64, x []float64, n int, o *[8]int, pf int) {
	for q, oq := range o {
		_ = x[oq+n-1]
		p[q] = &x[oq]
	}
	p[8] = nil
	if pf >= 0 && pf < len(x) {
		p[8] = &x[pf]
	}
}

// Dot8Exact is Dot8ExactGo, bit for bit, in AVX2 or SSE2 (len(w) ≥ 1); it
// prefetches from x[pf] on (see rowPtrs).
func Dot8Exact(w, x []float64, o *[8]int, pf int, out *[8]float64) {
	var p [9]*float64
	rowPtrs(&p, x, len(w), o, pf)
	if hasAVX2 {
		dot8ExactAVX2(&w[0], len(w), &p, out)
		return
	}
	dot8ExactAsm(&w[0], len(w), &p, out)
}

//go:noescape
func axpyAVX2(a float64, x *float64, w *float64, n int)

// Axpy is AxpyGo, bit for bit: with AVX2 axpyAVX2, else gonum's
// floats.AddScaled, whose amd64 assembly (f64.AxpyUnitaryTo) multiplies
// with MULPD and then adds with ADDPD, never fused (both checked by
// TestAxpy).
func Axpy(a float64, x, w []float64) {
	if hasAVX2 && len(x) > 0 {
		_ = w[len(x)-1]
		axpyAVX2(a, &x[0], &w[0], len(x))
		return
	}
	floats.AddScaled(w[:len(x)], a, x)
}

//go:noescape
func readSumAVX2(x *float64, n int, s *[16]float64)

// ReadSum is ReadSumGo, bit for bit: with AVX2 readSumAVX2 keeps the
// sixteen partial sums in four 256-bit registers (lane k of register r is
// s_{4r+k}) and adds 128 bytes of x a step straight from memory.
func ReadSum(x []float64) float64 {
	m := len(x) &^ 15
	if !hasAVX2 || m == 0 {
		return ReadSumGo(x)
	}
	var s [16]float64
	readSumAVX2(&x[0], m, &s)
	return readSumTail(&s, x[m:])
}

//go:noescape
func readStreamsAVX2(p *[8]*float64, m int, s *[32]float64)

// ReadStreams is ReadStreamsGo, bit for bit: with AVX2 readStreamsAVX2
// reads the eight chunks side by side, 32 bytes of each a step.
func ReadStreams(x []float64) float64 {
	m := len(x) / 32 * 4
	if !hasAVX2 || m == 0 {
		return ReadStreamsGo(x)
	}
	var p [8]*float64
	for q := range p {
		p[q] = &x[q*m]
	}
	var s [32]float64
	readStreamsAVX2(&p, m, &s)
	return readStreamsTail(&s, x[8*m:])
}
