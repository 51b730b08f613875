package perceptron

import (
	"errors"
	"reflect"
	"testing"
)

// The counts, rows and class sizes below were read off the files in
// /work/shared/data with head, tail and awk, and the feature names from
// scikit-learn 1.2.1's load_* functions.
func TestEmbeddedData(t *testing.T) {
	for _, tc := range []struct {
		name         string
		load         func() *MultiDataset
		n, d         int
		classes      []string
		counts       []int
		first, last  []float64
		firstLabel   int
		lastLabel    int
		feature0     string
		featureLast  string
		featureCount int
	}{
		{
			name: "iris", load: Iris, n: 150, d: 4,
			classes: []string{"setosa", "versicolor", "virginica"}, counts: []int{50, 50, 50},
			first: []float64{5.1, 3.5, 1.4, 0.2}, firstLabel: 0,
			last: []float64{5.9, 3.0, 5.1, 1.8}, lastLabel: 2,
			feature0: "sepal length (cm)", featureLast: "petal width (cm)",
		},
		{
			name: "breast cancer", load: BreastCancer, n: 569, d: 30,
			classes: []string{"malignant", "benign"}, counts: []int{212, 357},
			first: []float64{17.99, 10.38, 122.8, 1001, 0.1184, 0.2776, 0.3001, 0.1471, 0.2419, 0.07871,
				1.095, 0.9053, 8.589, 153.4, 0.006399, 0.04904, 0.05373, 0.01587, 0.03003, 0.006193,
				25.38, 17.33, 184.6, 2019, 0.1622, 0.6656, 0.7119, 0.2654, 0.4601, 0.1189},
			firstLabel: 0,
			last: []float64{7.76, 24.54, 47.92, 181, 0.05263, 0.04362, 0, 0, 0.1587, 0.05884,
				0.3857, 1.428, 2.548, 19.15, 0.007189, 0.00466, 0, 0, 0.02676, 0.002783,
				9.456, 30.37, 59.16, 268.6, 0.08996, 0.06444, 0, 0, 0.2871, 0.07039},
			lastLabel: 1,
			feature0:  "mean radius", featureLast: "worst fractal dimension",
		},
		{
			name: "digits", load: Digits, n: 1797, d: 64,
			classes: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
			counts:  []int{178, 182, 177, 183, 181, 182, 181, 179, 174, 180},
			first: []float64{0, 0, 5, 13, 9, 1, 0, 0, 0, 0, 13, 15, 10, 15, 5, 0, 0, 3, 15, 2, 0, 11, 8, 0,
				0, 4, 12, 0, 0, 8, 8, 0, 0, 5, 8, 0, 0, 9, 8, 0, 0, 4, 11, 0, 1, 12, 7, 0, 0, 2, 14, 5, 10, 12,
				0, 0, 0, 0, 6, 13, 10, 0, 0, 0},
			firstLabel: 0,
			last: []float64{0, 0, 10, 14, 8, 1, 0, 0, 0, 2, 16, 14, 6, 1, 0, 0, 0, 0, 15, 15, 8, 15, 0, 0,
				0, 0, 5, 16, 16, 10, 0, 0, 0, 0, 12, 15, 15, 12, 0, 0, 0, 4, 16, 6, 4, 16, 6, 0, 0, 8, 16,
				10, 8, 16, 8, 0, 0, 1, 8, 12, 14, 12, 1, 0},
			lastLabel: 8,
			feature0:  "pixel_0_0", featureLast: "pixel_7_7",
		},
		{
			name: "wine", load: Wine, n: 178, d: 13,
			classes: []string{"class_0", "class_1", "class_2"}, counts: []int{59, 71, 48},
			first:      []float64{14.23, 1.71, 2.43, 15.6, 127, 2.8, 3.06, 0.28, 2.29, 5.64, 1.04, 3.92, 1065},
			firstLabel: 0,
			last:       []float64{14.13, 4.1, 2.74, 24.5, 96, 2.05, 0.76, 0.56, 1.35, 9.2, 0.61, 1.6, 560},
			lastLabel:  2,
			feature0:   "alcohol", featureLast: "proline",
		},
	} {
		m := tc.load()
		if m.N() != tc.n || m.D() != tc.d || len(m.Labels) != tc.n {
			t.Errorf("%s: %d×%d with %d labels, want %d×%d", tc.name, m.N(), m.D(), len(m.Labels), tc.n, tc.d)
			continue
		}
		if !reflect.DeepEqual(m.ClassNames, tc.classes) {
			t.Errorf("%s: classes %q, want %q", tc.name, m.ClassNames, tc.classes)
		}
		counts := make([]int, len(tc.classes))
		for _, l := range m.Labels {
			counts[l]++
		}
		if !reflect.DeepEqual(counts, tc.counts) {
			t.Errorf("%s: class counts %v, want %v", tc.name, counts, tc.counts)
		}
		// The values are parsed from the same decimal strings, so they are equal.
		if got := m.Row(0); !reflect.DeepEqual(got, tc.first) || m.Labels[0] != tc.firstLabel {
			t.Errorf("%s: first row %v class %d, want %v class %d", tc.name, got, m.Labels[0], tc.first, tc.firstLabel)
		}
		if got := m.Row(tc.n - 1); !reflect.DeepEqual(got, tc.last) || m.Labels[tc.n-1] != tc.lastLabel {
			t.Errorf("%s: last row %v class %d, want %v class %d", tc.name, got, m.Labels[tc.n-1], tc.last, tc.lastLabel)
		}
		if len(m.Features) != tc.d || m.Features[0] != tc.feature0 || m.Features[tc.d-1] != tc.featureLast {
			t.Errorf("%s: features %q, want %d names from %q to %q", tc.name, m.Features, tc.d, tc.feature0, tc.featureLast)
		}
	}
}

