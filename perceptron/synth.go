package perceptron

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Second PCG words of the generators, so that their streams differ.
const (
	separableStream = 0x5e9a7ab1e
	noiseStream     = 0xf11b5
	lfdStream       = 0x1fd
	creditStream    = 0xc7ed17
	circlesStream   = 0xc1c1e5
)

// synthRand returns the generator of a seeded stream.
func synthRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// uniformPM1 returns a uniform value of [−1, 1) from rng: (2k − 2^53)/2^53
// for k the low 53 bits of one Uint64, the value 2·rng.Float64() − 1 that
// the generators drew before, bit for bit. Integer arithmetic and one exact
// product leave a compiler nothing to fuse: on arm64 (and GOAMD64=v3) the
// float expression compiled to a fused multiply-add (exact here, so the
// same value, but an FMA that TestNoFusedMultiplyAdd would have to excuse).
func uniformPM1(rng *rand.Rand) float64 {
	k := int64(rng.Uint64() << 11 >> 11)
	return float64(2*k-1<<53) * 0x1p-53
}

// uniformHalf returns a uniform value of [−0.5, 0.5) from rng: (k −
// 2^52)/2^53, the value rng.Float64() − 0.5 drawn before, bit for bit, as
// uniformPM1 does.
func uniformHalf(rng *rand.Rand) float64 {
	k := int64(rng.Uint64() << 11 >> 11)
	return float64(k-1<<52) * 0x1p-53
}

// MaxGeneratedValues is the most float64 values (n·d, 8 bytes each: 2 GiB)
// that a data generator (SeparableData, NoisyData, LFDData, CreditApplicants,
// Circles), LFDExperiment (n·2 and runs) or NewOnline (d) allocates: a larger
// request is an ErrOption error, where it was a fatal "out of memory" that
// ended the program (a notebook's kernel) with no error to catch.
const MaxGeneratedValues = 1 << 28

// checkGenerated refuses n rows of d values beyond MaxGeneratedValues.
func checkGenerated(what string, n, d int) error {
	if n > MaxGeneratedValues/d {
		return kindErrorf(ErrOption, "%s: %d × %d values is more than MaxGeneratedValues (%d, 2 GiB)", what, n, d, MaxGeneratedValues)
	}
	return nil
}

// SeparableData draws n points of d features that a hidden target
// hyperplane separates with margin at least margin. The target (w*, b*) has
// ||w*|| = 1 (w* is a normalised Gaussian vector) and its boundary passes
// through a point p drawn uniformly from [-1/2, 1/2]^d, b* = -w*·p, so it
// crosses the cube [-1, 1]^d. The points are drawn uniformly from
// [-1, 1]^d, those with |w*·x + b*| < margin (or = 0) are rejected, and
// y = synthSign(w*·x + b*): every point is at distance at least margin from the
// boundary, on its own side. If the n points miss a class, or the target
// leaves too little room beside the band, a new target is drawn, so that
// both classes are always present. The same seed gives the same data.
//
// It is an error for n to be below 2, d below 1, margin negative or not
// finite, or so large that the sampling fails (margin ≥ 2√d always does).
func SeparableData(n, d int, margin float64, seed uint64) (*Dataset, Hyperplane, error) {
	if n < 2 {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "separable data: need n >= 2 points, got %d", n)
	}
	if d < 1 {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "separable data: need d >= 1 features, got %d", d)
	}
	if err := checkGenerated("separable data", n, d); err != nil {
		return nil, Hyperplane{}, err
	}
	if !(margin >= 0) || math.IsInf(margin, 0) {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "separable data: margin must be a finite number >= 0, got %v", margin)
	}
	tooLarge := kindErrorf(ErrOption, "separable data: margin %v too large: could not draw %d points of [-1,1]^%d at distance >= %v from a boundary, on both sides", margin, n, d, margin)
	if margin >= 2*math.Sqrt(float64(d)) {
		return nil, Hyperplane{}, tooLarge
	}
	rng := synthRand(seed, separableStream)
	const targets = 20
	budget := 100*int64(n) + 10000 // int64: 100·n passes 2^31 on 386 from n = 21,474,737
	for range targets {
		h := randomTarget(rng, d)
		x := make([]float64, 0, n*d)
		y := make([]float64, 0, n)
		pt := make([]float64, d)
		pos := 0
		for draws := int64(0); len(y) < n && draws < budget; draws++ {
			// A side still empty after many draws has no room: next target.
			if draws >= 20*int64(n)+2000 && (pos == 0 || pos == len(y)) {
				break
			}
			for j := range pt {
				pt[j] = uniformPM1(rng)
			}
			s := dot(h.W, pt) + h.B
			if math.Abs(s) < margin || s == 0 {
				continue
			}
			x = append(x, pt...)
			y = append(y, synthSign(s))
			if s > 0 {
				pos++
			}
		}
		if len(y) == n && hasBothClasses(y) {
			return &Dataset{X: mat.NewDense(n, d, x), Y: y, Features: synthFeatureNames(d),
				Classes: [2]string{"-1", "+1"}}, h, nil
		}
	}
	return nil, Hyperplane{}, tooLarge
}

