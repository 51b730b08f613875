//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// READAHEAD prefetches one line for the line being read at a = DI + 8·AX
// (the scans' row pointer and column): the in-order read-ahead of
// ReadAhead (asm.go), on a grid of chunks of RAC = 2^RAK bytes fixed in
// memory (so a scan that stops and starts again goes on where it was). The
// line read at a asks for the line at (a &^ (RAC−1)) + (7j + 15)·RAC/8 +
// (((a mod RAC) / 512) · 64), j = (a / 64) mod 8: while the reader is in
// chunk c, line j of every 512 bytes it reads fetches the next eighth of
// chunk c + j + 1, so eight sequential streams run ahead of it, each at an
// eighth of its speed, and chunk c + 1 is complete when the reader enters
// it. A target at or beyond R14 (the end of x) is replaced by DI. It uses
// R9, BX and R13, and the flags.
#define RAK 14
#define RAC 16384

// PAGEAHEAD is how far ahead of the reader the AVX-512 scans and
// ReadPages ask for the pages of x: 256 KiB, 64 pages of 4 KiB (PAGESAHEAD
// below; docs/performance.md, round 10).
#define PAGEAHEAD 262144
#define READAHEAD \
	LEAQ   (DI)(AX*8), R9; \
	MOVQ   R9, BX; \
	SHRQ   $3, BX; \
	ANDQ   $(RAC/8-64), BX; \
	MOVQ   R9, R13; \
	SHRQ   $6, R13; \
	ANDQ   $7, R13; \
	IMUL3Q $7, R13, R13; \
	ADDQ   $15, R13; \
	SHLQ   $(RAK-3), R13; \
	ANDQ   $(-RAC), R9; \
	ADDQ   R13, R9; \
	ADDQ   BX, R9; \
	CMPQ   R9, R14; \
	CMOVQCC DI, R9; \
	PREFETCHT0 (R9)

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

// func scanFastAsm(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, avx, pend int) (k, need int, s, bout float64, u, last int)
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
// then VADDPD: the same roundings), and the scan reads ahead (READAHEAD,
// within the pend bytes of x from its first row, which may run beyond the
// n rows): with it one FastSum epoch reads memory
// faster than ReadSum (docs/performance.md, issue 33 round 7). The SSE2
// loop does not prefetch.
TEXT ·scanFastAsm(SB), NOSPLIT, $0-144
	MOVQ  w+0(FP), SI
	MOVQ  x+8(FP), DI
	MOVQ  c+16(FP), CX
	MOVQ  st+24(FP), R8
	SHLQ  $3, R8 // the stride in bytes
	MOVQ  y+40(FP), R10
	MOVSD b+48(FP), X12
	MOVSD $(1.7976931348623157e+308), X13 // the largest float64
	XORPS X14, X14
	MOVSD eta+56(FP), X15
	MOVQ  CX, DX
	ANDQ  $-8, DX
	XORQ  R11, R11 // row i
	XORQ  R12, R12 // updates
	MOVQ  $-1, last+136(FP) // no update yet
	MOVQ  DI, R14
	ADDQ  pend+88(FP), R14 // the end of x, for READAHEAD

srow:
	CMPQ  R11, n+32(FP)
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
	READAHEAD
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
	MOVQ R11, last+136(FP)
	CMPQ R12, maxu+72(FP)
	JLT  snext
	ADDQ R8, DI
	INCQ R11
	MOVQ R11, k+96(FP)
	MOVQ $0, need+104(FP)
	JMP  sret

sfound:
	MOVQ R11, k+96(FP)
	MOVQ $1, need+104(FP)
	JMP  sret

snone:
	MOVQ n+32(FP), AX
	MOVQ AX, k+96(FP)
	MOVQ $0, need+104(FP)

sret:
	MOVSD X0, s+112(FP) // the last score computed (of row k when need = 1)
	MOVSD X12, bout+120(FP)
	MOVQ  R12, u+128(FP)
	RET

// func scanCertAVX2(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int, k float64, pend int) (kk, need int, s, bout float64, u, last int)
//
// The ExactSum scan of PLA in order, one row at a time with certified
// decisions (ScanCert): for row i it sums the products p_j = w_j·x_j
// (VMULPD, no FMA) as DotFastGo does, s_F = that sum + b, and their
// magnitudes |p_j| in the same order, a = that sum + |b|, and reads ahead
// as scanFastAsm does (within the pend bytes of x). The row is decided from s_F when a ≤ 2¹⁰²⁰ and
// |s_F| > k·(a + 2⁻⁹⁰⁰), k = certCoef(c): then the left-to-right score has
// s_F's sign and is finite and not zero (the proof is at certCoef), so
// t = y·s_F > 0 is a correct row and t < 0 a clear mistake, updated as
// scanFastAsm updates. Any other row (the certificate fails, or a NaN or
// an infinity makes its comparisons false) is left to the caller: kk is
// that row, need = 1. After maxu updates it returns kk = the next row,
// need = 0; with no such row kk = n, need = 0. bout is b after the
// updates, u their number, last the row of the last one; s is s_F of the
// last row scored.
//
// Registers: SI w, DI row i, CX c, DX 8⌊c/8⌋, R8 the stride in bytes, R10
// y, R11 i, R12 the updates, R14 x (READAHEAD: R9, BX, R13); Y0, Y1 the
// eight partial sums of s_F, Y2, Y3 those of a, Y13 the mask of |·|, X10
// 2¹⁰²⁰, X9 2⁻⁹⁰⁰, X11 k, X12 b, X14 0, X15 eta.
TEXT ·scanCertAVX2(SB), NOSPLIT, $0-144
	MOVQ   w+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   c+16(FP), CX
	MOVQ   st+24(FP), R8
	SHLQ   $3, R8 // the stride in bytes
	MOVQ   y+40(FP), R10
	VMOVSD b+48(FP), X12
	VXORPD X14, X14, X14
	VMOVSD eta+56(FP), X15
	VMOVSD k+80(FP), X11
	MOVQ   $0x7fffffffffffffff, AX
	VMOVQ  AX, X13
	VBROADCASTSD X13, Y13
	MOVQ   $0x7fb0000000000000, AX // 2^1020
	VMOVQ  AX, X10
	MOVQ   $0x07b0000000000000, AX // 2^-900
	VMOVQ  AX, X9
	MOVQ   CX, DX
	ANDQ   $-8, DX
	XORQ   R11, R11 // row i
	XORQ   R12, R12 // updates
	MOVQ   $-1, last+136(FP)
	MOVQ   DI, R14
	ADDQ   pend+88(FP), R14 // the end of x, for READAHEAD

