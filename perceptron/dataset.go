package perceptron

import (
	"context"
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
	"gonum.org/v1/gonum/mat"
)

// Dataset is n labelled rows of d features: row i is the point x_i and Y[i]
// its label, -1 or +1. X is row-major, so X.RawRowView(i) is x_i without a
// copy. Build one with NewDataset or ReadCSV; the fields may be read freely
// but a Dataset is not changed by any function of this package.
type Dataset struct {
	// X holds the points, one per row (n × d).
	X *mat.Dense
	// Y holds the labels, -1 or +1.
	Y []float64
	// Features names the d columns (may be nil).
	Features []string
	// Classes names the original classes mapped to -1 and to +1 (may be empty).
	Classes [2]string
}

// NewDataset copies the rows x and labels y into a Dataset after checking
// them: at least one row, every row of the same non-zero length, every value
// finite, as many labels as rows, every label -1 or +1. The error names the
// first problem and its row and column (0-based).
func NewDataset(x [][]float64, y []float64) (*Dataset, error) {
	if len(x) == 0 {
		return nil, ErrEmpty
	}
	d := len(x[0])
	if d == 0 {
		return nil, kindErrorf(ErrEmpty, "empty data: row 0 has no features")
	}
	if len(y) != len(x) {
		return nil, kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", len(x), len(y))
	}
	// The shape first: the values are reserved after it, whose number
	// must fit in an int (32 bits on 386; rows may share their values).
	for i, row := range x {
		if len(row) != d {
			return nil, kindErrorf(ErrDimension, "ragged rows: row %d has %d features, row 0 has %d", i, len(row), d)
		}
	}
	if err := checkValues(len(x), d); err != nil {
		return nil, err
	}
	data := make([]float64, 0, len(x)*d)
	for i, row := range x {
		if err := checkFinite(row, i); err != nil {
			return nil, err
		}
		data = append(data, row...)
	}
	if err := checkLabels(y); err != nil {
		return nil, err
	}
	return &Dataset{X: mat.NewDense(len(x), d, data), Y: append([]float64(nil), y...)}, nil
}

// checkValues refuses n rows of d values (n, d ≥ 1) whose number n·d
// overflows an int (beyond 2^31 − 1 on a 32-bit platform such as 386),
// which no slice or matrix can hold, before it is reserved.
func checkValues(n, d int) error {
	if d > math.MaxInt/n {
		return kindErrorf(ErrDimension, "%d rows of %d values: %d values, more than an int counts on this platform (%d)", n, d, int64(n)*int64(d), math.MaxInt)
	}
	return nil
}

// checkFinite reports the first NaN or ±Inf of row i.
func checkFinite(row []float64, i int) error {
	for j, v := range row {
		if math.IsNaN(v) {
			return kindErrorf(ErrNonFinite, "row %d, column %d: value is NaN", i, j)
		}
		if math.IsInf(v, 0) {
			return kindErrorf(ErrNonFinite, "row %d, column %d: value is %v", i, j, v)
		}
	}
	return nil
}

// checkLabels reports the first label that is not -1 or +1.
func checkLabels(y []float64) error {
	// Sixteen labels at a time with AVX2, |y_i| against 1 in Go elsewhere
	// (asm.FirstNonUnit): a quarter of the time the loop took before a
	// 1M x 100 epoch, a tenth from cache (docs/performance.md, round 10).
	if i := asm.FirstNonUnit(y); i < len(y) {
		return kindErrorf(ErrLabel, "row %d: label %v is not -1 or +1", i, y[i])
	}
	return nil
}

// N returns the number of rows (0 for a nil or zero Dataset).
func (d *Dataset) N() int {
	if d == nil || d.X == nil {
		return 0
	}
	r, _ := d.X.Dims()
	return r
}

// D returns the number of features (0 for a nil or zero Dataset).
func (d *Dataset) D() int {
	if d == nil || d.X == nil {
		return 0
	}
	_, c := d.X.Dims()
	return c
}

// Row returns x_i as a view into X; callers must not modify it. Like a
// slice index, it panics when i is outside [0, N), and so on a Dataset with
// no rows: loop over i < d.N().
func (d *Dataset) Row(i int) []float64 { return d.X.RawRowView(i) }

// Rows returns a copy of the points as a slice of rows.
func (d *Dataset) Rows() [][]float64 {
	out := make([][]float64, d.N())
	for i := range out {
		out[i] = append([]float64(nil), d.Row(i)...)
	}
	return out
}

