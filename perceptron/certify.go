package perceptron

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/big"
	"slices"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// exactBits is the precision of the exact sums below: every product of two
// float64 is a multiple of 2^-2148 below 2^2048, so a sum of fewer than
// 2^100 of them fits in 4400 bits without rounding.
const exactBits = 4400

// marginLow returns a float64 γ ≤ min_i y_i(w·x_i + b)/||w||, the exact
// margin of (w, b) on d, with the row that attains it, or an ErrUndecided
// error when γ cannot be certified > 0 (a row on or across the boundary,
// or a margin below the smallest float64). Each row's score s_i is
// computed in floating point with a bound e_i on its rounding error (n
// products and the bias: 2(n+3)·2^-53 (Σ|w_j x_j| + |b|), plus 2^-1074 per
// product for underflow, twice what the error can be); the rows that may
// hold the least score, s_i − e_i ≤ min_j (s_j + e_j), are then scored
// exactly (math/big), and the least, over ||w|| bounded from above
// exactly, is rounded down (a score below the float64 range, of subnormal
// products, keeps its value). So γ is the exact margin to a few ulps, and
// never above it. what names the caller in the error. The exact scores, some
// 10 µs a row of 1000 values, each look at ctx first: when it is done the
// error matches ErrUndecided, ErrStopped and the context's error. Rows
// with the same label and values are scored exactly once.
func marginLow(ctx context.Context, w []float64, b float64, d *Dataset, what string) (float64, int, error) {
	nUp, err := normUp(w)
	if err != nil {
		return 0, -1, kindErrorf(ErrUndecided, "%s: %v", what, err)
	}
	c := float64(len(w)+3) * 0x1p-52
	n := d.N()
	lo, hi := make([]float64, n), math.Inf(1)
	for i := 0; i < n; i++ {
		s, a := scoreAndSize(w, b, d.Row(i), d.Y[i])
		e := float64(c*a) + float64(c*0x1p-1022) // no FMA: the same bounds everywhere
		if !isFinite(s) || !isFinite(e) {
			lo[i] = math.Inf(-1) // scored exactly
			continue
		}
		lo[i] = math.Nextafter(s-e, math.Inf(-1))
		hi = math.Min(hi, math.Nextafter(s+e, math.Inf(1)))
	}
	var low *big.Float // the least exact score
	row := -1
	seed := maphash.MakeSeed()
	scored := map[uint64]int{} // a row scored exactly, by the hash of its label and values
	for i := 0; i < n; i++ {
		if lo[i] > hi {
			continue // its exact score is above the least
		}
		h := rowHash(seed, d.Row(i), d.Y[i])
		if k, ok := scored[h]; ok && d.Y[k] == d.Y[i] && slices.Equal(d.Row(k), d.Row(i)) {
			continue // the same row as one before it: the same score
		}
		scored[h] = i
		if err := ctxStopped(ctx); err != nil {
			return 0, -1, causeErrorf([]error{ErrUndecided, ErrStopped, err}, "%s: stopped while the margin was certified (row %d of %d): %v", what, i, n, err)
		}
		if l := exactScore(w, b, d.Row(i), d.Y[i]); low == nil || l.Cmp(low) < 0 {
			low, row = l, i
		}
	}
	if low == nil || low.Sign() <= 0 {
		return 0, row, kindErrorf(ErrUndecided, "%s: the separator found is not certified to separate the data: row %d scores %v exactly (rounded down)", what, row, roundDown(low))
	}
	// The exact least score over ||w|| rounded up, rounded down: a score
	// below the float64 range (0.8·2^-1074, of subnormal products) over a
	// norm of 2^-537 is a margin of 2^-538, which the score rounded to a
	// float64 first, 0, lost.
	g := roundDown(new(big.Float).SetPrec(exactBits).SetMode(big.ToZero).Quo(low, new(big.Float).SetFloat64(nUp)))
	if !(g > 0) {
		return 0, row, kindErrorf(ErrUndecided, "%s: the margin of the separator found, %v/%v, is below the smallest float64", what, roundDown(low), nUp)
	}
	return g, row, nil
}

