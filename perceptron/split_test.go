package perceptron

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// indexed returns n rows whose only feature is the row index, so that a
// split can be traced back; row i is labelled +1 when i is even.
func indexed(n int) *Dataset {
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
		y[i] = -1
		if i%2 == 0 {
			y[i] = 1
		}
	}
	return &Dataset{X: mat.NewDense(n, 1, x), Y: y, Features: []string{"i"}, Classes: [2]string{"odd", "even"}}
}

func TestTrainTestSplit(t *testing.T) {
	for _, tc := range []struct {
		n        int
		fraction float64
		wantTest int
	}{
		{10, 0.25, 3}, // round(2.5) = 3: halves round away from zero.
		{10, 0.2, 2},
		{10, 0.01, 1}, // round(0.1) = 0, clamped to 1.
		{10, 0.99, 9}, // round(9.9) = 10, clamped to 9.
		{2, 0.5, 1},
		{150, 0.3, 45},
	} {
		d := indexed(tc.n)
		train, test, err := TrainTestSplit(d, tc.fraction, 7)
		if err != nil {
			t.Errorf("n=%d fraction=%v: %v", tc.n, tc.fraction, err)
			continue
		}
		if test.N() != tc.wantTest || train.N() != tc.n-tc.wantTest {
			t.Errorf("n=%d fraction=%v: train %d test %d, want %d %d", tc.n, tc.fraction, train.N(), test.N(), tc.n-tc.wantTest, tc.wantTest)
		}
		// Every row lands in exactly one part, with its own label.
		seen := make([]int, tc.n)
		for _, part := range []*Dataset{train, test} {
			for k := range part.N() {
				i := int(part.Row(k)[0])
				seen[i]++
				if part.Y[k] != d.Y[i] {
					t.Errorf("n=%d: row %d has label %v, want %v", tc.n, i, part.Y[k], d.Y[i])
				}
			}
			if !reflect.DeepEqual(part.Features, d.Features) || part.Classes != d.Classes {
				t.Errorf("n=%d: names %q %q not carried over", tc.n, part.Features, part.Classes)
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("n=%d fraction=%v: row %d appears %d times", tc.n, tc.fraction, i, c)
			}
		}
	}
}

func TestTrainTestSplitSeeds(t *testing.T) {
	d := indexed(100)
	train1, test1, _ := TrainTestSplit(d, 0.3, 1)
	train2, test2, _ := TrainTestSplit(d, 0.3, 1)
	if !mat.Equal(train1.X, train2.X) || !mat.Equal(test1.X, test2.X) {
		t.Error("the same seed gave different splits")
	}
	_, test3, _ := TrainTestSplit(d, 0.3, 2)
	if mat.Equal(test1.X, test3.X) {
		t.Error("seeds 1 and 2 gave the same test set")
	}
	// The rows are permuted, not taken in file order.
	if test1.Row(0)[0] == 0 && test1.Row(1)[0] == 1 && test1.Row(2)[0] == 2 {
		t.Error("the test set is the first rows in order")
	}
}

func TestMultiSplit(t *testing.T) {
	m := Iris()
	train, test, err := m.Split(0.2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if train.N() != 120 || test.N() != 30 || train.D() != 4 {
		t.Fatalf("train %d×%d test %d, want 120×4 and 30", train.N(), train.D(), test.N())
	}
	// The same seed permutes rows as TrainTestSplit does.
	_, idx, _ := TrainTestSplit(indexed(150), 0.2, 3)
	for k := range test.N() {
		i := int(idx.Row(k)[0])
		if !reflect.DeepEqual(test.Row(k), m.Row(i)) || test.Labels[k] != m.Labels[i] {
			t.Errorf("test row %d is %v class %d, want row %d of iris: %v class %d", k, test.Row(k), test.Labels[k], i, m.Row(i), m.Labels[i])
		}
	}
	if !reflect.DeepEqual(train.ClassNames, m.ClassNames) || !reflect.DeepEqual(test.Features, m.Features) {
		t.Error("names not carried over")
	}
	// The parts own their names.
	train.ClassNames[0] = "changed"
	if test.ClassNames[0] != "setosa" {
		t.Error("the parts share ClassNames")
	}
}

func TestSplitErrors(t *testing.T) {
	for _, tc := range []struct {
		d        *Dataset
		fraction float64
		want     error
	}{
		{indexed(10), 0, ErrOption},
		{indexed(10), 1, ErrOption},
		{indexed(10), -0.5, ErrOption},
		{indexed(10), math.NaN(), ErrOption},
		{indexed(1), 0.5, ErrOption},
		{nil, 0.5, ErrEmpty},
		{&Dataset{X: mat.NewDense(2, 1, nil), Y: []float64{1}}, 0.5,
			ErrDimension},
	} {
		if _, _, err := TrainTestSplit(tc.d, tc.fraction, 1); !errors.Is(err, tc.want) {
			t.Errorf("TrainTestSplit(fraction %v): error %v, want %v", tc.fraction, err, tc.want)
		}
	}
	if _, _, err := Iris().Split(1.5, 1); !errors.Is(err, ErrOption) {
		t.Errorf("MultiDataset.Split(1.5): error %v", err)
	}
	var empty *MultiDataset
	if _, _, err := empty.Split(0.5, 1); err != ErrEmpty {
		t.Errorf("nil MultiDataset: error %v, want ErrEmpty", err)
	}
}
