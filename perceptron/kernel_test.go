package perceptron_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

func TestParseKernel(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{in: "linear", want: "linear"},
		{in: "poly:2", want: "poly:2:1"},
		{in: "poly:3:0", want: "poly:3:0"},
		{in: "poly:3:1.5", want: "poly:3:1.5"},
		{in: "rbf:0.5", want: "rbf:0.5"},
		{in: "sigmoid", err: `perceptron: unknown kernel "sigmoid": want linear, poly:DEGREE[:C] or rbf:GAMMA`},
		{in: "linear:2", err: `perceptron: unknown kernel "linear:2": want linear, poly:DEGREE[:C] or rbf:GAMMA`},
		{in: "poly", err: `perceptron: unknown kernel "poly": want linear, poly:DEGREE[:C] or rbf:GAMMA`},
		{in: "poly:x", err: `perceptron: kernel "poly:x": degree "x" is not an integer`},
		{in: "poly:0", err: "perceptron: poly kernel: Degree must be >= 1, got 0"},
		{in: "poly:-3000000000", err: "perceptron: poly kernel: Degree must be >= 1, got -3000000000"},
		{in: "poly:-99999999999999999999", err: "perceptron: poly kernel: Degree must be >= 1, got -99999999999999999999"},
		// Beyond a 32-bit int (386 said "not an integer") and beyond an int64.
		{in: "poly:3000000000", err: "perceptron: poly kernel: Degree must be <= 64 (MaxPolyDegree), got 3000000000"},
		{in: "poly:99999999999999999999", err: "perceptron: poly kernel: Degree must be <= 64 (MaxPolyDegree), got 99999999999999999999"},
		{in: "poly:2:NaN", err: "perceptron: poly kernel: C must be finite, got NaN"},
		{in: "rbf:0", err: "perceptron: rbf kernel: Gamma must be a finite number > 0, got 0"},
		{in: "rbf:-1", err: "perceptron: rbf kernel: Gamma must be a finite number > 0, got -1"},
		{in: "rbf:abc", err: `perceptron: kernel "rbf:abc": gamma "abc" is not a number`},
		// A gamma written > 0 that rounds to 0 is said to (helper-70: "got
		// 0"); zero written in any spelling is 0.
		{in: "rbf:1e-400", err: `perceptron: kernel "rbf:1e-400": gamma "1e-400" is below the float64 range (it rounds to 0, and Gamma must be > 0; the smallest is about 4.9e-324)`},
		{in: "rbf:0x1p-1100", err: `perceptron: kernel "rbf:0x1p-1100": gamma "0x1p-1100" is below the float64 range (it rounds to 0, and Gamma must be > 0; the smallest is about 4.9e-324)`},
		{in: "rbf:2e-324", err: `perceptron: kernel "rbf:2e-324": gamma "2e-324" is below the float64 range (it rounds to 0, and Gamma must be > 0; the smallest is about 4.9e-324)`},
		{in: "rbf:0.000e-5", err: "perceptron: rbf kernel: Gamma must be a finite number > 0, got 0"},
		{in: "rbf:-0x0p3", err: "perceptron: rbf kernel: Gamma must be a finite number > 0, got -0"},
		{in: "rbf:-1e-400", err: "perceptron: rbf kernel: Gamma must be a finite number > 0, got -0"},
		{in: "rbf:3e-324", want: "rbf:5e-324"},
	} {
		k, err := perceptron.ParseKernel(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || k.String() != c.want {
			t.Errorf("%q: %v, %v; want %s", c.in, k, err, c.want)
		}
	}
}

// TestKernelEval checks the kernels on hand-computed values (exact in
// binary, except exp, which is within an ulp).
func TestKernelEval(t *testing.T) {
	x, z := []float64{1, 2}, []float64{3, -1}
	for _, c := range []struct {
		k    perceptron.Kernel
		want float64
	}{
		{perceptron.LinearKernel{}, 1},
		{perceptron.PolyKernel{Degree: 2, C: 1}, 4},
		{perceptron.PolyKernel{Degree: 3, C: 0}, 1},
		{perceptron.PolyKernel{Degree: 2, C: -3}, 4},
		{perceptron.RBFKernel{Gamma: 0.5}, 0.0015034391929775724}, // e^-6.5, Python's math.exp
	} {
		if got := c.k.Eval(x, z); got != c.want && !(c.k.String() == "rbf:0.5" && math.Abs(got-c.want) <= 2*(math.Nextafter(c.want, 1)-c.want)) {
			t.Errorf("%v: k(x, z) = %v, want %v", c.k, got, c.want)
		}
	}
}

