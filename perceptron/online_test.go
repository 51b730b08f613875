package perceptron

import (
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
		want string
	}{
		{0, 1, TieMistake, "perceptron: online: dimension must be >= 1, got 0"},
		{2, 0, TieMistake, "perceptron: Eta must be a finite number > 0, got 0"},
		{2, math.NaN(), TieMistake, "perceptron: Eta must be a finite number > 0, got NaN"},
		{2, math.Inf(1), TieMistake, "perceptron: Eta must be a finite number > 0, got +Inf"},
		{2, 1, 3, "perceptron: unknown tie policy 3: want TieMistake or TieNegative"},
	} {
		o, err := NewOnline(test.d, test.eta, test.tie)
		if err == nil || err.Error() != test.want || o != nil {
			t.Errorf("NewOnline(%d, %v, %v): %v, want %q", test.d, test.eta, test.tie, err, test.want)
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
		want string
	}{
		{[]float64{1, 2, 3}, 1, "perceptron: wrong dimension: row 1 has 3 features, the model expects 2"},
		{[]float64{1, math.NaN()}, 1, "perceptron: row 1, column 1: value is NaN"},
		{[]float64{math.Inf(1), 1}, 1, "perceptron: row 1, column 0: value is +Inf"},
		{[]float64{1, 2}, 0, "perceptron: row 1: label 0 is not -1 or +1"},
		{[]float64{1, 2}, math.NaN(), "perceptron: row 1: label NaN is not -1 or +1"},
	} {
		m, err := o.Step(test.x, test.y)
		if err == nil || err.Error() != test.want || m {
			t.Errorf("Step(%v, %v): %v, %v; want %q", test.x, test.y, m, err, test.want)
		}
	}
	if o.Seen != 1 || o.Mistakes != 1 || !reflect.DeepEqual(o.Hyperplane(), before) {
		t.Errorf("a bad point changed the learner: Seen %d, Mistakes %d, %v", o.Seen, o.Mistakes, o.Hyperplane())
	}
	o.Eta = -1
	if _, err := o.Step([]float64{1, 2}, 1); err == nil || err.Error() != "perceptron: Eta must be a finite number > 0, got -1" {
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