crow:
	CMPQ   R11, n+32(FP)
	JGE    cnone
	VXORPD Y0, Y0, Y0 // s_0 … s_3
	VXORPD Y1, Y1, Y1 // s_4 … s_7
	VXORPD Y2, Y2, Y2 // a_0 … a_3
	VXORPD Y3, Y3, Y3 // a_4 … a_7
	XORQ   AX, AX
	TESTQ  DX, DX
	JZ     csum

cloop:
	READAHEAD
	VMOVUPD (DI)(AX*8), Y4
	VMULPD  (SI)(AX*8), Y4, Y4
	VADDPD  Y4, Y0, Y0
	VANDPD  Y13, Y4, Y4
	VADDPD  Y4, Y2, Y2
	VMOVUPD 32(DI)(AX*8), Y5
	VMULPD  32(SI)(AX*8), Y5, Y5
	VADDPD  Y5, Y1, Y1
	VANDPD  Y13, Y5, Y5
	VADDPD  Y5, Y3, Y3
	ADDQ    $8, AX
	CMPQ    AX, DX
	JL      cloop

csum:
	// DotFastGo's order: ((s_0 + s_2) + (s_4 + s_6)) + ((s_1 + s_3) + (s_5 + s_7)).
	VEXTRACTF128 $1, Y0, X4 // s_2, s_3
	VADDPD X4, X0, X0 // s_0 + s_2, s_1 + s_3
	VEXTRACTF128 $1, Y1, X5 // s_6, s_7
	VADDPD X5, X1, X1 // s_4 + s_6, s_5 + s_7
	VADDPD X1, X0, X0
	VUNPCKHPD X0, X0, X1
	VADDSD X1, X0, X0
	VEXTRACTF128 $1, Y2, X4
	VADDPD X4, X2, X2
	VEXTRACTF128 $1, Y3, X5
	VADDPD X5, X3, X3
	VADDPD X3, X2, X2
	VUNPCKHPD X2, X2, X3
	VADDSD X3, X2, X2
	CMPQ   AX, CX
	JGE    ccheck

ctail:
	VMOVSD (DI)(AX*8), X4
	VMULSD (SI)(AX*8), X4, X4
	VADDSD X4, X0, X0
	VANDPD X13, X4, X4
	VADDSD X4, X2, X2
	INCQ   AX
	CMPQ   AX, CX
	JL     ctail

ccheck:
	VADDSD   X12, X0, X0 // s_F = dot + b
	VANDPD   X13, X12, X4
	VADDSD   X4, X2, X2 // a = Σ|p_j| + |b|
	VUCOMISD X10, X2
	JPS      cfound // a is NaN
	JHI      cfound // a > 2^1020
	VADDSD   X9, X2, X2
	VMULSD   X11, X2, X2 // T = k·(a + 2^-900)
	VANDPD   X13, X0, X4 // |s_F|
	VUCOMISD X2, X4
	JLS      cfound // |s_F| ≤ T, or NaN
	VMOVSD   (R10)(R11*8), X4
	VMULSD   X0, X4, X4 // t = y·s_F, not 0
	VUCOMISD X14, X4
	JLS      cupdate // t < 0: a mistake under every tie policy

cnext:
	ADDQ R8, DI
	INCQ R11
	JMP  crow

cupdate:
	// step = eta·y_i; w_j ← w_j + x_j·step; b ← b + step.
	VMOVSD  (R10)(R11*8), X5
	VMULSD  X15, X5, X5 // step (eta·y, as step computes it)
	VBROADCASTSD X5, Y6
	XORQ    AX, AX
	MOVQ    CX, BX
	ANDQ    $-4, BX
	JZ      cuptail

