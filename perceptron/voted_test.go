package perceptron

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// lrRandomData returns n Gaussian points in d dimensions labelled by a
// random hyperplane with 10% of the labels flipped, so that it is usually
// not separable and learners keep updating. Rows 0 and 1 are forced to +1
// and -1 so that both classes are present.
func lrRandomData(t testing.TB, rng *rand.Rand, n, d int) *Dataset {
	u := make([]float64, d)
	for j := range u {
		u[j] = rng.NormFloat64()
	}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.NormFloat64() * 3
		}
		y[i] = 1
		if dot(u, x[i]) < 0 {
			y[i] = -1
		}
		if rng.Float64() < 0.1 {
			y[i] = -y[i]
		}
	}
	y[0], y[1] = 1, -1
	return lrData(t, x, y)
}

func TestAveragedMIT(t *testing.T) {
	// MIT 6.036 hw2's expected averaged perceptron (T = 100, cyclic, eta 1).
	// The average is a sum of 400 small integers divided by 400: rounding
	// in the division and in the fast trick's w - u/S is below 1e-13, while
	// the expected values are given with 4 decimals, exact at 1e-12.
	const tol = 1e-12
	for _, test := range []struct {
		name string
		d    *Dataset
		want Hyperplane
	}{
		{"super_simple_separable_through_origin", lrMITSeparable(t), Hyperplane{W: []float64{-9.0525, 17.5825}, B: 1.9425}},
		{"xor", lrMITXor(t), Hyperplane{W: []float64{1.47, -1.7275}, B: 0.985}},
	} {
		res, err := Averaged(test.d, lrMITOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !lrSameHyperplane(res.Hyperplane, test.want, tol) || !lrSameHyperplane(res.Explicit, test.want, tol) {
			t.Errorf("%s: averaged %v, %v and explicit %v, %v; want %v, %v",
				test.name, res.W, res.B, res.Explicit.W, res.Explicit.B, test.want.W, test.want.B)
		}
		pla, _ := PLA(test.d, lrMITOptions())
		if !lrSameHyperplane(res.Last, pla.Hyperplane, 0) {
			t.Errorf("%s: Last %v, %v; PLA %v, %v", test.name, res.Last.W, res.Last.B, pla.W, pla.B)
		}
		// No early stop: all 100 epochs are made even after a clean pass.
		if res.Epochs != 100 || len(res.UpdatesPerEpoch()) != 100 {
			t.Errorf("%s: %d epochs, want 100", test.name, res.Epochs)
		}
	}
}

// TestAveragedFastTrick compares Daumé's trick with the explicit average on
// hundreds of random runs. The two compute the same number by different
// sums: the explicit one adds S vectors of size at most M = η·Updates·R_∞
// (R_∞ = max |x_ij|, 1 for b), the trick subtracts u/S, also of size at most
// M, from w. Each has a rounding error of at most a few S·ε·M with S ≤ 3000
// steps, about 1e-12·M, so 1e-9·M is a safe bound that a wrong formula (an
// off-by-one step count changes the result by about M/S ≥ 3e-4·M) cannot meet.
func TestAveragedFastTrick(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 36))
	for trial := 0; trial < 300; trial++ {
		n, dim := 2+rng.IntN(60), 1+rng.IntN(6)
		d := lrRandomData(t, rng, n, dim)
		opt := Options{}
		opt.MaxEpochs = 1 + rng.IntN(50)
		opt.Order = Order(rng.IntN(4))
		opt.Tie = Tie(rng.IntN(2))
		opt.NoBias = rng.IntN(2) == 0
		opt.Eta = 0.1 + rng.Float64()*2
		opt.Seed = rng.Uint64()
		res, err := Averaged(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		rmax := 1.0
		for i := 0; i < n; i++ {
			for _, v := range d.Row(i) {
				rmax = math.Max(rmax, math.Abs(v))
			}
		}
		m := opt.Eta * float64(res.Updates) * rmax
		if !lrSameHyperplane(res.Hyperplane, res.Explicit, 1e-9*m) {
			t.Fatalf("trial %d (%v, n %d, d %d): fast %v, %v; explicit %v, %v",
				trial, opt.Order, n, dim, res.W, res.B, res.Explicit.W, res.Explicit.B)
		}
		if opt.NoBias && (res.B != 0 || res.Explicit.B != 0) {
			t.Fatalf("trial %d: NoBias but b = %v, %v", trial, res.B, res.Explicit.B)
		}
		// The average is the voted perceptron's vectors weighted by their
		// survival counts; same tolerance, same reason.
		v, err := Voted(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		steps := 0
		sum := Hyperplane{W: make([]float64, dim)}
		for k, h := range v.Vectors {
			c := float64(v.Counts[k])
			steps += v.Counts[k]
			for j := range sum.W {
				sum.W[j] += c * h.W[j]
			}
			sum.B += c * h.B
		}
		for j := range sum.W {
			sum.W[j] /= float64(steps)
		}
		sum.B /= float64(steps)
		if !lrSameHyperplane(sum, res.Explicit, 1e-9*m) {
			t.Fatalf("trial %d: Σ c_k w_k / S = %v, %v; explicit average %v, %v", trial, sum.W, sum.B, res.Explicit.W, res.Explicit.B)
		}
		if opt.Order != RandomMistake && opt.MaxUpdates == 0 && steps != n*opt.MaxEpochs {
			t.Fatalf("trial %d: counts sum to %d, want n·T = %d", trial, steps, n*opt.MaxEpochs)
		}
	}
}

// TestVotedNoStep: with RandomMistake, data that w = 0 classifies (labels
// all -1 under TieNegative) makes no step, and Voted returned, with no
// error, a model of one vector of count 0 that Validate refuses ("every
// count is 0"): the command line's train --algo voted --order mistake
// --tie negative failed where pla, pocket and averaged train. w = 0 now
// votes alone and predicts as PLA and Averaged (-1).
func TestVotedNoStep(t *testing.T) {
	d := lrData(t, [][]float64{{1, 2}, {1, 3}}, []float64{-1, -1})
	opt := Options{Order: RandomMistake, Tie: TieNegative}
	v, err := Voted(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(); err != nil || v.Updates != 0 || !reflect.DeepEqual(v.Counts, []int{1}) {
		t.Fatalf("Validate: %v; %d updates, counts %v; want a valid model, 0 updates, counts [1]", err, v.Updates, v.Counts)
	}
	for i := range d.N() {
		if p, err := v.Predict(d.Row(i)); err != nil || p != -1 {
			t.Errorf("row %d: Predict %v, %v; want -1 as PLA's w = 0", i, p, err)
		}
	}
}

func TestVotedHandWorked(t *testing.T) {
	// InOrder, eta 1, 2 epochs, TieMistake. Step 1: row 0 (score 0) is a
	// mistake, w1 = (-1, 0), b1 = -1. Step 2: row 1 (score -1) is a mistake,
	// w2 = (-1, 1), b2 = 0. Steps 3 and 4 are correct. So the vectors are
	// 0, w1, w2 with counts 0, 1, 3, and the average (w1 + 3 w2)/4 =
	// (-1, 0.75), b = -0.25 (exact in binary).
	d := lrData(t, [][]float64{{1, 0}, {0, 1}}, []float64{-1, 1})
	opt := Options{}
	opt.MaxEpochs = 2
	v, err := Voted(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	wantVectors := []Hyperplane{{W: []float64{0, 0}}, {W: []float64{-1, 0}, B: -1}, {W: []float64{-1, 1}, B: 0}}
	if !reflect.DeepEqual(v.Vectors, wantVectors) || !reflect.DeepEqual(v.Counts, []int{0, 1, 3}) {
		t.Errorf("vectors %v, counts %v; want %v, [0 1 3]", v.Vectors, v.Counts, wantVectors)
	}
	if !v.Converged || v.Epochs != 2 || v.Updates != 2 || !lrSameHyperplane(v.Last(), wantVectors[2], 0) {
		t.Errorf("Converged %v, Epochs %d, Updates %d, last %v", v.Converged, v.Epochs, v.Updates, v.Last())
	}
	// Scores: 1·sign(w1·x + b1) + 3·sign(w2·x + b2), sign(0) = 0.
	for _, test := range []struct {
		x            []float64
		score, label float64
	}{
		{[]float64{0, 0}, -1, -1}, // -1 + 3·0
		{[]float64{1, 1}, -1, -1}, // -1 + 3·0
		{[]float64{0, 2}, 2, 1},   // -1 + 3
		{[]float64{2, 0}, -4, -1}, // -1 - 3
		{[]float64{-2, 0}, 4, 1},  // +1 + 3
	} {
		s, err := v.Score(test.x)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := v.Predict(test.x)
		if s != test.score || p != test.label {
			t.Errorf("x = %v: score %v, predict %v; want %v, %v", test.x, s, p, test.score, test.label)
		}
	}
	a, err := Averaged(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := Hyperplane{W: []float64{-1, 0.75}, B: -0.25}
	if !lrSameHyperplane(a.Hyperplane, want, 0) || !lrSameHyperplane(a.Explicit, want, 0) {
		t.Errorf("averaged %v, explicit %v; want %v", a.Hyperplane, a.Explicit, want)
	}
}

func TestVotedTieNegative(t *testing.T) {
	// The same data with TieNegative: row 0 is correct at w = 0 (count 1),
	// row 1 updates to w1 = (0, 1), b1 = 1 (count 1), epoch 2 row 0
	// (score 1) updates to w2 = (-1, 1), b2 = 0, which survives 2 steps.
	// At x = (0, 0) the vote is 1·(-1) + 1·(+1) + 2·sign(0) = 0 - 2 = -2
	// since sign(0) = -1 for both the zero vector and w2.
	d := lrData(t, [][]float64{{1, 0}, {0, 1}}, []float64{-1, 1})
	opt := Options{}
	opt.MaxEpochs, opt.Tie = 2, TieNegative
	v, err := Voted(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Counts, []int{1, 1, 2}) || v.Converged {
		t.Errorf("counts %v, Converged %v; want [1 1 2], false (epoch 2 updated)", v.Counts, v.Converged)
	}
	if s, _ := v.Score([]float64{0, 0}); s != -2 {
		t.Errorf("score at 0 = %v, want -2", s)
	}
}

func TestVotedPredictAll(t *testing.T) {
	d := lrNoisy(t)
	v, err := Voted(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.PredictAll(d)
	if err != nil {
		t.Fatal(err)
	}
	e := 0
	for i := range p {
		q, err := v.Predict(d.Row(i))
		if err != nil || q != p[i] {
			t.Fatalf("row %d: PredictAll %v, Predict %v (%v)", i, p[i], q, err)
		}
		if q != d.Y[i] {
			e++
		}
	}
	if got, err := v.Errors(d); err != nil || got != e {
		t.Errorf("Errors = %d (%v), want %d", got, err, e)
	}
	// Rows 0 and 4 are the same point with opposite labels: no classifier
	// gets both right.
	if p[0] == d.Y[0] && p[4] == d.Y[4] {
		t.Errorf("rows 0 and 4 (same x, opposite y) both predicted correctly: %v, %v", p[0], p[4])
	}
	for _, test := range []struct {
		x    []float64
		want string
	}{
		{[]float64{1}, "perceptron: wrong dimension: row 0 has 1 features, the model expects 2"},
		{[]float64{1, math.NaN()}, "perceptron: row 0, column 1: value is NaN"},
	} {
		if _, err := v.Score(test.x); err == nil || err.Error() != test.want {
			t.Errorf("Score(%v): error %v, want %q", test.x, err, test.want)
		}
		if _, err := v.Predict(test.x); err == nil || err.Error() != test.want {
			t.Errorf("Predict(%v): error %v, want %q", test.x, err, test.want)
		}
	}
	other := lrData(t, [][]float64{{1, 2, 3}, {1, 1, 1}}, []float64{1, -1})
	if _, err := v.PredictAll(other); err == nil || err.Error() != "perceptron: wrong dimension: the data has 3 features, the model expects 2" {
		t.Errorf("PredictAll on 3 features: %v", err)
	}
	if _, err := v.Errors(nil); err != ErrEmpty {
		t.Errorf("Errors(nil): %v", err)
	}
}

func TestVotedMIT(t *testing.T) {
	// On the separable MIT set, the last vector survives the clean epochs,
	// so the counts sum to n·T = 400 and the vote classifies every
	// training point correctly; on xor the last epoch is not clean.
	for _, test := range []struct {
		d         *Dataset
		converged bool
	}{{lrMITSeparable(t), true}, {lrMITXor(t), false}} {
		v, err := Voted(test.d, lrMITOptions())
		if err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, c := range v.Counts {
			sum += c
		}
		if sum != 400 || len(v.Vectors) != v.Updates+1 || v.Converged != test.converged || v.Epochs != 100 {
			t.Errorf("counts sum %d, %d vectors for %d updates, Converged %v, Epochs %d",
				sum, len(v.Vectors), v.Updates, v.Converged, v.Epochs)
		}
		if test.converged {
			if e, _ := v.Errors(test.d); e != 0 {
				t.Errorf("separable: voted makes %d training errors", e)
			}
		}
	}
}
