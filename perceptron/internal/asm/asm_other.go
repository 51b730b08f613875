//go:build !amd64 || noasm || gccgo || safe

package asm

// Without the amd64 assembly the kernels are the Go loops of asm.go.

// hasAVX2 is false: there is no assembly here.
var hasAVX2 = false

// hasAVX512 is false: there is no assembly here.
var hasAVX512 = false

// Dot8Exact is Dot8ExactGo (pf, where the assembly prefetches, is unused).
func Dot8Exact(w, x []float64, o *[8]int, pf int, out *[8]float64) { Dot8ExactGo(w, x, o, out) }

// Axpy is AxpyGo.
func Axpy(a float64, x, w []float64) { AxpyGo(a, x, w) }

// DotFast is DotFastGo.
func DotFast(w, x []float64) float64 { return DotFastGo(w, x) }

// ScanFast is ScanFastGo.
func ScanFast(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	return ScanFastGo(w, x, c, st, y, b, eta, bias, maxu)
}

// ReadSum is ReadSumGo.
func ReadSum(x []float64) float64 { return ReadSumGo(x) }

// ScanExact is ScanExactGo.
func ScanExact(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu, lim int, pf bool) (k int, need bool, s, bout float64, u, last int) {
	return ScanExactGo(w, x, c, st, y, b, eta, bias, maxu, lim, pf)
}

// ReadAhead is ReadSumGo.
func ReadAhead(x []float64) float64 { return ReadSumGo(x) }

// ReadStreams is ReadStreamsGo.
func ReadStreams(x []float64) float64 { return ReadStreamsGo(x) }

// CertScans is false: without the assembly ScanExact's blocks of eight
// rows are the faster exact scan.
func CertScans() bool { return false }

// ScanKernels names the scans' kernels: the Go loops.
func ScanKernels() string { return "Go (no assembly)" }

// ScanCert is ScanCertGo.
func ScanCert(w, x []float64, c, st int, y []float64, b, eta float64, bias bool, maxu int) (k int, need bool, s, bout float64, u, last int) {
	return ScanCertGo(w, x, c, st, y, b, eta, bias, maxu)
}

// FirstNonUnit is FirstNonUnitGo.
func FirstNonUnit(y []float64) int { return FirstNonUnitGo(y) }

// ReadPages is ReadSumGo.
func ReadPages(x []float64) float64 { return ReadSumGo(x) }
