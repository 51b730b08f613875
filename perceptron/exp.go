package perceptron

import "math"

// exp returns e^x with the same bits on every platform, for the RBF
// kernel. math.Exp is assembly on amd64 and arm64 and Go elsewhere, and
// its last bit differs between them (GOARCH=386 against amd64, say); a
// kernel model must score alike wherever it runs. exp is within about an
// ulp of e^x: x = k ln 2 + r with |r| ≤ ln(2)/2, e^r by its Taylor
// polynomial of degree 13 (the remainder is below 2^-56 relative), summed
// by Horner's rule with every product rounded (the float64 conversions
// forbid fused multiply-adds), and e^x = 2^k e^r exactly.
func exp(x float64) float64 {
	switch {
	case math.IsNaN(x) || x > 709.782712893384:
		return x * math.Inf(1) // NaN, or +Inf: overflow
	case x < -745.1332191019412:
		return 0 // below half the smallest subnormal
	}
	const (
		log2e = 1.4426950408889634
		// ln 2 = ln2Hi + ln2Lo, with ln2Hi short enough (its low 32 bits
		// zero) that k·ln2Hi is exact for every |k| ≤ 1075.
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
	)
	k := math.Floor(float64(x*log2e) + 0.5)
	r := float64(x-float64(k*ln2Hi)) - float64(k*ln2Lo)
	// Horner: 1 + r(1 + r/2(1 + r/3(… (1 + r/13)))), each factor rounded.
	p := 1.0
	for i := 13; i >= 1; i-- {
		p = 1 + float64(float64(p*r)/float64(i))
	}
	return math.Ldexp(p, int(k))
}
