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

// cosSin2Pi returns cos and sin of the angle 2πk/m, for 0 <= k < m, with
// the same bits on every platform, for Circles. math.Cos and math.Sin are
// Go code whose multiply-adds the compiler fuses into FMAs with
// GOAMD64=v3, which changes their last bits (and the data Circles draws)
// from one build to the next. The angle is reduced in integers, exactly:
// 4k = qm + r puts it in quadrant q at (π/2)(r/m) past its start, and
// past the quadrant's middle (2r > m) the complement (π/2)((m−r)/m) swaps
// cos and sin; the angle θ ≤ π/4 left gets the Taylor polynomials of
// cos and sin to degrees 20 and 21 (remainders below 2^-60), by Horner's
// rule with every product rounded (no FMA). The answers are within a few
// ulps of cos and sin of the exact angle 2πk/m, and +0 (never −0) where
// they are 0.
func cosSin2Pi(k, m int) (c, s float64) {
	q, r := (4*k)/m, (4*k)%m
	swap := 2*r > m
	if swap {
		r = m - r
	}
	theta := float64(math.Pi/2*float64(r)) / float64(m)
	t2 := float64(theta * theta)
	pc, ps := 1.0, 1.0
	for i := 10; i >= 1; i-- {
		pc = 1 - float64(float64(t2*pc)/float64((2*i-1)*(2*i)))
		ps = 1 - float64(float64(t2*ps)/float64((2*i)*(2*i+1)))
	}
	c, s = pc, float64(theta*ps)
	if swap {
		c, s = s, c
	}
	switch q % 4 {
	case 1:
		c, s = 0-s, c
	case 2:
		c, s = 0-c, 0-s
	case 3:
		c, s = s, 0-c
	}
	return c, s
}
