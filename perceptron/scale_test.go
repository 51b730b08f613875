package perceptron

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestScaler(t *testing.T) {
	// Column 0: 1, 2, 3 → mean 2, population std sqrt(2/3); column 1
	// constant 5 → std set to 1, only centred.
	d, err := NewDataset([][]float64{{1, 5}, {2, 5}, {3, 5}}, []float64{-1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	d.Features = []string{"a", "b"}
	s, err := FitScaler(d)
	if err != nil {
		t.Fatal(err)
	}
	sd := math.Sqrt(2.0 / 3)
	// Exact: sums of small integers and a single sqrt on both sides.
	if s.Mean[0] != 2 || s.Mean[1] != 5 || s.Std[0] != sd || s.Std[1] != 1 {
		t.Fatalf("Scaler = %+v, want Mean [2 5], Std [%v 1]", s, sd)
	}
	z, err := s.Transform(d)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{-1 / sd, 0}, {0, 0}, {1 / sd, 0}}
	for i, row := range want {
		for j, v := range row {
			if got := z.X.At(i, j); got != v {
				t.Errorf("Transform row %d col %d = %v, want %v", i, j, got, v)
			}
		}
	}
	if z.Features[1] != "b" || z.Y[0] != -1 {
		t.Errorf("Transform lost names or labels: %v %v", z.Features, z.Y)
	}

	// Unscale: the raw hyperplane scores raw x as h scores z. Tolerance
	// 1e-12: a few roundings of numbers of size ~10.
	h := Hyperplane{W: []float64{0.7, -1.3}, B: 0.4}
	u, err := s.Unscale(h)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.N() {
		a, _ := u.Score(d.Row(i))
		b, _ := h.Score(z.Row(i))
		if !(math.Abs(a-b) <= 1e-12) {
			t.Errorf("row %d: unscaled score %v, scaled score %v", i, a, b)
		}
	}
}

func TestScalerErrors(t *testing.T) {
	d, _ := NewDataset([][]float64{{1, 2}, {3, 4}}, []float64{-1, 1})
	s, _ := FitScaler(d)
	e, _ := NewDataset([][]float64{{1}, {3}}, []float64{-1, 1})
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"fit nil", func() error { _, err := FitScaler(nil); return err }(), ErrEmpty},
		{"fit NaN", func() error {
			bad := &Dataset{X: d.X, Y: d.Y}
			bad.X = mat.DenseCopyOf(d.X)
			bad.X.Set(1, 0, math.NaN())
			_, err := FitScaler(bad)
			return err
		}(), ErrNonFinite},
		{"transform dim", func() error { _, err := s.Transform(e); return err }(),
			ErrDimension},
		{"unscale dim", func() error { _, err := s.Unscale(Hyperplane{W: []float64{1}}); return err }(),
			ErrDimension},
		{"unscale inf", func() error { _, err := s.Unscale(Hyperplane{W: []float64{1, math.Inf(1)}}); return err }(),
			ErrNonFinite},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}