// Subset returns a new Dataset of the given rows, in the given order.
func (d *Dataset) Subset(rows []int) (*Dataset, error) {
	if len(rows) == 0 || d == nil || d.X == nil {
		return nil, ErrEmpty
	}
	n, c := d.N(), d.D()
	if len(d.Y) != n {
		return nil, kindErrorf(ErrDimension, "subset: inconsistent numbers of samples: %d rows of x but %d labels", n, len(d.Y))
	}
	data := make([]float64, 0, len(rows)*c)
	y := make([]float64, len(rows))
	for k, i := range rows {
		if i < 0 || i >= n {
			return nil, kindErrorf(ErrOption, "subset: row index %d out of range [0, %d)", i, n)
		}
		data = append(data, d.Row(i)...)
		y[k] = d.Y[i]
	}
	return &Dataset{X: mat.NewDense(len(rows), c, data), Y: y, Features: d.Features, Classes: d.Classes}, nil
}

// Validate checks that d is non-empty, finite and labelled -1/+1 with both
// classes, as the theory functions (Separable, MaxMargin, Bound) need. The
// learners (and GramMatrix) check the same but for the classes: labels that
// are all -1 or all +1 train.
func (d *Dataset) Validate() error {
	if err := checkRows(d); err != nil {
		return err
	}
	pos := 0
	for _, v := range d.Y {
		if v > 0 {
			pos++
		}
	}
	if pos == 0 || pos == len(d.Y) {
		return kindErrorf(ErrOneClass, "one class only: all %d labels are %v; need both -1 and +1", len(d.Y), d.Y[0])
	}
	return nil
}

// checkTrain is the learners' check at the door: d is non-empty, finite and
// labelled -1/+1. One class is allowed: labels that are all -1 or all +1
// say what they mean, PLA's update is defined there (the first point is a
// mistake at w = 0; the data is separable by w = 0, b = y, so PLA
// converges), and Learning From Data's experiment draws such samples
// (LFDData); only the theory functions, which need both classes, refuse
// them with ErrOneClass.
func checkTrain(d *Dataset) error { return checkRows(d) }

// checkTrainCtx is checkTrain for a learner whose Options may carry a
// Context: the finiteness of the n·d values is checked with a look at the
// Context before the first value and every ctxCheckValues values, and once
// the Context is done it stops reading (and reports the labels' error, or
// nil), the rows it has not read unchecked. The learners call it right
// before newRun, which sees the same done Context (a Context stays done)
// and halts the run before it reads a row: the run returns its zero result
// and ErrStopped at once, where it read all n·d values first (0.1 s at
// 9000 × 12,000, helper-59).
func checkTrainCtx(d *Dataset, opt Options) error {
	return checkRowsCtx(d, opt.Control.Context)
}

// checkRows checks that d is non-empty, finite and labelled -1/+1 (one class
// only is allowed).
func checkRows(d *Dataset) error { return checkRowsCtx(d, nil) }

// checkScored checks d as checkRows does, and that it has the dim
// features of the model that scores it.
func checkScored(d *Dataset, dim int) error {
	if err := checkRows(d); err != nil {
		return err
	}
	if d.D() != dim {
		return kindErrorf(ErrDimension, "wrong dimension: the data has %d features, the model expects %d", d.D(), dim)
	}
	return nil
}

// checkRowsCtx is checkRows looking at ctx, if not nil, as checkTrainCtx
// says: the shape, the values, then the labels (O(n), checked whatever
// ctx), so that the same data gets the same error with a Context as
// without (helper-64).
func checkRowsCtx(d *Dataset, ctx context.Context) error {
	if d == nil || d.X == nil || d.X.IsEmpty() {
		return ErrEmpty
	}
	if len(d.Y) != d.N() {
		return kindErrorf(ErrDimension, "inconsistent numbers of samples: %d rows of x but %d labels", d.N(), len(d.Y))
	}
	work := ctxCheckValues // look before the first row
	for i := 0; i < d.N(); i++ {
		if ctx != nil && work >= ctxCheckValues {
			work = 0
			if ctx.Err() != nil {
				break
			}
		}
		row := d.Row(i)
		if err := checkFinite(row, i); err != nil {
			return err
		}
		work += len(row)
	}
	return checkLabels(d.Y)
}

// checkPoint reports a point (row i of some input) whose length is not the
// d the model was trained on, or that holds a NaN or ±Inf.
func checkPoint(x []float64, d, i int) error {
	if len(x) != d {
		return kindErrorf(ErrDimension, "wrong dimension: row %d has %d features, the model expects %d", i, len(x), d)
	}
	return checkFinite(x, i)
}