cuploop:
	VMULPD  (DI)(AX*8), Y6, Y7 // x_j·step
	VADDPD  (SI)(AX*8), Y7, Y7 // w_j + x_j·step
	VMOVUPD Y7, (SI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, BX
	JL      cuploop

cuptail:
	CMPQ    AX, CX
	JGE     cupbias
	VMOVSD  (DI)(AX*8), X7
	VMULSD  X5, X7, X7
	VADDSD  (SI)(AX*8), X7, X7
	VMOVSD  X7, (SI)(AX*8)
	INCQ    AX
	JMP     cuptail

cupbias:
	CMPQ   bias+64(FP), $0
	JEQ    cupcount
	VADDSD X5, X12, X12 // b + step

cupcount:
	INCQ R12
	MOVQ R11, last+136(FP)
	CMPQ R12, maxu+72(FP)
	JLT  cnext
	INCQ R11
	MOVQ R11, kk+96(FP)
	MOVQ $0, need+104(FP)
	JMP  cret

cfound:
	MOVQ R11, kk+96(FP)
	MOVQ $1, need+104(FP)
	JMP  cret

cnone:
	MOVQ n+32(FP), AX
	MOVQ AX, kk+96(FP)
	MOVQ $0, need+104(FP)

cret:
	VMOVSD X0, s+112(FP)
	VMOVSD X12, bout+120(FP)
	MOVQ   R12, u+128(FP)
	VZEROUPPER
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

// The reads' four 256-bit sums, Y0-Y3 (s[0:4], …, s[12:16]): SUMS4ZERO
// clears them, SUMS4ADD adds the 128 bytes at SI (Y0 the first 32) and
// moves SI on, SUMS4STORE stores them at DI and returns.
#define SUMS4ZERO \
	VXORPD Y0, Y0, Y0; \
	VXORPD Y1, Y1, Y1; \
	VXORPD Y2, Y2, Y2; \
	VXORPD Y3, Y3, Y3
#define SUMS4ADD \
	VADDPD (SI), Y0, Y0; \
	VADDPD 32(SI), Y1, Y1; \
	VADDPD 64(SI), Y2, Y2; \
	VADDPD 96(SI), Y3, Y3; \
	ADDQ   $128, SI
#define SUMS4STORE \
	VMOVUPD Y0, (DI); \
	VMOVUPD Y1, 32(DI); \
	VMOVUPD Y2, 64(DI); \
	VMOVUPD Y3, 96(DI); \
	VZEROUPPER; \
	RET

// func readSumAVX2(x *float64, n int, s *[16]float64, pages int)
//
// s[k] = Σ x[i], i ≡ k (mod 16), i < n; n is a positive multiple of 16.
// Y0..Y3 hold s[0:4], s[4:8], s[8:12], s[12:16]: every VADDPD adds four
// values read from memory to four partial sums, each sum left to right.
// With pages ≠ 0 it also asks for one line of each page of x PAGEAHEAD
// bytes ahead of the reader (when SI + PAGEAHEAD enters the first 128
// bytes of a page), and for none at or beyond the end of x: ReadPages.
TEXT ·readSumAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ s+16(FP), DI
	SHLQ $3, CX
	ADDQ SI, CX // the end of x
	SUMS4ZERO
	CMPQ pages+24(FP), $0
	JNE  readpagesloop

readsumloop:
	SUMS4ADD
	CMPQ   SI, CX
	JB     readsumloop
	SUMS4STORE

readpagesloop:
	LEAQ   PAGEAHEAD(SI), R14
	TESTQ  $(4096-128), R14
	JNE    readpagesread // not the first 128 bytes of a page
	CMPQ   R14, CX
	JCC    readpagesread // beyond x
	PREFETCHT0 (R14)

readpagesread:
	SUMS4ADD
	CMPQ   SI, CX
	JB     readpagesloop
	SUMS4STORE

// func readAheadAVX2(x *float64, n int, s *[16]float64)
//
// readSumAVX2's sums (the same bits) read with READAHEAD: one line asked
// for ahead of every line read, in eight streams (see READAHEAD), within
// x. n is a positive multiple of 16.
TEXT ·readAheadAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), DI
	MOVQ n+8(FP), CX
	SHLQ $3, CX
	ADDQ DI, CX // the end of x
	MOVQ CX, R14 // the end of x, for READAHEAD
	XORQ AX, AX // READAHEAD reads at DI + 8·AX
	SUMS4ZERO

raloop:
	READAHEAD
	VADDPD (DI), Y0, Y0
	VADDPD 32(DI), Y1, Y1
	ADDQ   $64, DI
	READAHEAD
	VADDPD (DI), Y2, Y2
	VADDPD 32(DI), Y3, Y3
	ADDQ   $64, DI
	CMPQ   DI, CX
	JB     raloop

	MOVQ    s+16(FP), DI
	SUMS4STORE

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

// The AVX-512 scans (CPUs with AVX-512F, e.g. AMD Zen 4). They hold w in
// registers: the first 24 blocks of eight weights (192 columns) in Z8-Z31,
// loaded once a call, updated there and stored when the call returns, so
// that a row reads only its x from memory; the blocks beyond the 24th are
// read from w and updated in it, as the AVX2 loops do. They do not read
// ahead line by line: on Zen 4 every such software prefetch we tried made
// the reads slower (docs/performance.md, round 9). They ask for one line a
// page of x far ahead instead (PAGESAHEAD below, round 10). The sums are
// those of the AVX2 scans bit for bit: Z0 holds the eight partial sums
// s_0 … s_7 (lane k adds the products of the columns j ≡ k mod 8, left to
// right), reduced in DotFastGo's order by SUM8. The only operand order that
// differs is that of the products, w_j·x_j here and x_j·w_j there, which
// can matter only for the payload of a NaN made from two NaNs: x is finite
// wherever the learners call a scan. No VZEROUPPER runs inside a scan (it
// would clear the upper halves of Z8-Z15); one runs before each RET.