// randomTarget draws w uniformly on the unit sphere and b = -w·p for p
// uniform in [-1/2, 1/2]^d.
func randomTarget(rng *rand.Rand, d int) Hyperplane {
	w := make([]float64, d)
	for {
		var norm float64
		for j := range w {
			w[j] = normFloat64(rng)
			norm += float64(w[j] * w[j])
		}
		if norm > 1e-12 {
			norm = math.Sqrt(norm)
			for j := range w {
				w[j] /= norm
			}
			break
		}
	}
	p := make([]float64, d)
	for j := range p {
		p[j] = uniformHalf(rng)
	}
	return Hyperplane{W: w, B: -dot(w, p)}
}

// synthSign returns +1 for s > 0 and -1 otherwise.
func synthSign(s float64) float64 {
	if s > 0 {
		return 1
	}
	return -1
}

// hasBothClasses reports whether y holds both -1 and +1.
func hasBothClasses(y []float64) bool {
	var neg, pos bool
	for _, v := range y {
		neg = neg || v < 0
		pos = pos || v > 0
	}
	return neg && pos
}

// synthFeatureNames returns x1, …, xd.
func synthFeatureNames(d int) []string {
	names := make([]string, d)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	return names
}

// flipExactly flips exactly k = round(flip·n) labels of y, a random subset
// drawn from rng, redrawing the subset (at most 100 times) until both
// classes remain.
func flipExactly(y []float64, flip float64, rng *rand.Rand, what string) error {
	if !(flip >= 0 && flip < 0.5) {
		return kindErrorf(ErrOption, "%s: the fraction of flipped labels must be in [0, 0.5), got %v", what, flip)
	}
	n := len(y)
	k := int(math.Round(flip * float64(n)))
	if k == 0 {
		return nil
	}
	orig := append([]float64(nil), y...)
	for range 100 {
		copy(y, orig)
		for _, i := range rng.Perm(n)[:k] {
			y[i] = -y[i]
		}
		if hasBothClasses(y) {
			return nil
		}
	}
	copy(y, orig)
	return kindErrorf(ErrOption, "%s: flipping %d of %d labels always leaves one class; use more points or less noise", what, k, n)
}

// NoisyData returns the data of SeparableData(n, d, margin, seed) with
// exactly round(flip·n) labels flipped, the rows chosen at random from seed
// (a subset that would leave one class is redrawn), and the target: the
// flipped points are the target's mistakes, so for flip > 0 the data is
// usually no longer linearly separable. flip must lie in [0, 0.5).
func NoisyData(n, d int, margin, flip float64, seed uint64) (*Dataset, Hyperplane, error) {
	if !(flip >= 0 && flip < 0.5) {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "noisy data: the fraction of flipped labels must be in [0, 0.5), got %v", flip)
	}
	data, h, err := SeparableData(n, d, margin, seed)
	if err != nil {
		return nil, Hyperplane{}, err
	}
	if err := flipExactly(data.Y, flip, synthRand(seed, noiseStream), "noisy data"); err != nil {
		return nil, Hyperplane{}, err
	}
	return data, h, nil
}

// LFDData draws the experiment of Learning From Data (exercise 1.4 and
// problem 1.7) as the book does: a target line f through two points drawn
// uniformly from [-1, 1]², and n points drawn uniformly from [-1, 1]²
// labelled by f, nothing redrawn. It returns the data and f, with w the unit
// normal of the line (so the score is the signed distance) and b = -w·a for
// a point a of the line. The n points may all fall on one side of f (a line
// near a corner; for n = 10 about 1 sample in 11, 37 of seeds 0..399): that
// sample holds one class, which the learners of this package train (PLA
// converges on it) and the theory functions (Separable, Bound) refuse with
// ErrOneClass. LFDDataBothClasses conditions on both classes instead. It is
// an error for n to be below 2.
func LFDData(n int, seed uint64) (*Dataset, Hyperplane, error) {
	return lfdData(n, seed, false)
}

