package perceptron

import (
	"reflect"
	"testing"
)

func TestPocketSeparable(t *testing.T) {
	// On separable data Pocket makes PLA's run and ends with the pocket
	// equal to PLA's final w, which has 0 errors.
	for _, d := range []*Dataset{lrSeparable(t), lrMITSeparable(t)} {
		for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
			opt := Options{}
			opt.Order = order
			p, err := Pocket(d, opt)
			if err != nil {
				t.Fatal(err)
			}
			pla, _ := PLA(d, opt)
			if !p.Converged || p.PocketErrors != 0 || !lrSameHyperplane(p.Hyperplane, pla.Hyperplane, 0) ||
				!lrSameHyperplane(p.Last, pla.Hyperplane, 0) || p.Updates != pla.Updates || p.Epochs != pla.Epochs {
				t.Errorf("%v: pocket %v (%d errors), last %v, %d updates, %d epochs; PLA %v, %d updates, %d epochs",
					order, p.Hyperplane, p.PocketErrors, p.Last, p.Updates, p.Epochs, pla.Hyperplane, pla.Updates, pla.Epochs)
			}
		}
	}
}

func TestPocketHistory(t *testing.T) {
	for _, test := range []struct {
		name string
		d    *Dataset
	}{{"noisy", lrNoisy(t)}, {"xor", lrMITXor(t)}} {
		for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
			for _, tie := range []Tie{TieMistake, TieNegative} {
				opt := Options{}
				opt.Order, opt.Tie, opt.MaxEpochs, opt.Seed = order, tie, 30, 9
				var rec Recorder
				opt.Control.Observer = rec.Observe
				p, err := Pocket(test.d, opt)
				if err != nil {
					t.Fatal(err)
				}
				name := test.name + "/" + order.String() + "/" + tie.String()
				if len(p.History) != p.Updates || len(rec.Updates) != p.Updates {
					t.Fatalf("%s: %d history entries, %d observed, %d updates", name, len(p.History), len(rec.Updates), p.Updates)
				}
				// The pocket starts at w = 0 with its errors counted once.
				pocket := Hyperplane{W: make([]float64, test.d.D())}
				pocketErrors := countErrors(pocket.W, 0, test.d, tie)
				for k, s := range p.History {
					e := countErrors(rec.Updates[k].W, rec.Updates[k].B, test.d, tie)
					replaced := e < pocketErrors
					if replaced {
						pocket, pocketErrors = Hyperplane{W: rec.Updates[k].W, B: rec.Updates[k].B}, e
					}
					want := PocketStep{Update: k + 1, Errors: e, PocketErrors: pocketErrors, Replaced: replaced}
					if s != want {
						t.Fatalf("%s: history[%d] = %+v, want %+v", name, k, s, want)
					}
				}
				if !lrSameHyperplane(p.Hyperplane, pocket, 0) || p.PocketErrors != pocketErrors {
					t.Errorf("%s: pocket %v with %d errors, want %v with %d", name, p.Hyperplane, p.PocketErrors, pocket, pocketErrors)
				}
				if p.Hyperplane.Tie != tie || p.Last.Tie != tie {
					t.Errorf("%s: the pocket and last weights store ties %v and %v, want %v", name, p.Hyperplane.Tie, p.Last.Tie, tie)
				}
				if e, _ := p.Hyperplane.Errors(test.d); e != p.PocketErrors {
					t.Errorf("%s: PocketErrors %d, recounted %d", name, p.PocketErrors, e)
				}
				pla, _ := PLA(test.d, opt)
				if !lrSameHyperplane(p.Last, pla.Hyperplane, 0) || !reflect.DeepEqual(p.UpdatesPerEpoch(), pla.UpdatesPerEpoch()) {
					t.Errorf("%s: Last %v, PLA %v", name, p.Last, pla.Hyperplane)
				}
				if last, _ := p.Last.Errors(test.d); last < p.PocketErrors {
					t.Errorf("%s: the last w (%d errors) beats the pocket (%d)", name, last, p.PocketErrors)
				}
			}
		}
	}
}

