package perceptron_test

import (
	"errors"
	"math"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
	"gonum.org/v1/gonum/mat"
)

// TestScalerConstantColumnIsOnlyCentred: a constant column gets its value
// as Mean and a Std of 1 ("only centred"), so Transform makes it 0. The
// float sum of n equal values need not divide back to the value: three
// rows of 0.1 had the mean 0.10000000000000002 and a Std of 1.4e-17, and
// Transform made them −1; MaxFloat64 had a Std of 2e292.
func TestScalerConstantColumnIsOnlyCentred(t *testing.T) {
	for _, v := range []float64{0.1, 0.7, 3.3, -2.2, math.MaxFloat64, -math.MaxFloat64, 5e-324, 0, 1e-300} {
		for _, n := range []int{1, 2, 3, 7, 10} {
			x := make([][]float64, n)
			y := make([]float64, n)
			for i := range x {
				x[i] = []float64{v, float64(i)}
				y[i] = float64(1 - 2*(i%2))
			}
			d, err := perceptron.NewDataset(x, y)
			if err != nil {
				t.Fatal(err)
			}
			s, err := perceptron.FitScaler(d)
			if err != nil {
				t.Fatalf("%v × %d: %v", v, n, err)
			}
			if s.Mean[0] != v || s.Std[0] != 1 {
				t.Errorf("a column of %d × %v: Mean %v, Std %v; want %v and 1", n, v, s.Mean[0], s.Std[0], v)
			}
			z, err := s.Transform(d)
			if err != nil {
				t.Fatal(err)
			}
			if col := mat.Col(nil, 0, z.X); math.Abs(col[0]) != 0 || col[n-1] != col[0] {
				t.Errorf("a column of %d × %v transforms to %v, want zeros", n, v, col)
			}
		}
	}
}

// TestSubsetInconsistentDataset: Subset of a hand-built Dataset with fewer
// labels than rows is ErrDimension, as TrainTestSplit says of it; it
// panicked (index out of range).
func TestSubsetInconsistentDataset(t *testing.T) {
	d := &perceptron.Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1}}
	if _, err := d.Subset([]int{1}); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("Subset: %v, want ErrDimension", err)
	}
	if _, err := (&perceptron.Dataset{}).Subset([]int{0}); !errors.Is(err, perceptron.ErrEmpty) {
		t.Errorf("Subset of a zero Dataset: %v, want ErrEmpty", err)
	}
}
