package perceptron

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lrData builds a Dataset from rows and labels or fails the test.
func lrData(t testing.TB, x [][]float64, y []float64) *Dataset {
	t.Helper()
	d, err := NewDataset(x, y)
	if err != nil {
		t.Fatalf("NewDataset: %v", err)
	}
	return d
}

// The two data sets of MIT 6.036 hw2 (Perceptron), with their expected
// answers after T = 100 cyclic epochs, eta 1, as printed by MIT's tester.
func lrMITSeparable(t testing.TB) *Dataset {
	return lrData(t, [][]float64{{2, 5}, {3, 1}, {9, 6}, {12, 5}}, []float64{1, -1, 1, -1})
}

func lrMITXor(t testing.TB) *Dataset {
	return lrData(t, [][]float64{{1, 1}, {2, 2}, {1, 2}, {2, 1}}, []float64{1, 1, -1, -1})
}

func lrMITOptions() Options {
	opt := Options{}
	opt.MaxEpochs = 100
	return opt
}

// lrSameHyperplane reports whether a and b are equal to within tol in
// every coordinate (tol 0: exactly).
func lrSameHyperplane(a, b Hyperplane, tol float64) bool {
	if len(a.W) != len(b.W) {
		return false
	}
	for j := range a.W {
		if !(math.Abs(a.W[j]-b.W[j]) <= tol) {
			return false
		}
	}
	return math.Abs(a.B-b.B) <= tol
}

// lrNoisy is a hand-made data set that is not linearly separable (the
// point (1, 1) carries both labels), so every learner keeps updating.
func lrNoisy(t testing.TB) *Dataset {
	return lrData(t, [][]float64{
		{1, 1}, {2, 0.5}, {-1, -2}, {0.5, -1}, {1, 1}, {-2, 1}, {3, 2}, {-1, 0.5}, {0, 2}, {2, -2},
	}, []float64{1, 1, -1, -1, -1, -1, 1, 1, -1, 1})
}