func TestEmbeddedFeatureNames(t *testing.T) {
	// The lists printed by scikit-learn 1.2.1's load_breast_cancer().feature_names
	// and load_wine().feature_names.
	cancer := []string{"mean radius", "mean texture", "mean perimeter", "mean area", "mean smoothness",
		"mean compactness", "mean concavity", "mean concave points", "mean symmetry", "mean fractal dimension",
		"radius error", "texture error", "perimeter error", "area error", "smoothness error",
		"compactness error", "concavity error", "concave points error", "symmetry error", "fractal dimension error",
		"worst radius", "worst texture", "worst perimeter", "worst area", "worst smoothness",
		"worst compactness", "worst concavity", "worst concave points", "worst symmetry", "worst fractal dimension"}
	if got := BreastCancer().Features; !reflect.DeepEqual(got, cancer) {
		t.Errorf("breast cancer features %q, want %q", got, cancer)
	}
	wine := []string{"alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols",
		"flavanoids", "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue",
		"od280/od315_of_diluted_wines", "proline"}
	if got := Wine().Features; !reflect.DeepEqual(got, wine) {
		t.Errorf("wine features %q, want %q", got, wine)
	}
	if got := Digits().Features[10]; got != "pixel_1_2" {
		t.Errorf("digits feature 10 = %q, want pixel_1_2", got)
	}
}

func TestEmbeddedDataIsCopied(t *testing.T) {
	a := Iris()
	a.X.Set(0, 0, -100)
	a.Labels[0] = 2
	a.Features[0] = "changed"
	a.ClassNames[0] = "changed"
	b := Iris()
	if b.X.At(0, 0) != 5.1 || b.Labels[0] != 0 || b.Features[0] != "sepal length (cm)" || b.ClassNames[0] != "setosa" {
		t.Errorf("changing one copy changed the next: %v %d %q %q", b.X.At(0, 0), b.Labels[0], b.Features[0], b.ClassNames[0])
	}
}