// LFDDataBothClasses is LFDData conditioned on both classes: when the n
// points miss one, all n are redrawn (after 100 failures, for a line that
// barely touches the square, the target too). Its first draw is LFDData's,
// so the two agree on every seed whose first sample holds both classes.
// This conditioning is not in the book: it changes the distribution of the
// targets slightly (lines near a corner are drawn less often).
func LFDDataBothClasses(n int, seed uint64) (*Dataset, Hyperplane, error) {
	return lfdData(n, seed, true)
}

func lfdData(n int, seed uint64, both bool) (*Dataset, Hyperplane, error) {
	if n < 2 {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "LFD data: need n >= 2 points, got %d", n)
	}
	if err := checkGenerated("LFD data", n, 2); err != nil {
		return nil, Hyperplane{}, err
	}
	rng := synthRand(seed, lfdStream)
	uniform := func() float64 { return uniformPM1(rng) }
	x := make([]float64, 2*n)
	y := make([]float64, n)
	for {
		a := [2]float64{uniform(), uniform()}
		c := [2]float64{uniform(), uniform()}
		w := []float64{a[1] - c[1], c[0] - a[0]}
		norm := hypot(w[0], w[1])
		if norm < 1e-12 {
			continue
		}
		w[0] /= norm
		w[1] /= norm
		h := Hyperplane{W: w, B: -(float64(w[0]*a[0]) + float64(w[1]*a[1]))} // no FMA
		for range 100 {
			for i := range n {
				for {
					x[2*i], x[2*i+1] = uniform(), uniform()
					if s := dot(h.W, x[2*i:2*i+2]) + h.B; s != 0 {
						y[i] = synthSign(s)
						break
					}
				}
			}
			if !both || hasBothClasses(y) {
				return &Dataset{X: mat.NewDense(n, 2, x), Y: y, Features: []string{"x1", "x2"},
					Classes: [2]string{"-1", "+1"}}, h, nil
			}
		}
	}
}

// hPoint is a point of the plane in homogeneous integer coordinates
// (X, Y, Z), Z > 0: the point (X/Z, Y/Z). Clipping in these needs no
// division and no GCD, and is exact.
type hPoint [3]*big.Int

// lineValue returns a·X + b·Y + c·Z for l = (a, b, c), of the sign of the
// line's value at p.
func lineValue(l []*big.Int, p hPoint) *big.Int {
	v := new(big.Int)
	t := new(big.Int)
	for k := range l {
		v.Add(v, t.Mul(l[k], p[k]))
	}
	return v
}

// clipHalfPlane returns the part of the convex polygon p where s times
// the line's value is ≥ 0 (Sutherland–Hodgman for one edge), exactly: the
// crossing of an edge PQ is L(P)·Q − L(Q)·P, on the line, with its sign
// made Z > 0.
func clipHalfPlane(p []hPoint, l []*big.Int, s int) []hPoint {
	vals := make([]*big.Int, len(p))
	for i, q := range p {
		vals[i] = lineValue(l, q)
		if s < 0 {
			vals[i].Neg(vals[i])
		}
	}
	var out []hPoint
	for i, cur := range p {
		j := (i + 1) % len(p)
		next, vc, vn := p[j], vals[i], vals[j]
		if vc.Sign() >= 0 {
			out = append(out, cur)
		}
		if (vc.Sign() >= 0) != (vn.Sign() >= 0) {
			var q hPoint
			t := new(big.Int)
			for k := range q {
				q[k] = new(big.Int).Mul(vc, next[k])
				q[k].Sub(q[k], t.Mul(vn, cur[k]))
			}
			if q[2].Sign() < 0 {
				for k := range q {
					q[k].Neg(q[k])
				}
			}
			out = append(out, q)
		}
	}
	return out
}