// roundDown returns x rounded down to a float64 (MaxFloat64 for a value
// beyond the float64 range, 0 for nil).
func roundDown(x *big.Float) float64 {
	if x == nil {
		return 0
	}
	f, acc := x.Float64()
	if acc == big.Above {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// rowHash hashes the bits of x and y (rows equal in value with other
// bits, such as -0 and 0, hash apart: they are then scored twice).
func rowHash(seed maphash.Seed, x []float64, y float64) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(y))
	h.Write(b[:])
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return h.Sum64()
}

// scoreAndSize returns y(w·x + b) in floating point and the size of its
// terms, Σ_j |w_j x_j| + |b|, which bounds its rounding error (a relative
// γ_{n+1} of it, plus underflow).
func scoreAndSize(w []float64, b float64, x []float64, y float64) (s, size float64) {
	s = float64(y * (dot(w, x) + b)) // no FMA where a caller adds to s
	size = math.Abs(b)
	for j, v := range x {
		size += math.Abs(w[j] * v)
	}
	return s, size
}

// exactScore returns y(w·x + b), computed exactly.
func exactScore(w []float64, b float64, x []float64, y float64) *big.Float {
	acc := new(big.Float).SetPrec(exactBits)
	t := new(big.Float).SetPrec(exactBits)
	var p, q big.Float
	for j, v := range x {
		t.Mul(p.SetFloat64(w[j]), q.SetFloat64(v))
		acc.Add(acc, t)
	}
	acc.Add(acc, p.SetFloat64(b))
	if y < 0 {
		acc.Neg(acc)
	}
	return acc
}

// normUp returns a float64 ≥ ||w||: Σ w_j² exactly, its square root to 64
// bits, then two ulps up. A zero w is an error, and so is a norm beyond
// the float64 range.
func normUp(w []float64) (float64, error) {
	sum := new(big.Float).SetPrec(exactBits)
	t := new(big.Float).SetPrec(exactBits)
	var p big.Float
	for _, v := range w {
		p.SetFloat64(v)
		sum.Add(sum, t.Mul(&p, &p))
	}
	if sum.Sign() == 0 {
		return 0, errorString("w is the zero vector, so there is no boundary")
	}
	r, _ := new(big.Float).SetPrec(64).Sqrt(sum).Float64()
	r = math.Nextafter(math.Nextafter(r, math.Inf(1)), math.Inf(1))
	if math.IsInf(r, 0) {
		return 0, errorString("||w|| is beyond the float64 range")
	}
	return r, nil
}

// errorString is an error that is only its message.
type errorString string

func (e errorString) Error() string { return string(e) }

// upperBound returns a float64 ≥ (R/γ)² for the exact radius R and an
// exact γ ≥ gamma > 0, with r the radius as Radius computes it for rows of
// k values: its relative error is below (1.5k + 3)·2^-53 (k squares of ≤ 3
// roundings each, a square root and a product), so R ≤ r·(1 + (3k+8)·2^-52)
// with room to spare. Each operation is rounded and then moved one ulp up.
func upperBound(r, gamma float64, k int) float64 {
	up := func(v float64) float64 { return math.Nextafter(v, math.Inf(1)) }
	rUp := up(r * up(1+float64(float64(3*k+8)*0x1p-52)))
	q := up(rUp / gamma)
	return up(q * q)
}

// maxMarginGap is the relative gap between MaxMargin's certified margin γ
// and its certified upper bound γ̄ on the maximum beyond which MaxMargin
// answers ErrUndecided: it answers only when
// γ ≥ (1 − maxMarginGap)·γ̄ ≥ (1 − maxMarginGap)·γ*.
const maxMarginGap = 1e-9

