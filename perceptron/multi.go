package perceptron

import (
	"gonum.org/v1/gonum/mat"
)

// MultiDataset is n rows of d features with integer class labels 0..k-1, as
// the real data sets come (Iris has 3 classes, digits 10). Binary picks two
// classes of it as a Dataset; OneVsRest learns all classes at once.
type MultiDataset struct {
	// X holds the points, one per row (n × d).
	X *mat.Dense
	// Labels holds the class of each row, in 0..len(ClassNames)-1.
	Labels []int
	// Features names the d columns (may be nil).
	Features []string
	// ClassNames names the classes, indexed by label.
	ClassNames []string
}

// N returns the number of rows.
func (m *MultiDataset) N() int {
	if m == nil || m.X == nil {
		return 0
	}
	r, _ := m.X.Dims()
	return r
}

// D returns the number of features.
func (m *MultiDataset) D() int {
	if m == nil || m.X == nil {
		return 0
	}
	_, c := m.X.Dims()
	return c
}

// Row returns x_i as a view into X; callers must not modify it.
func (m *MultiDataset) Row(i int) []float64 { return m.X.RawRowView(i) }