// polygonArea returns the area of a simple polygon by the shoelace
// formula, exactly: Σ (X_i Y_j − X_j Y_i)/(Z_i Z_j) over its edges, halved.
func polygonArea(p []hPoint) *big.Rat {
	// N/D summed without reducing (no GCD until the end).
	n, d := new(big.Int), big.NewInt(1)
	num, den, t := new(big.Int), new(big.Int), new(big.Int)
	for i, cur := range p {
		next := p[(i+1)%len(p)]
		num.Mul(cur[0], next[1])
		num.Sub(num, t.Mul(next[0], cur[1]))
		den.Mul(cur[2], next[2])
		n.Mul(n, den)
		n.Add(n, t.Mul(num, d))
		d.Mul(d, den)
	}
	return new(big.Rat).SetFrac(n.Abs(n), d.Lsh(d, 1)) // halved
}

// Disagreement returns P[synthSign(f(x)) ≠ synthSign(g(x))] for x uniform on the
// square [-1, 1]², exactly (the exact probability rounded to the nearest
// float64): the area of the two regions {f > 0, g < 0} and {f < 0, g > 0},
// found by clipping the square with the half-planes of f and g
// (Sutherland–Hodgman) in exact integer arithmetic (math/big, homogeneous
// coordinates), divided by 4.
// It is the out-of-sample error of g for the target f in Learning From
// Data's experiments. f and g must be 2-D, finite and not w = 0 with b =
// 0 (whose sign is 0 everywhere); the boundaries themselves have
// probability 0.
func Disagreement(f, g Hyperplane) (float64, error) {
	for _, h := range []struct {
		name string
		h    Hyperplane
	}{{"f", f}, {"g", g}} {
		if h.h.Dim() != 2 {
			return 0, kindErrorf(ErrDimension, "disagreement: %s has %d features, want 2", h.name, h.h.Dim())
		}
		for _, v := range h.h.Theta() {
			if !isFinite(v) {
				return 0, kindErrorf(ErrNonFinite, "disagreement: %s has a non-finite weight %v", h.name, v)
			}
		}
		if h.h.W[0] == 0 && h.h.W[1] == 0 && h.h.B == 0 {
			return 0, kindErrorf(ErrOption, "disagreement: %s is zero (w = 0, b = 0): its sign is 0 everywhere", h.name)
		}
	}
	// Exact arithmetic: rounding once made the area of f against itself
	// 6.9e-17, and tiny areas several times their size; floats of 1e308
	// overflowed and subnormal ones lost their bits.
	one := func(x, y int64) hPoint { return hPoint{big.NewInt(x), big.NewInt(y), big.NewInt(1)} }
	square := []hPoint{one(-1, -1), one(1, -1), one(1, 1), one(-1, 1)}
	// Integer multiples of (w0, w1, b): the same half-planes.
	fl := integerMultiple([]float64{f.W[0], f.W[1], f.B})
	gl := integerMultiple([]float64{g.W[0], g.W[1], g.B})
	area := new(big.Rat)
	for _, s := range []int{1, -1} {
		p := clipHalfPlane(square, fl, s)
		if len(p) > 0 {
			p = clipHalfPlane(p, gl, -s)
		}
		if len(p) >= 3 {
			area.Add(area, polygonArea(p))
		}
	}
	prob, _ := area.Quo(area, big.NewRat(4, 1)).Float64()
	return min(prob, 1), nil
}