// PAGELIMIT sets R9 to the
// end of x (R9 holds pend, the bytes from x to its end, and DI is x at
// entry) less PAGEAHEAD and less the row's 8c bytes: rows below R9 have
// the row PAGEAHEAD bytes ahead within x. It uses AX.
//
// PAGESAHEAD(lpf, ldone), at the start of row DI, issues one PREFETCHT0 a
// page when the row PAGEAHEAD bytes ahead lies within x (DI below R9), and
// none otherwise: at the first line of the page that holds DI + PAGEAHEAD
// and of the pages after it, 4 KiB apart, as many as the row's 8c bytes
// span from that page's start (⌈8c/4096⌉, the same on every row, so that
// its branch is always foreseen). A row that runs into the next page
// leaves that page to the rows after it; with a stride longer than the
// row, a page that holds only the ends of rows may not be asked for at
// all (the reads then wait for it as they would without). The data it asks for
// is one line in 64; what it seems to buy is the address translation
// (asking for every eighth page only won half as much): on Zen 4 the
// scans then read about as fast as the page-ahead read (ReadPages;
// docs/performance.md, round 10), 0.82-0.98x of the plain read's time.
// It uses R14, AX and the flags.
#define PAGELIMIT \
	ADDQ DI, R9; \
	SUBQ $PAGEAHEAD, R9; \
	MOVQ CX, AX; \
	SHLQ $3, AX; \
	SUBQ AX, R9
#define PAGESAHEAD(lpf, ldone) \
	CMPQ DI, R9; \
	JCC  ldone; \
	LEAQ PAGEAHEAD(DI), R14; \
	ANDQ $-4096, R14; \
	LEAQ (R14)(CX*8), AX; \
lpf:; \
	PREFETCHT0 (R14); \
	ADDQ $4096, R14; \
	CMPQ R14, AX; \
	JCS  lpf; \
ldone:

// WLOAD(q) loads block q of w into Z(8+q), unless BX (the blocks held in
// registers) is q: then it goes to label wdone.
#define WLOAD(q, off, zw, wdone) \
	CMPQ    BX, $q; \
	JEQ     wdone; \
	VMOVUPD off(SI), zw

// FBLK(q+1, off, zw, zt, done): s_0 … s_7 += w·x of block q (at off), its
// weights in zw; then on to done when it was the last block in registers.
#define FBLK(q1, off, zw, zt, done) \
	VMULPD  off(DI), zw, zt; \
	VADDPD  zt, Z0, Z0; \
	CMPQ    BX, $q1; \
	JEQ     done

// CBLK: FBLK that also adds the magnitudes of the products to Z1 (Z6 is
// the mask of |·|).
#define CBLK(q1, off, zw, zt, done) \
	VMULPD  off(DI), zw, zt; \
	VADDPD  zt, Z0, Z0; \
	VPANDQ  Z6, zt, zt; \
	VADDPD  zt, Z1, Z1; \
	CMPQ    BX, $q1; \
	JEQ     done

// UBLK: w ← w + step·x on block q, in its register (Z5 holds step; the
// register goes to memory when the scan returns, WSTORE).
#define UBLK(q1, off, zw, done) \
	VMULPD  off(DI), Z5, Z2; \
	VADDPD  zw, Z2, zw; \
	CMPQ    BX, $q1; \
	JEQ     done

// WSTORE(q, off, zw, done) stores block q of w from Z(8+q), unless BX is q.
#define WSTORE(q, off, zw, done) \
	CMPQ    BX, $q; \
	JEQ     done; \
	VMOVUPD zw, off(SI)

// SUM8(z, y, x, ty1, ty2, tx2): x = ((s_0 + s_2) + (s_4 + s_6)) + ((s_1 +
// s_3) + (s_5 + s_7)) for z = (s_0, …, s_7), DotFastGo's order with the
// AVX2 scans' operand order; y and x are z's lower 256 and 128 bits, ty1
// and ty2 256-bit temporaries, tx2 the lower 128 bits of ty2.
#define SUM8(z, y, x, ty1, ty2, tx2) \
	VEXTRACTF64X4 $1, z, ty1; \
	VPERM2F128    $0x20, ty1, y, ty2; \
	VPERM2F128    $0x31, ty1, y, ty1; \
	VADDPD        ty1, ty2, ty2; \
	VEXTRACTF128  $1, ty2, x; \
	VADDPD        x, tx2, tx2; \
	VUNPCKHPD     tx2, tx2, x; \
	VADDSD        x, tx2, x

