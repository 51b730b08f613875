//go:build !noasm && !gccgo && !safe

package asm

import (
	"fmt"
	"sync/atomic"
	"unsafe"

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

// hasAVX512 says that the CPU (and the OS) support AVX-512F as well as
// AVX2: the InOrder scans then use scanFast512 and scanCert512, which hold
// w in registers and, instead of reading ahead, ask for the pages of x
// 256 KiB ahead (asm_amd64.s).
var hasAVX512 = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F

//go:noescape
func scanFast512(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, pend int) (k, need int, s, bout float64, u, last int)

// wShared reports whether w shares memory with x or y. The AVX-512 scans
// hold w in registers and store it when they return, so a row of x, or a
// label, that is w would be read as it was before the call's updates; the
// AVX2 and SSE2 loops update four or two weights at a time, so a row a
// few values off w would be read before its last updates (helper-55); the
// Go twins read it as updated, one value at a time. The learners never
// pass such slices; a caller that does gets the Go twin.
func wShared(w, x, y []float64) bool {
	return overlap(w, x) || overlap(w, y)
}

// overlap reports whether a and b share an element.
func overlap(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return pa < pb+8*uintptr(len(b)) && pb < pa+8*uintptr(len(a))
}

//go:noescape
func scanCert512(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int, k float64, pend int) (kk, need int, s, bout float64, u, last int)

//go:noescape
func dotFastAsm(w *float64, x *float64, n int) float64

//go:noescape
func scanFastAsm(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, avx, pend int) (k, need int, s, bout float64, u, last int)

// ScanFast is ScanFastGo, bit for bit: in SSE2 (scanFastAsm), with AVX2
// and the read-ahead where the CPU has AVX2, and with AVX-512, w in
// registers and no read-ahead (scanFast512) where it also has AVX-512F;
// rows of a width fastByCert names go to scanCert512 instead
// (scanFastByCert). With AVX-512 the labels must be -1 or +1, as
// ScanCert's (PLA checks them).
func ScanFast(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	n := len(y)
	if n == 0 || c == 0 || maxu < 1 {
		return ScanFastGo(w, x, c, st, y, b, eta, bias, maxu)
	}
	checkRows(w, x, c, st, n)
	if wShared(w[:c], x, y) {
		return ScanFastGo(w, x, c, st, y, b, eta, bias, maxu)
	}
	bi, avx := 0, 0
	if bias {
		bi = 1
	}
	if hasAVX512 && fastByCert(c) {
		return scanFastByCert(w, x, c, st, y, b, eta, bias, maxu)
	}
	if hasAVX512 {
		// The pages ahead are asked for only within x.
		k, nd, s, bout, u, last := scanFast512(&w[0], &x[0], c, st, n, &y[0], b, eta, bi, maxu, 8*len(x))
		return k, nd != 0, s, bout, u, last
	}
	if hasAVX2 {
		avx = 1
	}
	// The read-ahead may run beyond the n rows, to the end of x.
	k, nd, s, bout, u, last := scanFastAsm(&w[0], &x[0], c, st, n, &y[0], b, eta, bi, maxu, avx, 8*len(x))
	return k, nd != 0, s, bout, u, last
}

// scanFastByCert is ScanFastGo, bit for bit, by scanCert512 with the
// certificate's coefficient 0: a row is then decided by the sign of its
// fast sum s_F, which is DotFastGo's sum (the same partial sums, reduced
// in the same order) plus b, as FastSum decides it, and the update is
// scanFast512's. The rows the kernel leaves (a tie, a NaN, or magnitudes
// summing beyond 2^1020, where s_F may not be finite) are scored by
// ScanFastGo one at a time (certLoop), as ScanCert leaves rows to
// ScanCertGo.
func scanFastByCert(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	return certLoop(scanCert512, 0, ScanFastGo, nil, w, x, c, st, y, b, eta, bias, maxu)
}

// certKernel is scanCert512's and scanCertAVX2's signature.
type certKernel func(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int, k float64, pend int) (kk, need int, s, bout float64, u, last int)

// certLoop scans the rows with kern and the certificate's coefficient kc,
// and gives each row that kern leaves to twin (ScanCertGo or ScanFastGo)
// alone, counting it in fallbacks if not nil; it goes on after a row twin
// decides, and returns what twin returns for the whole scan: s is the
// last score computed, by kern or by twin.
func certLoop(kern certKernel, kc float64, twin func(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (int, bool, float64, float64, int, int), fallbacks *atomic.Int64,
	w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	n := len(y)
	bi := 0
	if bias {
		bi = 1
	}
	last = -1
	for k < n {
		m, nd, sc, nb, du, dl := kern(&w[0], &x[k*st], c, st, n-k, &y[k], b, eta, bi, maxu-u, kc, 8*(len(x)-k*st))
		if du > 0 {
			u += du
			last = k + dl
		}
		b, s = nb, sc
		k += m
		if nd == 0 {
			return k, false, s, b, u, last
		}
		if fallbacks != nil {
			fallbacks.Add(1)
		}
		_, tie, sc, nb, du, _ := twin(w, x[k*st:], c, st, y[k:k+1], b, eta, bias, 1)
		s = sc
		if tie {
			return k, true, s, b, u, last
		}
		b = nb
		if du > 0 {
			u++
			last = k
		}
		k++
		if u >= maxu {
			return k, false, s, b, u, last
		}
	}
	return n, false, s, b, u, last
}

// checkRows panics, as an index out of range would, unless the n ≥ 1 rows
// x[i·st : i·st+c] lie in x and w has c ≥ 1 weights: the assembly checks
// no bound, so a negative stride, or one whose (n−1)·st overflows, must
// not reach it.
func checkRows(w, x []float64, c, st, n int) {
	_ = w[c-1]
	if st < 0 || n > 1 && st > (len(x)-c)/(n-1) || c > len(x) {
		panic(fmt.Sprintf("asm: %d rows of %d at a stride of %d do not fit in %d values", n, c, st, len(x)))
	}
}

//go:noescape
func scanCertAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int, k float64, pend int) (kk, need int, s, bout float64, u, last int)

// CertScans reports whether ScanCert runs in assembly (AVX2): then it is
// the fastest exact scan; without it ScanExact's blocks of eight rows are.
func CertScans() bool { return hasAVX2 }

// ScanKernels names the kernels that ScanFast and ScanCert run on this
// CPU, for perfcompare's report.
func ScanKernels() string {
	switch {
	case hasAVX512:
		return "AVX-512 (w in registers, pages asked for 256 KiB ahead; FastSum rows of 88 to 1592 values, multiples of 8, in ExactSum's loop)"
	case hasAVX2:
		return "AVX2 (with the read-ahead)"
	}
	return "SSE2 (FastSum; ExactSum in blocks of eight rows)"
}

// ScanCert is ScanCertGo, bit for bit (labels ±1, as ScanCertGo asks: the
// assembly takes y_i·s_F to be finite and not zero once s_F is certified):
// with AVX2 the assembly loop
// scanCertAVX2 (scanCert512 with AVX-512F) decides the rows its certificate covers, and the rows it
// leaves are scored here left to right (DotExact) and decided as
// ScanCertGo decides them.
func ScanCert(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	n := len(y)
	if !hasAVX2 || n == 0 || c == 0 || maxu < 1 || c > certMaxCols {
		return ScanCertGo(w, x, c, st, y, b, eta, bias, maxu)
	}
	checkRows(w, x, c, st, n)
	w = w[:c]
	if wShared(w, x, y) {
		return ScanCertGo(w, x, c, st, y, b, eta, bias, maxu)
	}
	kern := scanCertAVX2
	if hasAVX512 {
		kern = scanCert512
	}
	// A row the certificate does not decide: ScanCertGo on it alone.
	k, need, s, bout, u, last = certLoop(kern, certCoef(c), ScanCertGo, &certFallbacks, w, x, c, st, y, b, eta, bias, maxu)
	if !need {
		s = 0 // as ScanCertGo
	}
	return k, need, s, bout, u, last
}

// ScanExact is ScanExactGo, bit for bit: its loop around Dot8Exact (AVX2
// or SSE2) and Axpy.
func ScanExact(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu, lim int, pf bool) (k int, need bool, s, bout float64, u, last int) {
	if c <= len(w) && wShared(w[:c], x, y) { // Axpy would read x as it was (see wShared)
		return ScanExactGo(w, x, c, st, y, b, eta, bias, maxu, lim, pf)
	}
	return scanExact(w, x, c, st, y, b, eta, bias, maxu, lim, pf, Dot8Exact, Axpy)
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
// TestAxpy); a w that shares memory with x gets AxpyGo (see wShared).
func Axpy(a float64, x, w []float64) {
	if len(x) > 0 && overlap(w[:len(x)], x) { // see wShared
		AxpyGo(a, x, w)
		return
	}
	if hasAVX2 && len(x) > 0 {
		_ = w[len(x)-1]
		axpyAVX2(a, &x[0], &w[0], len(x))
		return
	}
	floats.AddScaled(w[:len(x)], a, x)
}

//go:noescape
func readSumAVX2(x *float64, n int, s *[16]float64, pages int)

// ReadSum is ReadSumGo, bit for bit: with AVX2 readSumAVX2 keeps the
// sixteen partial sums in four 256-bit registers (lane k of register r is
// s_{4r+k}) and adds 128 bytes of x a step straight from memory.
func ReadSum(x []float64) float64 { return read16(x, readPlain) }

//go:noescape
func readAheadAVX2(x *float64, n int, s *[16]float64)

// ReadAhead is ReadSumGo, bit for bit: with AVX2 ReadSum's read with
// the scans' read-ahead (readAheadAVX2), the fastest read of x in order
// that we know on Zen 3.
func ReadAhead(x []float64) float64 { return read16(x, readAhead) }

// ReadPages is ReadSumGo, bit for bit: with AVX2 ReadSum's read with the
// AVX-512 scans' pages ahead (readSumAVX2 with pages: one line asked for
// in every page of x, 256 KiB ahead of the reader), the fastest read of x
// in order that we know on Zen 4.
func ReadPages(x []float64) float64 { return read16(x, readPages) }

// The in-order reads of read16.
const (
	readPlain = iota // ReadSum
	readAhead        // ReadAhead
	readPages        // ReadPages
)

// read16 is ReadSum, ReadAhead or ReadPages (the read).
func read16(x []float64, read int) float64 {
	m := len(x) &^ 15
	if !hasAVX2 || m == 0 {
		return ReadSumGo(x)
	}
	var s [16]float64
	switch read {
	case readAhead:
		readAheadAVX2(&x[0], m, &s)
	case readPages:
		readSumAVX2(&x[0], m, &s, 1)
	default:
		readSumAVX2(&x[0], m, &s, 0)
	}
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

//go:noescape
func unitPrefixAVX2(y *float64, n int) int

// FirstNonUnit is FirstNonUnitGo: with AVX2 unitPrefixAVX2 checks the
// labels sixteen at a time, |y_i|'s bits against those of 1, up to the
// first block of sixteen that holds another value, and FirstNonUnitGo
// looks for it from there (and in the last len(y) mod 16 labels).
func FirstNonUnit(y []float64) int {
	i := 0
	if hasAVX2 && len(y) >= 16 {
		i = unitPrefixAVX2(&y[0], len(y))
	}
	return i + FirstNonUnitGo(y[i:])
}
