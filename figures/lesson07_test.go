package figures

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson07Numbers pins the numbers lesson 7 quotes in its text, which
// its in-notebook checks assert only as properties that hold whatever its
// "More to try" changes: on iris (setosa vs versicolor, 6 epochs) the
// counts are [0 50 50 50 50 3 47 50 79 21 200]; on the noisy split of
// seed 1, 814 vectors vote +2838 of 4000 steps at x = (0.5, 0.1), where
// the last weights say -1 and the average +1; over seeds 1..10 the last
// weights' test error ranges from 0.16 to 0.575 and the voted and averaged
// means are below theirs; averaged one-vs-rest beats PLA one-vs-rest on
// every split 1..8, by a ratio from 0.14 to 0.89 on iris and from 0.34 to
// 0.69 on digits (0.25 and 0.48 on split 1).
func TestLesson07Numbers(t *testing.T) {
	iris := Must(perceptron.Iris().Binary(0, 1, 0, 2))(t)
	v := Must(perceptron.Voted(iris, perceptron.Options{MaxEpochs: 6}))(t)
	if want := []int{0, 50, 50, 50, 50, 3, 47, 50, 79, 21, 200}; !slices.Equal(v.Counts, want) {
		t.Errorf("iris counts %v, want %v", v.Counts, want)
	}
	_, _, vn, an, err := lesson07Runs(1)
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.5, 0.1}
	s, _ := vn.Score(x)
	last, _ := vn.Last().Predict(x)
	avg, _ := an.Predict(x)
	if s != 2838 || len(vn.Vectors) != 814 || last != -1 || avg != 1 {
		t.Errorf("noisy seed 1 at %v: vote %v over %d vectors, last %v, averaged %v; want 2838, 814, -1, 1", x, s, len(vn.Vectors), last, avg)
	}

	_, errs, err := lesson07Compare(10)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := slices.Min(errs[0]), slices.Max(errs[0]); math.Abs(lo-0.16) > 1e-9 || math.Abs(hi-0.575) > 1e-9 {
		t.Errorf("last PLA test errors from %v to %v, the text says 16%% to 57.5%%", lo, hi)
	}
	if l, vo, a := mean(errs[0]), mean(errs[1]), mean(errs[2]); !(vo < l && a < l) {
		t.Errorf("mean test error: last %.3f, voted %.3f, averaged %.3f", l, vo, a)
	}

	for _, tc := range []struct {
		name          string
		m             *perceptron.MultiDataset
		epochs        int
		lo, hi, first float64
	}{{"iris", perceptron.Iris(), 20, 0.14, 0.89, 0.25}, {"digits", perceptron.Digits(), 10, 0.34, 0.69, 0.48}} {
		var ratios []float64
		for seed := uint64(1); seed <= 8; seed++ {
			pla, avg, err := lesson07OvR(tc.m, perceptron.Options{MaxEpochs: tc.epochs}, seed)
			if err != nil {
				t.Fatal(err)
			}
			ratios = append(ratios, avg/pla)
		}
		if math.Abs(slices.Min(ratios)-tc.lo) > 5e-3 || math.Abs(slices.Max(ratios)-tc.hi) > 5e-3 || math.Abs(ratios[0]-tc.first) > 5e-3 || slices.Max(ratios) >= 1 {
			t.Errorf("%s: averaged/PLA one-vs-rest test error over splits 1-8: %.3f; want from %v to %v, %v on split 1", tc.name, ratios, tc.lo, tc.hi, tc.first)
		}
	}
}

// TestLesson07ThirtySplits pins what lesson 7 says holds over 30 splits:
// on iris the averaged one-vs-rest has the lower mean test error (0.174
// against 0.265) but is worse on 7 splits (split 28: 0.422 against 0.200;
// split 17 six times worse) and ties on 1; on digits it is better on all 30,
// by a ratio from 0.34 to 0.96.
func TestLesson07ThirtySplits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      *perceptron.MultiDataset
		epochs int
		want   string
	}{
		{"iris", perceptron.Iris(), 20, "mean 0.265 0.174, worse 7, ties 1, split 28 0.200 0.422, split 17 ratio 6.00"},
		{"digits", perceptron.Digits(), 10, "mean 0.070 0.042, worse 0, ties 0, ratios 0.34 to 0.96"},
	} {
		pla, avg, err := OvRSplits(tc.m, tc.epochs, 30)
		if err != nil {
			t.Fatal(err)
		}
		worse, ties, ratios := 0, 0, []float64{}
		for k := range pla {
			if avg[k] > pla[k] {
				worse++
			} else if avg[k] == pla[k] {
				ties++
			}
			ratios = append(ratios, avg[k]/pla[k])
		}
		got := fmt.Sprintf("mean %.3f %.3f, worse %d, ties %d, ", mean(pla), mean(avg), worse, ties)
		if tc.name == "iris" {
			got += fmt.Sprintf("split 28 %.3f %.3f, split 17 ratio %.2f", pla[27], avg[27], ratios[16])
		} else {
			got += fmt.Sprintf("ratios %.2f to %.2f", slices.Min(ratios), slices.Max(ratios))
		}
		if got != tc.want {
			t.Errorf("%s over 30 splits: %s; want %s", tc.name, got, tc.want)
		}
	}
}