func TestPocketNTU(t *testing.T) {
	// NTU's homework: pocket with 50 updates on a fixed random cycle. The
	// noisy set never converges, so exactly 50 updates are made, and the
	// pocket is the best of the 51 weights met (w = 0 included).
	d := lrNoisy(t)
	opt := Options{}
	opt.Order, opt.MaxUpdates, opt.Tie, opt.Seed = RandomCycle, 50, TieNegative, 7
	var rec Recorder
	opt.Control.Observer = rec.Observe
	p, err := Pocket(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if p.Updates != 50 || len(p.History) != 50 || p.Converged {
		t.Fatalf("%d updates, %d history, Converged %v", p.Updates, len(p.History), p.Converged)
	}
	best := countErrors(make([]float64, 2), 0, d, TieNegative)
	for _, u := range rec.Updates {
		best = min(best, countErrors(u.W, u.B, d, TieNegative))
	}
	if p.PocketErrors != best {
		t.Errorf("PocketErrors %d, best of the run %d", p.PocketErrors, best)
	}
}

// TestPocketFastSumErrorsAreTheModels: with FastSum, PocketErrors is the
// pocket's Errors (left-to-right sums), not the fast sums' count, which
// on rows of cancelling ±1e16 said 0 while Errors said 1 (a red-team case).
func TestPocketFastSumErrorsAreTheModels(t *testing.T) {
	x := [][]float64{
		{1e+16, 1e+16, -3, 1e+16, -1e+16, 1, -1, 2e+16, 2e+16},
		{1, -2e+16, -2e+16, -1, -2e+16, -3, 0.5, 1e+16, 7},
		{3, 2e+16, 3, 1, -1, 2e+16, 7, 1, -3},
		{7, 2e+16, 2e+16, -2e+16, 1, 2e+16, 1e+16, 7, 2e+16},
		{0.5, 0.5, 7, -1, 7, -1e+16, 0.5, 2e+16, 1},
		{-3, 3, -1e+16, 3, 7, 1e+16, 1e+16, 0.5, 1},
		{-3, 2e+16, -2e+16, -2e+16, 3, 2e+16, -3, -3, 2e+16},
		{-1e+16, 7, -3, 1, 7, -3, -2e+16, -1e+16, 1e+16},
		{2e+16, 2e+16, 1e+16, 1e+16, -1e+16, 1, 7, 2e+16, 7},
		{0.5, -2e+16, -3, -1e+16, 7, -3, 2e+16, 1, 3},
		{2e+16, -1e+16, 0.5, -2e+16, 3, 1e+16, 3, 1, 1},
		{-3, 2e+16, -2e+16, 1, -3, -1e+16, 2e+16, 1e+16, 1e+16},
		{0.5, 1, 1, 3, -1e+16, 7, 2e+16, 7, -2e+16},
		{-2e+16, 3, 2e+16, -1, -1e+16, -1e+16, 7, 1e+16, -1},
		{1, 2e+16, 2e+16, -3, -3, 1, -1e+16, 0.5, -2e+16},
	}
	y := []float64{-1, 1, -1, 1, 1, 1, 1, 1, -1, 1, -1, 1, -1, 1, -1}
	cases := []*Dataset{mustNew(t, x, y)}
	for seed := uint64(0); seed < 30; seed++ {
		d, _, err := NoisyData(40+int(seed)*7, 1+int(seed%9), 0.05, 0.1, seed)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, d)
	}
	for k, d := range cases {
		for _, order := range []Order{InOrder, RandomCycle, RandomMistake} {
			res, err := Pocket(d, Options{Summation: FastSum, MaxEpochs: 5, Order: order, Seed: uint64(k)})
			if err != nil {
				t.Fatal(err)
			}
			if e, err := res.Errors(d); err != nil || e != res.PocketErrors {
				t.Errorf("set %d, %v: PocketErrors %d, Errors %d (%v)", k, order, res.PocketErrors, e, err)
			}
		}
	}
}

func mustNew(t *testing.T, x [][]float64, y []float64) *Dataset {
	t.Helper()
	d, err := NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
