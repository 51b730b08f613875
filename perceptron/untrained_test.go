package perceptron_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// A zero Hyperplane (or the zero result of a learner, which embeds one) is
// not trained: every question to it is ErrModel, as the error's doc says.
// It answered Score(nil) = 0 and Predict(nil) = 0 with no error, a score
// for a point of its zero features. FromTheta([b]) made such a hyperplane,
// which Validate then refused; it is ErrDimension itself.
func TestUntrainedHyperplaneIsErrModel(t *testing.T) {
	one, err := perceptron.NewDataset([][]float64{{1}}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	var h perceptron.Hyperplane
	res := &perceptron.Result{}
	for name, call := range map[string]func() error{
		"Score(nil)":            func() error { _, err := h.Score(nil); return err },
		"Score([])":             func() error { _, err := h.Score([]float64{}); return err },
		"Predict(nil)":          func() error { _, err := h.Predict(nil); return err },
		"SignedDistance(nil)":   func() error { _, err := h.SignedDistance(nil); return err },
		"Margin(nil, 1)":        func() error { _, err := h.Margin(nil, 1); return err },
		"Errors":                func() error { _, err := h.Errors(one); return err },
		"PredictAll":            func() error { _, err := h.PredictAll(one); return err },
		"Result{}.Score(nil)":   func() error { _, err := res.Score(nil); return err },
		"Result{}.Predict(nil)": func() error { _, err := res.Predict(nil); return err },
	} {
		if err := call(); !errors.Is(err, perceptron.ErrModel) {
			t.Errorf("zero Hyperplane, %s: error %v; want ErrModel", name, err)
		}
	}
	for _, theta := range [][]float64{nil, {1}} {
		if h, err := perceptron.FromTheta(theta); !errors.Is(err, perceptron.ErrDimension) {
			t.Errorf("FromTheta(%v) = %+v, %v; want ErrDimension", theta, h, err)
		}
	}
	if h, err := perceptron.FromTheta([]float64{1, 2}); err != nil || h.B != 1 || len(h.W) != 1 || h.W[0] != 2 {
		t.Errorf("FromTheta([1 2]) = %+v, %v; want w = [2], b = 1", h, err)
	}
}

// OneVsRest refuses a learner that returns no model and no error (a nil
// Model, or a typed nil such as a (*Result)(nil)) at training, naming the
// class: it kept the nil model, and only Predict failed later.
func TestOneVsRestRefusesNilModels(t *testing.T) {
	iris := perceptron.Iris()
	for name, learn := range map[string]perceptron.Learner{
		"nil":            func(*perceptron.Dataset) (perceptron.Model, error) { return nil, nil },
		"(*Result)(nil)": func(*perceptron.Dataset) (perceptron.Model, error) { return (*perceptron.Result)(nil), nil },
	} {
		if o, err := perceptron.OneVsRest(iris, learn); o != nil || !errors.Is(err, perceptron.ErrModel) || !strings.Contains(err.Error(), "class 0 (setosa)") {
			t.Errorf("%s: %v, %v; want no model and ErrModel naming class 0 (setosa)", name, o, err)
		}
	}
}

// OneVsRest refuses a learner that returns a model that cannot score the
// rows it learned from, naming the class: one of another dimension
// (ErrDimension too) or one its Validate refuses (helper-70: both were
// kept, and every Predict on the training rows failed).
func TestOneVsRestRefusesUnusableModels(t *testing.T) {
	iris := perceptron.Iris()
	for _, c := range []struct {
		name  string
		learn perceptron.Learner
		kind  error
		msg   string
	}{
		{"1 feature", func(*perceptron.Dataset) (perceptron.Model, error) {
			return perceptron.Hyperplane{W: []float64{1}}, nil
		}, perceptron.ErrDimension, "a model of 1 features for data of 4"},
		{"NaN weight", func(*perceptron.Dataset) (perceptron.Model, error) {
			return perceptron.Hyperplane{W: []float64{math.NaN(), 0, 0, 0}}, nil
		}, perceptron.ErrNonFinite, "a model that is not valid"},
		{"voted, no count", func(*perceptron.Dataset) (perceptron.Model, error) {
			return &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{1, 0, 0, 0}}}, Counts: []int{0}}, nil
		}, perceptron.ErrModel, "a model that is not valid"},
	} {
		o, err := perceptron.OneVsRest(iris, c.learn)
		if o != nil || !errors.Is(err, perceptron.ErrModel) || !errors.Is(err, c.kind) || !strings.Contains(err.Error(), "class 0 (setosa)") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, %v; want no model and ErrModel (and %v) naming class 0 (setosa) and %q", c.name, o, err, c.kind, c.msg)
		}
	}
}