// lrSeparable is a hand-made data set separated by x1 + 2 x2 = 1 with a
// margin: the labels are sign(x1 + 2 x2 - 1) and no point is near the line.
func lrSeparable(t testing.TB) *Dataset {
	x := [][]float64{
		{3, 1}, {-2, -1}, {0, 2}, {1, -2}, {2, 2}, {-3, 0}, {4, -1}, {0, -1},
		{-1, 3}, {2, -3}, {5, 0}, {-4, 1}, {1, 1.5}, {0.5, -0.5}, {-2, 3}, {3, -2.5},
	}
	y := make([]float64, len(x))
	for i, p := range x {
		if p[0]+2*p[1]-1 > 0 {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	return lrData(t, x, y)
}

// batchLearners are the learners that take Options, with what PLA, Pocket,
// Voted and Averaged return reduced to the common Result.
var batchLearners = []struct {
	name string
	fit  func(*Dataset, Options) (*Result, error)
}{
	{"PLA", PLA},
	{"Pocket", func(d *Dataset, o Options) (*Result, error) {
		r, err := Pocket(d, o)
		if err != nil {
			return nil, err
		}
		return &Result{Hyperplane: r.Hyperplane, Stats: r.Stats}, nil
	}},
	{"Voted", func(d *Dataset, o Options) (*Result, error) {
		r, err := Voted(d, o)
		if err != nil {
			return nil, err
		}
		return &Result{Hyperplane: r.Last(), Stats: r.Stats}, nil
	}},
	{"Averaged", func(d *Dataset, o Options) (*Result, error) {
		r, err := Averaged(d, o)
		if err != nil {
			return nil, err
		}
		return &Result{Hyperplane: r.Hyperplane, Stats: r.Stats}, nil
	}},
}

// gdLearners adapts GradientDescent and SGD to the bad-data catalogue.
var gdLearners = []struct {
	name string
	fit  func(*Dataset, GDOptions) (*GDResult, error)
}{
	{"GradientDescent", GradientDescent},
	{"SGD", SGD},
}

func TestPLAMIT(t *testing.T) {
	// MIT 6.036 hw2's expected perceptron answers; the arithmetic is on
	// small integers, so it is exact.
	for _, test := range []struct {
		name      string
		d         *Dataset
		want      Hyperplane
		converged bool
	}{
		{"super_simple_separable_through_origin", lrMITSeparable(t), Hyperplane{W: []float64{-9, 18}, B: 2}, true},
		{"xor", lrMITXor(t), Hyperplane{W: []float64{0, -3}, B: 0}, false},
	} {
		res, err := PLA(test.d, lrMITOptions())
		if err != nil {
			t.Fatalf("%s: %v", test.name, err)
		}
		if !lrSameHyperplane(res.Hyperplane, test.want, 0) {
			t.Errorf("%s: got w = %v, b = %v; want w = %v, b = %v", test.name, res.W, res.B, test.want.W, test.want.B)
		}
		if res.Converged != test.converged {
			t.Errorf("%s: Converged = %v, want %v", test.name, res.Converged, test.converged)
		}
		if !test.converged && res.Epochs != 100 {
			t.Errorf("%s: Epochs = %d, want 100", test.name, res.Epochs)
		}
	}
}

func TestBadOptions(t *testing.T) {
	d := lrSeparable(t)
	for _, test := range []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"MaxEpochs -3", func(o *Options) { o.MaxEpochs = -3 }, "perceptron: MaxEpochs must be > 0, got -3"},
		{"Eta -1", func(o *Options) { o.Eta = -1 }, "perceptron: Eta must be a finite number > 0, got -1"},
		{"Eta NaN", func(o *Options) { o.Eta = math.NaN() }, "perceptron: Eta must be a finite number > 0, got NaN"},
		{"Eta +Inf", func(o *Options) { o.Eta = math.Inf(1) }, "perceptron: Eta must be a finite number > 0, got +Inf"},
		{"unknown order", func(o *Options) { o.Order = 7 }, "perceptron: unknown order 7: want InOrder, RandomCycle, Shuffle or RandomMistake"},
		{"negative order", func(o *Options) { o.Order = -1 }, "perceptron: unknown order -1: want InOrder, RandomCycle, Shuffle or RandomMistake"},
		{"unknown tie", func(o *Options) { o.Tie = 5 }, "perceptron: unknown tie policy 5: want TieMistake or TieNegative"},
		{"MaxUpdates -1", func(o *Options) { o.MaxUpdates = -1 }, "perceptron: MaxUpdates must be >= 0 (0 means no limit), got -1"},
	} {
		for _, l := range batchLearners {
			opt := Options{}
			test.change(&opt)
			res, err := l.fit(d, opt)
			if err == nil || err.Error() != test.want {
				t.Errorf("%s, %s: got error %v, want %q", l.name, test.name, err, test.want)
			}
			if res != nil {
				t.Errorf("%s, %s: got a result with the error", l.name, test.name)
			}
		}
	}
}

func TestBadData(t *testing.T) {
	nan := &Dataset{X: mat.NewDense(3, 2, []float64{1, 2, 3, math.NaN(), 5, 6}), Y: []float64{1, -1, 1}}
	inf := &Dataset{X: mat.NewDense(2, 2, []float64{1, 2, 3, 4}), Y: []float64{1, -1}}
	inf.X.Set(1, 0, math.Inf(-1))
	for _, test := range []struct {
		name string
		d    *Dataset
		want error
	}{
		{"nil", nil, ErrEmpty},
		{"no X", &Dataset{}, ErrEmpty},
		{"NaN by hand", nan, ErrNonFinite},
		{"-Inf by hand", inf, ErrNonFinite},
		{"label 0", &Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1, 0}}, ErrLabel},
		{"label 2", &Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{2, -1}}, ErrLabel},
		{"label NaN", &Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{math.NaN(), -1}}, ErrLabel},
		{"labels missing", &Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1}}, ErrDimension},
	} {
		for _, l := range batchLearners {
			res, err := l.fit(test.d, Options{})
			if !errors.Is(err, test.want) {
				t.Errorf("%s, %s: got error %v, want %v", l.name, test.name, err, test.want)
			}
			if res != nil {
				t.Errorf("%s, %s: got a result with the error", l.name, test.name)
			}
		}
		for _, l := range gdLearners {
			res, err := l.fit(test.d, GDOptions{Eta: 1, Steps: 10})
			if !errors.Is(err, test.want) {
				t.Errorf("%s, %s: got error %v, want %v", l.name, test.name, err, test.want)
			}
			if res != nil {
				t.Errorf("%s, %s: got a result with the error", l.name, test.name)
			}
		}
	}
}

