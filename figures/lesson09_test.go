package figures

import "testing"

// TestKernelExplorer checks the captions against runs the lesson reports
// (degree 2 and RBF γ = 2 separate the circles; degree 1 is a line and
// cannot; RBF γ = 0.1 does not separate them in 100 epochs, γ = 50 circles
// 22 rows) and that bad controls are refused with a message.
func TestKernelExplorer(t *testing.T) {
	for _, c := range []struct {
		kind  string
		param float64
		want  string
	}{
		{"poly", 2, "poly:2:1: converged true after 8 epochs, 25 updates, 0 training errors"},
		{"rbf", 2, "rbf:2: converged true after 11 epochs, 21 updates, 0 training errors"},
		{"poly", 1, "poly:1:1: converged false after 100 epochs"},
		{"rbf", 0.1, "rbf:0.1: converged false after 100 epochs, 247 updates, 48 training errors"},
		{"rbf", 50, "rbf:50: converged true after 10 epochs, 24 updates, 0 training errors, 22 of 100 rows with α_i > 0"},
	} {
		_, caption, err := KernelExplorer(c.kind, c.param)
		if err != nil || len(caption) < len(c.want) || caption[:len(c.want)] != c.want {
			t.Errorf("KernelExplorer(%q, %v): caption %q, error %v; want it to start %q", c.kind, c.param, caption, err, c.want)
		}
	}
	for _, c := range []struct {
		kind  string
		param float64
		want  string
	}{
		{"poly", 2.5, "figures: kernel explorer: degree 2.5 is not a whole number from 1 to 8"},
		{"rbf", 0, "figures: kernel explorer: RBF γ 0 is not in (0, 1000]"},
		{"sigmoid", 1, `figures: kernel explorer: kernel "sigmoid" is not "poly" or "rbf"`},
	} {
		if _, _, err := KernelExplorer(c.kind, c.param); err == nil || err.Error() != c.want {
			t.Errorf("KernelExplorer(%q, %v): error %v, want %q", c.kind, c.param, err, c.want)
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