// TestIrisGolden is the published golden run: PLA with the zero Options on
// setosa (-1) against versicolor (+1), sepal length and petal length.
// scikit-learn's Perceptron(shuffle=False, tol=None, max_iter=6) on the same
// rows gives coef_ [-3.3999999999999977, 9.100000000000001] and intercept_
// -2.0, and PLA is bit-identical to it, so the comparison is exact.
func TestIrisGolden(t *testing.T) {
	d, err := Iris().Binary(0, 1, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d.N() != 100 || d.D() != 2 {
		t.Fatalf("binary data is %d×%d, want 100×2", d.N(), d.D())
	}
	if d.Features[0] != "sepal length (cm)" || d.Features[1] != "petal length (cm)" || d.Classes != [2]string{"setosa", "versicolor"} {
		t.Errorf("names %q %q", d.Features, d.Classes)
	}
	r, err := PLA(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Updates != 10 || !reflect.DeepEqual(r.UpdatesPerEpoch(), []int{2, 2, 3, 2, 1, 0}) || !r.Converged {
		t.Errorf("updates %d per epoch %v converged %v, want 10 [2 2 3 2 1 0] true", r.Updates, r.UpdatesPerEpoch(), r.Converged)
	}
	if want := []float64{-3.3999999999999977, 9.100000000000001}; !reflect.DeepEqual(r.W, want) || r.B != -2 {
		t.Errorf("w = %v b = %v, want %v -2 (≈ (-3.4, 9.1), -2)", r.W, r.B, want)
	}
}

func TestBinary(t *testing.T) {
	m := Wine()
	d, err := m.Binary(2, 0, 12, 0)
	if err != nil {
		t.Fatal(err)
	}
	// 59 rows of class_0 (+1) first in the file, then 48 of class_2 (-1).
	if d.N() != 107 || d.D() != 2 {
		t.Fatalf("got %d×%d, want 107×2", d.N(), d.D())
	}
	if !reflect.DeepEqual(d.Row(0), []float64{1065, 14.23}) || d.Y[0] != 1 {
		t.Errorf("row 0 = %v y %v, want [1065 14.23] +1", d.Row(0), d.Y[0])
	}
	if !reflect.DeepEqual(d.Row(106), []float64{560, 14.13}) || d.Y[106] != -1 {
		t.Errorf("row 106 = %v y %v, want [560 14.13] -1", d.Row(106), d.Y[106])
	}
	if d.Y[58] != 1 || d.Y[59] != -1 {
		t.Errorf("y[58], y[59] = %v, %v, want +1, -1", d.Y[58], d.Y[59])
	}
	if !reflect.DeepEqual(d.Features, []string{"proline", "alcohol"}) || d.Classes != [2]string{"class_2", "class_0"} {
		t.Errorf("names %q %q", d.Features, d.Classes)
	}
	if err := d.Validate(); err != nil {
		t.Error(err)
	}
	all, err := m.Binary(0, 1)
	if err != nil || all.D() != 13 || all.N() != 130 || len(all.Features) != 13 {
		t.Errorf("all features: %v, err %v", all, err)
	}

	noRows := &MultiDataset{X: m.X, Labels: make([]int, m.N()), ClassNames: []string{"a", "b"}}
	for _, tc := range []struct {
		m        *MultiDataset
		neg, pos int
		features []int
		want     error
	}{
		{m, 0, 3, nil, ErrClasses},
		{m, -1, 0, nil, ErrClasses},
		{m, 1, 1, nil, ErrClasses},
		{m, 0, 1, []int{13}, ErrOption},
		{m, 0, 1, []int{2, 2}, ErrOption},
		{noRows, 0, 1, nil, ErrClasses},
		{&MultiDataset{}, 0, 1, nil, ErrEmpty},
	} {
		if _, err := tc.m.Binary(tc.neg, tc.pos, tc.features...); !errors.Is(err, tc.want) {
			t.Errorf("Binary(%d, %d, %v): error %v, want %v", tc.neg, tc.pos, tc.features, err, tc.want)
		}
	}
}

func TestClass(t *testing.T) {
	m := Iris()
	if c, err := m.Class("virginica"); err != nil || c != 2 {
		t.Errorf("Class(virginica) = %d, %v; want 2", c, err)
	}
	_, err := m.Class("rose")
	// The message lists the classes to choose from: it is the feature.
	if want := `perceptron: unknown class "rose": the classes are "setosa", "versicolor", "virginica"`; err == nil || err.Error() != want || !errors.Is(err, ErrClasses) {
		t.Errorf("Class(rose): error %v, want %q (ErrClasses)", err, want)
	}
}