// TestOneClassTrains: labels all +1 (or all -1) say what they mean, and
// PLA's update is defined there: at w = 0 the first point is a mistake, and
// the data is separable (w = 0, b = y), so PLA converges. Every learner
// trains such data to no training error (issue 24); the theory functions,
// which need both classes, still say ErrOneClass.
func TestOneClassTrains(t *testing.T) {
	for _, y := range []float64{1, -1} {
		d := lrData(t, [][]float64{{1, 2}, {3, 4}, {-5, 0.5}}, []float64{y, y, y})
		for _, l := range batchLearners {
			res, err := l.fit(d, Options{})
			if err != nil {
				t.Errorf("%s, all %v: %v", l.name, y, err)
				continue
			}
			if e, err := res.Errors(d); err != nil || e != 0 {
				t.Errorf("%s, all %v: %d training errors (%v), want 0", l.name, y, e, err)
			}
		}
		for _, l := range gdLearners {
			res, err := l.fit(d, GDOptions{Eta: 1, Steps: 10})
			if err != nil || !res.Converged {
				t.Errorf("%s, all %v: converged %v, %v; want converged", l.name, y, res != nil && res.Converged, err)
			}
		}
		if _, err := Separable(d, Options{}); !errors.Is(err, ErrOneClass) {
			t.Errorf("Separable, all %v: %v, want ErrOneClass", y, err)
		}
	}
}

// checkTrace checks that the updates an Observer saw are the updates of
// the rule w ← w + η y x, b ← b + η y, applied in order from w = 0: the
// score before each update is w·x + b of the previous weights and is a
// mistake, and the weights after are the previous ones plus the update.
func checkTrace(t *testing.T, name string, d *Dataset, opt Options, ups []Update, res *Result) {
	t.Helper()
	w, b := make([]float64, d.D()), 0.0
	epoch := 0
	perEpoch := make([]int, len(res.UpdatesPerEpoch()))
	for k, u := range ups {
		if u.Epoch < epoch {
			t.Fatalf("%s: update %d: epoch %d after epoch %d", name, k, u.Epoch, epoch)
		}
		epoch = u.Epoch
		perEpoch[u.Epoch]++
		if !reflect.DeepEqual(u.X, d.Row(u.Row)) || u.Y != d.Y[u.Row] {
			t.Fatalf("%s: update %d: X, Y = %v, %v are not row %d", name, k, u.X, u.Y, u.Row)
		}
		// The learner computes the score with the same dot, so it is exact.
		if s := dot(w, u.X) + b; u.Score != s {
			t.Fatalf("%s: update %d: score %v, want w·x + b = %v", name, k, u.Score, s)
		}
		if !opt.Tie.Mistake(u.Y, u.Score) {
			t.Fatalf("%s: update %d: row %d with score %v is not a mistake", name, k, u.Row, u.Score)
		}
		for j, v := range u.X {
			w[j] += float64(v * float64(opt.Eta*u.Y))
		}
		if !opt.NoBias {
			b += opt.Eta * u.Y
		}
		if !reflect.DeepEqual(u.W, w) || u.B != b {
			t.Fatalf("%s: update %d: w, b = %v, %v after, want %v, %v", name, k, u.W, u.B, w, b)
		}
	}
	if len(ups) != res.Updates {
		t.Errorf("%s: observer saw %d updates, Updates = %d", name, len(ups), res.Updates)
	}
	if !reflect.DeepEqual(perEpoch, res.UpdatesPerEpoch()) {
		t.Errorf("%s: observed updates per epoch %v, UpdatesPerEpoch %v", name, perEpoch, res.UpdatesPerEpoch())
	}
	if len(ups) > 0 && ups[len(ups)-1].Row != res.LastMistakeRow {
		t.Errorf("%s: last observed row %d, LastMistakeRow %d", name, ups[len(ups)-1].Row, res.LastMistakeRow)
	}
}