// TestKernelXOR learns XOR, which no line separates (Separable says so),
// with the degree-2 polynomial and the RBF kernels: zero training errors.
func TestKernelXOR(t *testing.T) {
	xor := perceptron.XORData()
	if s, err := perceptron.Separable(xor, perceptron.Options{}); s.Separable || err != nil {
		t.Fatalf("XOR separable = %v, %v", s.Separable, err)
	}
	for _, k := range []perceptron.Kernel{perceptron.PolyKernel{Degree: 2, C: 1}, perceptron.RBFKernel{Gamma: 1}} {
		m, err := perceptron.KernelPerceptron(xor, k, perceptron.Options{})
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.Errors(xor)
		if err != nil || e != 0 || !m.Converged {
			t.Errorf("%v: %d errors (%v), converged %v after %d updates", k, e, err, m.Converged, m.Updates)
		}
		p, err := m.PredictAll(xor)
		if err != nil || !slices.Equal(p, xor.Y) {
			t.Errorf("%v: predictions %v, want %v", k, p, xor.Y)
		}
	}
	// The linear kernel cannot: it never has a clean epoch.
	opt := perceptron.Options{}
	opt.MaxEpochs = 50
	m, err := perceptron.KernelPerceptron(xor, perceptron.LinearKernel{}, opt)
	if err != nil || m.Converged {
		t.Errorf("linear kernel on XOR: converged %v, %v", m.Converged, err)
	}
}

// TestKernelCircles learns two concentric circles: not linearly separable
// (Separable, and PLA never converges) but learned with no training error
// by the RBF and degree-2 polynomial kernels, and the models generalise to
// a fresh noisy draw.
func TestKernelCircles(t *testing.T) {
	train, err := perceptron.Circles(100, 0.05, 1)
	if err != nil {
		t.Fatal(err)
	}
	test, err := perceptron.Circles(200, 0.05, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := perceptron.Separable(train, perceptron.Options{}); s.Separable || err != nil {
		t.Fatalf("circles separable = %v, %v", s.Separable, err)
	}
	opt := perceptron.Options{}
	opt.MaxEpochs = 200
	if r, err := perceptron.PLA(train, opt); err != nil || r.Converged {
		t.Errorf("PLA on circles converged = %v, %v", r.Converged, err)
	}
	for _, k := range []perceptron.Kernel{perceptron.RBFKernel{Gamma: 2}, perceptron.PolyKernel{Degree: 2, C: 1}} {
		m, err := perceptron.KernelPerceptron(train, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.Errors(train)
		if err != nil || e != 0 || !m.Converged {
			t.Errorf("%v: %d training errors (%v), converged %v", k, e, err, m.Converged)
		}
		// Noise 0.05 against a gap of 0.5 between the circles: a few
		// test errors at most.
		if e, err := m.Errors(test); err != nil || e > 10 {
			t.Errorf("%v: %d of 200 test errors (%v)", k, e, err)
		}
	}
}

// TestLinearKernelEqualsDual checks that the kernel perceptron with the
// linear kernel is Dual: same α, b and counters, on integer data (exact),
// over every order.
func TestLinearKernelEqualsDual(t *testing.T) {
	orders := []perceptron.Order{perceptron.InOrder, perceptron.RandomCycle, perceptron.Shuffle, perceptron.RandomMistake}
	for seed := uint64(1); seed <= 100; seed++ {
		d := intData(t, 5+int(seed%20), 1+int(seed%3), seed)
		opt := perceptron.Options{}
		opt.MaxEpochs = 1 + int(seed%10)
		opt.Order = orders[seed%4]
		opt.Seed = seed
		opt.NoBias = seed%3 == 0
		du, err := perceptron.Dual(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		m, err := perceptron.KernelPerceptron(d, perceptron.LinearKernel{}, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := perceptron.Result{Stats: m.Stats}
		if f := sameRun(perceptron.Result{Stats: du.Stats}, got); f != "" || !slices.Equal(du.Alpha, m.Alpha) || du.B != m.B {
			t.Errorf("seed %d: kernel %+v differs from dual %+v (%s)", seed, m, du, f)
		}
		// Score = w·x + b on integer data: exact.
		for i := 0; i < d.N(); i++ {
			s, err := m.Score(d.Row(i))
			if err != nil || s != dotT(du.W, d.Row(i))+du.B {
				t.Errorf("seed %d row %d: score %v, dual %v", seed, i, s, dotT(du.W, d.Row(i))+du.B)
			}
		}
	}
}

func TestKernelPerceptronErrors(t *testing.T) {
	xor := perceptron.XORData()
	for _, c := range []struct {
		k    perceptron.Kernel
		want error
	}{
		{nil, perceptron.ErrOption},
		{perceptron.PolyKernel{Degree: 0}, perceptron.ErrOption},
		{perceptron.PolyKernel{Degree: 2, C: math.Inf(1)}, perceptron.ErrOption},
		{perceptron.RBFKernel{}, perceptron.ErrOption},
	} {
		if _, err := perceptron.KernelPerceptron(xor, c.k, perceptron.Options{}); !errors.Is(err, c.want) {
			t.Errorf("%v: err = %v, want %v", c.k, err, c.want)
		}
	}
	m, err := perceptron.KernelPerceptron(xor, perceptron.RBFKernel{Gamma: 1}, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Score([]float64{1}); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("Score wrong dimension: %v", err)
	}
	if _, err := m.Predict([]float64{1, math.NaN()}); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("Predict NaN: %v", err)
	}
}