// The 24 blocks of w held in registers, each of the macros above on block
// q = 0 … 23 in turn (block q in Z(8+q), at byte 64q of the row and of
// w), with done the label after the last block that BX counts.
#define WLOADS(done) \
	WLOAD(0, 0, Z8, done); \
	WLOAD(1, 64, Z9, done); \
	WLOAD(2, 128, Z10, done); \
	WLOAD(3, 192, Z11, done); \
	WLOAD(4, 256, Z12, done); \
	WLOAD(5, 320, Z13, done); \
	WLOAD(6, 384, Z14, done); \
	WLOAD(7, 448, Z15, done); \
	WLOAD(8, 512, Z16, done); \
	WLOAD(9, 576, Z17, done); \
	WLOAD(10, 640, Z18, done); \
	WLOAD(11, 704, Z19, done); \
	WLOAD(12, 768, Z20, done); \
	WLOAD(13, 832, Z21, done); \
	WLOAD(14, 896, Z22, done); \
	WLOAD(15, 960, Z23, done); \
	WLOAD(16, 1024, Z24, done); \
	WLOAD(17, 1088, Z25, done); \
	WLOAD(18, 1152, Z26, done); \
	WLOAD(19, 1216, Z27, done); \
	WLOAD(20, 1280, Z28, done); \
	WLOAD(21, 1344, Z29, done); \
	WLOAD(22, 1408, Z30, done); \
	WLOAD(23, 1472, Z31, done)
#define FBLKS(done) \
	FBLK(1, 0, Z8, Z2, done); \
	FBLK(2, 64, Z9, Z3, done); \
	FBLK(3, 128, Z10, Z4, done); \
	FBLK(4, 192, Z11, Z2, done); \
	FBLK(5, 256, Z12, Z3, done); \
	FBLK(6, 320, Z13, Z4, done); \
	FBLK(7, 384, Z14, Z2, done); \
	FBLK(8, 448, Z15, Z3, done); \
	FBLK(9, 512, Z16, Z4, done); \
	FBLK(10, 576, Z17, Z2, done); \
	FBLK(11, 640, Z18, Z3, done); \
	FBLK(12, 704, Z19, Z4, done); \
	FBLK(13, 768, Z20, Z2, done); \
	FBLK(14, 832, Z21, Z3, done); \
	FBLK(15, 896, Z22, Z4, done); \
	FBLK(16, 960, Z23, Z2, done); \
	FBLK(17, 1024, Z24, Z3, done); \
	FBLK(18, 1088, Z25, Z4, done); \
	FBLK(19, 1152, Z26, Z2, done); \
	FBLK(20, 1216, Z27, Z3, done); \
	FBLK(21, 1280, Z28, Z4, done); \
	FBLK(22, 1344, Z29, Z2, done); \
	FBLK(23, 1408, Z30, Z3, done); \
	FBLK(24, 1472, Z31, Z4, done)
#define CBLKS(done) \
	CBLK(1, 0, Z8, Z2, done); \
	CBLK(2, 64, Z9, Z3, done); \
	CBLK(3, 128, Z10, Z4, done); \
	CBLK(4, 192, Z11, Z2, done); \
	CBLK(5, 256, Z12, Z3, done); \
	CBLK(6, 320, Z13, Z4, done); \
	CBLK(7, 384, Z14, Z2, done); \
	CBLK(8, 448, Z15, Z3, done); \
	CBLK(9, 512, Z16, Z4, done); \
	CBLK(10, 576, Z17, Z2, done); \
	CBLK(11, 640, Z18, Z3, done); \
	CBLK(12, 704, Z19, Z4, done); \
	CBLK(13, 768, Z20, Z2, done); \
	CBLK(14, 832, Z21, Z3, done); \
	CBLK(15, 896, Z22, Z4, done); \
	CBLK(16, 960, Z23, Z2, done); \
	CBLK(17, 1024, Z24, Z3, done); \
	CBLK(18, 1088, Z25, Z4, done); \
	CBLK(19, 1152, Z26, Z2, done); \
	CBLK(20, 1216, Z27, Z3, done); \
	CBLK(21, 1280, Z28, Z4, done); \
	CBLK(22, 1344, Z29, Z2, done); \
	CBLK(23, 1408, Z30, Z3, done); \
	CBLK(24, 1472, Z31, Z4, done)
#define UBLKS(done) \
	UBLK(1, 0, Z8, done); \
	UBLK(2, 64, Z9, done); \
	UBLK(3, 128, Z10, done); \
	UBLK(4, 192, Z11, done); \
	UBLK(5, 256, Z12, done); \
	UBLK(6, 320, Z13, done); \
	UBLK(7, 384, Z14, done); \
	UBLK(8, 448, Z15, done); \
	UBLK(9, 512, Z16, done); \
	UBLK(10, 576, Z17, done); \
	UBLK(11, 640, Z18, done); \
	UBLK(12, 704, Z19, done); \
	UBLK(13, 768, Z20, done); \
	UBLK(14, 832, Z21, done); \
	UBLK(15, 896, Z22, done); \
	UBLK(16, 960, Z23, done); \
	UBLK(17, 1024, Z24, done); \
	UBLK(18, 1088, Z25, done); \
	UBLK(19, 1152, Z26, done); \
	UBLK(20, 1216, Z27, done); \
	UBLK(21, 1280, Z28, done); \
	UBLK(22, 1344, Z29, done); \
	UBLK(23, 1408, Z30, done); \
	UBLK(24, 1472, Z31, done)
