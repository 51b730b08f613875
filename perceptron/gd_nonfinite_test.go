package perceptron_test

import (
	"errors"
	"math"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestDescentLossesAreFinite: GradientDescent and SGD never record a loss
// that is NaN or ±Inf: a point of the path whose score or loss overflows
// ends the run with ErrNonFinite, and every recorded Losses[k] is
// Loss(Path[k]). SGD on ±1e200 went on past a score of +Inf with Losses
// [0 +Inf 0 0] and no error (PLA stops there), and an Init whose scores
// are NaN gave Losses[0] = NaN.
func TestDescentLossesAreFinite(t *testing.T) {
	big, err := perceptron.NewDataset([][]float64{{1e200}, {-1e200}}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	nan, err := perceptron.NewDataset([][]float64{{1e300, -1e300}, {-1, -2}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		d    *perceptron.Dataset
		opt  perceptron.GDOptions
	}{
		{"±1e200", big, perceptron.GDOptions{Steps: 3}},
		{"Init scores NaN", nan, perceptron.GDOptions{Steps: 3, Init: perceptron.Hyperplane{W: []float64{1e10, 1e10}}}},
	} {
		for name, learn := range map[string]func(*perceptron.Dataset, perceptron.GDOptions) (*perceptron.GDResult, error){
			"GradientDescent": perceptron.GradientDescent, "SGD": perceptron.SGD,
		} {
			g, err := learn(c.d, c.opt)
			if g == nil {
				t.Fatalf("%s, %s: no result (%v)", name, c.name, err)
			}
			for k, l := range g.Losses {
				want, lerr := perceptron.Loss(g.Path[k], c.d)
				if math.IsNaN(l) || math.IsInf(l, 0) || lerr != nil || l != want {
					t.Errorf("%s, %s: Losses[%d] = %v, Loss(Path[%d]) = %v, %v", name, c.name, k, l, k, want, lerr)
				}
			}
			if len(g.Losses) != len(g.Path) {
				t.Errorf("%s, %s: %d losses for %d points", name, c.name, len(g.Losses), len(g.Path))
			}
			if c.name == "Init scores NaN" && !errors.Is(err, perceptron.ErrNonFinite) {
				t.Errorf("%s, %s: %v, want ErrNonFinite", name, c.name, err)
			}
		}
	}
	// SGD stops where PLA stops, on the score that overflows.
	_, errPLA := perceptron.PLA(big, perceptron.Options{Order: perceptron.Shuffle})
	_, errSGD := perceptron.SGD(big, perceptron.GDOptions{Steps: 10})
	if !errors.Is(errPLA, perceptron.ErrNonFinite) || !errors.Is(errSGD, perceptron.ErrNonFinite) {
		t.Errorf("±1e200: PLA %v, SGD %v; want ErrNonFinite from both", errPLA, errSGD)
	}
}