// OneVsRest calls a learner's untrained model (a zero Hyperplane, a
// VotedModel or KernelModel without vectors or rows) what its Validate
// calls it, with its kinds, not a model of another dimension: it has 0
// features, and a VotedModel or KernelModel was "a model of 0 features
// for data of 4", ErrDimension (helper-73).
func TestOneVsRestUntrainedIsNotADimension(t *testing.T) {
	iris := perceptron.Iris()
	for name, m := range map[string]interface {
		perceptron.Model
		Validate() error
	}{
		"zero hyperplane":   perceptron.Hyperplane{},
		"voted, no vectors": &perceptron.VotedModel{},
		"kernel, no rows":   &perceptron.KernelModel{},
	} {
		o, err := perceptron.OneVsRest(iris, func(*perceptron.Dataset) (perceptron.Model, error) { return m, nil })
		own := m.Validate()
		if o != nil || !errors.Is(err, perceptron.ErrModel) || errors.Is(err, perceptron.ErrDimension) != errors.Is(own, perceptron.ErrDimension) ||
			!strings.Contains(err.Error(), "class 0 (setosa): the learner returned a model that is not valid: "+strings.TrimPrefix(own.Error(), "perceptron: ")) {
			t.Errorf("%s: %v, %v; want no model and its Validate's error %v, naming class 0 (setosa)", name, o, err, own)
		}
	}
}

// GramMatrix takes the data sets KernelPerceptron trains, one class
// included (it refused them with ErrOneClass, the theory functions' check,
// though the matrix has no labels in it).
func TestGramMatrixOneClass(t *testing.T) {
	d, err := perceptron.NewDataset([][]float64{{1, 2}, {3, -1}}, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := perceptron.GramMatrix(d, perceptron.LinearKernel{})
	if err != nil {
		t.Fatalf("GramMatrix of one class: %v", err)
	}
	// 1·1 + 2·2 = 5, 1·3 + 2·(−1) = 1, 3·3 + (−1)(−1) = 10.
	if g.At(0, 0) != 5 || g.At(0, 1) != 1 || g.At(1, 0) != 1 || g.At(1, 1) != 10 {
		t.Errorf("GramMatrix = %v; want [[5 1] [1 10]]", g)
	}
	if _, err := perceptron.KernelPerceptron(d, perceptron.LinearKernel{}, perceptron.Options{}); err != nil {
		t.Errorf("KernelPerceptron on the same data: %v", err)
	}
}

// OneVsRestModel.ErrorRate refuses a label outside the model's classes
// (ErrLabel naming the row): it was counted as a mistake, an error rate of
// data that is not the model's.
func TestOneVsRestErrorRateLabels(t *testing.T) {
	iris := perceptron.Iris()
	o, err := perceptron.OneVsRest(iris, perceptron.PLALearner(perceptron.Options{MaxEpochs: 5}))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := o.ErrorRate(iris); err != nil || !(r >= 0 && r <= 1) {
		t.Fatalf("ErrorRate(iris) = %v, %v", r, err)
	}
	for _, l := range []int{3, -1} {
		bad := *iris
		bad.Labels = append([]int(nil), iris.Labels...)
		bad.Labels[7] = l
		if r, err := o.ErrorRate(&bad); !errors.Is(err, perceptron.ErrLabel) || !strings.Contains(err.Error(), "row 7") {
			t.Errorf("label %d on row 7: %v, %v; want ErrLabel naming row 7", l, r, err)
		}
	}
}

// TestZeroHyperplaneValidateIsErrModel: the zero Hyperplane's Validate is
// ErrModel, as Score, Predict and Errors on it are, and as the zero
// VotedModel's and KernelModel's Validate are (it was ErrDimension only);
// it still matches ErrDimension, as before.
func TestZeroHyperplaneValidateIsErrModel(t *testing.T) {
	err := perceptron.Hyperplane{}.Validate()
	if !errors.Is(err, perceptron.ErrModel) || !errors.Is(err, perceptron.ErrDimension) {
		t.Errorf("Hyperplane{}.Validate() = %v, want ErrModel (and ErrDimension)", err)
	}
	if _, err := (perceptron.Hyperplane{}).Score([]float64{1}); !errors.Is(err, perceptron.ErrModel) {
		t.Errorf("Hyperplane{}.Score: %v, want ErrModel", err)
	}
}

// TestNilResultsValidate: Validate of a nil result (the *Result of a call
// whose error was ignored) is an ErrModel error naming the type, as its
// Model methods answer; it was a nil-pointer panic in the Hyperplane
// method the result promoted (helper-50). A result a learner returns
// validates.
func TestNilResultsValidate(t *testing.T) {
	for name, v := range map[string]interface{ Validate() error }{
		"*Result":         (*perceptron.Result)(nil),
		"*PocketResult":   (*perceptron.PocketResult)(nil),
		"*AveragedResult": (*perceptron.AveragedResult)(nil),
		"*DualResult":     (*perceptron.DualResult)(nil),
		"*GDResult":       (*perceptron.GDResult)(nil),
	} {
		err := v.Validate()
		if !errors.Is(err, perceptron.ErrModel) || !strings.Contains(err.Error(), name+" is nil") {
			t.Errorf("nil %s: Validate %v; want ErrModel naming %s", name, err, name)
		}
	}
	d, err := perceptron.NewDataset([][]float64{{1, 2}, {-1, -2}}, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Errorf("PLA's result: Validate %v", err)
	}
}
