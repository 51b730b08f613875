package perceptron

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// TestZeroInHullExact: zeroInHull (integer fraction-free elimination)
// against the plain rational Gauss-Jordan elimination it replaced, on
// random corrals of 1 to 12 vectors in 1 to 12 dimensions, with the
// origin put inside (a convex combination made 0 by construction, in
// dyadic values so that it is exact), just outside (one coordinate moved
// by an ulp) and at random; values of every scale, so
// that the rows' powers of 2 differ widely (2^-980 to 2^980). And a corral of 66 vectors in
// 65 dimensions (the digits with a bias) decides within seconds.
func TestZeroInHullExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	in, out := 0, 0
	for trial := 0; trial < 600; trial++ {
		m := 1 + rng.IntN(12)
		dim := 1 + rng.IntN(12)
		e := rng.IntN(1960) - 980 // every value a 20-bit integer times 2^e: sums are exact
		vs := make([][]float64, m)
		for k := range vs {
			vs[k] = make([]float64, dim)
			for j := range vs[k] {
				vs[k][j] = math.Ldexp(float64(rng.IntN(1<<20)-1<<19), e)
			}
		}
		switch trial % 3 {
		case 0, 1: // the origin inside: v_last = -(Σ_k<last λ_k v_k)/λ_last, λ dyadic
			if m < 2 {
				continue
			}
			for j := 0; j < dim; j++ {
				s := 0.0
				for k := 0; k < m-1; k++ {
					s += vs[k][j] // λ_k = 1 for k < last, λ_last = 1: v_last = -Σ
				}
				vs[m-1][j] = -s
			}
			if trial%3 == 1 {
				vs[m-1][0] = math.Nextafter(vs[m-1][0], math.Inf(1))
			}
		}
		got, err := zeroInHull(context.Background(), vs)
		if err != nil {
			t.Fatal(err)
		}
		want := zeroInHullRat(vs)
		if got != want {
			t.Fatalf("trial %d (%d vectors in %d dimensions, scale 2^%d): zeroInHull %v, rational %v", trial, m, dim, e, got, want)
		}
		if got {
			in++
		} else {
			out++
		}
	}
	if in < 100 || out < 100 {
		t.Errorf("%d in, %d out: the cases test too little", in, out)
	}
	// 66 vectors in 65 dimensions around the origin.
	vs := make([][]float64, 66)
	for k := range vs {
		vs[k] = make([]float64, 65)
		for j := range vs[k] {
			vs[k][j] = rng.NormFloat64()
		}
	}
	for j := 0; j < 65; j++ {
		s := 0.0
		for k := 0; k < 65; k++ {
			s += vs[k][j]
		}
		vs[65][j] = -s // not exact in general; the answer matters less than the time
	}
	start := time.Now()
	if _, err := zeroInHull(context.Background(), vs); err != nil {
		t.Fatal(err)
	}
	t.Logf("66 × 65: %v", time.Since(start))

	// A done context stops the elimination: ErrUndecided, ErrStopped and
	// the context's error, not an answer.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	proved, err := zeroInHull(ctx, vs)
	for _, kind := range []error{ErrUndecided, ErrStopped, context.Canceled} {
		if !errors.Is(err, kind) {
			t.Errorf("cancelled: %v, %v; want an error that is %v", proved, err, kind)
		}
	}
}

// zeroInHullRat is the rational elimination zeroInHull replaced, the
// oracle of TestZeroInHullExact.
func zeroInHullRat(vs [][]float64) bool {
	m := len(vs)
	if m == 0 {
		return false
	}
	rows := len(vs[0]) + 1
	if rows*m*m > maxExactCells {
		return false
	}
	// a is the rows × (m+1) augmented matrix [1 … 1 | 1; v_1 … v_m | 0].
	a := make([][]*big.Rat, rows)
	for r := range a {
		a[r] = make([]*big.Rat, m+1)
		for k := 0; k <= m; k++ {
			x := 0.0
			switch {
			case r == 0:
				x = 1
			case k < m:
				x = vs[k][r-1]
			}
			a[r][k] = new(big.Rat).SetFloat64(x)
		}
	}
	// Gauss-Jordan elimination; a column without a pivot means the corral
	// is not independent after all: not proved.
	tmp := new(big.Rat)
	for c, p := 0, 0; c < m; c, p = c+1, p+1 {
		piv := -1
		for r := p; r < rows; r++ {
			if a[r][c].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			return false
		}
		a[p], a[piv] = a[piv], a[p]
		inv := new(big.Rat).Inv(a[p][c])
		for k := c; k <= m; k++ {
			a[p][k].Mul(a[p][k], inv)
		}
		for r := 0; r < rows; r++ {
			if r == p || a[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[r][c])
			for k := c; k <= m; k++ {
				a[r][k].Sub(a[r][k], tmp.Mul(f, a[p][k]))
			}
		}
	}
	// Consistent: the rows past the pivots are 0 = 0; λ_k = a[k][m] ≥ 0.
	for r := m; r < rows; r++ {
		if a[r][m].Sign() != 0 {
			return false
		}
	}
	for k := 0; k < m; k++ {
		if a[k][m].Sign() < 0 {
			return false
		}
	}
	return true
}
