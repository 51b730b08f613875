package perceptron_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// The tests of this file check what a 32-bit int (GOARCH=386) broke; they
// run on every platform, and TestSuiteOn386 runs them (with the rest of
// the package's -short tests) in a 386 build.

// TestMaxMarginPairIDsDoNotWrap: MaxMargin with a bias names a pair of rows
// (p, q) by p·n + q, which passed 2^31 − 1 on 386 from n = 46,341 rows: a
// panic (a negative row) at 50,000 rows, and at 2^17 rows two pairs with one
// id, so that the solver stopped on "rounding" (ErrUndecided) on an easy
// set. Both answers are known: w = (1, 0) with γ = 1, and with γ = 1/2.
func TestMaxMarginPairIDsDoNotWrap(t *testing.T) {
	const n1 = 50000
	x, y := make([][]float64, n1), make([]float64, n1)
	for i := range x {
		x[i], y[i] = []float64{-1, float64(i%10) / 10}, -1
	}
	x[n1-1], y[n1-1] = []float64{1, 0}, 1
	checkMaxMargin(t, "50,000 rows", x, y, 1, 0, 1)

	const n2 = 1 << 17
	x, y = make([][]float64, n2), make([]float64, n2)
	for i := range x {
		x[i], y[i] = []float64{-10, 0}, -1
		if i%2 == 0 {
			x[i], y[i] = []float64{10, 0}, 1
		}
	}
	x[0], y[0] = []float64{1, 1}, 1          // the pair (0, 1): id 1
	x[1<<15], y[1<<15] = []float64{1, -1}, 1 // the pair (2^15, 1): id 2^32 + 1, 1 in 32 bits
	x[1], y[1] = []float64{0, 0}, -1
	checkMaxMargin(t, "2^17 rows", x, y, 1, -0.5, 0.5)
}

// checkMaxMargin checks that MaxMargin finds w = (w0, 0), b, γ to 1e-9.
func checkMaxMargin(t *testing.T, name string, x [][]float64, y []float64, w0, b, gamma float64) {
	t.Helper()
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	h, g, err := perceptron.MaxMargin(d, perceptron.Options{})
	if err != nil || math.Abs(g-gamma) > 1e-9 || math.Abs(h.W[0]-w0) > 1e-9 || math.Abs(h.W[1]) > 1e-9 || math.Abs(h.B-b) > 1e-9 {
		t.Errorf("%s: MaxMargin = %+v, γ = %v, %v; want w = [%v 0], b = %v, γ = %v", name, h, g, err, w0, b, gamma)
	}
}

// TestRaggedRowsBeforeTheirValues: ragged rows are ErrDimension before the
// values are reserved, and n rows of d values that an int cannot count are
// ErrDimension too. On 386, 46,341 rows of which the first has 46,341
// values (a model file of 230 kB) made NewDataset and a kernel model's
// UnmarshalJSON panic (makeslice: cap out of range); a 64-bit build
// reserved 16 GB before it said "ragged".
func TestRaggedRowsBeforeTheirValues(t *testing.T) {
	const n = 46341
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = []float64{}, 1
	}
	x[0] = make([]float64, n)
	if _, err := perceptron.NewDataset(x, y); !errors.Is(err, perceptron.ErrDimension) || !strings.Contains(err.Error(), "ragged") {
		t.Errorf("NewDataset of ragged rows: %v, want ErrDimension (ragged)", err)
	}
	var b strings.Builder
	b.WriteString(`{"kernel":"linear","alpha":[1],"b":0,"eta":1,"tie":"mistake","x":[[`)
	b.WriteString(strings.TrimSuffix(strings.Repeat("0,", n), ","))
	b.WriteString("]" + strings.Repeat(",[]", n-1) + `],"y":[1],"stats":{"Updates":1,"Epochs":1,"UpdateRuns":[{"Updates":1,"Epochs":1}],"LastMistakeRow":0,"Converged":false}}`)
	var m perceptron.KernelModel
	if err := json.Unmarshal([]byte(b.String()), &m); !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("a kernel model of ragged rows: %v, want ErrDimension", err)
	}
	if strconv.IntSize == 32 {
		// Rows that share their values: as many as an int cannot count.
		row := make([]float64, 1<<16)
		x, y := make([][]float64, 1<<15), make([]float64, 1<<15)
		for i := range x {
			x[i], y[i] = row, 1
		}
		if _, err := perceptron.NewDataset(x, y); !errors.Is(err, perceptron.ErrDimension) {
			t.Errorf("2^31 values on 386: %v, want ErrDimension", err)
		}
	}
}

// TestGramMatrixBeyondAnInt: a Gram matrix whose 8·n² bytes pass the
// largest int is ErrOption whatever MaxGramBytes allows; on 386, n = 2^16
// made n·n wrap to 0 and Dual panicked (index out of range).
func TestGramMatrixBeyondAnInt(t *testing.T) {
	if strconv.IntSize != 32 {
		t.Skip("a 64-bit int counts the bytes of any Gram matrix that fits in memory")
	}
	const n = 1 << 16
	x, y := make([][]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = []float64{float64(i%3) - 1}, float64(1-2*(i%2))
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	opt := perceptron.Options{MaxEpochs: 1}
	opt.Control.MaxGramBytes = 1 << 40
	if _, err := perceptron.Dual(d, opt); !errors.Is(err, perceptron.ErrOption) {
		t.Errorf("Dual of 2^16 rows with MaxGramBytes 2^40 on 386: %v, want ErrOption", err)
	}
}

// TestOnlineSeenDoesNotWrap: an Online that has seen the largest int of
// points refuses the next with ErrOption, and is left as it was; on 386
// Seen wrapped after 2^31 − 1 points and errors named point −2147483647.
func TestOnlineSeenDoesNotWrap(t *testing.T) {
	o, err := perceptron.NewOnline(1, 1, perceptron.TieMistake)
	if err != nil {
		t.Fatal(err)
	}
	o.Seen = math.MaxInt - 1
	if _, err := o.Step([]float64{1}, 1); err != nil || o.Seen != math.MaxInt {
		t.Fatalf("the point before the largest int: %v, Seen %d", err, o.Seen)
	}
	w := fmt.Sprint(o.Hyperplane())
	if _, err := o.Step([]float64{-1}, 1); !errors.Is(err, perceptron.ErrOption) || o.Seen != math.MaxInt || fmt.Sprint(o.Hyperplane()) != w {
		t.Errorf("a point after %d: %v, Seen %d, %v (was %v); want ErrOption and no change", math.MaxInt, err, o.Seen, o.Hyperplane(), w)
	}
}

// TestSeparableDataManyPoints: SeparableData's budget of draws is 100·n +
// 10,000, which passed 2^31 on 386 from n = 21,474,737 and went negative,
// so that no point was drawn and the error said "margin 0 too large". The
// budget is an int64 now; 22 million points of one feature (350 MB) are
// drawn on every platform.
func TestSeparableDataManyPoints(t *testing.T) {
	const n = 22_000_000
	d, _, err := perceptron.SeparableData(n, 1, 0, 1)
	if err != nil || d.N() != n {
		t.Errorf("SeparableData(%d, 1, 0, 1): %v", n, err)
	}
}
