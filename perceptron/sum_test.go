package perceptron

import (
	"errors"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// TestFastSum checks the properties FastSum promises:
//   - on small-integer data every partial sum is an exact integer, so any
//     order of summation gives the same scores: FastSum makes exactly
//     ExactSum's updates and weights;
//   - it is deterministic, and the loop without an Observer (sweepPLA)
//     makes exactly the updates of the loop with one;
//   - on real-valued data it rounds differently (otherwise it would not be
//     a different mode) yet still learns: on separable data it converges
//     to a separator.
func TestFastSum(t *testing.T) {
	for _, dim := range []int{1, 3, 4, 5, 17} {
		data := hotData(t, 203, dim, uint64(dim))
		if data.Validate() != nil {
			continue
		}
		for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
			opt := Options{}
			opt.Order, opt.MaxEpochs = order, 20
			exact, err := PLA(data, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Summation = FastSum
			fast, err := PLA(data, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fast.W, exact.W) || fast.B != exact.B || fast.Updates != exact.Updates ||
				!slices.Equal(fast.UpdateRuns, exact.UpdateRuns) {
				t.Errorf("d=%d %v: integer data, FastSum %v %v (%d updates), ExactSum %v %v (%d)",
					dim, order, fast.W, fast.B, fast.Updates, exact.W, exact.B, exact.Updates)
			}
		}
	}

	data := benchData(t, 3000, 37)
	opt := Options{}
	opt.MaxEpochs = 3
	opt.Summation = FastSum
	a, err := PLA(data, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PLA(data, opt)
	updates := 0
	opt.Control.Observer = func(Update) { updates++ }
	c, _ := PLA(data, opt)
	if !slices.Equal(a.W, b.W) || a.B != b.B || !slices.Equal(a.W, c.W) || a.B != c.B || updates != a.Updates {
		t.Errorf("FastSum is not deterministic or the two loops differ: %v / %v / %v", a.W[:3], b.W[:3], c.W[:3])
	}
	// asm.DotFast's order, by hand, on the terms p = (1e16, 1, -1e16, 1, 0, 0,
	// 0, 0): left to right, 1e16 + 1 rounds to 1e16 (the spacing of
	// doubles there is 2), minus 1e16 is 0, plus 1 is 1. With the eight
	// partial sums (one term each), ((1e16 - 1e16) + (0 + 0)) + ((1 + 1) +
	// (0 + 0)) = 2. So a row with y = -1 and b = -1.5 is correct under
	// ExactSum (score -0.5) and a mistake under FastSum (score 0.5): the
	// modes can decide a row differently.
	w := []float64{1e16, 1, -1e16, 1, 0, 0, 0, 0}
	x := []float64{1, 1, 1, 1, 1, 1, 1, 1}
	if f, e := asm.DotFast(w, x), asm.DotExact(w, x); f != 2 || e != 1 || dot(w, x) != 1 {
		t.Errorf("asm.DotFast = %v (want 2), asm.DotExact = %v, dot = %v (want 1)", f, e, dot(w, x))
	}

	sep, _, err := SeparableData(500, 20, 0.1, 5)
	if err != nil {
		t.Fatal(err)
	}
	opt = Options{}
	opt.Summation = FastSum
	res, err := PLA(sep, opt)
	if err != nil || !res.Converged {
		t.Fatalf("FastSum on separable data: %v, converged %v", err, res != nil && res.Converged)
	}
	if e, _ := res.Errors(sep); e != 0 {
		t.Errorf("FastSum converged with %d training errors", e)
	}
	opt.Summation = 7
	if _, err := PLA(sep, opt); !errors.Is(err, ErrOption) || err.Error() != "perceptron: unknown Summation 7: want ExactSum or FastSum" {
		t.Errorf("bad Sum: %v", err)
	}
}

// TestPocketFastSum: with FastSum, Pocket's History counts the errors of
// every w with the sums the run decides by (asm.DotFast), exactly.
func TestPocketFastSum(t *testing.T) {
	data := benchData(t, 500, 7)
	opt := Options{}
	opt.Summation, opt.MaxEpochs = FastSum, 5
	var rec Recorder
	opt.Control.Observer = rec.Observe
	p, err := Pocket(data, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.History) != p.Updates || len(rec.Updates) != p.Updates || p.Updates == 0 {
		t.Fatalf("%d history entries, %d updates", len(p.History), p.Updates)
	}
	for k, h := range p.History {
		u := rec.Updates[k]
		e := 0
		for i := range data.N() {
			if s := asm.DotFast(u.W, data.Row(i)) + u.B; !(data.Y[i]*s > 0) {
				e++
			}
		}
		if h.Errors != e || h.Update != k+1 {
			t.Fatalf("history[%d] = %+v, recounted %d errors", k, h, e)
		}
	}
}

// TestFastSumScan checks the epochs of the InOrder order that make the
// clear updates in assembly (asm.ScanFast for FastSum, asm.ScanExact for
// ExactSum) against the loop with an Observer (step for every row): the
// same weights, bias, updates, last mistake and epochs, with MaxUpdates
// cutting the run inside an epoch, with NoBias and with an Eta other than
// 1, and bit for bit the same ties (TieNegative).
func TestFastSumScan(t *testing.T) {
	for _, sum := range []Summation{FastSum, ExactSum} {
		testScan(t, sum)
	}
}

func testScan(t *testing.T, sum Summation) {
	data := benchData(t, 3000, 37)
	for _, maxu := range []int{0, 1, 7, 100, 1000} {
		for _, noBias := range []bool{false, true} {
			for _, tie := range []Tie{TieMistake, TieNegative} {
				opt := Options{}
				opt.Order, opt.Summation, opt.MaxEpochs, opt.MaxUpdates = InOrder, sum, 3, maxu
				opt.NoBias, opt.Eta, opt.Tie = noBias, 0.5, tie
				a, err := PLA(data, opt)
				if err != nil {
					t.Fatal(err)
				}
				updates := 0
				opt.Control.Observer = func(Update) { updates++ }
				b, err := PLA(data, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(a.W, b.W) || a.B != b.B || a.Updates != b.Updates || updates != a.Updates ||
					a.LastMistakeRow != b.LastMistakeRow || a.Epochs != b.Epochs || !slices.Equal(a.UpdateRuns, b.UpdateRuns) {
					t.Errorf("%v, MaxUpdates %d, NoBias %v, %v: scan %v %v (%d updates, last %d, %d epochs), observer loop %v %v (%d, last %d, %d epochs)",
						sum, maxu, noBias, tie, a.W[:2], a.B, a.Updates, a.LastMistakeRow, a.Epochs, b.W[:2], b.B, b.Updates, b.LastMistakeRow, b.Epochs)
				}
				if maxu > 0 && a.Updates != maxu {
					t.Errorf("%v, MaxUpdates %d: %d updates", sum, maxu, a.Updates)
				}
			}
		}
	}
}
