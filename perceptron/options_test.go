package perceptron

import "testing"

func TestParseOrder(t *testing.T) {
	for _, o := range []Order{Cyclic, Cycle, Shuffle, RandomMistake} {
		got, err := ParseOrder(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v; want %v", o.String(), got, err, int(o))
		}
	}
	if s := Order(9).String(); s != "Order(?)" {
		t.Errorf("Order(9).String() = %q", s)
	}
	if _, err := ParseOrder("random"); err == nil ||
		err.Error() != `perceptron: unknown order "random": want cyclic, cycle, shuffle or mistake` {
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
	if _, err := ParseTie("positive"); err == nil ||
		err.Error() != `perceptron: unknown tie policy "positive": want mistake or negative` {
		t.Errorf("ParseTie(positive): %v", err)
	}
	if s := Tie(4).String(); s != "Tie(4)" {
		t.Errorf("Tie(4).String() = %q", s)
	}
}

func TestDefaultOptions(t *testing.T) {
	o := DefaultOptions()
	if o.MaxEpochs != 1000 || o.MaxUpdates != 0 || o.Eta != 1 || o.Order != Cyclic || o.Seed != 1 ||
		o.Tie != TieMistake || o.NoBias || o.Observer != nil {
		t.Errorf("DefaultOptions() = %+v", o)
	}
	if err := o.validate(); err != nil {
		t.Errorf("DefaultOptions are invalid: %v", err)
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
