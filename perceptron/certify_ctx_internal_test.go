package perceptron

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/perceptron-go/lessons/perceptron/internal/minnorm"
)

// TestCertificationHeedsTheContext: the exact scores of marginLow (Bound
// and MaxMargin certify their margins with it) and the exact hull point of
// hullNormUp (MaxMargin's bound on the maximum) look at the context before
// each row and each vertex. helper-49: on 20000 rows of 1000 values that
// tie within their rounding bounds, MaxMargin and Bound answered, with no
// error, 2.6-5.8 s after a 1 s deadline, all of it in these exact sums.
// A done context is ErrUndecided, ErrStopped and the context's error; a
// live one certifies as before.
func TestCertificationHeedsTheContext(t *testing.T) {
	d, err := NewDataset([][]float64{{1, 2}, {-1, -2}, {2, 1}}, []float64{1, -1, 1})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{1, 1}
	corral := []minnorm.Vertex{{ID: 0, Lambda: 0.5}, {ID: 1, Lambda: 0.5}}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	kinds := []error{ErrUndecided, ErrStopped, context.Canceled}
	_, _, err = marginLow(done, w, 0, d, "test")
	_, err2 := hullNormUp(done, d, corral, true)
	for _, kind := range kinds {
		if !errors.Is(err, kind) || !errors.Is(err2, kind) {
			t.Errorf("marginLow: %v; hullNormUp: %v; want both %v", err, err2, kind)
		}
	}
	g, row, err := marginLow(context.Background(), w, 0, d, "test")
	if want := math.Nextafter(3/math.Sqrt2, 0); err != nil || row != 0 || !(g <= 3/math.Sqrt2 && g >= math.Nextafter(want, 0)) {
		t.Errorf("marginLow: %v at row %d, %v; want about %v at row 0", g, row, err, want)
	}
	if up, err := hullNormUp(context.Background(), d, corral, true); err != nil || !(up >= math.Sqrt(5)) {
		t.Errorf("hullNormUp: %v, %v; want at least √5", up, err)
	}
}

// TestMarginLowRepeatedRows: rows repeated (the same label and values)
// are scored exactly once; the certified margin is the one of the rows
// without their copies, and among rows of the least exact score the first
// is named.
func TestMarginLowRepeatedRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var x [][]float64
	var y []float64
	for range 40 {
		row := []float64{math.Abs(r.NormFloat64()) + 3, r.NormFloat64()}
		x = append(x, row)
		y = append(y, 1)
	}
	w := []float64{1, 0.25}
	once, err := NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	g1, r1, err1 := marginLow(context.Background(), w, 0, once, "test")
	// Every row three times, the copies after the originals.
	x3, y3 := append(append(append([][]float64{}, x...), x...), x...), append(append(append([]float64{}, y...), y...), y...)
	thrice, err := NewDataset(x3, y3)
	if err != nil {
		t.Fatal(err)
	}
	g3, r3, err3 := marginLow(context.Background(), w, 0, thrice, "test")
	if err1 != nil || err3 != nil || g1 != g3 || r1 != r3 {
		t.Errorf("once: %v at row %d (%v); three times: %v at row %d (%v); want the same", g1, r1, err1, g3, r3, err3)
	}
	// The same values with the other label are another row: a point whose
	// score 2^-52 is within the rounding bound, labelled +1 and then -1,
	// leaves the -1 copy on the wrong side, exactly.
	tie := []float64{1, -4 + 0x1p-50} // w·x = 2^-52
	both, err := NewDataset(append(x3, tie, tie), append(y3, 1, -1))
	if err != nil {
		t.Fatal(err)
	}
	if _, row, err := marginLow(context.Background(), w, 0, both, "test"); !errors.Is(err, ErrUndecided) || row != len(x3)+1 {
		t.Errorf("a point labelled +1 and -1: row %d, %v; want ErrUndecided at row %d", row, err, len(x3)+1)
	}
}
