package perceptron_test

import (
	"context"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestConvergenceTheorem runs PLA on 300 random separable sets (1 to 6
// features, every order, both tie policies, several η, with a bias and
// through the origin on augmented rows) and checks the theorem: the number
// of updates is at most (R/γ)² and CheckProof finds no violation in the
// recorded trace.
func TestConvergenceTheorem(t *testing.T) {
	orders := []perceptron.Order{perceptron.InOrder, perceptron.RandomCycle, perceptron.Shuffle, perceptron.RandomMistake}
	etas := []float64{1, 0.1, 3.7}
	maxRatio := 0.0
	for seed := uint64(1); seed <= 300; seed++ {
		n := 10 + int(seed*13%120)
		dim := 1 + int(seed%6)
		d, _, err := perceptron.SeparableData(n, dim, 0.02+0.02*float64(seed%4), seed)
		if err != nil {
			t.Fatal(err)
		}
		noBias := seed%3 == 0
		data := d
		if noBias {
			data = perceptron.Augment(d)
		}
		br, err := perceptron.Bound(data, perceptron.Options{NoBias: noBias})
		if err != nil || !br.Separable {
			t.Fatalf("seed %d: Bound: %+v, %v", seed, br, err)
		}
		opt := perceptron.Options{}
		opt.Order = orders[seed%4]
		opt.Eta = etas[seed%3]
		opt.Seed = seed
		opt.NoBias = noBias
		opt.MaxEpochs = 100000
		if seed%5 == 0 {
			opt.Tie = perceptron.TieNegative
		}
		var rec perceptron.Recorder
		opt.Control.Observer = rec.Observe
		res, err := perceptron.PLA(data, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged {
			t.Errorf("seed %d: PLA did not converge on separable data", seed)
		}
		if float64(res.Updates) > br.Bound {
			t.Errorf("seed %d: %d updates > bound %v", seed, res.Updates, br.Bound)
		}
		maxRatio = math.Max(maxRatio, float64(res.Updates)/br.Bound)
		v, err := perceptron.CheckProof(rec.Updates, br.Target, br.Gamma, br.R, perceptron.Options{Eta: opt.Eta, NoBias: noBias})
		if err != nil || v != nil {
			t.Errorf("seed %d (%v, eta %v, noBias %v): CheckProof = %+v, %v", seed, opt.Order, opt.Eta, noBias, v, err)
		}
	}
	t.Logf("largest updates/bound: %.3f", maxRatio)
}

// irisTrace runs PLA on Iris setosa vs versicolor (all features) and returns
// the trace and the theorem's quantities.
func irisTrace(t *testing.T) ([]perceptron.Update, perceptron.BoundResult) {
	t.Helper()
	d, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	br, err := perceptron.Bound(d, perceptron.Options{})
	if err != nil || !br.Separable {
		t.Fatalf("Bound: %+v, %v", br, err)
	}
	var rec perceptron.Recorder
	opt := perceptron.Options{}
	opt.Control.Observer = rec.Observe
	res, err := perceptron.PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Updates < 3 {
		t.Fatalf("only %d updates", res.Updates)
	}
	return rec.Updates, br
}

// TestCheckProofCatchesTampering changes one recorded update and checks that
// CheckProof reports the right step at exactly that update.
func TestCheckProofCatchesTampering(t *testing.T) {
	trace, br := irisTrace(t)
	if v, err := perceptron.CheckProof(trace, br.Target, br.Gamma, br.R, perceptron.Options{Eta: 1}); v != nil || err != nil {
		t.Fatalf("untampered trace: %+v, %v", v, err)
	}
	for _, c := range []struct {
		name   string
		update int // 1-based
		tamper func(u *perceptron.Update)
		step   string
	}{
		// θ_t = 0 makes no progress towards θ*.
		{"zeroed", 2, func(u *perceptron.Update) {
			for j := range u.W {
				u.W[j] = 0
			}
			u.B = 0
		}, "alignment"},
		// θ_t = 10 θ_t keeps the direction (so it aligns more) but grows
		// far more than R² in one step.
		{"scaled", 3, func(u *perceptron.Update) {
			for j := range u.W {
				u.W[j] *= 10
			}
			u.B *= 10
		}, "growth"},
		{"bias moved away", 1, func(u *perceptron.Update) { u.B -= 5 * math.Copysign(1, br.Target.B) }, "alignment"},
	} {
		tr := make([]perceptron.Update, len(trace))
		copy(tr, trace)
		u := tr[c.update-1]
		u.W = append([]float64(nil), u.W...)
		c.tamper(&u)
		tr[c.update-1] = u
		v, err := perceptron.CheckProof(tr, br.Target, br.Gamma, br.R, perceptron.Options{Eta: 1})
		if err != nil {
			t.Fatal(err)
		}
		if v == nil || v.Update != c.update || v.Step != c.step {
			t.Errorf("%s: violation %+v, want %s at update %d", c.name, v, c.step, c.update)
		}
		if v != nil && v.Step == "alignment" && !(v.Got < v.Want) || v != nil && v.Step == "growth" && !(v.Got > v.Want) {
			t.Errorf("%s: violation %+v does not violate", c.name, v)
		}
	}
	// A γ larger than the true margin breaks the alignment step at some
	// update; an R smaller than the data's radius breaks growth.
	if v, _ := perceptron.CheckProof(trace, br.Target, 2*br.Gamma, br.R, perceptron.Options{Eta: 1}); v == nil || v.Step != "alignment" {
		t.Errorf("gamma too large: %+v, want an alignment violation", v)
	}
	if v, _ := perceptron.CheckProof(trace, br.Target, br.Gamma, br.R/2, perceptron.Options{Eta: 1}); v == nil || v.Step != "growth" {
		t.Errorf("R too small: %+v, want a growth violation", v)
	}
}

func TestCheckProofErrors(t *testing.T) {
	trace, br := irisTrace(t)
	unit := br.Target
	for _, c := range []struct {
		name          string
		trace         []perceptron.Update
		target        perceptron.Hyperplane
		gamma, r, eta float64
		noBias        bool
		want          string
	}{
		{"gamma 0", trace, unit, 0, br.R, 1, false, "perceptron: check proof: gamma must be a finite number > 0, got 0"},
		{"R NaN", trace, unit, br.Gamma, math.NaN(), 1, false, "perceptron: check proof: R must be a finite number > 0, got NaN"},
		{"eta inf", trace, unit, br.Gamma, br.R, math.Inf(1), false, "perceptron: Eta must be a finite number > 0, got +Inf"},
		{"not unit", trace, perceptron.Hyperplane{W: []float64{1, 1, 1}, B: 1}, br.Gamma, br.R, 1, false, "perceptron: check proof: the target θ* must have unit norm, got ||θ*|| = 2"},
		{"wrong dimension", trace, perceptron.Hyperplane{W: []float64{1}}, br.Gamma, br.R, 1, false, "perceptron: check proof: update 1 has w of dimension 4, the target has 1"},
		{"bias with noBias", trace, unit, br.Gamma, br.R, 1, true, "perceptron: check proof: with NoBias the target must pass through the origin, got b = " + ftoa(unit.B)},
	} {
		_, err := perceptron.CheckProof(c.trace, c.target, c.gamma, c.r, perceptron.Options{Eta: c.eta, NoBias: c.noBias})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// An empty trace is a valid (trivial) proof.
	if v, err := perceptron.CheckProof(nil, unit, br.Gamma, br.R, perceptron.Options{Eta: 1}); v != nil || err != nil {
		t.Errorf("empty trace: %+v, %v", v, err)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestCheckProofAtExtremeScales: CheckProof scales its sums by a power of
// 2, so ||θ||² and η²R² beyond the float64 range no longer turn every
// comparison into +Inf > +Inf (which passed tampered traces), nor does η²
// underflow to 0 (which failed a genuine run); a NaN target bias is an
// error, not a unit-norm check that NaN passes.
func TestCheckProofAtExtremeScales(t *testing.T) {
	noBias := perceptron.Options{NoBias: true}
	// Tampered traces whose squares overflow: growth breaks at update 1.
	for _, tc := range []struct {
		w        []float64
		target   []float64
		gamma, R float64
	}{
		{[]float64{1e200, 1e200}, []float64{1, 0}, 1, 1},
		{[]float64{1e250}, []float64{1}, 1, 1e200},
	} {
		v, err := perceptron.CheckProof([]perceptron.Update{{W: tc.w}}, perceptron.Hyperplane{W: tc.target}, tc.gamma, tc.R, noBias)
		if err != nil || v == nil || v.Update != 1 || v.Step != "growth" || v.Got < v.Want {
			t.Errorf("θ_1 = %v, R = %g: %+v, %v; want a growth violation at update 1", tc.w, tc.R, v, err)
		}
	}
	// Genuine runs at η = 1e-200 (η² underflows) and η = 1e100 on data
	// of radius 1e100 (η²R² overflows): no violation with Bound's γ, and
	// an alignment violation with 1000 times it.
	for _, tc := range []struct {
		x   [][]float64
		eta float64
	}{
		{[][]float64{{1e200, 0}, {-1e200, 1e199}}, 1e-200},
		{[][]float64{{1e100, 3e99}, {-2e99, -1e100}, {5e99, 7e99}}, 1e100},
	} {
		d := mustData(t, tc.x, []float64{1, -1, 1}[:len(tc.x)])
		opt := perceptron.Options{NoBias: true, Eta: tc.eta}
		b, err := perceptron.Bound(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		var rec perceptron.Recorder
		o := opt
		o.Control.Observer = rec.Observe
		if r, err := perceptron.PLA(d, o); err != nil || !r.Converged || r.Updates == 0 {
			t.Fatalf("η = %g: PLA %+v, %v", tc.eta, r, err)
		}
		if v, err := perceptron.CheckProof(rec.Updates, b.Target, b.Gamma, b.R, opt); v != nil || err != nil {
			t.Errorf("η = %g, a genuine run: %+v, %v; want no violation", tc.eta, v, err)
		}
		if v, err := perceptron.CheckProof(rec.Updates, b.Target, 1000*b.Gamma, b.R, opt); err != nil || v == nil || v.Step != "alignment" {
			t.Errorf("η = %g, γ × 1000: %+v, %v; want an alignment violation", tc.eta, v, err)
		}
	}
	// A target bias that is NaN or ±Inf.
	for _, b := range []float64{math.NaN(), math.Inf(1)} {
		_, err := perceptron.CheckProof([]perceptron.Update{{W: []float64{1}, B: 1}}, perceptron.Hyperplane{W: []float64{1}, B: b}, 0.5, 1, perceptron.Options{})
		if !errors.Is(err, perceptron.ErrNonFinite) {
			t.Errorf("target b = %v: %v; want ErrNonFinite", b, err)
		}
	}
	// An empty trace with a context cancelled before the call stops, as
	// the other theory functions do.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := perceptron.CheckProof(nil, perceptron.Hyperplane{W: []float64{1}}, 1, 1, perceptron.Options{NoBias: true, Control: perceptron.Control{Context: ctx}})
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("an empty trace, a cancelled context: %v; want ErrStopped and context.Canceled", err)
	}
}