// CreditApplicants draws n applicants for a credit card, the running
// example of Learning From Data, chapter 1. The features are
//
//	age (years)     an integer uniform in 18..75
//	salary (k$)     annual salary in thousands of dollars, log-normal with
//	                median 45 (σ = 0.5 on the log scale), 0.1 precision
//	years in job    years in the current job, exponential with mean 6 but
//	                at most age − 18, 0.1 precision
//	debt (k$)       current debt in thousands of dollars, log-normal with
//	                median 10 (σ = 1 on the log scale), 0.1 precision
//
// and the bank's secret score, the hidden rule returned, is
//
//	0.02·age + 0.05·salary + 0.1·years − 0.1·debt − 2.5
//
// (W = [0.02, 0.05, 0.1, -0.1], B = -2.5): a positive score approves (+1),
// a negative one denies (-1); an applicant whose score is exactly 0 is
// redrawn. About half the applicants are approved. Exactly round(noise·n)
// decisions, chosen at random, are then flipped (the bank's officers do not
// follow the rule exactly); noise must be in [0, 0.5). Features and Classes
// ({"denied", "approved"}) are named. Applicants are redrawn until both
// decisions occur. It is an error for n to be below 2.
func CreditApplicants(n int, noise float64, seed uint64) (*Dataset, Hyperplane, error) {
	if n < 2 {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "credit applicants: need n >= 2 applicants, got %d", n)
	}
	if err := checkGenerated("credit applicants", n, 4); err != nil {
		return nil, Hyperplane{}, err
	}
	if !(noise >= 0 && noise < 0.5) {
		return nil, Hyperplane{}, kindErrorf(ErrOption, "credit applicants: the fraction of flipped labels must be in [0, 0.5), got %v", noise)
	}
	rule := Hyperplane{W: []float64{0.02, 0.05, 0.1, -0.1}, B: -2.5}
	rng := synthRand(seed, creditStream)
	round1 := func(v float64) float64 { return math.Round(v*10) / 10 }
	x := make([]float64, 4*n)
	y := make([]float64, n)
	for {
		for i := range n {
			row := x[4*i : 4*i+4]
			for {
				age := float64(18 + rng.IntN(58))
				// exp, not math.Exp: the same bits on every platform.
				salary := round1(45 * exp(0.5*normFloat64(rng)))
				years := min(round1(6*expFloat64(rng)), age-18)
				debt := round1(10 * exp(normFloat64(rng)))
				row[0], row[1], row[2], row[3] = age, salary, years, debt
				if s := dot(rule.W, row) + rule.B; s != 0 {
					y[i] = synthSign(s)
					break
				}
			}
		}
		if hasBothClasses(y) {
			break
		}
	}
	if err := flipExactly(y, noise, synthRand(seed, noiseStream), "credit applicants"); err != nil {
		return nil, Hyperplane{}, err
	}
	return &Dataset{X: mat.NewDense(n, 4, x), Y: y,
		Features: []string{"age (years)", "salary (k$)", "years in job", "debt (k$)"},
		Classes:  [2]string{"denied", "approved"}}, rule, nil
}

// XORData returns MIT 6.036's XOR data set, the smallest that no line
// separates: the points (1, 1) and (2, 2) labelled +1 and (1, 2) and
// (2, 1) labelled -1.
func XORData() *Dataset {
	return &Dataset{
		X:        mat.NewDense(4, 2, []float64{1, 1, 2, 2, 1, 2, 2, 1}),
		Y:        []float64{1, 1, -1, -1},
		Features: []string{"x1", "x2"},
		Classes:  [2]string{"-1", "+1"},
	}
}

// Circles returns two concentric circles as scikit-learn's
// make_circles(n, shuffle=False, noise=noise, factor=0.5): the first n/2
// (rounded down) points lie on the unit circle at the angles 2πk/(n/2) and
// are labelled -1, the others on the circle of radius 0.5 at the angles
// 2πk/(n - n/2) and are labelled +1; each coordinate then gets Gaussian
// noise of standard deviation noise drawn from seed (the same points on
// every platform and build: see cosSin2Pi). No line separates the
// classes, but the squared features x1², x2² do. It is an error for n to
// be below 2 or noise to be negative or not finite; a noise so large that
// a point overflows (1e308) is an ErrNonFinite error.
func Circles(n int, noise float64, seed uint64) (*Dataset, error) {
	if n < 2 {
		return nil, kindErrorf(ErrOption, "circles: need n >= 2 points, got %d", n)
	}
	if err := checkGenerated("circles", n, 2); err != nil {
		return nil, err
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return nil, kindErrorf(ErrOption, "circles: noise must be a finite number >= 0, got %v", noise)
	}
	rng := synthRand(seed, circlesStream)
	nOut := n / 2
	nIn := n - nOut
	x := make([]float64, 0, 2*n)
	y := make([]float64, 0, n)
	for _, c := range []struct {
		m      int
		radius float64
		label  float64
	}{{nOut, 1, -1}, {nIn, 0.5, 1}} {
		for k := range c.m {
			cos, sin := cosSin2Pi(k, c.m) // the same bits on every platform
			x = append(x, float64(c.radius*cos)+float64(noise*normFloat64(rng)),
				float64(c.radius*sin)+float64(noise*normFloat64(rng)))
			y = append(y, c.label)
		}
	}
	for i, v := range x {
		if !isFinite(v) {
			return nil, kindErrorf(ErrNonFinite, "circles: point %d: noise %v times a normal draw overflows to %v: use a smaller noise", i/2, noise, v)
		}
	}
	return &Dataset{X: mat.NewDense(n, 2, x), Y: y, Features: []string{"x1", "x2"},
		Classes: [2]string{"outer", "inner"}}, nil
}
