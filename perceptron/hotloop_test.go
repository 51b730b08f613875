package perceptron

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// hotData returns n noisy points in d dimensions with small integer
// coordinates (so that scores of exactly 0, ties, happen) labelled by a
// random hyperplane with 10% of the labels flipped.
func hotData(t testing.TB, n, d int, seed uint64) *Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	x := make([][]float64, n)
	y := make([]float64, n)
	u := make([]float64, d)
	for j := range u {
		u[j] = rng.NormFloat64()
	}
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = float64(rng.IntN(7) - 3)
		}
		y[i] = 1
		if dot(u, x[i]) < 0 {
			y[i] = -1
		}
		if rng.Float64() < 0.1 {
			y[i] = -y[i]
		}
	}
	return lrData(t, x, y)
}

// rowwisePLA is PLA with every row scored on its own by visit (the loop
// sweep replaces) and the data validated at the door.
func rowwisePLA(d *Dataset, opt Options) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	r := newRun(d, opt)
	for r.epoch = 0; r.epoch < opt.MaxEpochs && !r.stopped(); r.epoch++ {
		if opt.Order == RandomMistake {
			r.pass()
		} else {
			if opt.Order == Shuffle {
				r.shuffle()
			}
			r.rowwisePass()
		}
		if r.cur == 0 {
			r.res.Converged = true
			r.epoch++
			break
		}
	}
	r.res.Epochs = r.epoch
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &Result{Hyperplane: Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}, Stats: r.res}, r.stop
}

// TestSweepMatchesRowwise checks that the blocked scoring of sweep changes
// nothing: the same weights bit for bit, the same counters and the same
// updates shown to the Observer as scoring row by row, for every order, tie
// policy, bias, update limit, and row counts that are and are not a
// multiple of the block.
func TestSweepMatchesRowwise(t *testing.T) {
	for _, n := range []int{2, 5, 8, 203} {
		for _, dim := range []int{1, 3, 17, 259} {
			data := hotData(t, n, dim, uint64(n*dim))
			if data.Validate() != nil {
				continue // one class only
			}
			for _, order := range []Order{InOrder, RandomCycle, Shuffle} {
				for _, tie := range []Tie{TieMistake, TieNegative} {
					for _, noBias := range []bool{false, true} {
						for _, maxUpdates := range []int{0, 7} {
							opt := Options{}
							opt.MaxEpochs, opt.Order, opt.Tie, opt.NoBias, opt.MaxUpdates, opt.Seed = 5, order, tie, noBias, maxUpdates, 3
							name := fmt.Sprintf("n=%d d=%d %v %v noBias=%v maxUpdates=%d", n, dim, order, tie, noBias, maxUpdates)
							want, err := rowwisePLA(data, opt)
							if err != nil {
								t.Fatal(err)
							}
							got, err := PLA(data, opt)
							if err != nil {
								t.Fatal(err)
							}
							if !reflect.DeepEqual(got, want) {
								t.Fatalf("%s: sweep\n%+v\nrow by row\n%+v", name, got, want)
							}
							var recGot, recWant Recorder
							opt.Control.Observer = recWant.Observe
							rowwisePLA(data, opt)
							opt.Control.Observer = recGot.Observe
							PLA(data, opt)
							if !reflect.DeepEqual(recGot.Updates, recWant.Updates) {
								t.Fatalf("%s: the Observer saw different updates", name)
							}
						}
					}
				}
			}
		}
	}
}

// TestLazyValidation checks that PLA without an Observer, which checks the
// finiteness of the data during its first epoch, returns exactly the error
// Validate returns, wherever the bad value is and however early the run
// stops, and that finite data whose scores overflow is not rejected.
func TestLazyValidation(t *testing.T) {
	base := hotData(t, 11, 3, 5)
	bad := func(row, col int, v float64, label float64) *Dataset {
		d := &Dataset{X: mat.DenseCopyOf(base.X), Y: append([]float64(nil), base.Y...)}
		d.X.Set(row, col, v)
		if label != 0 {
			d.Y[row] = label
		}
		return d
	}
	tests := []struct {
		name string
		d    *Dataset
		want string
	}{
		{"NaN in row 0", bad(0, 0, math.NaN(), 0), "perceptron: row 0, column 0: value is NaN"},
		{"+Inf in row 5", bad(5, 2, math.Inf(1), 0), "perceptron: row 5, column 2: value is +Inf"},
		{"-Inf in the last row", bad(10, 1, math.Inf(-1), 0), "perceptron: row 10, column 1: value is -Inf"},
		{"NaN before a bad label", bad(9, 1, math.NaN(), 0.5), "perceptron: row 9, column 1: value is NaN"},
	}
	for _, tc := range tests {
		if err := tc.d.Validate(); err == nil || err.Error() != tc.want {
			t.Fatalf("%s: Validate says %v, want %q", tc.name, err, tc.want)
		}
		for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
			for _, maxUpdates := range []int{0, 1} {
				opt := Options{}
				opt.Order, opt.MaxUpdates = order, maxUpdates
				res, err := PLA(tc.d, opt)
				if err == nil || err.Error() != tc.want || res != nil {
					t.Errorf("%s, %v, MaxUpdates %d: PLA gives %v, %v; want error %q", tc.name, order, maxUpdates, res, err, tc.want)
				}
			}
		}
	}
	// Coordinates of 1e200 make w·x overflow once w has grown: with the
	// data checked lazily the run must end exactly as when the data is
	// validated at the door, with the same ErrNonFinite error.
	huge := &Dataset{X: mat.DenseCopyOf(base.X), Y: base.Y}
	huge.X.Scale(1e200, huge.X)
	opt := Options{}
	opt.MaxEpochs = 3
	_, want := rowwisePLA(huge, opt)
	got, err := PLA(huge, opt)
	if want == nil || err == nil || err.Error() != want.Error() || got != nil || !errors.Is(err, ErrNonFinite) {
		t.Fatalf("overflowing scores: PLA gives %+v, %v; want the error %v (ErrNonFinite)", got, err, want)
	}
}

// TestCountMistakes checks the blocked count against a row-by-row count on
// data with ties, for both tie policies and row counts around the block.
func TestCountMistakes(t *testing.T) {
	for _, n := range []int{2, 3, 4, 5, 9, 101} {
		data := hotData(t, n, 4, uint64(n))
		w := []float64{1, -1, 0, 2}
		for _, tie := range []Tie{TieMistake, TieNegative} {
			for _, b := range []float64{0, 1} {
				want, ties := 0, 0
				for i := range n {
					s := w[0]*data.Row(i)[0] + w[1]*data.Row(i)[1] + w[2]*data.Row(i)[2] + w[3]*data.Row(i)[3] + b
					if tie.Mistake(data.Y[i], s) {
						want++
					}
					if s == 0 {
						ties++
					}
				}
				if got := countMistakes(w, b, data, tie); got != want {
					t.Errorf("n=%d %v b=%v: %d errors, want %d (%d ties)", n, tie, b, got, want, ties)
				}
			}
		}
	}
}
