package perceptron

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestLossHandWorked(t *testing.T) {
	// h = (w = (1, -1), b = 0.5) on four points; margins y(w·x + b):
	// (2, 0) +1 →  2.5 (no loss); (0, 2) +1 → -1.5 (loss 1.5);
	// (1, 1) -1 → -0.5 (loss 0.5); (0, 0.5) -1 → 0 (loss 0, but counted
	// in the subgradient). Loss 2; ∂L/∂w = -[(0, 2) - (1, 1) - (0, 0.5)] =
	// (1, -0.5), ∂L/∂b = -(1 - 1 - 1) = 1. Every number is a small dyadic
	// fraction, so the arithmetic is exact.
	d := lrData(t, [][]float64{{2, 0}, {0, 2}, {1, 1}, {0, 0.5}}, []float64{1, 1, -1, -1})
	h := Hyperplane{W: []float64{1, -1}, B: 0.5}
	l, err := Loss(h, d)
	if err != nil || l != 2 {
		t.Errorf("Loss = %v (%v), want 2", l, err)
	}
	gw, gb, err := LossGradient(h, d)
	if err != nil || !reflect.DeepEqual(gw, []float64{1, -0.5}) || gb != 1 {
		t.Errorf("LossGradient = %v, %v (%v), want [1 -0.5], 1", gw, gb, err)
	}
	// At w = 0 every row is on the boundary: loss 0, gradient -Σ y x.
	zero := Hyperplane{W: []float64{0, 0}}
	l, _ = Loss(zero, d)
	gw, gb, _ = LossGradient(zero, d)
	if l != 0 || !reflect.DeepEqual(gw, []float64{-1, -0.5}) || gb != 0 {
		t.Errorf("at 0: loss %v, gradient %v, %v; want 0, [-1 -0.5], 0", l, gw, gb)
	}
}

func TestLossGradientNumeric(t *testing.T) {
	// Away from the kinks the loss is linear along a short segment, so a
	// central difference with step 1e-6 equals the gradient up to
	// cancellation in L(h+δ) - L(h-δ), about ε·L/δ ≈ 1e-8 for L ≲ 100.
	d := lrNoisy(t)
	const step, tol = 1e-6, 1e-7
	for _, h := range []Hyperplane{
		{W: []float64{0.3, -0.7}, B: 0.11},
		{W: []float64{-1.3, 0.2}, B: -0.45},
		{W: []float64{2.1, 1.7}, B: 0.9},
	} {
		gw, gb, err := LossGradient(h, d)
		if err != nil {
			t.Fatal(err)
		}
		num := func(shift func(g Hyperplane, s float64) Hyperplane) float64 {
			lp, _ := Loss(shift(h, step), d)
			lm, _ := Loss(shift(h, -step), d)
			return (lp - lm) / (2 * step)
		}
		for j := range h.W {
			g := num(func(g Hyperplane, s float64) Hyperplane {
				w := append([]float64(nil), g.W...)
				w[j] += s
				return Hyperplane{W: w, B: g.B}
			})
			if !(math.Abs(g-gw[j]) <= tol) {
				t.Errorf("%v: ∂L/∂w_%d = %v, numeric %v", h, j, gw[j], g)
			}
		}
		g := num(func(g Hyperplane, s float64) Hyperplane { return Hyperplane{W: g.W, B: g.B + s} })
		if !(math.Abs(g-gb) <= tol) {
			t.Errorf("%v: ∂L/∂b = %v, numeric %v", h, gb, g)
		}
	}
}

