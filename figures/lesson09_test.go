package figures

import (
	"math"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestKernelExplorer checks the captions against runs the lesson reports
// (degree 2 and RBF γ = 2 separate the circles; degree 1 is a line and
// cannot; RBF γ = 0.1 does not separate them in 100 epochs, γ = 50 circles
// 22 rows) and that bad controls are refused with a message.
func TestKernelExplorer(t *testing.T) {
	for _, c := range []struct {
		kind  string
		param float64
		want  string
		bad   bool // want is the error, not the caption's start
	}{
		{"poly", 2, "poly:2:1: converged true after 8 epochs, 25 updates, 0 training errors", false},
		{"rbf", 2, "rbf:2: converged true after 11 epochs, 21 updates, 0 training errors", false},
		{"poly", 1, "poly:1:1: converged false after 100 epochs", false},
		{"rbf", 0.1, "rbf:0.1: converged false after 100 epochs, 247 updates, 48 training errors", false},
		{"rbf", 50, "rbf:50: converged true after 10 epochs, 24 updates, 0 training errors, 22 of 100 rows with α_i > 0", false},
		{"poly", 2.5, "figures: kernel explorer: degree 2.5 is not a whole number from 1 to 8", true},
		{"rbf", 0, "figures: kernel explorer: RBF γ 0 is not in (0, 1000]", true},
		{"sigmoid", 1, `figures: kernel explorer: kernel "sigmoid" is not "poly" or "rbf"`, true},
	} {
		_, caption, err := KernelExplorer(c.kind, c.param)
		if c.bad && (err == nil || err.Error() != c.want) {
			t.Errorf("KernelExplorer(%q, %v): error %v, want %q", c.kind, c.param, err, c.want)
		}
		if !c.bad && (err != nil || len(caption) < len(c.want) || caption[:len(c.want)] != c.want) {
			t.Errorf("KernelExplorer(%q, %v): caption %q, error %v; want it to start %q", c.kind, c.param, caption, err, c.want)
		}
	}
}

// TestBoundExplorer checks the caption against the numbers lesson 5 prints
// for its data set and that a margin out of range is refused.
func TestBoundExplorer(t *testing.T) {
	_, caption, err := BoundExplorer(0.03)
	want := "margin ≥ 0.030: R = 1.611, γ = 0.0529, bound (R/γ)² = 925, PLA made 127 updates (13.7% of the bound)"
	if err != nil || caption != want {
		t.Errorf("BoundExplorer(0.03): %q, %v; want %q", caption, err, want)
	}
	if _, _, err := BoundExplorer(-1); err == nil || err.Error() != "figures: bound explorer: margin -1 is outside [0, 0.5]" {
		t.Errorf("BoundExplorer(-1): error %v", err)
	}
}

// TestLesson09Numbers pins what lesson 9 quotes and its in-notebook checks
// leave to CI: on iris (setosa vs versicolor) the dual makes 10 updates on
// 4 flowers (rows 0, 3, 50, 79 with counts 5, 1, 3, 1) and ends at PLA's
// weights; on the integer digits 3 vs 8 its w is PLA's bit for bit, after
// 67 updates on 44 rows.
func TestLesson09Numbers(t *testing.T) {
	iris := Must(perceptron.Iris().Binary(0, 1, 0, 2))(t)
	digits := Must(perceptron.Digits().Binary(3, 8))(t)
	for _, tc := range []struct {
		name          string
		d             *perceptron.Dataset
		updates, rows int
		exact         bool
	}{{"iris", iris, 10, 4, false}, {"digits", digits, 67, 44, true}} {
		dual, err1 := perceptron.Dual(tc.d, perceptron.Options{})
		pla, err2 := perceptron.PLA(tc.d, perceptron.Options{})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		active := 0
		for _, a := range dual.Alpha {
			if a > 0 {
				active++
			}
		}
		if dual.Updates != tc.updates || active != tc.rows {
			t.Errorf("%s: %d updates on %d rows, want %d on %d", tc.name, dual.Updates, active, tc.updates, tc.rows)
		}
		for j := range pla.W {
			if d := math.Abs(pla.W[j] - dual.W[j]); d > 1e-12*(1+math.Abs(pla.W[j])) || (tc.exact && d != 0) {
				t.Errorf("%s: w[%d] PLA %v, dual %v", tc.name, j, pla.W[j], dual.W[j])
			}
		}
	}
	dual := Must(perceptron.Dual(iris, perceptron.Options{}))(t)
	for i, want := range map[int]int{0: 5, 3: 1, 50: 3, 79: 1} {
		if dual.Alpha[i] != want {
			t.Errorf("iris: alpha[%d] = %d, want %d", i, dual.Alpha[i], want)
		}
	}
}

// TestLesson09WideRBF pins lesson 9's wide RBF kernel (γ = 0.1) on the two
// circles: 100 epochs leave 48 training errors, but the run converges after
// 196 epochs, as it must: an RBF Gram matrix of distinct points is positive
// definite, so the points are separable in the kernel's feature space.
func TestLesson09WideRBF(t *testing.T) {
	d := Must(perceptron.Circles(100, 0.05, 1))(t)
	k := perceptron.RBFKernel{Gamma: 0.1}
	short := Must(perceptron.KernelPerceptron(d, k, perceptron.Options{MaxEpochs: 100}))(t)
	e := Must(short.Errors(d))(t)
	long := Must(perceptron.KernelPerceptron(d, k, perceptron.Options{MaxEpochs: 1000}))(t)
	if short.Converged || e != 48 || !long.Converged || long.Epochs != 196 {
		t.Errorf("RBF γ = 0.1: after 100 epochs converged %v with %d errors; with 1000 allowed converged %v after %d epochs; want false, 48, true, 196", short.Converged, e, long.Converged, long.Epochs)
	}
}
