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

// ln returns the natural logarithm of x, for the ziggurats' tails and
// tables: the bits that math.Log gives on amd64 (its assembly) and 386,
// on every platform. math.Log is Go code elsewhere, and on arm64 (and
// ppc64, riscv64, s390x) the compiler fuses its multiply-adds, which
// changes about one answer in 170 in its last bit. ln is the same
// computation as that assembly, fdlibm's e_log.c, with every product
// rounded: x = 2^k (1 + f) with √2/2 ≤ 1 + f < √2, s = f/(2 + f),
// ln(1 + f) = 2 atanh(s) = f − s(f − R) with R a minimax polynomial in s²
// (fdlibm's coefficients L1..L7), and ln x = k ln 2 + ln(1 + f) with
// ln 2 = ln2Hi + ln2Lo. 0 gives −Inf, +Inf itself, a negative x or NaN
// NaN. On a subnormal x (which the generators never pass: their draws are
// 0 or at least 2^-53) it is right where the assembly, which reads the
// exponent bits as they are, is not.
func ln(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// hypot returns √(p² + q²) as math.Hypot computes it on amd64 (its
// assembly: max · √(1 + (min/max)²)), on every platform: math.Hypot is Go
// code elsewhere, whose 1 + q·q the compiler fuses on arm64.
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	switch {
	case math.IsInf(p, 1) || math.IsInf(q, 1):
		return math.Inf(1)
	case math.IsNaN(p) || math.IsNaN(q):
		return math.NaN()
	}
	if p < q {
		p, q = q, p
	}
	if p == 0 {
		return 0
	}
	q /= p
	return p * math.Sqrt(1+float64(q*q))
}