#define WSTORES(done) \
	WSTORE(0, 0, Z8, done); \
	WSTORE(1, 64, Z9, done); \
	WSTORE(2, 128, Z10, done); \
	WSTORE(3, 192, Z11, done); \
	WSTORE(4, 256, Z12, done); \
	WSTORE(5, 320, Z13, done); \
	WSTORE(6, 384, Z14, done); \
	WSTORE(7, 448, Z15, done); \
	WSTORE(8, 512, Z16, done); \
	WSTORE(9, 576, Z17, done); \
	WSTORE(10, 640, Z18, done); \
	WSTORE(11, 704, Z19, done); \
	WSTORE(12, 768, Z20, done); \
	WSTORE(13, 832, Z21, done); \
	WSTORE(14, 896, Z22, done); \
	WSTORE(15, 960, Z23, done); \
	WSTORE(16, 1024, Z24, done); \
	WSTORE(17, 1088, Z25, done); \
	WSTORE(18, 1152, Z26, done); \
	WSTORE(19, 1216, Z27, done); \
	WSTORE(20, 1280, Z28, done); \
	WSTORE(21, 1344, Z29, done); \
	WSTORE(22, 1408, Z30, done); \
	WSTORE(23, 1472, Z31, done)

// UPDATEW512(lregs, lmem, ltail, ldone): w ← w + step·x for the row at
// DI (Z5 = step in every lane): the blocks in registers, the blocks in
// memory, then the tail one value at a time (x_j·step there, as in the
// AVX2 scans); then on to ldone. The other arguments are its labels.
#define UPDATEW512(lregs, lmem, ltail, ldone) \
	TESTQ    BX, BX; \
	JZ       lregs; \
	UBLKS(lregs); \
lregs:; \
	MOVQ     BX, AX; \
	SHLQ     $3, AX; \
	CMPQ     AX, DX; \
	JGE      ltail; \
lmem:; \
	VMULPD   (DI)(AX*8), Z5, Z2; \
	VADDPD   (SI)(AX*8), Z2, Z2; \
	VMOVUPD  Z2, (SI)(AX*8); \
	ADDQ     $8, AX; \
	CMPQ     AX, DX; \
	JL       lmem; \
ltail:; \
	CMPQ     AX, CX; \
	JGE      ldone; \
	VMOVSD   (DI)(AX*8), X2; \
	VMULSD   X5, X2, X2; \
	VADDSD   (SI)(AX*8), X2, X2; \
	VMOVSD   X2, (SI)(AX*8); \
	INCQ     AX; \
	JMP      ltail

DATA maxFloat<>+0(SB)/8, $0x7fefffffffffffff // the largest float64
GLOBL maxFloat<>(SB), RODATA|NOPTR, $8
DATA two1020<>+0(SB)/8, $0x7fb0000000000000 // 2^1020
GLOBL two1020<>(SB), RODATA|NOPTR, $8
DATA twoM900<>+0(SB)/8, $0x07b0000000000000 // 2^-900
GLOBL twoM900<>(SB), RODATA|NOPTR, $8

// func scanFast512(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu, pend int) (k, need int, s, bout float64, u, last int)
//
// scanFastAsm with AVX-512 and w in registers (above), without the
// read-ahead but with the pages ahead (PAGESAHEAD; pend is the bytes from
// x to its end): the same rows, updates and bits.
//
// Registers: SI w, DI row i, CX c, DX 8⌊c/8⌋, BX the blocks in registers
// (min(⌊c/8⌋, 24)), R8 the stride in bytes, R9 the last row that asks for
// pages ahead (PAGELIMIT), R10 y, R11 i, R12 the updates, R13 n, R14 the
// page asked for; Z0 the partial sums, X1 0, Z2-Z4 temporaries, Z5 step,
// X7 b, Z8-Z31 w.
TEXT ·scanFast512(SB), NOSPLIT, $0-136
	MOVQ   w+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   c+16(FP), CX
	MOVQ   st+24(FP), R8
	SHLQ   $3, R8 // the stride in bytes
	MOVQ   n+32(FP), R13
	MOVQ   y+40(FP), R10
	VMOVSD b+48(FP), X7
	VXORPD X1, X1, X1
	MOVQ   pend+80(FP), R9
	PAGELIMIT
	MOVQ   CX, DX
	ANDQ   $-8, DX
	MOVQ   DX, BX
	SHRQ   $3, BX
	CMPQ   BX, $24
	JLE    f5nregs
	MOVQ   $24, BX

f5nregs:
	XORQ   R11, R11 // row i
	XORQ   R12, R12 // updates
	MOVQ   $-1, last+128(FP) // no update yet
	WLOADS(f5wdone)

f5wdone:

f5row:
	CMPQ   R11, R13
	JGE    f5none
	PAGESAHEAD(f5pages, f5paged)
	VPXORQ Z0, Z0, Z0
	TESTQ  BX, BX
	JZ     f5sum
	FBLKS(f5regsdone)

f5regsdone:
	MOVQ   BX, AX
	SHLQ   $3, AX
	CMPQ   AX, DX
	JGE    f5sum

	PCALIGN $64

f5mem:
	VMOVUPD (SI)(AX*8), Z2
	VMULPD  (DI)(AX*8), Z2, Z2
	VADDPD  Z2, Z0, Z0
	ADDQ    $8, AX
	CMPQ    AX, DX
	JGE     f5sum
	VMOVUPD (SI)(AX*8), Z3
	VMULPD  (DI)(AX*8), Z3, Z3
	VADDPD  Z3, Z0, Z0
	ADDQ    $8, AX
	CMPQ    AX, DX
	JL      f5mem

