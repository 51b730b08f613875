package main

import (
	"bytes"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron"
)

// FuzzReadModelFile reads arbitrary bytes as a model file: readModelFile
// either fails or gives a file that Validate accepts and whose Model
// scores and predicts without a panic, never answering NaN or a label
// other than -1, 0 or +1 without an error, and that WriteJSON writes back
// to a file that reads back to the same bytes (when it gives
// updates_per_epoch, classes, features and d, as train writes them). The point scored comes from
// the fuzzer's float (NaN and ±Inf must be errors).
func FuzzReadModelFile(f *testing.F) {
	d := &perceptron.Dataset{X: mat.NewDense(4, 2, []float64{1, 2, -1, -2, 2, -1, -2, 1}), Y: []float64{1, -1, 1, -1}}
	opt := perceptron.Options{MaxEpochs: 5, Tie: perceptron.TieNegative}
	pla, _ := perceptron.PLA(d, opt)
	pocket, _ := perceptron.Pocket(d, opt)
	avg, _ := perceptron.Averaged(d, opt)
	voted, _ := perceptron.Voted(d, opt)
	for _, m := range []perceptron.Model{pla, pocket, avg, voted, perceptron.Hyperplane{W: []float64{1, -1}, B: 0.5}} {
		mf, err := newModelFile(m)
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := mf.WriteJSON(&buf); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes(), 1.0)
	}
	f.Add([]byte("\xef\xbb\xbf{\"algo\":\"pla\",\"w\":[1e308,1e308],\"b\":-0,\"tie\":\"minus\"}"), 1e308)
	f.Fuzz(func(t *testing.T, data []byte, v float64) {
		mf, err := readModelFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := mf.Validate(); err != nil {
			t.Fatalf("readModelFile(%q) gave a file Validate refuses: %v", data, err)
		}
		m, err := mf.Model()
		if err != nil {
			t.Fatalf("readModelFile(%q): Model: %v", data, err)
		}
		x := make([]float64, m.Dim())
		for j := range x {
			x[j] = v * float64(j+1)
		}
		s, serr := m.Score(x)
		p, perr := m.Predict(x)
		if serr == nil && math.IsNaN(s) || perr == nil && p != -1 && p != 0 && p != 1 {
			t.Fatalf("readModelFile(%q) at %v: Score %v (%v), Predict %v (%v)", data, x, s, serr, p, perr)
		}
		var buf bytes.Buffer
		if err := mf.WriteJSON(&buf); err != nil {
			t.Fatalf("readModelFile(%q): WriteJSON: %v", data, err)
		}
		if mf.UpdatesPerEpoch == nil || mf.Classes == nil || mf.Features == nil || mf.D == 0 {
			// A file without them (a hand-written one) is written with
			// them null (d 0), which readModelFile refuses: train writes
			// all.
			return
		}
		back, err := readModelFile(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("readModelFile(%q), written as %s, does not read back: %v", data, buf.Bytes(), err)
		}
		var again bytes.Buffer
		if err := back.WriteJSON(&again); err != nil || again.String() != buf.String() {
			t.Fatalf("readModelFile(%q): written %s, read back and written %s (%v)", data, buf.Bytes(), again.Bytes(), err)
		}
	})
}
