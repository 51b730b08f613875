package perceptron_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// intData draws n rows of dim integer features in [-5, 5] with random
// labels (both classes present): perceptron arithmetic on it is exact.
func intData(t *testing.T, n, dim int, seed uint64) *perceptron.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xd0a1))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, dim)
		for j := range x[i] {
			x[i][j] = float64(rng.IntN(11) - 5)
		}
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	y[0], y[1] = -1, 1
	return mustData(t, x, y)
}

// sameRun reports the first difference between the counters of two runs.
func sameRun(a, b perceptron.Result) string {
	switch {
	case a.Updates != b.Updates:
		return "Updates"
	case a.Epochs != b.Epochs:
		return "Epochs"
	case !slices.Equal(a.UpdatesPerEpoch(), b.UpdatesPerEpoch()):
		return "UpdatesPerEpoch"
	case a.LastMistakeRow != b.LastMistakeRow:
		return "LastMistakeRow"
	case a.Converged != b.Converged:
		return "Converged"
	}
	return ""
}

// TestDualEqualsPrimal runs PLA and Dual with the same options on 400
// random sets (every order, both tie policies, with and without bias,
// MaxUpdates sometimes) and checks that they make the same updates: same
// rows in the same order (traces), same counters, α_i = the number of
// updates on row i, and the same w and b. On integer data with η = 1 every
// sum is exact, so w must be equal to the bit; on SeparableData's real
// coordinates with η = 0.3 the two sums run in different orders and w may
// differ by rounding: 1e-12 relative to the number of updates is many times
// that rounding and far below any real difference.
func TestDualEqualsPrimal(t *testing.T) {
	orders := []perceptron.Order{perceptron.InOrder, perceptron.RandomCycle, perceptron.Shuffle, perceptron.RandomMistake}
	for seed := uint64(1); seed <= 400; seed++ {
		exact := seed%2 == 0
		n, dim := 5+int(seed%30), 1+int(seed%4)
		var d *perceptron.Dataset
		opt := perceptron.Options{}
		opt.MaxEpochs = 1 + int(seed%20)
		if exact {
			d = intData(t, n, dim, seed)
		} else {
			var err error
			d, _, err = perceptron.SeparableData(n, dim, 0.05, seed)
			if err != nil {
				t.Fatal(err)
			}
			opt.Eta = 0.3
		}
		opt.Order = orders[seed/2%4]
		opt.Seed = seed
		opt.NoBias = seed%3 == 0
		if seed%5 == 0 {
			opt.Tie = perceptron.TieNegative
		}
		if seed%7 == 0 {
			opt.MaxUpdates = 3
		}
		var pRec, dRec perceptron.Recorder
		popt, dopt := opt, opt
		popt.Control.Observer, dopt.Control.Observer = pRec.Observe, dRec.Observe
		p, err := perceptron.PLA(d, popt)
		if err != nil {
			t.Fatal(err)
		}
		du, err := perceptron.Dual(d, dopt)
		if err != nil {
			t.Fatal(err)
		}
		if f := sameRun(*p, perceptron.Result{Hyperplane: du.Hyperplane, Stats: du.Stats}); f != "" {
			t.Errorf("seed %d: %s differs: primal %+v, dual %+v", seed, f, *p, du)
			continue
		}
		count := make([]int, n)
		for k, u := range pRec.Updates {
			v := dRec.Updates[k]
			if u.Row != v.Row || u.Epoch != v.Epoch {
				t.Fatalf("seed %d: update %d on row %d (epoch %d), dual on row %d (epoch %d)", seed, k, u.Row, u.Epoch, v.Row, v.Epoch)
			}
			count[u.Row]++
		}
		if !slices.Equal(count, du.Alpha) {
			t.Errorf("seed %d: alpha %v, primal update counts %v", seed, du.Alpha, count)
		}
		tol := 0.0
		if !exact {
			tol = 1e-12 * float64(1+p.Updates)
		}
		if !(math.Abs(p.B-du.B) <= tol) {
			t.Errorf("seed %d: b = %v, dual %v", seed, p.B, du.B)
		}
		for j := range p.W {
			if !(math.Abs(p.W[j]-du.W[j]) <= tol) {
				t.Errorf("seed %d: w = %v, dual %v", seed, p.W, du.W)
				break
			}
		}
		// The Observer sees the recovered w after every update.
		if k := len(dRec.Updates); k > 0 && !slices.Equal(dRec.Updates[k-1].W, du.W) {
			t.Errorf("seed %d: last observed w %v, final %v", seed, dRec.Updates[k-1].W, du.W)
		}
		gram, err := perceptron.GramMatrix(d, perceptron.LinearKernel{})
		if err != nil {
			t.Fatal(err)
		}
		if r, c := gram.SymmetricDim(), d.N(); r != c || gram.At(0, 1) != dotT(d.Row(0), d.Row(1)) {
			t.Errorf("seed %d: Gram matrix wrong", seed)
		}
	}
}

func TestDualErrors(t *testing.T) {
	opt := perceptron.Options{}
	opt.Eta = -1
	if _, err := perceptron.Dual(perceptron.XORData(), opt); !errors.Is(err, perceptron.ErrOption) || err.Error() != "perceptron: Eta must be a finite number > 0, got -1" {
		t.Errorf("bad eta: %v", err)
	}
	if _, err := perceptron.Dual(&perceptron.Dataset{}, perceptron.Options{}); err != perceptron.ErrEmpty {
		t.Errorf("empty: %v", err)
	}
}