func TestLossErrors(t *testing.T) {
	d := lrNoisy(t)
	if _, err := Loss(Hyperplane{W: []float64{1}}, d); !errors.Is(err, ErrDimension) {
		t.Errorf("Loss, wrong dimension: %v", err)
	}
	if _, _, err := LossGradient(Hyperplane{W: []float64{1, 1}}, nil); err != ErrEmpty {
		t.Errorf("LossGradient(nil): %v", err)
	}
	for _, test := range []struct {
		opt  GDOptions
		want error
	}{
		{GDOptions{Eta: -1, Steps: 5}, ErrOption},
		{GDOptions{Eta: math.NaN(), Steps: 5}, ErrOption},
		{GDOptions{Eta: 1, Steps: -1}, ErrOption},
		{GDOptions{Eta: 1, Steps: 5, Init: Hyperplane{W: []float64{1}}},
			ErrDimension},
		{GDOptions{Eta: 1, Steps: 5, Init: Hyperplane{W: []float64{1, math.Inf(1)}}}, ErrNonFinite},
		{GDOptions{Eta: 1, Steps: 5, Init: Hyperplane{W: []float64{1, 1}, B: math.NaN()}}, ErrNonFinite},
		{GDOptions{Eta: 1, Steps: 5, Init: Hyperplane{B: math.Inf(1)}}, ErrNonFinite},
	} {
		for _, l := range gdLearners {
			res, err := l.fit(d, test.opt)
			if !errors.Is(err, test.want) || res != nil {
				t.Errorf("%s(%+v): %v, want %v", l.name, test.opt, err, test.want)
			}
		}
	}
}