// certifyMaxMargin returns h with its margin on d certified from below
// (marginLow), once that margin is certified within maxMarginGap of the
// maximum margin γ*: the corral of Wolfe's algorithm gives a point u of
// the hull, exactly (hullNormUp), and γ* ≤ ||u|| (||u||/2 with a bias).
func certifyMaxMargin(ctx context.Context, d *Dataset, h Hyperplane, corral []minnorm.Vertex, noBias bool) (Hyperplane, float64, error) {
	low, _, err := marginLow(ctx, h.W, h.B, d, "max margin")
	if err != nil {
		return Hyperplane{}, 0, err
	}
	up, err := hullNormUp(ctx, d, corral, noBias)
	if err != nil {
		return Hyperplane{}, 0, err
	}
	if !(low >= up*(1-maxMarginGap)) {
		// Wolfe's weights solved again in more bits: a separator and a
		// bound each a few ulps from the maximum, certified as before.
		if ph, pc, ok := polishCorral(ctx, d, corral, noBias); ok {
			if pl, _, err := marginLow(ctx, ph.W, ph.B, d, "max margin"); err == nil {
				if pu, err := hullNormUp(ctx, d, pc, noBias); err == nil && pl >= pu*(1-maxMarginGap) {
					ph.Tie = h.Tie
					return ph, pl, nil
				}
			}
		}
		if err := ctxStopped(ctx); err != nil {
			return Hyperplane{}, 0, causeErrorf([]error{ErrUndecided, ErrStopped, err}, "max margin: stopped while the margin was certified: %v", err)
		}
		return Hyperplane{}, 0, kindErrorf(ErrUndecided, "max margin: the separator found has a margin of %.17g, but the maximum margin may be as large as %.17g (a relative gap of %.2g): rounding keeps the float64 algorithm from the maximum (the margin is small against the data's radius, or the features' scales differ widely)", low, up, 1-low/up)
	}
	return h, low, nil
}

// hullNormNear returns ||u|| as hullNormUp does, through the origin, but
// in float64: an estimate for deciding whether to polish, never a bound.
func hullNormNear(d *Dataset, corral []minnorm.Vertex) float64 {
	u := make([]float64, d.D())
	sum := 0.0
	for _, c := range corral {
		sum += c.Lambda
		for j, x := range d.Row(int(c.ID)) {
			u[j] += float64(c.Lambda * float64(d.Y[c.ID]*x)) // no FMA
		}
	}
	return norm2(u) / sum
}

// setVertexValue sets v to value j of the corral's vertex id, rounded to
// v's precision (exact at exactBits): y_i x_ij through the origin (the
// row i = id), x_pj − x_qj with a bias (the rows of id = p·n + q).
func setVertexValue(v *big.Float, d *Dataset, id int64, j int, noBias bool) *big.Float {
	if noBias {
		return v.SetFloat64(d.Y[id] * d.X.At(int(id), j))
	}
	n := int64(d.N())
	var p, q big.Float
	return v.Sub(p.SetFloat64(d.X.At(int(id/n), j)), q.SetFloat64(d.X.At(int(id%n), j)))
}

// hullNormUp returns a float64 ≥ ||u||, u = Σ_k λ_k v_k / Σ_k λ_k the
// point of the corral's hull that its weights give, computed exactly, and
// halved with a bias: an upper bound on γ*, since γ* is the least norm of
// that hull. Through the origin v_k = y_i x_i for the row i = id; with a
// bias v_k = x_p − x_q for the id p·n + q. +Inf for an empty corral. It
// looks at ctx before each vertex, as marginLow does before each row.
func hullNormUp(ctx context.Context, d *Dataset, corral []minnorm.Vertex, noBias bool) (float64, error) {
	if len(corral) == 0 {
		return math.Inf(1), nil
	}
	const prec = 2*exactBits + 64 // squares of exact sums
	dim := d.D()
	u := make([]big.Float, dim)
	for j := range u {
		u[j].SetPrec(prec)
	}
	lsum := new(big.Float).SetPrec(prec)
	t := new(big.Float).SetPrec(prec)
	var l big.Float
	v := new(big.Float).SetPrec(exactBits)
	for k, c := range corral {
		if err := ctxStopped(ctx); err != nil {
			return 0, causeErrorf([]error{ErrUndecided, ErrStopped, err}, "max margin: stopped while the maximum margin was bounded (vertex %d of %d): %v", k, len(corral), err)
		}
		l.SetFloat64(c.Lambda)
		lsum.Add(lsum, &l)
		for j := 0; j < dim; j++ {
			u[j].Add(&u[j], t.Mul(&l, setVertexValue(v, d, c.ID, j, noBias)))
		}
	}
	s2 := new(big.Float).SetPrec(prec)
	for j := range u {
		s2.Add(s2, t.Mul(&u[j], &u[j]))
	}
	r := new(big.Float).SetPrec(64).Sqrt(s2)
	r.Quo(r, lsum)
	if !noBias {
		r.Quo(r, big.NewFloat(2))
	}
	f, _ := r.Float64()
	for range 3 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f, nil
}
