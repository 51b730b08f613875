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
// It is an error for d to be nil or empty or to hold a NaN or ±Inf.
func FitScaler(d *Dataset) (*Scaler, error) {
	if d == nil || d.X == nil || d.N() == 0 || d.D() == 0 {
		return nil, ErrEmpty
	}
	n, dim := d.X.Dims()
	s := &Scaler{Mean: make([]float64, dim), Std: make([]float64, dim)}
	for i := range n {
		row := d.Row(i)
		if err := checkFinite(row, i); err != nil {
			return nil, err
		}
		for j, v := range row {
			s.Mean[j] += v
		}
	}
	for j := range s.Mean {
		s.Mean[j] /= float64(n)
	}
	for i := range n {
		for j, v := range d.Row(i) {
			dv := v - s.Mean[j]
			s.Std[j] += dv * dv
		}
	}
	for j, ss := range s.Std {
		s.Std[j] = math.Sqrt(ss / float64(n))
		if s.Std[j] == 0 {
			s.Std[j] = 1
		}
	}
	return s, nil
}

// Transform returns a new Dataset whose value v of column j is replaced by
// (v − Mean[j]) / Std[j], with the labels, feature names and class names of
// d; d itself is not changed. It is an error for d to be nil or empty, or
// for a row to have another number of features than the Scaler or to hold a
// NaN or ±Inf.
func (s *Scaler) Transform(d *Dataset) (*Dataset, error) {
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
			x = append(x, (v-s.Mean[j])/s.Std[j])
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
// Scaler has columns, or for w or b not to be finite.
func (s *Scaler) Unscale(h Hyperplane) (Hyperplane, error) {
	if len(h.W) != len(s.Mean) {
		return Hyperplane{}, errorf("unscale: the hyperplane has %d weights, the scaler %d columns", len(h.W), len(s.Mean))
	}
	for _, v := range h.Theta() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Hyperplane{}, errorf("unscale: weights (w, b) not finite")
		}
	}
	out := Hyperplane{W: make([]float64, len(h.W)), B: h.B, Tie: h.Tie}
	for j, w := range h.W {
		out.W[j] = w / s.Std[j]
		out.B -= w * s.Mean[j] / s.Std[j]
	}
	return out, nil
}
