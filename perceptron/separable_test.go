package perceptron_test

import (
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// checkSeparable runs Separable and checks its answer and, when separable,
// its certificate: a hyperplane with a positive margin on d.
func checkSeparable(t *testing.T, name string, d *perceptron.Dataset, want bool) {
	t.Helper()
	answer, err := perceptron.Separable(d, perceptron.Options{})
	ok, h := answer.Separable, answer.Separator
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if ok != want {
		t.Errorf("%s: Separable = %v, want %v", name, ok, want)
		return
	}
	if !ok {
		return
	}
	m, _, err := h.DatasetMargin(d)
	if err != nil || !(m > 0) {
		t.Errorf("%s: certificate %+v has margin %v (%v), want > 0", name, h, m, err)
	}
}

func TestSeparableIris(t *testing.T) {
	iris := perceptron.Iris()
	for _, c := range []struct {
		neg, pos int
		features []int
		want     bool
	}{
		{0, 1, nil, true},
		{0, 2, nil, true},
		{1, 2, nil, false},
		{0, 1, []int{0, 1}, true},
		{1, 2, []int{0, 2}, false},
		{0, 2, []int{0, 2}, true},
	} {
		d, err := iris.Binary(c.neg, c.pos, c.features...)
		if err != nil {
			t.Fatal(err)
		}
		checkSeparable(t, d.Classes[0]+" vs "+d.Classes[1], d, c.want)
	}
}

func TestSeparableSmall(t *testing.T) {
	checkSeparable(t, "xor", perceptron.XORData(), false)
	checkSeparable(t, "1d", mustData(t, [][]float64{{-1}, {3}}, []float64{-1, 1}), true)
	checkSeparable(t, "interleaved", mustData(t, [][]float64{{0}, {1}, {2}}, []float64{-1, 1, -1}), false)
	checkSeparable(t, "same point", mustData(t, [][]float64{{1, 2}, {1, 2}}, []float64{-1, 1}), false)
	// Large coordinates: the decision is made on standardised features.
	checkSeparable(t, "large scale", mustData(t, [][]float64{{1e6, 2e6}, {1.001e6, 2e6}}, []float64{-1, 1}), true)
	circles, err := perceptron.Circles(40, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkSeparable(t, "circles", circles, false)
}

// TestSeparableRandom checks that random separable sets are found separable
// (with a certificate) and that noisy sets, whose flipped labels the
// maximum-margin test (MaxMargin) also rejects, are not: two independent
// algorithms must agree.
func TestSeparableRandom(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		n, dim := 20+int(seed%5)*20, 1+int(seed%5)
		d, _, err := perceptron.SeparableData(n, dim, 0.01, seed)
		if err != nil {
			t.Fatal(err)
		}
		checkSeparable(t, "separable", d, true)
		noisy, _, err := perceptron.NoisyData(n, dim, 0.01, 0.1, seed)
		if err != nil {
			t.Fatal(err)
		}
		_, _, mmErr := perceptron.MaxMargin(noisy, perceptron.Options{})
		checkSeparable(t, "noisy", noisy, mmErr == nil)
		if mmErr == nil {
			t.Logf("seed %d: noisy data happens to be separable", seed)
		}
	}
}
