package perceptron

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

// TestOneRuleForEta: Options, GDOptions and Online read η with the same
// rule (learningRate): 0 is the default 1, any finite number > 0 is taken
// as is, and a negative, NaN or infinite η is an ErrOption error, in all
// three alike.
func TestOneRuleForEta(t *testing.T) {
	d := lrSeparable(t)
	type fit func(eta float64) (any, error)
	learners := map[string]fit{
		"PLA": func(eta float64) (any, error) {
			r, err := PLA(d, Options{Eta: eta})
			if err != nil {
				return nil, err
			}
			return r.Hyperplane, nil
		},
		"GradientDescent": func(eta float64) (any, error) {
			r, err := GradientDescent(d, GDOptions{Eta: eta})
			if err != nil {
				return nil, err
			}
			return r.Path, nil
		},
		"Online": func(eta float64) (any, error) {
			o, err := NewOnline(d.D(), eta, TieMistake)
			if err != nil {
				return nil, err
			}
			for i := 0; i < d.N(); i++ {
				if _, err := o.Step(d.Row(i), d.Y[i]); err != nil {
					return nil, err
				}
			}
			return o.Hyperplane(), nil
		},
		"Online (Eta set by hand)": func(eta float64) (any, error) {
			o := &Online{W: make([]float64, d.D()), Eta: eta}
			for i := 0; i < d.N(); i++ {
				if _, err := o.Step(d.Row(i), d.Y[i]); err != nil {
					return nil, err
				}
			}
			return o.Hyperplane(), nil
		},
	}
	for name, f := range learners {
		zero, err := f(0)
		if err != nil {
			t.Fatalf("%s, Eta 0: %v", name, err)
		}
		one, err := f(1)
		if err != nil {
			t.Fatalf("%s, Eta 1: %v", name, err)
		}
		if !reflect.DeepEqual(zero, one) {
			t.Errorf("%s: Eta 0 learned %v, Eta 1 %v: 0 must mean 1", name, zero, one)
		}
		if _, err := f(0.25); err != nil {
			t.Errorf("%s, Eta 0.25: %v", name, err)
		}
		for _, bad := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
			if _, err := f(bad); !errors.Is(err, ErrOption) {
				t.Errorf("%s, Eta %v: %v, want ErrOption", name, bad, err)
			}
		}
	}
}

