package perceptron

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Scaler standardises features with the mean and the standard deviation of
// each column of a training set, as scikit-learn's StandardScaler: a value
// v of column j becomes z = (v − Mean[j]) / Std[j].
type Scaler struct {
	// Mean[j] is the mean of column j of the training set.
	Mean []float64
	// Std[j] is the population standard deviation of column j (divided by
	// n, not n − 1), or 1 for a constant column, which is then only
	// centred.
	Std []float64
}

// FitScaler fits a Scaler on the training set d: the mean and the
// population standard deviation of every column. Fit it on the training
// set only and apply it with Transform to both the training and the test
// set, so that nothing about the test set leaks into training.
// It is an error for d to be nil or empty or to hold a NaN or ±Inf. The
// sums are overflow-safe: a column whose sums leave the float64 range (data
// near ±1e308, or so small that squares underflow) is summed again scaled
// by a power of 2, so Std is finite and positive for every column that is
// not constant.
func FitScaler(d *Dataset) (*Scaler, error) {
	if d == nil || d.X == nil || d.N() == 0 || d.D() == 0 {
		return nil, ErrEmpty
	}
	n, dim := d.X.Dims()
	s := &Scaler{Mean: make([]float64, dim), Std: make([]float64, dim)}
	first := d.Row(0)
	constant := make([]bool, dim) // column j holds first[j] alone
	for j := range constant {
		constant[j] = true
	}
	for i := range n {
		row := d.Row(i)
		if err := checkFinite(row, i); err != nil {
			return nil, err
		}
		for j, v := range row {
			s.Mean[j] += v
			constant[j] = constant[j] && v == first[j]
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(n)
	}
	for i := range n {
		for j, v := range d.Row(i) {
			dv := v - s.Mean[j]
			s.Std[j] += float64(dv * dv) // no FMA: the same scaler on every platform
		}
	}
	for j, ss := range s.Std {
		if constant[j] {
			// Exactly: the sum of n equal values need not divide back to
			// the value (three 0.1 have the mean 0.10000000000000002 and a
			// Std of 1.4e-17, which scaled them to −1).
			// first + 0 is first, but +0 for −0, as the sum gives it.
			s.Mean[j], s.Std[j] = first[j]+0, 1
			continue
		}
		s.Std[j] = math.Sqrt(ss / float64(n))
		if bad := math.IsInf(s.Mean[j], 0) || !isFinite(s.Std[j]) || s.Std[j] == 0; bad {
			// The sums overflowed or underflowed: redo the column scaled by
			// a power of 2, exactly, and scale back.
			s.Mean[j], s.Std[j] = scaledMoments(d, j)
		}
		if s.Std[j] == 0 {
			s.Std[j] = 1
		}
	}
	return s, nil
}

// scaledMoments returns the mean and the population standard deviation of
// column j of d computed on the column divided by 2^e, e the exponent of its
// largest |value|, so that no sum leaves the float64 range; both scale back
// exactly (the standard deviation is at most the largest |value|).
func scaledMoments(d *Dataset, j int) (mean, std float64) {
	n := d.N()
	col := make([]float64, n)
	for i := range col {
		col[i] = d.X.At(i, j)
	}
	e := maxExp(col)
	for i := range col {
		col[i] = math.Ldexp(col[i], -e)
		mean += col[i]
	}
	mean /= float64(n)
	for _, v := range col {
		dv := v - mean
		std += float64(dv * dv) // no FMA: the same bits on every platform
	}
	return math.Ldexp(mean, e), math.Ldexp(math.Sqrt(std/float64(n)), e)
}

// Transform returns a new Dataset whose value v of column j is replaced by
// (v − Mean[j]) / Std[j], with the labels, feature names and class names of
// d; d itself is not changed. It is an error for d to be nil or empty, or
// for a row to have another number of features than the Scaler or to hold a
// NaN or ±Inf.
func (s *Scaler) Transform(d *Dataset) (*Dataset, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if d == nil || d.X == nil || d.N() == 0 {
		return nil, ErrEmpty
	}
	n, dim := d.X.Dims()
	x := make([]float64, 0, n*len(s.Mean))
	for i := range n {
		row := d.Row(i)
		if err := checkPoint(row, len(s.Mean), i); err != nil {
			return nil, err
		}
		for j, v := range row {
			z := (v - s.Mean[j]) / s.Std[j]
			if !isFinite(z) {
				// v − Mean overflowed: divide first.
				z = v/s.Std[j] - s.Mean[j]/s.Std[j]
			}
			if !isFinite(z) {
				return nil, kindErrorf(ErrNonFinite, "transform: row %d, column %d: (%v − %v)/%v is %v", i, j, v, s.Mean[j], s.Std[j], z)
			}
			x = append(x, z)
		}
	}
	return &Dataset{X: mat.NewDense(n, dim, x), Y: append([]float64(nil), d.Y...),
		Features: append([]string(nil), d.Features...), Classes: d.Classes}, nil
}

// Unscale returns the hyperplane on the raw features that scores every x
// exactly as h scores the standardised z = (x − Mean)/Std:
//
//	w'_j = w_j / Std[j],   b' = b − Σ_j w_j Mean[j] / Std[j],
//
// so that weights learned on standardised data can be read in the original
// units. It is an error for h to have another number of weights than the
// Scaler has columns, for w or b not to be finite, or (ErrNonFinite) for the
// unscaled weights to overflow.
func (s *Scaler) Unscale(h Hyperplane) (Hyperplane, error) {
	if err := s.check(); err != nil {
		return Hyperplane{}, err
	}
	if len(h.W) != len(s.Mean) {
		return Hyperplane{}, kindErrorf(ErrDimension, "unscale: the hyperplane has %d weights, the scaler %d columns", len(h.W), len(s.Mean))
	}
	for _, v := range h.Theta() {
		if !isFinite(v) {
			return Hyperplane{}, kindErrorf(ErrNonFinite, "unscale: weights (w, b) not finite")
		}
	}
	out := Hyperplane{W: make([]float64, len(h.W)), B: h.B, Tie: h.Tie}
	for j, w := range h.W {
		out.W[j] = w / s.Std[j]
		out.B -= unscaledShift(w, s.Mean[j], s.Std[j])
	}
	if j := firstNonFinite(out.W); j >= 0 {
		return Hyperplane{}, kindErrorf(ErrNonFinite, "unscale: w[%d] = %v / %v overflows to %v", j, h.W[j], s.Std[j], out.W[j])
	}
	if !isFinite(out.B) {
		return Hyperplane{}, kindErrorf(ErrNonFinite, "unscale: b = %v − Σ_j w_j·Mean[j]/Std[j] overflows to %v", h.B, out.B)
	}
	return out, nil
}

// unscaledShift returns w·mean/std, as (w·mean)/std where w·mean does not
// overflow (the bits Unscale always gave), else in an order whose parts do
// not: w = 1e300 with mean = std = 1e10 is 1e300, not an overflow.
func unscaledShift(w, mean, std float64) float64 {
	if t := float64(w*mean) / std; isFinite(t) {
		return t
	}
	if t := float64(w * float64(mean/std)); isFinite(t) {
		return t
	}
	return float64(w/std) * mean
}

// check reports a nil or zero Scaler (not made by FitScaler) or one whose
// fields disagree or are not usable.
func (s *Scaler) check() error {
	if s == nil || len(s.Mean) == 0 {
		return kindErrorf(ErrModel, "scaler: not fitted (nil or zero Scaler): make one with FitScaler")
	}
	if len(s.Std) != len(s.Mean) {
		return kindErrorf(ErrDimension, "scaler: %d means but %d standard deviations", len(s.Mean), len(s.Std))
	}
	for j := range s.Mean {
		if !isFinite(s.Mean[j]) || !(s.Std[j] > 0) || math.IsInf(s.Std[j], 0) {
			return kindErrorf(ErrNonFinite, "scaler: column %d: mean %v, standard deviation %v: want finite, and a deviation > 0", j, s.Mean[j], s.Std[j])
		}
	}
	return nil
}
