//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// scanFastAsm prefetches, while it scores row i, the row PFROWS rows ahead
// (at most PFMAX bytes ahead), with PREFETCHNTA: each row is read once an
// epoch. Measured on the README's machine (BenchmarkPLASweep, FastSum): on
// 1M × 100 about 30 ns a row against 32-34 without prefetch or with
// PREFETCHT0 eight rows ahead; 16 KiB at most keeps the distance short for
// long rows (d = 1000: two rows). Issue 33 tried the scan without it on the
// fast-memory machine: faster in one-epoch benchmarks, not shown faster in
// perfcompare (docs/performance.md, round 4), so it stayed.
#define PFROWS 16
#define PFMAX 16384
#define PFI PREFETCHNTA

// The kernels of asm.go in SSE2 (every amd64 CPU has it). MULPD and ADDPD
// round each product and each sum as the scalar code does (no fused
// multiply-add), so the results are bit for bit those of Dot8ExactGo and
// DotFastGo.

// func dot8ExactAsm(w *float64, n int, rows *[9]*float64, out *[8]float64)
//
// out[q] = Σ_j w_j rows[q][j], j = 0, 1, …, n-1, summed left to right.
// The lanes of an accumulator are two rows: the products of two columns of
// rows q and q+1 are transposed (UNPCKLPD, UNPCKHPD) so that each lane adds
// its own row's products in order.
TEXT ·dot8ExactAsm(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ n+8(FP), CX
	DECQ CX // the loop runs while the column pair j, j+1 < n
	MOVQ rows+16(FP), DX
	MOVQ 0(DX), R8
	MOVQ 8(DX), R9
	MOVQ 16(DX), R10
	MOVQ 24(DX), R11
	MOVQ 32(DX), R12
	MOVQ 40(DX), R13
	MOVQ 48(DX), BX
	MOVQ 56(DX), DI
	MOVQ 64(DX), DX // where to prefetch
	MOVQ $128, R14 // the prefetch's step
	TESTQ DX, DX
	JNZ  epf
	MOVQ R8, DX // nil: no prefetch (the first row's first lines, again and again)
	XORQ R14, R14

epf:
	XORPS X0, X0 // rows 0, 1
	XORPS X1, X1 // rows 2, 3
	XORPS X2, X2 // rows 4, 5
	XORPS X3, X3 // rows 6, 7
	XORQ AX, AX
	CMPQ CX, $0
	JLE  etail

eloop:
	MOVUPD (SI)(AX*8), X4 // w_j, w_j+1

	MOVUPD (R8)(AX*8), X5
	MULPD  X4, X5
	MOVUPD (R9)(AX*8), X6
	MULPD  X4, X6
	MOVAPD X5, X7
	UNPCKLPD X6, X5 // row 0 and row 1, column j
	UNPCKHPD X6, X7 // column j+1
	ADDPD  X5, X0
	ADDPD  X7, X0

	MOVUPD (R10)(AX*8), X8
	MULPD  X4, X8
	MOVUPD (R11)(AX*8), X9
	MULPD  X4, X9
	MOVAPD X8, X10
	UNPCKLPD X9, X8
	UNPCKHPD X9, X10
	ADDPD  X8, X1
	ADDPD  X10, X1

	MOVUPD (R12)(AX*8), X11
	MULPD  X4, X11
	MOVUPD (R13)(AX*8), X12
	MULPD  X4, X12
	MOVAPD X11, X13
	UNPCKLPD X12, X11
	UNPCKHPD X12, X13
	ADDPD  X11, X2
	ADDPD  X13, X2

	MOVUPD (BX)(AX*8), X5
	MULPD  X4, X5
	MOVUPD (DI)(AX*8), X6
	MULPD  X4, X6
	MOVAPD X5, X7
	UNPCKLPD X6, X5
	UNPCKHPD X6, X7
	ADDPD  X5, X3
	ADDPD  X7, X3

	PREFETCHT0 (DX)
	PREFETCHT0 64(DX)
	ADDQ R14, DX
	ADDQ $2, AX
	CMPQ AX, CX
	JL   eloop

etail:
	CMPQ AX, CX
	JNE  edone // n even: no last column
	MOVSD  (SI)(AX*8), X4
	UNPCKLPD X4, X4 // w_j, w_j
	MOVSD  (R8)(AX*8), X5
	MOVHPD (R9)(AX*8), X5
	MULPD  X4, X5
	ADDPD  X5, X0
	MOVSD  (R10)(AX*8), X6
	MOVHPD (R11)(AX*8), X6
	MULPD  X4, X6
	ADDPD  X6, X1
	MOVSD  (R12)(AX*8), X7
	MOVHPD (R13)(AX*8), X7
	MULPD  X4, X7
	ADDPD  X7, X2
	MOVSD  (BX)(AX*8), X8
	MOVHPD (DI)(AX*8), X8
	MULPD  X4, X8
	ADDPD  X8, X3

edone:
	MOVQ   out+24(FP), DX
	MOVUPD X0, 0(DX)
	MOVUPD X1, 16(DX)
	MOVUPD X2, 32(DX)
	MOVUPD X3, 48(DX)
	RET

// func dotFastAsm(w *float64, x *float64, n int) float64
//
// Σ_j w_j x_j for one row with eight partial sums: s_k sums, left to right,
// the terms of the columns j ≡ k (mod 8) with j < 8⌊n/8⌋, in the lanes of
// four accumulators (s_0, s_1), (s_2, s_3), (s_4, s_5), (s_6, s_7). They
// are combined as ((s_0 + s_2) + (s_4 + s_6)) + ((s_1 + s_3) + (s_5 + s_7)),
// and the last n mod 8 terms are then added left to right.
TEXT ·dotFastAsm(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ n+16(FP), CX
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-8, DX
	JZ   rsum

rloop:
	MOVUPD (DI)(AX*8), X4
	MOVUPD (SI)(AX*8), X8
	MULPD  X8, X4
	ADDPD  X4, X0
	MOVUPD 16(DI)(AX*8), X5
	MOVUPD 16(SI)(AX*8), X9
	MULPD  X9, X5
	ADDPD  X5, X1
	MOVUPD 32(DI)(AX*8), X6
	MOVUPD 32(SI)(AX*8), X10
	MULPD  X10, X6
	ADDPD  X6, X2
	MOVUPD 48(DI)(AX*8), X7
	MOVUPD 48(SI)(AX*8), X11
	MULPD  X11, X7
	ADDPD  X7, X3
	ADDQ $8, AX
	CMPQ AX, DX
	JL   rloop

rsum:
	ADDPD X1, X0 // (s_0 + s_2, s_1 + s_3)
	ADDPD X3, X2 // (s_4 + s_6, s_5 + s_7)
	ADDPD X2, X0
	MOVAPD X0, X1
	UNPCKHPD X1, X1
	ADDSD X1, X0

	CMPQ AX, CX
	JGE  rdone

rtail:
	MOVSD (DI)(AX*8), X4
	MULSD (SI)(AX*8), X4
	ADDSD X4, X0
	INCQ AX
	CMPQ AX, CX
	JL   rtail

rdone:
	MOVSD X0, ret+24(FP)
	RET

// func scanFastAsm(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, avx int) (k, need int, s, bout float64, u, last int)
//
// The FastSum scan of PLA over n rows of c features, row i at x + i·st,
// with its clear updates: it scores row after row as dotFastAsm does,
// s = dot + b, t = y_i·s. A row with t > 0 and finite is correct. A row
// with t < 0 and finite is a mistake under every tie policy: it updates
// w_j ← w_j + (x_j·step) with step = eta·y_i, and b ← b + step when bias is
// not 0, as axpyGo and step do, and goes on; after maxu updates it returns
// (k = the next row, need = 0). Any other row (t = ±0, NaN or ±Inf) is
// left to the caller: k is that row, need = 1 and s its score. With no such
// row k = n, need = 0. bout is b after the updates, u their number, last
// the row of the last one. With avx not 0 the update uses AVX2 (VMULPD,
// then VADDPD: the same roundings).
TEXT ·scanFastAsm(SB), NOSPLIT, $0-136
	MOVQ  w+0(FP), SI
	MOVQ  x+8(FP), DI
	MOVQ  c+16(FP), CX
	MOVQ  st+24(FP), R8
	SHLQ  $3, R8 // the stride in bytes
	MOVQ  n+32(FP), R9
	MOVQ  y+40(FP), R10
	MOVSD b+48(FP), X12
	MOVSD $(1.7976931348623157e+308), X13 // the largest float64
	XORPS X14, X14
	MOVSD eta+56(FP), X15
	MOVQ  CX, DX
	ANDQ  $-8, DX
	XORQ  R11, R11 // row i
	XORQ  R12, R12 // updates
	MOVQ  $-1, R13 // last update
	MOVQ  R8, R14
	IMULQ $PFROWS, R14
	CMPQ  R14, $PFMAX
	JLE   spf
	MOVQ  $PFMAX, R14

spf:
	ADDQ DI, R14 // where to prefetch: PFROWS rows ahead, at most PFMAX bytes

srow:
	CMPQ  R11, R9
	JGE   snone
	CMPQ  avx+80(FP), $0
	JNE   svrow
	XORPS X0, X0
	XORPS X1, X1
	XORPS X2, X2
	XORPS X3, X3
	XORQ  AX, AX
	TESTQ DX, DX
	JZ    ssum

sloop:
	MOVUPD (DI)(AX*8), X4
	MOVUPD (SI)(AX*8), X8
	MULPD  X8, X4
	ADDPD  X4, X0
	MOVUPD 16(DI)(AX*8), X5
	MOVUPD 16(SI)(AX*8), X9
	MULPD  X9, X5
	ADDPD  X5, X1
	MOVUPD 32(DI)(AX*8), X6
	MOVUPD 32(SI)(AX*8), X10
	MULPD  X10, X6
	ADDPD  X6, X2
	MOVUPD 48(DI)(AX*8), X7
	MOVUPD 48(SI)(AX*8), X11
	MULPD  X11, X7
	ADDPD  X7, X3
	ADDQ   $8, AX
	CMPQ   AX, DX
	JL     sloop

	JMP    ssum

svrow:
	// The same eight partial sums with AVX2: Y0 = (s_0, s_1, s_2, s_3),
	// Y1 = (s_4, s_5, s_6, s_7), then moved to X0-X3 as the SSE2 loop
	// leaves them.
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	XORQ   AX, AX
	TESTQ  DX, DX
	JZ     svsum

svloop:
	PFI (R14)(AX*8)
	VMOVUPD (DI)(AX*8), Y4
	VMULPD  (SI)(AX*8), Y4, Y4
	VADDPD  Y4, Y0, Y0
	VMOVUPD 32(DI)(AX*8), Y5
	VMULPD  32(SI)(AX*8), Y5, Y5
	VADDPD  Y5, Y1, Y1
	ADDQ    $8, AX
	CMPQ    AX, DX
	JL      svloop

svsum:
	PFI -8(R14)(CX*8)
	VEXTRACTF128 $1, Y0, X8 // s_2, s_3
	VEXTRACTF128 $1, Y1, X9 // s_6, s_7
	VZEROUPPER
	MOVAPD X1, X2 // s_4, s_5
	MOVAPD X8, X1
	MOVAPD X9, X3

ssum:
	ADDPD    X1, X0
	ADDPD    X3, X2
	ADDPD    X2, X0
	MOVAPD   X0, X1
	UNPCKHPD X1, X1
	ADDSD    X1, X0
	CMPQ     AX, CX
	JGE      scheck

stail:
	MOVSD (DI)(AX*8), X4
	MULSD (SI)(AX*8), X4
	ADDSD X4, X0
	INCQ  AX
	CMPQ  AX, CX
	JL    stail

scheck:
	ADDSD   X12, X0 // s = dot + b
	MOVSD   (R10)(R11*8), X4
	MULSD   X0, X4 // t = y·s
	UCOMISD X14, X4
	JLS     snotpos // t ≤ 0 or NaN
	UCOMISD X13, X4
	JHI     sfound // t = +Inf

snext:
	ADDQ R8, DI
	ADDQ R8, R14
	INCQ R11
	JMP  srow

snotpos:
	// t ≤ 0 or NaN here: a clear mistake is -MaxFloat64 ≤ t < 0.
	JEQ     sfound // t = ±0 (or NaN: unordered sets ZF)
	MOVAPD  X4, X5
	ADDSD   X13, X5 // t + MaxFloat64 ≥ 0 unless t = -Inf
	UCOMISD X14, X5
	JCS     sfound // t = -Inf

	// The update: step = eta·y_i; w_j ← w_j + x_j·step; b ← b + step.
	MOVSD    (R10)(R11*8), X5
	MULSD    X15, X5 // step (eta·y, as step computes it)
	MOVAPD   X5, X6
	UNPCKLPD X6, X6 // step, step
	XORQ     AX, AX
	CMPQ     avx+80(FP), $0
	JEQ      supsse
	VBROADCASTSD X5, Y6
	MOVQ     CX, BX
	ANDQ     $-4, BX
	JZ       supvdone

supvloop:
	VMULPD  (DI)(AX*8), Y6, Y7 // x_j·step
	VADDPD  (SI)(AX*8), Y7, Y7 // w_j + x_j·step
	VMOVUPD Y7, (SI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, BX
	JL      supvloop

supvdone:
	VZEROUPPER
	MOVAPD   X5, X6
	UNPCKLPD X6, X6 // step, step

supsse:
	MOVQ     CX, BX
	ANDQ     $-2, BX
	CMPQ     AX, BX
	JGE      suptail

suploop:
	MOVUPD (DI)(AX*8), X7
	MULPD  X6, X7 // x_j·step
	MOVUPD (SI)(AX*8), X8
	ADDPD  X8, X7 // w_j + x_j·step
	MOVUPD X7, (SI)(AX*8)
	ADDQ   $2, AX
	CMPQ   AX, BX
	JL     suploop

suptail:
	CMPQ  AX, CX
	JGE   supbias
	MOVSD (DI)(AX*8), X7
	MULSD X6, X7
	MOVSD (SI)(AX*8), X8
	ADDSD X8, X7
	MOVSD X7, (SI)(AX*8)

supbias:
	CMPQ  bias+64(FP), $0
	JEQ   supcount
	ADDSD X5, X12 // b + step

supcount:
	INCQ R12
	MOVQ R11, R13
	CMPQ R12, maxu+72(FP)
	JLT  snext
	ADDQ R8, DI
	INCQ R11
	MOVQ R11, k+88(FP)
	MOVQ $0, need+96(FP)
	JMP  sret

sfound:
	MOVQ R11, k+88(FP)
	MOVQ $1, need+96(FP)
	JMP  sret

snone:
	MOVQ R9, k+88(FP)
	MOVQ $0, need+96(FP)

sret:
	MOVSD X0, s+104(FP) // the last score computed (of row k when need = 1)
	MOVSD X12, bout+112(FP)
	MOVQ  R12, u+120(FP)
	MOVQ  R13, last+128(FP)
	RET

// func dot8ExactAVX2(w *float64, n int, rows *[9]*float64, out *[8]float64)
//
// dot8ExactAsm with AVX2 (256-bit vectors, no FMA), for CPUs that have it:
// the lanes of an accumulator are four rows; each step multiplies four
// columns of four rows by w and transposes the 4×4 products (VUNPCKLPD,
// VUNPCKHPD, VPERM2F128) so that each lane adds its own row's products in
// order, column after column.
TEXT ·dot8ExactAVX2(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ rows+16(FP), DX
	MOVQ 0(DX), R8
	MOVQ 8(DX), R9
	MOVQ 16(DX), R10
	MOVQ 24(DX), R11
	MOVQ 32(DX), R12
	MOVQ 40(DX), R13
	MOVQ 48(DX), BX
	MOVQ 56(DX), DI
	MOVQ 64(DX), DX // where to prefetch
	MOVQ $256, R14 // the prefetch's step
	TESTQ DX, DX
	JNZ  vpf
	MOVQ R8, DX // nil: no prefetch (the first row's first lines, again and again)
	XORQ R14, R14

vpf:
	VXORPD Y0, Y0, Y0 // rows 0-3
	VXORPD Y1, Y1, Y1 // rows 4-7
	XORQ AX, AX
	SUBQ $3, CX // the loop runs while the columns j … j+3 < n
	CMPQ CX, $0
	JLE  vtail0

vloop:
	VMOVUPD (SI)(AX*8), Y8 // w_j … w_j+3

	VMULPD (R8)(AX*8), Y8, Y2
	VMULPD (R9)(AX*8), Y8, Y3
	VMULPD (R10)(AX*8), Y8, Y4
	VMULPD (R11)(AX*8), Y8, Y5
	VUNPCKLPD Y3, Y2, Y6 // (p0[0], p1[0], p0[2], p1[2])
	VUNPCKHPD Y3, Y2, Y7 // (p0[1], p1[1], p0[3], p1[3])
	VUNPCKLPD Y5, Y4, Y9
	VUNPCKHPD Y5, Y4, Y10
	VPERM2F128 $0x20, Y9, Y6, Y2 // column j of rows 0-3
	VPERM2F128 $0x20, Y10, Y7, Y3 // column j+1
	VPERM2F128 $0x31, Y9, Y6, Y4 // column j+2
	VPERM2F128 $0x31, Y10, Y7, Y5 // column j+3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y0, Y0
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y0, Y0

	VMULPD (R12)(AX*8), Y8, Y11
	VMULPD (R13)(AX*8), Y8, Y12
	VMULPD (BX)(AX*8), Y8, Y13
	VMULPD (DI)(AX*8), Y8, Y14
	VUNPCKLPD Y12, Y11, Y6
	VUNPCKHPD Y12, Y11, Y7
	VUNPCKLPD Y14, Y13, Y9
	VUNPCKHPD Y14, Y13, Y10
	VPERM2F128 $0x20, Y9, Y6, Y11
	VPERM2F128 $0x20, Y10, Y7, Y12
	VPERM2F128 $0x31, Y9, Y6, Y13
	VPERM2F128 $0x31, Y10, Y7, Y14
	VADDPD Y11, Y1, Y1
	VADDPD Y12, Y1, Y1
	VADDPD Y13, Y1, Y1
	VADDPD Y14, Y1, Y1

	PREFETCHT0 (DX)
	PREFETCHT0 64(DX)
	PREFETCHT0 128(DX)
	PREFETCHT0 192(DX)
	ADDQ R14, DX
	ADDQ $4, AX
	CMPQ AX, CX
	JL   vloop

vtail0:
	ADDQ $3, CX // n

vtail:
	CMPQ AX, CX
	JGE  vdone
	VBROADCASTSD (SI)(AX*8), Y8
	VMOVSD (R8)(AX*8), X2
	VMOVHPD (R9)(AX*8), X2, X2
	VMOVSD (R10)(AX*8), X3
	VMOVHPD (R11)(AX*8), X3, X3
	VINSERTF128 $1, X3, Y2, Y2 // column j of rows 0-3
	VMULPD Y8, Y2, Y2
	VADDPD Y2, Y0, Y0
	VMOVSD (R12)(AX*8), X4
	VMOVHPD (R13)(AX*8), X4, X4
	VMOVSD (BX)(AX*8), X5
	VMOVHPD (DI)(AX*8), X5, X5
	VINSERTF128 $1, X5, Y4, Y4
	VMULPD Y8, Y4, Y4
	VADDPD Y4, Y1, Y1
	INCQ AX
	JMP  vtail

vdone:
	MOVQ    out+24(FP), DX
	VMOVUPD Y0, 0(DX)
	VMOVUPD Y1, 32(DX)
	VZEROUPPER
	RET

// func axpyAVX2(a float64, x *float64, w *float64, n int)
//
// w_j ← w_j + a·x_j for j < n with AVX2: VMULPD, then VADDPD (never fused),
// so bit for bit axpyGo.
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSD a+0(FP), Y0
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), DI
	MOVQ n+24(FP), CX
	XORQ AX, AX
	MOVQ CX, DX
	ANDQ $-8, DX
	JZ   atail

aloop:
	VMULPD  (SI)(AX*8), Y0, Y1
	VMULPD  32(SI)(AX*8), Y0, Y2
	VADDPD  (DI)(AX*8), Y1, Y1
	VADDPD  32(DI)(AX*8), Y2, Y2
	VMOVUPD Y1, (DI)(AX*8)
	VMOVUPD Y2, 32(DI)(AX*8)
	ADDQ    $8, AX
	CMPQ    AX, DX
	JL      aloop

atail:
	CMPQ   AX, CX
	JGE    adone
	VMOVSD (SI)(AX*8), X1
	VMULSD X0, X1, X1
	VADDSD (DI)(AX*8), X1, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ   AX
	JMP    atail

adone:
	VZEROUPPER
	RET

// func readSumAVX2(x *float64, n int, s *[16]float64)
//
// s[k] = Σ x[i], i ≡ k (mod 16), i < n; n is a positive multiple of 16.
// Y0..Y3 hold s[0:4], s[4:8], s[8:12], s[12:16]: every VADDPD adds four
// values read from memory to four partial sums, each sum left to right.
TEXT ·readSumAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ s+16(FP), DI
	SHLQ $3, CX
	ADDQ SI, CX // the end of x
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

readsumloop:
	VADDPD (SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	VADDPD 96(SI), Y3, Y3
	ADDQ   $128, SI
	CMPQ   SI, CX
	JB     readsumloop

	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func scanExactAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, lim, pf int) (k, need int, s, bout float64, u, last int)
//
// The ExactSum epoch of PLA in order over n rows of c features (row i at
// x + i·st), as ScanExactGo says: it scores blocks of eight rows with the
// current w and b, as dot8ExactAVX2 does (the same instructions, so the
// same bits), and checks the eight t = y_i·s at once, without a branch per
// row: a block whose eight t are all > 0 and finite is passed over. At the
// first other row of a block it decides as scanFastAsm does: a clear
// mistake (t < 0, finite) makes the update (VMULPD, then VADDPD, as axpyAVX2;
// b ← b + step when bias is not 0), and the next block starts at the row
// after it (the block's later scores were made with the old w); after maxu
// updates it returns (k = the next row, need = 0). A tie or a non-finite
// score is left to the caller (k = its row, need = 1, s = its score). It
// returns need = 0 and k = the first row of the next block when fewer than
// eight rows remain or the block would start at lim or beyond. With pf not
// 0 it prefetches (PREFETCHT0) four lines for every four columns it
// scores, from where the last block's prefetch stopped or, if that is
// behind, from row i+8, and never further than pf bytes beyond row i+8:
// after an update the next block starts at the row after it, and the
// prefetch, instead of starting over at that block's successor, goes on
// streaming the lines it has not yet asked for. With pf = 0 it does not
// prefetch.
//
// Registers: R12 the block's first row i, DI its address, R8 and R9 the
// addresses of rows i and i+4 at column j, R10 the stride in bytes, R11
// three strides, SI w + 8j, CX the column count, DX the prefetch address
// and AX its bound, R13 the updates, BX the last update's row, X15
// b. The eight scores go through the frame (0-63(SP)) when a block stops.
TEXT ·scanExactAVX2(SB), NOSPLIT, $64-144
	MOVQ  x+8(FP), DI
	MOVQ  st+24(FP), R10
	SHLQ  $3, R10
	LEAQ  (R10)(R10*2), R11
	VMOVSD b+48(FP), X15
	XORQ  R12, R12
	XORQ  R13, R13
	MOVQ  $-1, BX
	XORQ  DX, DX

xblock:
	MOVQ  n+32(FP), AX
	SUBQ  $8, AX
	CMPQ  R12, AX
	JGT   xend // fewer than eight rows left
	CMPQ  R12, lim+80(FP)
	JGE   xend
	MOVQ  DI, R8
	LEAQ  (DI)(R10*4), R9
	MOVQ  w+0(FP), SI
	LEAQ  (R9)(R10*4), AX // row i+8, the next block
	CMPQ  DX, AX
	CMOVQCS AX, DX // the prefetch goes on from where it was, or from row i+8
	ADDQ  pf+88(FP), AX // and at most pf bytes beyond row i+8
	CMPQ  pf+88(FP), $0
	JNE   xpf
	MOVQ  DI, DX // no prefetch: the block's own first lines, again and again
	MOVQ  DI, AX

xpf:
	VXORPD Y0, Y0, Y0 // rows 0-3
	VXORPD Y1, Y1, Y1 // rows 4-7
	MOVQ   c+16(FP), CX
	SHRQ   $2, CX // groups of four columns
	JZ     xtail

xloop:
	VMOVUPD (SI), Y8 // w_j … w_j+3

	VMULPD (R8), Y8, Y2
	VMULPD (R8)(R10*1), Y8, Y3
	VMULPD (R8)(R10*2), Y8, Y4
	VMULPD (R8)(R11*1), Y8, Y5
	VUNPCKLPD Y3, Y2, Y6
	VUNPCKHPD Y3, Y2, Y7
	VUNPCKLPD Y5, Y4, Y9
	VUNPCKHPD Y5, Y4, Y10
	VPERM2F128 $0x20, Y9, Y6, Y2 // column j of rows 0-3
	VPERM2F128 $0x20, Y10, Y7, Y3 // column j+1
	VPERM2F128 $0x31, Y9, Y6, Y4 // column j+2
	VPERM2F128 $0x31, Y10, Y7, Y5 // column j+3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y0, Y0
	VADDPD Y4, Y0, Y0
	VADDPD Y5, Y0, Y0

	VMULPD (R9), Y8, Y11
	VMULPD (R9)(R10*1), Y8, Y12
	VMULPD (R9)(R10*2), Y8, Y13
	VMULPD (R9)(R11*1), Y8, Y14
	VUNPCKLPD Y12, Y11, Y6
	VUNPCKHPD Y12, Y11, Y7
	VUNPCKLPD Y14, Y13, Y9
	VUNPCKHPD Y14, Y13, Y10
	VPERM2F128 $0x20, Y9, Y6, Y11
	VPERM2F128 $0x20, Y10, Y7, Y12
	VPERM2F128 $0x31, Y9, Y6, Y13
	VPERM2F128 $0x31, Y10, Y7, Y14
	VADDPD Y11, Y1, Y1
	VADDPD Y12, Y1, Y1
	VADDPD Y13, Y1, Y1
	VADDPD Y14, Y1, Y1

	PREFETCHT0 (DX)
	PREFETCHT0 64(DX)
	PREFETCHT0 128(DX)
	PREFETCHT0 192(DX)
	LEAQ 256(DX), R14 // the next four lines, if not beyond the bound
	CMPQ R14, AX
	CMOVQLS R14, DX
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  xloop

xtail:
	MOVQ c+16(FP), CX
	ANDQ $3, CX
	JZ   xcheck

xtloop:
	VBROADCASTSD (SI), Y8
	VMOVSD  (R8), X2
	VMOVHPD (R8)(R10*1), X2, X2
	VMOVSD  (R8)(R10*2), X3
	VMOVHPD (R8)(R11*1), X3, X3
	VINSERTF128 $1, X3, Y2, Y2 // column j of rows 0-3
	VMULPD  Y8, Y2, Y2
	VADDPD  Y2, Y0, Y0
	VMOVSD  (R9), X4
	VMOVHPD (R9)(R10*1), X4, X4
	VMOVSD  (R9)(R10*2), X5
	VMOVHPD (R9)(R11*1), X5, X5
	VINSERTF128 $1, X5, Y4, Y4
	VMULPD  Y8, Y4, Y4
	VADDPD  Y4, Y1, Y1
	ADDQ    $8, SI
	ADDQ    $8, R8
	ADDQ    $8, R9
	DECQ    CX
	JNZ     xtloop

xcheck:
	// s = dot + b and t = y·s for the eight rows; a row is clear when
	// 0 < t ≤ MaxFloat64 (false for NaN).
	VBROADCASTSD X15, Y2
	VADDPD  Y2, Y0, Y0
	VADDPD  Y2, Y1, Y1
	MOVQ    y+40(FP), CX
	VMULPD  (CX)(R12*8), Y0, Y3
	VMULPD  32(CX)(R12*8), Y1, Y4
	VXORPD  Y5, Y5, Y5
	MOVQ    $0x7fefffffffffffff, CX // MaxFloat64
	VMOVQ   CX, X6
	VBROADCASTSD X6, Y6
	VCMPPD  $0x1e, Y5, Y3, Y7 // t > 0 (GT_OQ)
	VCMPPD  $0x12, Y6, Y3, Y8 // t ≤ MaxFloat64 (LE_OQ)
	VANDPD  Y8, Y7, Y7
	VCMPPD  $0x1e, Y5, Y4, Y9
	VCMPPD  $0x12, Y6, Y4, Y10
	VANDPD  Y10, Y9, Y9
	VMOVMSKPD Y7, AX
	VMOVMSKPD Y9, CX
	SHLQ    $4, CX
	ORQ     CX, AX
	CMPQ    AX, $0xff
	JNE     xstop
	LEAQ    (DI)(R10*8), DI
	ADDQ    $8, R12
	JMP     xblock

xstop:
	// Row q = the first lane not clear.
	VMOVUPD Y0, 0(SP)
	VMOVUPD Y1, 32(SP)
	NOTQ    AX
	BSFQ    AX, AX
	VMOVSD  0(SP)(AX*8), X0 // s
	ADDQ    AX, R12 // the row
	IMULQ   R10, AX
	ADDQ    AX, DI // its address
	MOVQ    y+40(FP), CX
	VMOVSD  (CX)(R12*8), X4
	VMULSD  X0, X4, X4 // t = y·s
	VXORPD  X5, X5, X5
	VUCOMISD X5, X4
	JEQ     xfound // t = ±0 (or NaN: unordered sets ZF)
	JHI     xfound // t > 0 here is +Inf
	VADDSD  X6, X4, X6 // t + MaxFloat64 ≥ 0 unless t = -Inf (X6: MaxFloat64)
	VUCOMISD X5, X6
	JCS     xfound

	// The update: step = eta·y_i; w_j ← w_j + x_j·step; b ← b + step.
	VMOVSD  (CX)(R12*8), X5
	VMULSD  eta+56(FP), X5, X5 // step (y·eta, as step rounds eta·y)
	VBROADCASTSD X5, Y6
	MOVQ    w+0(FP), SI
	XORQ    AX, AX
	MOVQ    c+16(FP), CX
	MOVQ    CX, DX
	ANDQ    $-4, DX
	JZ      xuptail

xuploop:
	VMULPD  (DI)(AX*8), Y6, Y7 // x_j·step
	VADDPD  (SI)(AX*8), Y7, Y7 // w_j + x_j·step
	VMOVUPD Y7, (SI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, DX
	JL      xuploop

xuptail:
	CMPQ    AX, CX
	JGE     xupbias
	VMOVSD  (DI)(AX*8), X7
	VMULSD  X5, X7, X7
	VADDSD  (SI)(AX*8), X7, X7
	VMOVSD  X7, (SI)(AX*8)
	INCQ    AX
	JMP     xuptail

xupbias:
	CMPQ    bias+64(FP), $0
	JEQ     xupcount
	VADDSD  X5, X15, X15 // b + step

xupcount:
	INCQ    R13
	MOVQ    R12, BX
	ADDQ    R10, DI
	INCQ    R12 // the next block starts after the update
	CMPQ    R13, maxu+72(FP)
	JLT     xblock
	MOVQ    R12, k+96(FP)
	MOVQ    $0, need+104(FP)
	VXORPD  X0, X0, X0
	JMP     xret

xfound:
	MOVQ    R12, k+96(FP)
	MOVQ    $1, need+104(FP)
	JMP     xret

xend:
	MOVQ    R12, k+96(FP)
	MOVQ    $0, need+104(FP)
	VXORPD  X0, X0, X0

xret:
	VMOVSD  X0, s+112(FP)
	VMOVSD  X15, bout+120(FP)
	MOVQ    R13, u+128(FP)
	MOVQ    BX, last+136(FP)
	VZEROUPPER
	RET

// func readStreamsAVX2(p *[8]*float64, m int, s *[32]float64)
//
// s[4q+k] = Σ p[q][i], i ≡ k (mod 4), i < m, for q < 8: eight streams read
// side by side, each into its own 256-bit accumulator (m is a positive
// multiple of 4), every sum left to right.
TEXT ·readStreamsAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), DX
	MOVQ 0(DX), R8
	MOVQ 8(DX), R9
	MOVQ 16(DX), R10
	MOVQ 24(DX), R11
	MOVQ 32(DX), R12
	MOVQ 40(DX), R13
	MOVQ 48(DX), BX
	MOVQ 56(DX), DI
	MOVQ m+8(FP), CX
	SHLQ $3, CX // bytes a stream
	XORQ AX, AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

streamsloop:
	VADDPD (R8)(AX*1), Y0, Y0
	VADDPD (R9)(AX*1), Y1, Y1
	VADDPD (R10)(AX*1), Y2, Y2
	VADDPD (R11)(AX*1), Y3, Y3
	VADDPD (R12)(AX*1), Y4, Y4
	VADDPD (R13)(AX*1), Y5, Y5
	VADDPD (BX)(AX*1), Y6, Y6
	VADDPD (DI)(AX*1), Y7, Y7
	ADDQ   $32, AX
	CMPQ   AX, CX
	JB     streamsloop

	MOVQ    s+16(FP), DX
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, 64(DX)
	VMOVUPD Y3, 96(DX)
	VMOVUPD Y4, 128(DX)
	VMOVUPD Y5, 160(DX)
	VMOVUPD Y6, 192(DX)
	VMOVUPD Y7, 224(DX)
	VZEROUPPER
	RET

// func scanFastAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int) (k, need int, s, bout float64, u, last int)
//
// scanFastAsm's scan (ScanFastGo) with AVX2 in blocks of four rows: it
// scores rows i … i+3 with the current w and b, each with its own eight
// partial sums (two 256-bit accumulators a row, the sums of dotFastAsm,
// combined in dotFastAsm's order, so the same bits), and checks the four
// t = y·s at once, without a branch per row; at the first row that is not
// clearly correct it decides as scanFastAsm does, and after an update the
// next block starts at the row after it. It returns need = 0 and k = i
// when fewer than four rows are left (the caller scans them with
// scanFastAsm); s is the score of the last row it decided. It does not
// prefetch: ScanFast uses it for long rows only, which the CPU's own
// prefetcher follows, four rows side by side (see fastBlocks).
//
// Registers: R12 the block's first row i, DI its address, R8 row i at
// column j (rows i+1 … i+3 at R10, 2·R10, R11 = 3·R10 beyond it), SI
// w + 8j, CX the count, R13 the updates, BX the last update's row, X15 b, X14 the last score decided.
TEXT ·scanFastAVX2(SB), NOSPLIT, $32-128
	MOVQ  x+8(FP), DI
	MOVQ  st+24(FP), R10
	SHLQ  $3, R10
	LEAQ  (R10)(R10*2), R11
	VMOVSD b+48(FP), X15
	VXORPD X14, X14, X14
	XORQ  R12, R12
	XORQ  R13, R13
	MOVQ  $-1, BX

fblock:
	MOVQ  n+32(FP), AX
	SUBQ  $4, AX
	CMPQ  R12, AX
	JGT   fend // fewer than four rows left
	MOVQ  DI, R8
	MOVQ  w+0(FP), SI
	VXORPD Y0, Y0, Y0 // row i: s_0 … s_3
	VXORPD Y1, Y1, Y1 // row i: s_4 … s_7
	VXORPD Y2, Y2, Y2 // row i+1
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4 // row i+2
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6 // row i+3
	VXORPD Y7, Y7, Y7
	MOVQ   c+16(FP), CX
	SHRQ   $3, CX // groups of eight columns
	JZ     fred

floop:
	VMOVUPD (SI), Y8
	VMOVUPD 32(SI), Y9
	VMULPD  (R8), Y8, Y10
	VADDPD  Y10, Y0, Y0
	VMULPD  32(R8), Y9, Y11
	VADDPD  Y11, Y1, Y1
	VMULPD  (R8)(R10*1), Y8, Y12
	VADDPD  Y12, Y2, Y2
	VMULPD  32(R8)(R10*1), Y9, Y13
	VADDPD  Y13, Y3, Y3
	VMULPD  (R8)(R10*2), Y8, Y10
	VADDPD  Y10, Y4, Y4
	VMULPD  32(R8)(R10*2), Y9, Y11
	VADDPD  Y11, Y5, Y5
	VMULPD  (R8)(R11*1), Y8, Y12
	VADDPD  Y12, Y6, Y6
	VMULPD  32(R8)(R11*1), Y9, Y13
	VADDPD  Y13, Y7, Y7
	ADDQ    $64, SI
	ADDQ    $64, R8
	DECQ    CX
	JNZ     floop

fred:
	// Per row ((s_0 + s_2) + (s_4 + s_6)) + ((s_1 + s_3) + (s_5 + s_7)),
	// for the four rows at once: Y10 = rows i, i+1, Y11 = rows i+2, i+3.
	VPERM2F128 $0x20, Y2, Y0, Y10 // (s_0, s_1) of rows i, i+1
	VPERM2F128 $0x31, Y2, Y0, Y11 // (s_2, s_3)
	VADDPD     Y11, Y10, Y10 // (s_0 + s_2, s_1 + s_3)
	VPERM2F128 $0x20, Y3, Y1, Y12 // (s_4, s_5)
	VPERM2F128 $0x31, Y3, Y1, Y13 // (s_6, s_7)
	VADDPD     Y13, Y12, Y12 // (s_4 + s_6, s_5 + s_7)
	VADDPD     Y12, Y10, Y10
	VPERM2F128 $0x20, Y6, Y4, Y11
	VPERM2F128 $0x31, Y6, Y4, Y12
	VADDPD     Y12, Y11, Y11
	VPERM2F128 $0x20, Y7, Y5, Y12
	VPERM2F128 $0x31, Y7, Y5, Y13
	VADDPD     Y13, Y12, Y12
	VADDPD     Y12, Y11, Y11
	VHADDPD    Y11, Y10, Y10 // rows i, i+2, i+1, i+3
	VPERMPD    $0xd8, Y10, Y10 // rows i … i+3
	MOVQ       c+16(FP), CX
	ANDQ       $7, CX
	JZ         fcheck

ftail:
	// The last c mod 8 columns, left to right.
	VBROADCASTSD (SI), Y8
	VMOVSD  (R8), X2
	VMOVHPD (R8)(R10*1), X2, X2
	VMOVSD  (R8)(R10*2), X3
	VMOVHPD (R8)(R11*1), X3, X3
	VINSERTF128 $1, X3, Y2, Y2
	VMULPD  Y8, Y2, Y2
	VADDPD  Y2, Y10, Y10
	ADDQ    $8, SI
	ADDQ    $8, R8
	DECQ    CX
	JNZ     ftail

fcheck:
	VBROADCASTSD X15, Y2
	VADDPD  Y2, Y10, Y10 // s = dot + b
	MOVQ    y+40(FP), CX
	VMULPD  (CX)(R12*8), Y10, Y3 // t = y·s
	VXORPD  Y5, Y5, Y5
	MOVQ    $0x7fefffffffffffff, R14 // MaxFloat64
	VMOVQ   R14, X6
	VBROADCASTSD X6, Y6
	VCMPPD  $0x1e, Y5, Y3, Y7 // t > 0
	VCMPPD  $0x12, Y6, Y3, Y8 // t ≤ MaxFloat64
	VANDPD  Y8, Y7, Y7
	VMOVMSKPD Y7, AX
	CMPQ    AX, $0xf
	JNE     fstop
	VEXTRACTF128 $1, Y10, X14
	VUNPCKHPD X14, X14, X14 // the score of row i+3
	LEAQ    (DI)(R10*4), DI
	ADDQ    $4, R12
	JMP     fblock

fstop:
	VMOVUPD Y10, 0(SP)
	NOTQ    AX
	BSFQ    AX, AX
	VMOVSD  0(SP)(AX*8), X0 // s of row q, the first not clearly correct
	ADDQ    AX, R12
	IMULQ   R10, AX
	ADDQ    AX, DI
	VMOVSD  (CX)(R12*8), X4
	VMULSD  X0, X4, X4 // t = y·s
	VUCOMISD X5, X4
	JEQ     ffound // t = ±0 (or NaN)
	JHI     ffound // t = +Inf
	VADDSD  X6, X4, X7 // t + MaxFloat64 ≥ 0 unless t = -Inf
	VUCOMISD X5, X7
	JCS     ffound

	VMOVSD  (CX)(R12*8), X5
	VMULSD  eta+56(FP), X5, X5 // step
	VBROADCASTSD X5, Y6
	MOVQ    w+0(FP), SI
	XORQ    AX, AX
	MOVQ    c+16(FP), CX
	MOVQ    CX, R14
	ANDQ    $-4, R14
	JZ      fuptail

fuploop:
	VMULPD  (DI)(AX*8), Y6, Y7 // x_j·step
	VADDPD  (SI)(AX*8), Y7, Y7 // w_j + x_j·step
	VMOVUPD Y7, (SI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, R14
	JL      fuploop

fuptail:
	CMPQ    AX, CX
	JGE     fupbias
	VMOVSD  (DI)(AX*8), X7
	VMULSD  X5, X7, X7
	VADDSD  (SI)(AX*8), X7, X7
	VMOVSD  X7, (SI)(AX*8)
	INCQ    AX
	JMP     fuptail

fupbias:
	CMPQ    bias+64(FP), $0
	JEQ     fupcount
	VADDSD  X5, X15, X15 // b + step

fupcount:
	VMOVAPD X0, X14
	INCQ    R13
	MOVQ    R12, BX
	ADDQ    R10, DI
	INCQ    R12
	CMPQ    R13, maxu+72(FP)
	JLT     fblock
	MOVQ    R12, k+80(FP)
	MOVQ    $0, need+88(FP)
	JMP     fret

ffound:
	VMOVAPD X0, X14
	MOVQ    R12, k+80(FP)
	MOVQ    $1, need+88(FP)
	JMP     fret

fend:
	MOVQ    R12, k+80(FP)
	MOVQ    $0, need+88(FP)

fret:
	VMOVSD  X14, s+96(FP)
	VMOVSD  X15, bout+104(FP)
	MOVQ    R13, u+112(FP)
	MOVQ    BX, last+120(FP)
	VZEROUPPER
	RET
