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
	if !gd.Converged || gd.Steps == 0 || gd.Updates != gd.Steps || gd.Epochs != gd.Steps ||
		gd.LastMistakeRow != -1 || gd.UpdateRuns.Len() != gd.Steps {
		t.Errorf("GradientDescent: Steps %d, Stats %+v", gd.Steps, gd.Stats)
	}
}
