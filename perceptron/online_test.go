package perceptron

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestOnlineIsCyclicPLA(t *testing.T) {
	// Feeding the rows in order, epoch after epoch, makes PLA's cyclic run:
	// the same mistakes and bit-identical weights.
	for _, d := range []*Dataset{lrNoisy(t), lrSeparable(t), lrMITXor(t)} {
		for _, tie := range []Tie{TieMistake, TieNegative} {
			for _, noBias := range []bool{false, true} {
				opt := Options{}
				opt.MaxEpochs, opt.Tie, opt.NoBias, opt.Eta = 7, tie, noBias, 0.7
				pla, err := PLA(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				o, err := NewOnline(d.D(), 0.7, tie)
				if err != nil {
					t.Fatal(err)
				}
				o.NoBias = noBias
				for e := 0; e < pla.Epochs; e++ {
					for i := 0; i < d.N(); i++ {
						if _, err := o.Step(d.Row(i), d.Y[i]); err != nil {
							t.Fatal(err)
						}
					}
				}
				if o.Mistakes != pla.Updates || o.Seen != pla.Epochs*d.N() || !lrSameHyperplane(o.Hyperplane(), pla.Hyperplane, 0) {
					t.Errorf("%v: online %v after %d mistakes in %d points; PLA %v after %d updates",
						tie, o.Hyperplane(), o.Mistakes, o.Seen, pla.Hyperplane, pla.Updates)
				}
			}
		}
	}
}

func TestOnlineMistakeBound(t *testing.T) {
	// Points labelled by u = (1, 2)/√5 through the origin, none closer than
	// 0.22 to the line. Novikoff: whatever the length of the stream, the
	// online perceptron without bias makes at most (R/γ)² mistakes, with γ
	// the margin of any unit separator (here u) and R = max ||x||.
	x := [][]float64{{3, 1}, {-2, -1}, {0, 2}, {1, -2}, {2, 2}, {-3, 0}, {4, -1}, {-1, -0.5}, {-1, 3}, {2, -3}, {-0.2, 0.4}, {0.5, -0.5}}
	u := []float64{1 / math.Sqrt(5), 2 / math.Sqrt(5)}
	var r, gamma = 0.0, math.Inf(1)
	y := make([]float64, len(x))
	for i, p := range x {
		s := dot(u, p)
		y[i] = math.Copysign(1, s)
		gamma = math.Min(gamma, math.Abs(s))
		r = math.Max(r, math.Hypot(p[0], p[1]))
	}
	bound := int(math.Floor(r * r / (gamma * gamma)))
	o, err := NewOnline(2, 1, TieMistake)
	if err != nil {
		t.Fatal(err)
	}
	o.NoBias = true
	last := 0
	for k := 0; k < 200*len(x); k++ {
		i := (k * 7) % len(x) // a stream that revisits every point
		mistake, err := o.Step(x[i], y[i])
		if err != nil {
			t.Fatal(err)
		}
		if mistake {
			last = k
		}
	}
	if o.Mistakes == 0 || o.Mistakes > bound {
		t.Errorf("%d mistakes, bound (R/γ)² = %d", o.Mistakes, bound)
	}
	if o.B != 0 {
		t.Errorf("NoBias: b = %v", o.B)
	}
	// The stream repeats with period len(x) (7 is prime to 12): once a
	// period passes without a mistake w never changes again, so every
	// period before the last mistake holds a mistake.
	if last >= o.Mistakes*len(x) {
		t.Errorf("last mistake at point %d of the stream, after %d mistakes in periods of %d", last, o.Mistakes, len(x))
	}
}

func TestOnlineTie(t *testing.T) {
	for _, test := range []struct {
		tie     Tie
		mistake bool
	}{{TieMistake, true}, {TieNegative, false}} {
		o, _ := NewOnline(2, 1, test.tie)
		// At w = 0 the score is 0: a mistake for label -1 only with TieMistake.
		m, err := o.Step([]float64{1, 2}, -1)
		if err != nil || m != test.mistake {
			t.Errorf("%v: mistake %v (%v), want %v", test.tie, m, err, test.mistake)
		}
	}
}

func TestOnlineErrors(t *testing.T) {
	for _, test := range []struct {
		d    int
		eta  float64
		tie  Tie
		want error
	}{
		{0, 1, TieMistake, ErrOption},
		{2, -1, TieMistake, ErrOption},
		{2, math.NaN(), TieMistake, ErrOption},
		{2, math.Inf(1), TieMistake, ErrOption},
		{2, 1, 3, ErrOption},
	} {
		o, err := NewOnline(test.d, test.eta, test.tie)
		if !errors.Is(err, test.want) || o != nil {
			t.Errorf("NewOnline(%d, %v, %v): %v, want %v", test.d, test.eta, test.tie, err, test.want)
		}
	}
	o, _ := NewOnline(2, 1, TieMistake)
	if _, err := o.Step([]float64{1, 1}, 1); err != nil {
		t.Fatal(err)
	}
	before := o.Hyperplane()
	for _, test := range []struct {
		x    []float64
		y    float64
		want error
	}{
		{[]float64{1, 2, 3}, 1, ErrDimension},
		{[]float64{1, math.NaN()}, 1, ErrNonFinite},
		{[]float64{math.Inf(1), 1}, 1, ErrNonFinite},
		{[]float64{1, 2}, 0, ErrLabel},
		{[]float64{1, 2}, math.NaN(), ErrLabel},
	} {
		m, err := o.Step(test.x, test.y)
		if !errors.Is(err, test.want) || m {
			t.Errorf("Step(%v, %v): %v, %v; want %v", test.x, test.y, m, err, test.want)
		}
	}
	if o.Seen != 1 || o.Mistakes != 1 || !reflect.DeepEqual(o.Hyperplane(), before) {
		t.Errorf("a bad point changed the learner: Seen %d, Mistakes %d, %v", o.Seen, o.Mistakes, o.Hyperplane())
	}
	o.Eta = -1
	if _, err := o.Step([]float64{1, 2}, 1); !errors.Is(err, ErrOption) {
		t.Errorf("Step with Eta -1: %v", err)
	}
}

func TestOnlineHyperplaneIsACopy(t *testing.T) {
	o, _ := NewOnline(2, 1, TieMistake)
	o.Step([]float64{1, 2}, 1)
	h := o.Hyperplane()
	h.W[0] = 100
	if o.W[0] != 1 {
		t.Errorf("changing the copy changed w: %v", o.W)
	}
}

// TestOnlineOverflowIsAnError: an update that would overflow a weight, a
// score that overflows and weights set to ±Inf are ErrNonFinite errors that
// leave the learner as it was, as PLA ends with ErrNonFinite on the same
// point and η (Step used to write +Inf into w and report success).
func TestOnlineOverflowIsAnError(t *testing.T) {
	d, err := NewDataset([][]float64{{1e308}}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PLA(d, Options{Eta: 1e308}); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("PLA with η = 1e308 on x = 1e308: %v; want ErrNonFinite", err)
	}
	for _, tc := range []struct {
		name    string
		eta     float64
		w       []float64
		b       float64
		noBias  bool
		x       []float64
		y       float64
		mistake bool
	}{
		{"w overflows", 1e308, []float64{0}, 0, true, []float64{1e308}, 1, true},
		{"b overflows", 1e308, []float64{-1.7e308}, 1e308, false, []float64{1}, 1, true},
		{"the score overflows", 1, []float64{1e308, 1e308}, 0, false, []float64{1e308, 1e308}, -1, false},
		{"the score is NaN", 1, []float64{1e308, -1e308}, 0, false, []float64{1e308, 1e308}, 1, false},
		{"w set to +Inf", 1, []float64{math.Inf(1)}, 0, false, []float64{1}, 1, false},
		{"b set to NaN", 1, []float64{1}, math.NaN(), false, []float64{1}, 1, false},
	} {
		o, err := NewOnline(len(tc.w), tc.eta, TieMistake)
		if err != nil {
			t.Fatal(err)
		}
		o.W, o.B, o.NoBias = append([]float64(nil), tc.w...), tc.b, tc.noBias
		mistake, err := o.Step(tc.x, tc.y)
		if !errors.Is(err, ErrNonFinite) || mistake != tc.mistake {
			t.Errorf("%s: Step = %v, %v; want %v and ErrNonFinite", tc.name, mistake, err, tc.mistake)
		}
		same := reflect.DeepEqual(o.W, tc.w) && (o.B == tc.b || math.IsNaN(tc.b) && math.IsNaN(o.B))
		if !same || o.Seen != 0 || o.Mistakes != 0 {
			t.Errorf("%s: after the error W = %v, B = %v, Seen %d, Mistakes %d; want them unchanged", tc.name, o.W, o.B, o.Seen, o.Mistakes)
		}
	}
	// Near the edge of the range the update is made: 1e308 − 7e307.
	o, _ := NewOnline(1, 7e307, TieMistake)
	o.W[0] = 1e308
	if m, err := o.Step([]float64{1}, -1); err != nil || !m || o.W[0] != 1e308-7e307 || o.B != -7e307 {
		t.Errorf("a finite update: %v, %v, W %v", m, err, o.W)
	}
}
