package perceptron

import (
	"math"
	"math/rand/v2"
)

// The normal and exponential draws of the data generators, with the same
// bits on every build. math/rand/v2's NormFloat64 and ExpFloat64 are the
// ziggurat method of Marsaglia and Tsang ("The Ziggurat Method for
// Generating Random Variables", J. Stat. Softw. 5(8), 2000), but compiled
// with GOAMD64=v3 (or on arm64) their multiply-adds fuse into FMAs, which
// changes about one draw in 1,700 in its last bits (and a rejected draw
// into an accepted one): the points of Circles and CreditApplicants moved
// from build to build. normFloat64 and expFloat64 make the same draws
// from the generator's output as those methods (so that on a build that
// fuses nothing, GOAMD64=v1 or GOARCH=386, they are the same numbers,
// which TestZigguratMatchesMathRand checks), with every rounding written
// out so that no build fuses, and e^x and ln x from exp and ln, the same
// on every platform (math.Log is Go code that fuses on arm64).

// zigNormR and zigNormV are the normal ziggurat's r (where its tail
// starts) and v (the area of each of its 128 strips), zigExpR and zigExpV
// the exponential one's (256 strips), as the paper gives them. The
// exponential tail starts at zigExpTail, math/rand/v2's r, which differs
// from the paper's in its 13th digit (the tables use the paper's).
const (
	zigNormR   = 3.442619855899
	zigNormV   = 9.91256303526217e-3
	zigExpR    = 7.697117470131487
	zigExpV    = 3.949659822581572e-3
	zigExpTail = 7.69711747013104972
)

// zigNorm and zigExp are the two ziggurats' tables: k[i] the integer
// below which a draw in strip i is inside the next strip (accepted at
// once), w[i] the strip's x per unit of the integer draw, f[i] the
// density at the strip's right edge; computed as the paper's zigset does,
// which gives math/rand/v2's tables, bit for bit.
var zigNorm, zigExp = zigNormTables(), zigExpTables()

type (
	zigNormTable struct {
		k    [128]uint32
		w, f [128]float32
	}
	zigExpTable struct {
		k    [256]uint32
		w, f [256]float32
	}
)

// zigNormTables returns the normal ziggurat's tables (the paper's zigset,
// with m1 = 2^31).
func zigNormTables() (t zigNormTable) {
	const m1 = 1 << 31
	dn, tn := zigNormR, zigNormR
	q := zigNormV / exp(-0.5*dn*dn)
	t.k[0], t.k[1] = uint32(dn/q*m1), 0
	t.w[0], t.w[127] = float32(q/m1), float32(dn/m1)
	t.f[0], t.f[127] = 1, float32(exp(-0.5*dn*dn))
	for i := 126; i >= 1; i-- {
		dn = math.Sqrt(-2 * ln(zigNormV/dn+exp(-0.5*dn*dn)))
		t.k[i+1] = uint32(dn / tn * m1)
		tn = dn
		t.f[i] = float32(exp(-0.5 * dn * dn))
		t.w[i] = float32(dn / m1)
	}
	return t
}

// zigExpTables returns the exponential ziggurat's tables (the paper's
// zigset, with m2 = 2^32).
func zigExpTables() (t zigExpTable) {
	const m2 = 1 << 32
	de, te := zigExpR, zigExpR
	q := zigExpV / exp(-de)
	t.k[0], t.k[1] = uint32(de/q*m2), 0
	t.w[0], t.w[255] = float32(q/m2), float32(de/m2)
	t.f[0], t.f[255] = 1, float32(exp(-de))
	for i := 254; i >= 1; i-- {
		de = -ln(zigExpV/de + exp(-de))
		t.k[i+1] = uint32(de / te * m2)
		te = de
		t.f[i] = float32(exp(-de))
		t.w[i] = float32(de / m2)
	}
	return t
}

// wedge reports whether a draw at x in the strip between densities f1
// (its right edge) and f0 (its left) lies under the density d(x): the
// uniform point f1 + u(f0 − f1), every operation rounded to float32 (no
// fused multiply-add), below d(x) rounded to float32.
func wedge(f0, f1 float32, u, d float64) bool {
	return float32(f1+float32(float32(u)*float32(f0-f1))) < float32(d)
}

// normFloat64 is a standard normal draw from r: math/rand/v2's
// NormFloat64, the same draws, with the same bits on every build.
func normFloat64(r *rand.Rand) float64 {
	t := &zigNorm
	for {
		u := r.Uint64()
		j := int32(u) // a signed draw: its sign is the sign of x
		i := u >> 32 & 0x7f
		x := float64(float64(j) * float64(t.w[i]))
		aj := uint32(j)
		if j < 0 {
			aj = uint32(-j)
		}
		if aj < t.k[i] {
			return x
		}
		if i == 0 {
			// The tail beyond r, by Marsaglia's method: x = −ln(u1)/r,
			// y = −ln(u2), kept when 2y ≥ x².
			for {
				x = float64(-ln(r.Float64()) * (1 / zigNormR))
				y := -ln(r.Float64())
				if float64(y+y) >= float64(x*x) {
					break
				}
			}
			if j > 0 {
				return zigNormR + x
			}
			return -zigNormR - x
		}
		if wedge(t.f[i-1], t.f[i], r.Float64(), exp(float64(-0.5*x)*x)) {
			return x
		}
	}
}

// expFloat64 is a draw of the exponential distribution of rate 1 from r:
// math/rand/v2's ExpFloat64, the same draws, with the same bits on every
// build.
func expFloat64(r *rand.Rand) float64 {
	t := &zigExp
	for {
		u := r.Uint64()
		j := uint32(u)
		i := uint8(u >> 32)
		x := float64(float64(j) * float64(t.w[i]))
		if j < t.k[i] {
			return x
		}
		if i == 0 {
			return zigExpTail - ln(r.Float64()) // the tail beyond r
		}
		if wedge(t.f[i-1], t.f[i], r.Float64(), exp(-x)) {
			return x
		}
	}
}