func TestObserverSeesEveryUpdate(t *testing.T) {
	for _, data := range []struct {
		name string
		d    *Dataset
	}{{"separable", lrSeparable(t)}, {"noisy", lrNoisy(t)}, {"xor", lrMITXor(t)}} {
		for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
			for _, tie := range []Tie{TieMistake, TieNegative} {
				for _, noBias := range []bool{false, true} {
					opt := Options{}
					opt.MaxEpochs, opt.Order, opt.Tie, opt.NoBias, opt.Eta, opt.Seed = 20, order, tie, noBias, 0.3, 11
					var plaUps []Update
					for _, l := range batchLearners {
						var rec Recorder
						opt.Control.Observer = rec.Observe
						res, err := l.fit(data.d, opt)
						if err != nil {
							t.Fatal(err)
						}
						name := data.name + "/" + l.name + "/" + order.String() + "/" + tie.String()
						checkTrace(t, name, data.d, opt, rec.Updates, res)
						// Pocket, Voted and Averaged make PLA's updates: PLA
						// stops after a clean pass, after which the others
						// make no update either.
						if l.name == "PLA" {
							plaUps = rec.Updates
							if len(plaUps) == 0 {
								t.Errorf("%s: no update", name)
							}
						} else if !reflect.DeepEqual(rec.Updates, plaUps) {
							t.Errorf("%s: updates differ from PLA's", name)
						}
					}
				}
			}
		}
	}
}

func TestMaxUpdates(t *testing.T) {
	for _, order := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
		for _, max := range []int{1, 3, 7} {
			for _, l := range batchLearners {
				opt := Options{}
				opt.Order, opt.MaxUpdates = order, max
				var rec Recorder
				opt.Control.Observer = rec.Observe
				res, err := l.fit(lrNoisy(t), opt)
				if err != nil {
					t.Fatal(err)
				}
				if res.Updates != max || len(rec.Updates) != max || res.Converged {
					t.Errorf("%s/%v/MaxUpdates %d: Updates %d, observed %d, Converged %v",
						l.name, order, max, res.Updates, len(rec.Updates), res.Converged)
				}
			}
		}
	}
}

func TestSameSeedSameRun(t *testing.T) {
	d := lrNoisy(t)
	for _, order := range []Order{RandomCycle, Shuffle, RandomMistake} {
		trace := func(seed uint64) []Update {
			opt := Options{}
			opt.Order, opt.Seed, opt.MaxEpochs = order, seed, 10
			var rec Recorder
			opt.Control.Observer = rec.Observe
			if _, err := PLA(d, opt); err != nil {
				t.Fatal(err)
			}
			return rec.Updates
		}
		a, b, c := trace(3), trace(3), trace(4)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v: two runs with seed 3 differ", order)
		}
		if reflect.DeepEqual(a, c) {
			t.Errorf("%v: seeds 3 and 4 give the same run", order)
		}
	}
}

// TestOrderVisits checks, on the machinery every batch learner runs on,
// which rows each epoch visits: InOrder 0..n-1, RandomCycle one random
// permutation repeated, Shuffle a new permutation every epoch.
func TestOrderVisits(t *testing.T) {
	d := lrNoisy(t)
	n := d.N()
	identity := make([]int, n)
	for i := range identity {
		identity[i] = i
	}
	for _, order := range []Order{InOrder, RandomCycle, Shuffle} {
		opt := Options{}
		opt.Order, opt.Seed = order, 5
		r := newRun(d, opt)
		var visits []int
		r.onStep = func(i int, _ bool) { visits = append(visits, i) }
		var epochs [][]int
		for r.epoch = 0; r.epoch < 4; r.epoch++ {
			visits = nil
			r.pass()
			epochs = append(epochs, visits)
		}
		for e, v := range epochs {
			seen := make([]bool, n)
			for _, i := range v {
				seen[i] = true
			}
			for i, ok := range seen {
				if !ok || len(v) != n {
					t.Fatalf("%v: epoch %d visits %v, not a permutation (row %d)", order, e, v, i)
				}
			}
		}
		switch order {
		case InOrder:
			for e, v := range epochs {
				if !reflect.DeepEqual(v, identity) {
					t.Errorf("InOrder: epoch %d visits %v", e, v)
				}
			}
		case RandomCycle:
			if reflect.DeepEqual(epochs[0], identity) {
				t.Errorf("RandomCycle: the permutation is the identity")
			}
			for e, v := range epochs {
				if !reflect.DeepEqual(v, epochs[0]) {
					t.Errorf("RandomCycle: epoch %d visits %v, epoch 0 %v", e, v, epochs[0])
				}
			}
		case Shuffle:
			for e := 1; e < len(epochs); e++ {
				if reflect.DeepEqual(epochs[e], epochs[e-1]) {
					t.Errorf("Shuffle: epochs %d and %d visit the same order %v", e-1, e, epochs[e])
				}
			}
		}
	}
}

