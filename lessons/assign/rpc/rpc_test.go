package rpc

import (
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
)

type run struct {
	W        []float64
	B        float64
	PerEpoch []int
}

// pair connects a client to a server with the functions of register.
func pair(t *testing.T, register func(*Peer)) *Peer {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	server := New(sr, sw)
	register(server)
	go func() {
		server.Serve()
		sw.Close()
	}()
	client := New(cr, cw)
	client.Start()
	t.Cleanup(func() { cw.Close() })
	return client
}

func TestCall(t *testing.T) {
	c := pair(t, func(s *Peer) {
		s.Register("Scale", func(w []float64, k float64) ([]float64, bool) {
			for i := range w {
				w[i] *= k // modifies the caller's slice
			}
			return w[1:], k > 0 // shares its array
		})
		s.Register("Copy", func(w []float64) []float64 { return slices.Clone(w) })
		s.Register("Run", func(X [][]float64, r run) run {
			X[0][0] = -1
			r.W = append(r.W, math.NaN())
			r.PerEpoch = nil
			return r
		})
		s.Register("Gram", func(X [][]float64, k func(x, z []float64) float64) [][]float64 {
			G := make([][]float64, len(X))
			for i := range X {
				for j := range X {
					G[i] = append(G[i], k(X[i], X[j]))
				}
			}
			return G
		})
		s.Register("Poly", func(c float64) func(x, z []float64) float64 {
			return func(x, z []float64) float64 { return x[0]*z[0] + c }
		})
		s.Register("Boom", func(n int) int {
			var a []int
			return a[n]
		})
		s.Register("Sum", func(xs ...int) int {
			s := 0
			for _, x := range xs {
				s += x
			}
			return s
		})
	})

	w := []float64{1, 2, 3}
	var tail []float64
	var pos bool
	c.Call("Scale", false, []any{&w, ptr(2.0)}, []any{&tail, &pos})
	if !slices.Equal(w, []float64{2, 4, 6}) || !slices.Equal(tail, []float64{4, 6}) || !pos {
		t.Fatalf("Scale: w %v, tail %v, pos %v; want [2 4 6], [4 6], true", w, tail, pos)
	}
	tail[0] = 99
	if w[1] != 99 {
		t.Errorf("the result of Scale does not share w's array as it does in the student's process: w %v", w)
	}
	var cp []float64
	c.Call("Copy", false, []any{&w}, []any{&cp})
	cp[0] = -5
	if w[0] == -5 {
		t.Errorf("the result of Copy shares w's array, unlike in the student's process")
	}

	X := [][]float64{{1, 2}, {3, 4}}
	var got run
	c.Call("Run", false, []any{&X, ptr(run{W: []float64{1}, B: 2, PerEpoch: []int{3}})}, []any{&got})
	if X[0][0] != -1 {
		t.Errorf("X[0][0] = %v after a call that set it to -1", X[0][0])
	}
	if len(got.W) != 2 || got.W[0] != 1 || !math.IsNaN(got.W[1]) || got.B != 2 || got.PerEpoch != nil {
		t.Errorf("Run returned %+v, want {W:[1 NaN] B:2 PerEpoch:[]}", got)
	}

	// A kernel of this side runs here, called back from the other side.
	calls := 0
	k := func(x, z []float64) float64 { calls++; return x[0] * z[0] }
	var G [][]float64
	c.Call("Gram", false, []any{&[][]float64{{1}, {2}, {3}}, &k}, []any{&G})
	if calls != 9 || G[1][2] != 6 {
		t.Errorf("Gram with a callback: %d calls, G %v; want 9 calls, G[1][2] = 6", calls, G)
	}
	// A kernel of the other side runs there.
	var poly func(x, z []float64) float64
	c.Call("Poly", false, []any{ptr(0.5)}, []any{&poly})
	if v := poly([]float64{2}, []float64{3}); v != 6.5 {
		t.Errorf("the returned kernel gives %v, want 6.5", v)
	}
	c.Call("Gram", false, []any{&[][]float64{{1}, {2}}, &poly}, []any{&G})
	if G[1][1] != 4.5 {
		t.Errorf("Gram with the other side's kernel: G %v, want G[1][1] = 4.5", G)
	}

	var sum int
	c.Call("Sum", true, []any{&[]int{1, 2, 3}}, []any{&sum})
	if sum != 6 {
		t.Errorf("Sum(1, 2, 3) = %d", sum)
	}

	func() {
		defer func() {
			r := recover()
			e, ok := r.(RemoteError)
			if !ok || !strings.Contains(e.Text, "index out of range") {
				t.Errorf("a panic in the called function: the caller recovered %v, want a RemoteError naming it", r)
			}
		}()
		var n int
		c.Call("Boom", false, []any{ptr(5)}, []any{&n})
	}()
	// The connection is still usable after a panic.
	c.Call("Sum", true, []any{&[]int{4}}, []any{&sum})
	if sum != 4 {
		t.Errorf("Sum(4) after a panic = %d", sum)
	}
}