f5sum:
	SUM8(Z0, Y0, X0, Y2, Y3, X3)
	MOVQ   DX, AX
	CMPQ   AX, CX
	JGE    f5check

f5tail:
	VMOVSD (DI)(AX*8), X2
	VMULSD (SI)(AX*8), X2, X2
	VADDSD X2, X0, X0
	INCQ   AX
	CMPQ   AX, CX
	JL     f5tail

f5check:
	VADDSD   X7, X0, X0 // s = dot + b
	VMOVSD   (R10)(R11*8), X2
	VMULSD   X0, X2, X2 // t = y·s
	VUCOMISD X1, X2
	JLS      f5notpos // t ≤ 0 or NaN
	VUCOMISD maxFloat<>(SB), X2
	JHI      f5found // t = +Inf

f5next:
	ADDQ R8, DI
	INCQ R11
	JMP  f5row

f5notpos:
	// t ≤ 0 or NaN here: a clear mistake is -MaxFloat64 ≤ t < 0.
	JEQ      f5found // t = ±0 (or NaN: unordered sets ZF)
	VADDSD   maxFloat<>(SB), X2, X3 // t + MaxFloat64 ≥ 0 unless t = -Inf
	VUCOMISD X1, X3
	JCS      f5found // t = -Inf

	// step = eta·y_i; w_j ← w_j + step·x_j (x_j·step in the tail, as
	// the AVX2 scans); b ← b + step.
	VMOVSD   (R10)(R11*8), X5
	VMULSD   eta+56(FP), X5, X5 // step (eta·y, as step computes it)
	VBROADCASTSD X5, Z5
	UPDATEW512(f5upregs, f5upmem, f5uptail, f5upbias)

f5upbias:
	CMPQ   bias+64(FP), $0
	JEQ    f5upcount
	VADDSD X5, X7, X7 // b + step

f5upcount:
	INCQ R12
	MOVQ R11, last+128(FP)
	CMPQ R12, maxu+72(FP)
	JLT  f5next
	INCQ R11
	MOVQ R11, k+88(FP)
	MOVQ $0, need+96(FP)
	JMP  f5ret

f5found:
	MOVQ R11, k+88(FP)
	MOVQ $1, need+96(FP)
	JMP  f5ret

f5none:
	MOVQ R13, k+88(FP)
	MOVQ $0, need+96(FP)

f5ret:
	WSTORES(f5wstored)

f5wstored:
	VMOVSD X0, s+104(FP) // the last score computed (of row k when need = 1)
	VMOVSD X7, bout+112(FP)
	MOVQ   R12, u+120(FP)
	VZEROUPPER
	RET

// func scanCert512(w *float64, x *float64, c, st, n int, y *float64, b, eta float64, bias, maxu int, k float64, pend int) (kk, need int, s, bout float64, u, last int)
//
// scanCertAVX2 with AVX-512 and w in registers (above), without the
// read-ahead but with the pages ahead (PAGESAHEAD; pend is the bytes from
// x to its end): the same rows decided, the same updates, the same bits.
//
// Registers: SI w, DI row i, CX c, DX 8⌊c/8⌋, BX the blocks in registers
// (min(⌊c/8⌋, 24)), R8 the stride in bytes, R9 the last row that asks for
// pages ahead (PAGELIMIT), R10 y, R11 i, R12 the updates, R13 n, R14 the
// page asked for; Z0 the partial sums of s_F, Z1 those of a, Z2-Z4
// temporaries, Z5 step, Z6 the mask of |·|, X7 b, Z8-Z31 w.
TEXT ·scanCert512(SB), NOSPLIT, $0-144
	MOVQ   w+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   c+16(FP), CX
	MOVQ   st+24(FP), R8
	SHLQ   $3, R8 // the stride in bytes
	MOVQ   n+32(FP), R13
	MOVQ   y+40(FP), R10
	VMOVSD b+48(FP), X7
	MOVQ   pend+88(FP), R9
	PAGELIMIT
	MOVQ   $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z6
	MOVQ   CX, DX
	ANDQ   $-8, DX
	MOVQ   DX, BX
	SHRQ   $3, BX
	CMPQ   BX, $24
	JLE    c5nregs
	MOVQ   $24, BX

c5nregs:
	XORQ   R11, R11 // row i
	XORQ   R12, R12 // updates
	MOVQ   $-1, last+136(FP) // no update yet
	WLOADS(c5wdone)

c5wdone:

c5row:
	CMPQ   R11, R13
	JGE    c5none
	PAGESAHEAD(c5pages, c5paged)
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	TESTQ  BX, BX
	JZ     c5sum
	CBLKS(c5regsdone)

c5regsdone:
	MOVQ   BX, AX
	SHLQ   $3, AX
	CMPQ   AX, DX
	JGE    c5sum

	PCALIGN $64

c5mem:
	VMOVUPD (SI)(AX*8), Z2
	VMULPD  (DI)(AX*8), Z2, Z2
	VADDPD  Z2, Z0, Z0
	VPANDQ  Z6, Z2, Z2
	VADDPD  Z2, Z1, Z1
	ADDQ    $8, AX
	CMPQ    AX, DX
	JGE     c5sum
	VMOVUPD (SI)(AX*8), Z3
	VMULPD  (DI)(AX*8), Z3, Z3
	VADDPD  Z3, Z0, Z0
	VPANDQ  Z6, Z3, Z3
	VADDPD  Z3, Z1, Z1
	ADDQ    $8, AX
	CMPQ    AX, DX
	JL      c5mem