// TestGDOptionsZeroValue: the zero GDOptions is the documented default
// (η = 1, 1000 steps), not an error: on data that is not separable the
// descent makes exactly 1000 steps, as with GDOptions{Eta: 1, Steps: 1000}.
func TestGDOptionsZeroValue(t *testing.T) {
	d := lrNoisy(t)
	for _, l := range gdLearners {
		zero, err := l.fit(d, GDOptions{})
		if err != nil {
			t.Fatalf("%s(GDOptions{}): %v", l.name, err)
		}
		explicit, err := l.fit(d, GDOptions{Eta: 1, Steps: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(zero, explicit) {
			t.Errorf("%s: the zero GDOptions differs from {Eta: 1, Steps: 1000}", l.name)
		}
		if zero.Converged {
			t.Errorf("%s converged on data that is not separable", l.name)
		}
		if l.name == "SGD" && (zero.Steps != 1000 || len(zero.Path) != 1001) {
			t.Errorf("SGD(GDOptions{}): %d steps, %d points on the path; want 1000 and 1001", zero.Steps, len(zero.Path))
		}
	}
}

// TestGDStats: GD results embed Stats, read as for the other learners. From
// w = 0, SGD makes exactly the updates of PLA with the Shuffle order and the
// same seed, so its Stats equal PLA's; GradientDescent's every step is one
// update and one pass over the data.
func TestGDStats(t *testing.T) {
	d := lrSeparable(t)
	for seed := uint64(0); seed < 5; seed++ {
		pla, err := PLA(d, Options{Order: Shuffle, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		sgd, err := SGD(d, GDOptions{Seed: seed, Steps: 100000})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sgd.Stats, pla.Stats) {
			t.Errorf("seed %d: SGD's Stats %+v, PLA's %+v", seed, sgd.Stats, pla.Stats)
		}
		if !reflect.DeepEqual(sgd.W, pla.W) || sgd.B != pla.B {
			t.Errorf("seed %d: SGD learned %v, PLA %v", seed, sgd.Hyperplane, pla.Hyperplane)
		}
	}
	gd, err := GradientDescent(d, GDOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// One epoch a step and the clean one, of no update, as PLA counts it
	// (the clean pass was not counted, helper-62).
	if runs := gd.UpdatesPerEpoch(); !gd.Converged || gd.Steps == 0 || gd.Updates != gd.Steps || gd.Epochs != gd.Steps+1 ||
		gd.LastMistakeRow != -1 || len(runs) != gd.Epochs || runs[len(runs)-1] != 0 || runs[0] != 1 {
		t.Errorf("GradientDescent: Steps %d, Stats %+v", gd.Steps, gd.Stats)
	}
}

// TestEtaNotSubnormal: PLA's updates do not depend on η (w and b start at
// 0 and scale with it), and a power of 2 scales every update exactly while
// nothing underflows: η = 2^-900 makes the updates of η = 1, with weights
// 2^-900 times theirs, bit for bit. A subnormal η has no such exactness
// (η = 5e-324 made PLA miss a separator it finds with η = 1, silently), so
// every learner refuses it with ErrOption, as the one η rule says.
func TestEtaNotSubnormal(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		d, _, err := SeparableData(100, 3, 0.05, seed)
		if err != nil {
			t.Fatal(err)
		}
		one, err := PLA(d, Options{})
		if err != nil || !one.Converged {
			t.Fatalf("seed %d, η = 1: %v, %v", seed, one, err)
		}
		small, err := PLA(d, Options{Eta: 0x1p-900})
		if err != nil || small.Updates != one.Updates || small.B != math.Ldexp(one.B, -900) {
			t.Fatalf("seed %d, η = 2^-900: %v, %v; want the updates of η = 1", seed, small, err)
		}
		for j, w := range one.W {
			if small.W[j] != math.Ldexp(w, -900) {
				t.Errorf("seed %d: w[%d] = %v with η = 2^-900, want 2^-900 × %v", seed, j, small.W[j], w)
			}
		}
	}
	d := lrSeparable(t)
	for _, eta := range []float64{5e-324, 1e-310, math.Nextafter(0x1p-1022, 0)} {
		if _, err := PLA(d, Options{Eta: eta}); !errors.Is(err, ErrOption) {
			t.Errorf("PLA, Eta %v: %v, want ErrOption", eta, err)
		}
		if _, err := KernelPerceptron(d, LinearKernel{}, Options{Eta: eta}); !errors.Is(err, ErrOption) {
			t.Errorf("KernelPerceptron, Eta %v: %v, want ErrOption", eta, err)
		}
		if _, err := GradientDescent(d, GDOptions{Eta: eta}); !errors.Is(err, ErrOption) {
			t.Errorf("GradientDescent, Eta %v: %v, want ErrOption", eta, err)
		}
		if _, err := NewOnline(d.D(), eta, TieMistake); !errors.Is(err, ErrOption) {
			t.Errorf("NewOnline, Eta %v: %v, want ErrOption", eta, err)
		}
		o := &Online{W: make([]float64, d.D()), Eta: eta}
		if _, err := o.Step(d.Row(0), d.Y[0]); !errors.Is(err, ErrOption) {
			t.Errorf("Online.Step, Eta %v: %v, want ErrOption", eta, err)
		}
	}
	if _, err := PLA(d, Options{Eta: 0x1p-1022}); err != nil {
		t.Errorf("PLA, Eta 2^-1022 (the smallest normal): %v", err)
	}
}

// TestEtaPowerOfTwoScoresUnderflow pins the limit of Options.Eta's claim
// that η a power of 2 makes the updates of η = 1: it needs the scores'
// products η x_ij·x_kj in the normal range, not only the updates η x_j
// (helper-71). With η = 2^-500 on the rows 2^-300 → +1, 2^-300 → +1 the
// updates are 2^-800, but the second row's score is 2^-1100, which
// rounds to 0, a mistake: η = 1 converges after one update, η = 2^-500
// never does. Bound refuses such a run (ηR² = 2^-1100), with a second
// class for it to answer on.
func TestEtaPowerOfTwoScoresUnderflow(t *testing.T) {
	x := 0x1p-300
	d, err := NewDataset([][]float64{{x}, {x}}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	one, err := PLA(d, Options{NoBias: true})
	if err != nil || !one.Converged || one.Updates != 1 {
		t.Fatalf("η = 1: %+v, %v; want one update and a clean pass", one, err)
	}
	small, err := PLA(d, Options{NoBias: true, Eta: 0x1p-500, MaxEpochs: 20})
	if err != nil || small.Converged || small.Updates != 40 {
		t.Errorf("η = 2^-500: %+v, %v; want a mistake on every row (the score 2^-1100 rounds to 0)", small, err)
	}
	two, err := NewDataset([][]float64{{x}, {-x}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Bound(two, Options{NoBias: true, Eta: 0x1p-500}); !errors.Is(err, ErrUndecided) {
		t.Errorf("Bound, η = 2^-500 on rows of 2^-300: %v, want ErrUndecided (ηR² below 2^-1022)", err)
	}
}