func TestGradientDescent(t *testing.T) {
	// One full-batch step from 0 adds η Σ y x: on the MIT separable set
	// Σ y x = (2, 5) - (3, 1) + (9, 6) - (12, 5) = (-4, 5), Σ y = 0.
	d := lrMITSeparable(t)
	g, err := GradientDescent(d, GDOptions{Eta: 1, Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Steps != 1 || len(g.Path) != 2 || !lrSameHyperplane(g.Hyperplane, Hyperplane{W: []float64{-4, 5}}, 0) {
		t.Errorf("one step: %v, %d steps, path %v", g.Hyperplane, g.Steps, g.Path)
	}
	for _, data := range []*Dataset{lrMITSeparable(t), lrSeparable(t), lrNoisy(t)} {
		g, err := GradientDescent(data, GDOptions{Eta: 0.5, Steps: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Path) != g.Steps+1 || len(g.Losses) != g.Steps+1 {
			t.Fatalf("%d steps, %d path points, %d losses", g.Steps, len(g.Path), len(g.Losses))
		}
		for k, h := range g.Path {
			if l, _ := Loss(h, data); l != g.Losses[k] {
				t.Fatalf("Losses[%d] = %v, Loss(Path[%d]) = %v", k, g.Losses[k], k, l)
			}
			if k > 0 {
				// Each step is w ← w - η ∇L at the previous point.
				gw, gb, _ := LossGradient(g.Path[k-1], data)
				for j := range gw {
					if want := g.Path[k-1].W[j] - 0.5*gw[j]; h.W[j] != want {
						t.Fatalf("step %d: w_%d = %v, want %v", k, j, h.W[j], want)
					}
				}
				if want := g.Path[k-1].B - 0.5*gb; h.B != want {
					t.Fatalf("step %d: b = %v, want %v", k, h.B, want)
				}
			}
		}
		e, _ := g.Hyperplane.Errors(data)
		if g.Converged != (e == 0) {
			t.Errorf("Converged %v with %d errors", g.Converged, e)
		}
		if g.Converged && g.Losses[len(g.Losses)-1] != 0 {
			t.Errorf("converged with loss %v", g.Losses[len(g.Losses)-1])
		}
		if !g.Converged && g.Steps != 2000 {
			t.Errorf("not converged after %d of 2000 steps", g.Steps)
		}
	}
	// Separable data: the batch perceptron converges.
	sep, _, err := SeparableData(40, 3, 0.1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := GradientDescent(sep, GDOptions{Eta: 1, Steps: 10000}); !g.Converged {
		t.Errorf("no convergence on separable data after %d steps", g.Steps)
	}
	// The same point with both labels: at w = 0 the gradient is 0 although
	// both rows are mistakes; the descent is stuck and stops at once.
	stuck := lrData(t, [][]float64{{1, 2}, {1, 2}}, []float64{1, -1})
	g, _ = GradientDescent(stuck, GDOptions{Eta: 1, Steps: 10})
	if g.Steps != 0 || g.Converged || len(g.Path) != 1 {
		t.Errorf("stuck: %d steps, Converged %v", g.Steps, g.Converged)
	}
}

func TestGDInitNoBias(t *testing.T) {
	d := lrNoisy(t)
	init := Hyperplane{W: []float64{0.5, -0.25}, B: 0.75}
	for _, l := range gdLearners {
		g, err := l.fit(d, GDOptions{Eta: 0.5, Steps: 30, NoBias: true, Init: init, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !lrSameHyperplane(g.Path[0], init, 0) {
			t.Errorf("%s: path starts at %v, want %v", l.name, g.Path[0], init)
		}
		for k, h := range g.Path {
			if h.B != 0.75 {
				t.Fatalf("%s: NoBias, but b = %v at step %d", l.name, h.B, k)
			}
		}
		if init.W[0] != 0.5 || init.W[1] != -0.25 {
			t.Errorf("%s changed Init: %v", l.name, init.W)
		}
	}
}

// TestGDInitBiasWithoutWeights: an Init with no weights and a bias starts
// at w = 0 and that bias (helper-50: Init{B: 5} started at b = 0, the 5
// silently dropped); with NoBias b stays there.
func TestGDInitBiasWithoutWeights(t *testing.T) {
	d := lrNoisy(t)
	for _, l := range gdLearners {
		g, err := l.fit(d, GDOptions{Eta: 0.5, Steps: 3, NoBias: true, Init: Hyperplane{B: 5}, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if p := g.Path[0]; p.B != 5 || len(p.W) != d.D() || p.W[0] != 0 || p.W[1] != 0 || g.B != 5 {
			t.Errorf("%s: starts at %v, ends with b = %v; want w = 0, b = 5 throughout", l.name, p, g.B)
		}
	}
}

// TestGDInitTie: Init's tie policy is checked, not read (helper-70: Tie 9
// passed unseen): an unknown one is ErrOption, and with TieNegative the
// run and its result are those of the zero Tie, TieMistake.
func TestGDInitTie(t *testing.T) {
	d := lrNoisy(t)
	for _, l := range gdLearners {
		_, err := l.fit(d, GDOptions{Eta: 0.5, Steps: 3, Init: Hyperplane{W: []float64{1, 0}, Tie: 9}})
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "Init: unknown tie policy 9") {
			t.Errorf("%s: Init with Tie 9: %v; want ErrOption naming Init's tie policy", l.name, err)
		}
		neg, err := l.fit(d, GDOptions{Eta: 0.5, Steps: 5, Init: Hyperplane{W: []float64{1, 0}, Tie: TieNegative}, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		mis, err := l.fit(d, GDOptions{Eta: 0.5, Steps: 5, Init: Hyperplane{W: []float64{1, 0}}, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if neg.Tie != TieMistake || !reflect.DeepEqual(neg.Path, mis.Path) || !reflect.DeepEqual(neg.Losses, mis.Losses) {
			t.Errorf("%s: Init with TieNegative: result Tie %v, path %v; want TieMistake and the path %v", l.name, neg.Tie, neg.Path, mis.Path)
		}
	}
}

// TestSGDIsShuffledPLA checks that SGD on the perceptron criterion from
// w = 0 makes exactly the updates of PLA with the Shuffle order and the same
// seed and eta: both draw the same permutations, and the update
// w - η(-y x) is bit-identical to w + η y x.
func TestSGDIsShuffledPLA(t *testing.T) {
	var sets []*Dataset
	for seed := uint64(1); seed <= 20; seed++ {
		d, _, err := SeparableData(30, 1+int(seed%4), 0.05, seed)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, d)
	}
	sets = append(sets, lrNoisy(t), lrMITXor(t))
	for k, d := range sets {
		for _, eta := range []float64{1, 0.3} {
			opt := Options{}
			opt.Order, opt.Seed, opt.Eta, opt.MaxEpochs = Shuffle, uint64(100+k), eta, 50
			var rec Recorder
			opt.Control.Observer = rec.Observe
			pla, err := PLA(d, opt)
			if err != nil {
				t.Fatal(err)
			}
			g, err := SGD(d, GDOptions{Eta: eta, Steps: 50 * d.N(), Seed: opt.Seed})
			if err != nil {
				t.Fatal(err)
			}
			var changes []Hyperplane
			for s := 1; s < len(g.Path); s++ {
				if !reflect.DeepEqual(g.Path[s], g.Path[s-1]) {
					changes = append(changes, g.Path[s])
				}
			}
			if len(changes) != len(rec.Updates) {
				t.Fatalf("set %d, eta %v: SGD changed w %d times, PLA made %d updates", k, eta, len(changes), len(rec.Updates))
			}
			for u, h := range changes {
				if !reflect.DeepEqual(h.W, rec.Updates[u].W) || h.B != rec.Updates[u].B {
					t.Fatalf("set %d, eta %v, update %d: SGD %v, PLA %v, %v", k, eta, u, h, rec.Updates[u].W, rec.Updates[u].B)
				}
			}
			if g.Converged != pla.Converged || (pla.Converged && g.Steps != pla.Epochs*d.N()) {
				t.Errorf("set %d: SGD Converged %v after %d steps; PLA %v after %d epochs", k, g.Converged, g.Steps, pla.Converged, pla.Epochs)
			}
			if k < 20 && !pla.Converged {
				t.Errorf("set %d is separable but PLA did not converge in 50 epochs", k)
			}
		}
	}
	// Steps is a hard limit on single-row steps, even mid-epoch.
	g, _ := SGD(lrNoisy(t), GDOptions{Eta: 1, Steps: 13, Seed: 1})
	if g.Steps != 13 || len(g.Path) != 14 || g.Converged {
		t.Errorf("Steps 13: made %d, path %d, Converged %v", g.Steps, len(g.Path), g.Converged)
	}
}

// TestEtaScalesW checks that from w = 0 the learning rate only scales the
// weights and never changes a decision: every score is η times the score of
// η = 1, so every sign and every mistake is the same. With η a power of 2
// the scaling is exact in floating point; with η = 0.3 it holds up to
// rounding (each update rounds once, relative 1e-16, and a few hundred
// updates stay far below the relative 1e-12 allowed), and the sequence of
// updated rows is identical.
func TestEtaScalesW(t *testing.T) {
	// Gaussian data: with η = 1 no score is exactly 0 (as it often is on
	// small-integer data), so rounding cannot flip a tie at η = 0.3.
	d := lrRandomData(t, rand.New(rand.NewPCG(8, 8)), 40, 3)
	type fit func(eta float64) (Hyperplane, []int)
	rowsOf := func(rec *Recorder) []int {
		var rows []int
		for _, u := range rec.Updates {
			rows = append(rows, u.Row)
		}
		return rows
	}
	batch := func(f func(*Dataset, Options) (Hyperplane, error)) fit {
		return func(eta float64) (Hyperplane, []int) {
			opt := Options{}
			opt.Eta, opt.MaxEpochs, opt.Order, opt.Seed = eta, 25, Shuffle, 4
			var rec Recorder
			opt.Control.Observer = rec.Observe
			h, err := f(d, opt)
			if err != nil {
				t.Fatal(err)
			}
			return h, rowsOf(&rec)
		}
	}
	for _, test := range []struct {
		name string
		fit  fit
	}{
		{"PLA", batch(func(d *Dataset, o Options) (Hyperplane, error) {
			r, err := PLA(d, o)
			return r.Hyperplane, err
		})},
		{"Pocket", batch(func(d *Dataset, o Options) (Hyperplane, error) {
			r, err := Pocket(d, o)
			return r.Hyperplane, err
		})},
		{"Averaged", batch(func(d *Dataset, o Options) (Hyperplane, error) {
			r, err := Averaged(d, o)
			return r.Hyperplane, err
		})},
		{"GradientDescent", func(eta float64) (Hyperplane, []int) {
			g, err := GradientDescent(d, GDOptions{Eta: eta, Steps: 40})
			if err != nil {
				t.Fatal(err)
			}
			return g.Hyperplane, []int{g.Steps}
		}},
	} {
		base, baseRows := test.fit(1)
		if len(baseRows) == 0 {
			t.Fatalf("%s: no update", test.name)
		}
		for _, eta := range []float64{0.25, 4, 0.3} {
			h, rows := test.fit(eta)
			tol := 0.0
			if eta == 0.3 {
				tol = 1e-12 * (1 + base.Norm() + math.Abs(base.B))
			}
			scaled := Hyperplane{W: make([]float64, len(base.W)), B: eta * base.B}
			for j, v := range base.W {
				scaled.W[j] = eta * v
			}
			if !reflect.DeepEqual(rows, baseRows) {
				t.Errorf("%s, eta %v: updates %v, with eta 1 %v", test.name, eta, rows, baseRows)
			}
			if !lrSameHyperplane(h, scaled, tol*eta) {
				t.Errorf("%s, eta %v: %v, want %v", test.name, eta, h, scaled)
			}
		}
	}
}