c5sum:
	SUM8(Z0, Y0, X0, Y2, Y3, X3)
	SUM8(Z1, Y1, X1, Y2, Y3, X3)
	MOVQ   DX, AX
	CMPQ   AX, CX
	JGE    c5check

c5tail:
	VMOVSD (DI)(AX*8), X2
	VMULSD (SI)(AX*8), X2, X2
	VADDSD X2, X0, X0
	VANDPD X6, X2, X2
	VADDSD X2, X1, X1
	INCQ   AX
	CMPQ   AX, CX
	JL     c5tail

c5check:
	VADDSD   X7, X0, X0 // s_F = dot + b
	VANDPD   X6, X7, X2
	VADDSD   X2, X1, X1 // a = Σ|p_j| + |b|
	VUCOMISD two1020<>(SB), X1
	JPS      c5found // a is NaN
	JHI      c5found // a > 2^1020
	VADDSD   twoM900<>(SB), X1, X1
	VMULSD   k+80(FP), X1, X1 // T = k·(a + 2^-900)
	VANDPD   X6, X0, X2 // |s_F|
	VUCOMISD X1, X2
	JLS      c5found // |s_F| ≤ T, or NaN
	VMOVSD   (R10)(R11*8), X2
	VMULSD   X0, X2, X2 // t = y·s_F, not 0
	VXORPD   X3, X3, X3
	VUCOMISD X3, X2
	JLS      c5update // t < 0: a mistake under every tie policy

c5next:
	ADDQ R8, DI
	INCQ R11
	JMP  c5row

c5update:
	// step = eta·y_i; w_j ← w_j + step·x_j (x_j·step in the tail, as
	// the AVX2 scans); b ← b + step.
	VMOVSD   (R10)(R11*8), X5
	VMULSD   eta+56(FP), X5, X5 // step (eta·y, as step computes it)
	VBROADCASTSD X5, Z5
	UPDATEW512(c5upregs, c5upmem, c5uptail, c5upbias)

c5upbias:
	CMPQ   bias+64(FP), $0
	JEQ    c5upcount
	VADDSD X5, X7, X7 // b + step

c5upcount:
	INCQ R12
	MOVQ R11, last+136(FP)
	CMPQ R12, maxu+72(FP)
	JLT  c5next
	INCQ R11
	MOVQ R11, kk+96(FP)
	MOVQ $0, need+104(FP)
	JMP  c5ret

c5found:
	MOVQ R11, kk+96(FP)
	MOVQ $1, need+104(FP)
	JMP  c5ret

c5none:
	MOVQ R13, kk+96(FP)
	MOVQ $0, need+104(FP)

c5ret:
	WSTORES(c5wstored)

c5wstored:
	VMOVSD X0, s+112(FP) // the last score computed (of row k when need = 1)
	VMOVSD X7, bout+120(FP)
	MOVQ   R12, u+128(FP)
	VZEROUPPER
	RET

DATA absBits<>+0(SB)/8, $0x7fffffffffffffff // every bit but the sign
GLOBL absBits<>(SB), RODATA|NOPTR, $8
DATA oneBits<>+0(SB)/8, $0x3ff0000000000000 // 1.0
GLOBL oneBits<>(SB), RODATA|NOPTR, $8

// func unitPrefixAVX2(y *float64, n int) int
//
// The length of the longest prefix of y made of whole blocks of sixteen
// labels that are all -1 or +1: 16q for the first block q that holds
// another value, else 16⌊n/16⌋. A label is -1 or +1 when its bits without
// the sign are those of 1.0 (no NaN, ±0 or ±Inf is).
TEXT ·unitPrefixAVX2(SB), NOSPLIT, $0-24
	MOVQ         y+0(FP), SI
	MOVQ         n+8(FP), CX
	ANDQ         $-16, CX
	XORQ         AX, AX
	VBROADCASTSD absBits<>(SB), Y6
	VBROADCASTSD oneBits<>(SB), Y7

u2loop:
	CMPQ      AX, CX
	JGE       u2done
	VANDPD    (SI)(AX*8), Y6, Y0
	VANDPD    32(SI)(AX*8), Y6, Y1
	VANDPD    64(SI)(AX*8), Y6, Y2
	VANDPD    96(SI)(AX*8), Y6, Y3
	VPCMPEQQ  Y7, Y0, Y0 // all ones where |y_i| has the bits of 1.0
	VPCMPEQQ  Y7, Y1, Y1
	VPCMPEQQ  Y7, Y2, Y2
	VPCMPEQQ  Y7, Y3, Y3
	VPAND     Y1, Y0, Y0
	VPAND     Y3, Y2, Y2
	VPAND     Y2, Y0, Y0
	VMOVMSKPD Y0, DX
	CMPQ      DX, $15
	JNE       u2done // a label in this block is neither -1 nor +1
	ADDQ      $16, AX
	JMP       u2loop

u2done:
	MOVQ AX, ret+16(FP)
	VZEROUPPER
	RET
