package perceptron_test

import (
	"errors"
	"math"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// A generator asked for more than MaxGeneratedValues values is ErrOption,
// before it allocates: n = 2^40 ended the program with a fatal "out of
// memory" (a notebook's kernel with it), which no caller can catch.
func TestGeneratorsRefuseHugeSizes(t *testing.T) {
	const m = perceptron.MaxGeneratedValues
	for _, n := range []int{m + 1, math.MaxInt} {
		for name, call := range map[string]func() error{
			"SeparableData n": func() error { _, _, err := perceptron.SeparableData(n, 1, 0.1, 1); return err },
			"SeparableData d": func() error { _, _, err := perceptron.SeparableData(2, n, 0.1, 1); return err },
			"NoisyData":       func() error { _, _, err := perceptron.NoisyData(n/2+1, 2, 0.1, 0.1, 1); return err },
			"LFDData":         func() error { _, _, err := perceptron.LFDData(n/2+1, 1); return err },
			"LFDDataBoth":     func() error { _, _, err := perceptron.LFDDataBothClasses(n/2+1, 1); return err },
			"CreditApplicants": func() error {
				_, _, err := perceptron.CreditApplicants(n/4+1, 0.1, 1)
				return err
			},
			"Circles":         func() error { _, err := perceptron.Circles(n/2+1, 0.1, 1); return err },
			"LFDExperiment n": func() error { _, err := perceptron.LFDExperiment(1, n/2+1, perceptron.InOrder, 1); return err },
			"LFDExperiment runs": func() error {
				_, err := perceptron.LFDExperiment(n/2+1, 10, perceptron.InOrder, 1)
				return err
			},
			"NewOnline": func() error { _, err := perceptron.NewOnline(n, 1, perceptron.TieMistake); return err },
		} {
			if err := call(); !errors.Is(err, perceptron.ErrOption) {
				t.Errorf("%s, %d: %v; want ErrOption", name, n, err)
			}
		}
	}
}
