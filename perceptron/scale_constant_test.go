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
			for i := range x {
				x[i] = []float64{v, float64(i)}
			}
			d := alternating(t, x)
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

// TestScalerZeroColumnMeanIsPlusZero: a column of zeros, −0 first, has
// the mean +0, as a sum gives it (and NumPy's mean of [−0, 0, −0]); the
// constant column's mean was its first value, −0.
func TestScalerZeroColumnMeanIsPlusZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, col := range [][]float64{{negZero}, {negZero, 0, negZero}, {negZero, negZero}, {0, negZero}} {
		x := make([][]float64, len(col))
		for i, v := range col {
			x[i] = []float64{v}
		}
		s, err := perceptron.FitScaler(alternating(t, x))
		if err != nil {
			t.Fatal(err)
		}
		if s.Mean[0] != 0 || math.Signbit(s.Mean[0]) || s.Std[0] != 1 {
			t.Errorf("a column of %v: Mean %v (sign bit %v), Std %v; want +0 and 1", col, s.Mean[0], math.Signbit(s.Mean[0]), s.Std[0])
		}
	}
}

// alternating returns the data set of the rows x labelled +1, −1, +1, ….
func alternating(t *testing.T, x [][]float64) *perceptron.Dataset {
	t.Helper()
	y := make([]float64, len(x))
	for i := range y {
		y[i] = float64(1 - 2*(i%2))
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return d
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

// TestUnscaleOverflowsOnlyWhenTheResultDoes: Unscale is an ErrNonFinite
// error only when w' or b' overflow, not when a part of its sum does:
// w = 1e300 with Mean = Std = 1e10 gives w' = 1e290 and b' = −1e300, where
// w·Mean overflowed first ("b ... overflows to -Inf").
func TestUnscaleOverflowsOnlyWhenTheResultDoes(t *testing.T) {
	s := &perceptron.Scaler{Mean: []float64{1e10}, Std: []float64{1e10}}
	h, err := s.Unscale(perceptron.Hyperplane{W: []float64{1e300}})
	if err != nil || h.W[0] != 1e290 || h.B != -1e300 {
		t.Errorf("w 1e300, Mean = Std = 1e10: %v, %v; want w' 1e290, b' -1e300", h, err)
	}
	s = &perceptron.Scaler{Mean: []float64{1e300}, Std: []float64{1e-10}}
	if _, err := s.Unscale(perceptron.Hyperplane{W: []float64{1e10}}); !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("w' = 1e20, b' = -1e320: %v, want ErrNonFinite", err)
	}
	// Ordinary values keep the bits of (w·Mean)/Std.
	s = &perceptron.Scaler{Mean: []float64{0.3, -7}, Std: []float64{0.7, 3}}
	h, err = s.Unscale(perceptron.Hyperplane{W: []float64{1.1, 0.2}, B: 0.5})
	w0, w1, m0, m1, s0, s1 := 1.1, 0.2, 0.3, -7.0, 0.7, 3.0 // float64 arithmetic, not constants'
	if want := 0.5 - float64(w0*m0)/s0 - float64(w1*m1)/s1; err != nil || h.B != want {
		t.Errorf("b' = %v (%v), want %v", h.B, err, want)
	}
}
