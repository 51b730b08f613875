package perceptron

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseOrder(t *testing.T) {
	for _, o := range []Order{InOrder, RandomCycle, Shuffle, RandomMistake} {
		got, err := ParseOrder(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v", o.String(), got, err, int(o))
		}
	}
	if s := Order(9).String(); s != "Order(?)" {
		t.Errorf("Order(9).String() = %q", s)
	}
	if _, err := ParseOrder("random"); !errors.Is(err, ErrOption) ||
		err.Error() != `perceptron: unknown order "random": want in-order, random-cycle, shuffle or mistake` {
		t.Errorf("ParseOrder(random): %v", err)
	}
}

func TestParseTie(t *testing.T) {
	for _, test := range []struct {
		s    string
		want Tie
	}{{"mistake", TieMistake}, {"zero", TieMistake}, {"negative", TieNegative}, {"minus", TieNegative}} {
		got, err := ParseTie(test.s)
		if err != nil || got != test.want {
			t.Errorf("ParseTie(%q) = %v, %v; want %v", test.s, got, err, test.want)
		}
		if back, _ := ParseTie(got.String()); back != got {
			t.Errorf("%v does not round-trip through String", got)
		}
	}
	if _, err := ParseTie("positive"); !errors.Is(err, ErrOption) ||
		err.Error() != `perceptron: unknown tie policy "positive": want mistake or negative` {
		t.Errorf("ParseTie(positive): %v", err)
	}
	if s := Tie(4).String(); s != "Tie(4)" {
		t.Errorf("Tie(4).String() = %q", s)
	}
}

// TestZeroOptionsAreTheDefault: the zero Options is valid and stands for
// 1000 epochs, η = 1, the rows in order, seed 0, TieMistake, a free bias
// and exact sums; a run with it is bit for bit the run with those values
// spelled out.
func TestZeroOptionsAreTheDefault(t *testing.T) {
	o := Options{}
	if err := o.validate(); err != nil {
		t.Fatalf("the zero Options are invalid: %v", err)
	}
	want := Options{MaxEpochs: 1000, Eta: 1, Order: InOrder, Seed: 0, Tie: TieMistake, Summation: ExactSum}
	if o.MaxEpochs != want.MaxEpochs || o.MaxUpdates != 0 || o.Eta != want.Eta || o.Order != InOrder || o.Seed != 0 ||
		o.Tie != TieMistake || o.NoBias || o.Summation != ExactSum || o.Control.Context != nil || o.Control.Observer != nil || o.Control.MaxGramBytes != 0 {
		t.Errorf("validated zero Options = %+v, want %+v", o, want)
	}
	d := Iris()
	bin, err := d.Binary(1, 2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []Order{InOrder, Shuffle} {
		zero, err1 := PLA(bin, Options{Order: order, MaxEpochs: 50})
		spelled, err2 := PLA(bin, Options{Order: order, MaxEpochs: 50, Eta: 1, Seed: 0, Tie: TieMistake})
		if err1 != nil || err2 != nil || !reflect.DeepEqual(zero, spelled) {
			t.Errorf("%v: zero Options %+v (%v), spelled out %+v (%v): want the same run", order, zero, err1, spelled, err2)
		}
	}
}

func TestTieSignMistake(t *testing.T) {
	for _, test := range []struct {
		tie            Tie
		score, y, sign float64
		mistake        bool
	}{
		{TieMistake, 2, 1, 1, false},
		{TieMistake, -2, 1, -1, true},
		{TieMistake, 0, 1, 0, true},
		{TieMistake, 0, -1, 0, true},
		{TieNegative, 0, -1, -1, false},
		{TieNegative, 0, 1, -1, true},
		{TieNegative, -0.5, -1, -1, false},
		{TieNegative, 0.5, -1, 1, true},
	} {
		if s := test.tie.Sign(test.score); s != test.sign {
			t.Errorf("%v.Sign(%v) = %v, want %v", test.tie, test.score, s, test.sign)
		}
		if m := test.tie.Mistake(test.y, test.score); m != test.mistake {
			t.Errorf("%v.Mistake(%v, %v) = %v, want %v", test.tie, test.y, test.score, m, test.mistake)
		}
	}
}
