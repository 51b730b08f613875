package perceptron

import (
	"reflect"
	"testing"
)

func TestRecorderKeepsCopies(t *testing.T) {
	// MIT's separable set, cyclic: the first update is on row 0,
	// (2, 5) with y = +1 at w = 0, giving w = (2, 5), b = 1. The learner
	// keeps changing the slice it showed the observer; the recorded copy
	// must not follow.
	d := lrMITSeparable(t)
	var rec Recorder
	opt := Options{}
	opt.Control.Observer = rec.Observe
	res, err := PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Updates) != res.Updates || res.Updates < 2 {
		t.Fatalf("recorded %d updates of %d", len(rec.Updates), res.Updates)
	}
	first := Update{Epoch: 0, Row: 0, X: []float64{2, 5}, Y: 1, Score: 0, W: []float64{2, 5}, B: 1}
	if !reflect.DeepEqual(rec.Updates[0], first) {
		t.Errorf("first update %+v, want %+v", rec.Updates[0], first)
	}
	last := rec.Updates[len(rec.Updates)-1]
	if !reflect.DeepEqual(last.W, res.W) || last.B != res.B {
		t.Errorf("last recorded w %v, %v; result %v, %v", last.W, last.B, res.W, res.B)
	}
	// X is a copy too: changing it leaves the data set alone.
	rec.Updates[0].X[0] = 99
	if d.Row(0)[0] != 2 {
		t.Errorf("the recorded X aliases the data set")
	}
}
