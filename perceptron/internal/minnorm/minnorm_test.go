package minnorm

import (
	"context"
	"errors"
	"math"
	"testing"
)

// oracle enumerates the vertices vs: it returns the one that minimises
// x·v (the first on a tie).
func oracle(vs [][]float64) func(x []float64) (int64, []float64) {
	return func(x []float64) (int64, []float64) {
		best, arg := math.Inf(1), 0
		for i, v := range vs {
			s := 0.0
			for j := range v {
				s += x[j] * v[j]
			}
			if s < best {
				best, arg = s, i
			}
		}
		return int64(arg), vs[arg]
	}
}

// TestPoint checks Wolfe's algorithm on hulls whose nearest point to the
// origin is known by hand: the segment from (1, 0) to (0, 1) (nearest
// point (1/2, 1/2), inside the segment), a triangle whose nearest point is
// one of its vertices, and a segment through the origin (Zero, with
// weights 1/2 and 1/2 the certificate).
func TestPoint(t *testing.T) {
	for _, tc := range []struct {
		name   string
		vs     [][]float64
		want   []float64
		status Status
	}{
		{"segment", [][]float64{{1, 0}, {0, 1}}, []float64{0.5, 0.5}, Optimal},
		{"vertex", [][]float64{{2, 1}, {3, 4}, {5, 1}}, []float64{2, 1}, Optimal},
		{"through the origin", [][]float64{{1, 1}, {-1, -1}}, []float64{0, 0}, Zero},
	} {
		scale := 0.0
		for _, v := range tc.vs {
			scale = math.Max(scale, v[0]*v[0]+v[1]*v[1])
		}
		res, err := Point(context.Background(), 2, scale, oracle(tc.vs), 100)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != tc.status || !(math.Abs(res.X[0]-tc.want[0]) <= 1e-12) || !(math.Abs(res.X[1]-tc.want[1]) <= 1e-12) {
			t.Errorf("%s: x = %v, status %d; want %v, status %d", tc.name, res.X, res.Status, tc.want, tc.status)
		}
		sum := 0.0
		for _, c := range res.Corral {
			sum += c.Lambda
		}
		if !(math.Abs(sum-1) <= 1e-12) {
			t.Errorf("%s: corral weights sum to %v, want 1", tc.name, sum)
		}
	}
}

// TestPointStops: the iteration cap and a done context end the run with
// errors that say so.
func TestPointStops(t *testing.T) {
	vs := [][]float64{{1, 0}, {0, 1}}
	if _, err := Point(context.Background(), 2, 1, oracle(vs), 0); !errors.Is(err, ErrIterations) {
		t.Errorf("cap 0: %v, want ErrIterations", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Point(ctx, 2, 1, oracle(vs), 100); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v, want context.Canceled", err)
	}
}

// countingCtx is a context that is never done and counts its Err calls
// and the oracle's calls between two of them.
type countingCtx struct {
	context.Context
	looks, since, most int
}

func (c *countingCtx) Err() error {
	c.looks++
	c.most = max(c.most, c.since)
	c.since = 0
	return nil
}

// TestPointLooksAtEveryIteration: the context is asked before the first
// oracle call and then at every major iteration (each an oracle call, a
// scan of every vertex) and every minor one (each a system solved): it was
// asked every 16 major iterations, 1.5 s apart on 1500 points of 1200
// features (helper-59). The vertices are the unit vectors of R^40, whose
// nearest point, their centroid, takes 40 iterations.
func TestPointLooksAtEveryIteration(t *testing.T) {
	const dim = 40
	vs := make([][]float64, dim)
	for i := range vs {
		vs[i] = make([]float64, dim)
		vs[i][i] = 1
	}
	ctx := &countingCtx{Context: context.Background()}
	o := oracle(vs)
	res, err := Point(ctx, dim, 1, func(x []float64) (int64, []float64) { ctx.since++; return o(x) }, 1000)
	if err != nil || res.Status != Optimal {
		t.Fatalf("status %d, error %v", res.Status, err)
	}
	if ctx.most > 1 || ctx.looks < res.Iters {
		t.Errorf("%d iterations, %d looks at the context, up to %d oracle calls between two; want a look before every call", res.Iters, ctx.looks, ctx.most)
	}
}