// TestGarbage: when what comes back is not a reply (garbage, nothing: the
// process is gone), the call panics with a CallError, and so does every
// call after it.
func TestGarbage(t *testing.T) {
	for _, reply := range []string{"", "garbage that is no gob", strings.Repeat("\xff", 100)} {
		client := New(strings.NewReader(reply), io.Discard)
		client.Start()
		for range 2 {
			func() {
				defer func() {
					var e CallError
					if r, ok := recover().(error); !ok || !errors.As(r, &e) {
						t.Errorf("reply %q: recovered %v, want a CallError", reply, r)
					}
				}()
				var n int
				client.Call("F", false, []any{ptr(1)}, []any{&n})
			}()
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestCallFuncReadOnly checks that a function called with CallFunc cannot
// change the caller's arguments: a change is never written back and the
// call panics with a ChangedError naming the argument and the place, be
// the change one element, a row of a matrix, a field reached through a
// slice, or made by a function value the caller called; an argument
// Modifies names is written back.
func TestCallFuncReadOnly(t *testing.T) {
	c := pair(t, func(s *Peer) {
		s.Register("Labels", func(X [][]float64, y []float64) int {
			y[2] = 1
			return len(X)
		})
		s.Register("Row", func(X [][]float64) int {
			X[1][0] = 7
			return 0
		})
		s.Register("Runs", func(rs []run) int {
			rs[0].W[0] = math.NaN()
			return 0
		})
		s.Register("Same", func(y []float64) int {
			y[0] = math.NaN() // NaN stays NaN: no change
			return 0
		})
		s.Register("Kernel", func() func(x, z []float64) float64 {
			return func(x, z []float64) float64 { x[0] = -1; return 0 }
		})
	})
	changedCall := func(f Func, args, results []any) (e ChangedError) {
		t.Helper()
		defer func() {
			r := recover()
			var ok bool
			if e, ok = r.(ChangedError); !ok {
				t.Errorf("%s: panic %v, want a ChangedError", f.Name, r)
			}
		}()
		c.CallFunc(f, args, results)
		return
	}
	X := [][]float64{{1, 2}, {3, 4}}
	y := []float64{-1, 1, -1}
	var n int
	e := changedCall(Func{Name: "Labels", Params: []string{"X", "y"}}, []any{&X, &y}, []any{&n})
	if e.Func != "Labels" || e.Param != "y" || e.At != "y[2]" || e.Was != "-1" || e.Now != "1" || !strings.Contains(e.Error(), "Labels changed its argument y") {
		t.Errorf("Labels: %+v (%v), want y[2] changed from -1 to 1", e, e)
	}
	if !slices.Equal(y, []float64{-1, 1, -1}) {
		t.Errorf("y = %v after a call that changed it: the change was written back", y)
	}
	if e := changedCall(Func{Name: "Row", Params: []string{"X"}}, []any{&X}, []any{&n}); e.At != "X[1][0]" || X[1][0] != 3 {
		t.Errorf("Row: %+v, X %v; want X[1][0] changed, X as it was", e, X)
	}
	rs := []run{{W: []float64{1}}}
	if e := changedCall(Func{Name: "Runs"}, []any{&rs}, []any{&n}); e.At != "argument 1[0].W[0]" || e.Param != "argument 1" || rs[0].W[0] != 1 {
		t.Errorf("Runs: %+v, rs %v; want argument 1[0].W[0] changed, rs as it was", e, rs)
	}
	nan := []float64{math.NaN()}
	c.CallFunc(Func{Name: "Same", Params: []string{"y"}}, []any{&nan}, []any{&n})
	var k func(x, z []float64) float64
	c.CallFunc(Func{Name: "Kernel"}, nil, []any{&k})
	x := []float64{5}
	func() {
		defer func() {
			if e, ok := recover().(ChangedError); !ok || e.Func != "a function value" || x[0] != 5 {
				t.Errorf("a kernel that changes its argument: %+v, x %v; want a ChangedError, x as it was", e, x)
			}
		}()
		k(x, x)
	}()
	y = []float64{-1, 1, -1}
	c.CallFunc(Func{Name: "Labels", Params: []string{"X", "y"}, Modifies: []bool{false, true}}, []any{&X, &y}, []any{&n})
	if y[2] != 1 {
		t.Errorf("y = %v after a call that may change it and set y[2] = 1: not written back", y)
	}
}