func TestRandomMistakeConverges(t *testing.T) {
	sets := []*Dataset{lrSeparable(t), lrMITSeparable(t)}
	for seed := uint64(1); seed <= 5; seed++ {
		d, _, err := SeparableData(100, 2+int(seed), 0.05, seed)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, d)
	}
	for _, d := range sets {
		for seed := uint64(1); seed <= 20; seed++ {
			opt := Options{}
			opt.Order, opt.Seed = RandomMistake, seed
			res, err := PLA(d, opt)
			if err != nil {
				t.Fatal(err)
			}
			e, err := res.Errors(d)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converged || e != 0 {
				t.Errorf("seed %d: Converged %v with %d errors after %d updates", seed, res.Converged, e, res.Updates)
			}
		}
	}
}

func TestTiePolicies(t *testing.T) {
	// Row 0 has label -1 and score 0 at w = 0: a mistake for TieMistake,
	// correct for TieNegative (sign(0) = -1). Worked by hand:
	// TieMistake:  row 0 → w = (-1, 0), b = -1; row 1 (score -1) → w = (-1, 1), b = 0; clean.
	// TieNegative: row 0 ok; row 1 (score 0 → -1) → w = (0, 1), b = 1;
	//              epoch 2: row 0 (score 1) → w = (-1, 1), b = 0; epoch 3 clean.
	d := lrData(t, [][]float64{{1, 0}, {0, 1}}, []float64{-1, 1})
	for _, test := range []struct {
		tie    Tie
		rows   []int
		epochs int
	}{
		{TieMistake, []int{0, 1}, 2},
		{TieNegative, []int{1, 0}, 3},
	} {
		opt := Options{}
		opt.Tie = test.tie
		var rec Recorder
		opt.Control.Observer = rec.Observe
		res, err := PLA(d, opt)
		if err != nil {
			t.Fatal(err)
		}
		var rows []int
		for _, u := range rec.Updates {
			rows = append(rows, u.Row)
		}
		if !reflect.DeepEqual(rows, test.rows) || res.Epochs != test.epochs || !res.Converged ||
			!lrSameHyperplane(res.Hyperplane, Hyperplane{W: []float64{-1, 1}}, 0) {
			t.Errorf("%v: rows %v, epochs %d, w %v, b %v; want rows %v, epochs %d, w [-1 1], b 0",
				test.tie, rows, res.Epochs, res.W, res.B, test.rows, test.epochs)
		}
	}
}

// TestBadLabelNamed: on rows enough for the labels to be checked sixteen at
// a time, every learner's error names the first bad label's row, wherever
// it falls in its block, and a later bad label does not hide it.
func TestBadLabelNamed(t *testing.T) {
	const n = 100
	x := make([]float64, 2*n)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	for _, row := range []int{0, 15, 16, 37, 63, 95, 99} {
		for _, v := range []float64{0, math.Copysign(0, -1), 2, math.NaN(), math.Inf(-1), math.Nextafter(1, 2)} {
			y := make([]float64, n)
			for i := range y {
				y[i] = float64(1 - 2*(i%3%2))
			}
			y[row] = v
			if row+5 < n {
				y[row+5] = 3
			}
			d := &Dataset{X: mat.NewDense(n, 2, x), Y: y}
			want := fmt.Sprintf("row %d: label %v is not -1 or +1", row, v)
			for _, l := range batchLearners {
				if _, err := l.fit(d, Options{}); !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), want) {
					t.Errorf("%s, label %v at row %d: %v; want ErrLabel with %q", l.name, v, row, err, want)
				}
			}
			if err := d.Validate(); !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), want) {
				t.Errorf("Validate, label %v at row %d: %v; want ErrLabel with %q", v, row, err, want)
			}
		}
	}
}
