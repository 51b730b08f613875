package perceptron_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
	"gonum.org/v1/gonum/mat"
)

// TestZeroValuesDoNotPanic calls every exported function and method of the
// package with nil and with the zero value of every exported type (and a
// one-point x where a point is needed). None may panic; the ones that
// return an error must return one (a zero model or data set cannot answer),
// except where the zero value is documented to be usable (the zero Options,
// a zero Hyperplane on an empty point).
func TestZeroValuesDoNotPanic(t *testing.T) {
	x := []float64{1}
	one := mustData(t, [][]float64{{1}, {-1}}, []float64{1, -1})
	var (
		nilData  *perceptron.Dataset
		zeroData = &perceptron.Dataset{}
		nilMulti *perceptron.MultiDataset
		zeroMult = &perceptron.MultiDataset{}
	)
	mustErr := func(name string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	calls := map[string]func(){
		"Augment(nil)":           func() { _ = perceptron.Augment(nil).N() },
		"Augment(zero)":          func() { _ = perceptron.Augment(zeroData).D() },
		"Dataset nil N/D":        func() { _, _ = nilData.N(), nilData.D() },
		"Dataset zero N/D/Rows":  func() { _, _, _ = zeroData.N(), zeroData.D(), zeroData.Rows() },
		"Dataset nil Validate":   func() { mustErr("Validate(nil)", nilData.Validate()) },
		"Dataset zero Validate":  func() { mustErr("Validate(zero)", zeroData.Validate()) },
		"Dataset zero Subset":    func() { _, err := zeroData.Subset([]int{0}); mustErr("Subset", err) },
		"Multi nil N/D":          func() { _, _ = nilMulti.N(), nilMulti.D() },
		"Multi zero N/D":         func() { _, _ = zeroMult.N(), zeroMult.D() },
		"Multi zero Binary":      func() { _, err := zeroMult.Binary(0, 1); mustErr("Binary", err) },
		"Multi zero Class":       func() { _, err := zeroMult.Class("a"); mustErr("Class", err) },
		"Multi zero Split":       func() { _, _, err := zeroMult.Split(0.5, 1); mustErr("Split", err) },
		"Multi nil Split":        func() { _, _, err := nilMulti.Split(0.5, 1); mustErr("Split", err) },
		"TrainTestSplit(nil)":    func() { _, _, err := perceptron.TrainTestSplit(nil, 0.5, 1); mustErr("TrainTestSplit", err) },
		"Hyperplane zero":        func() { h := perceptron.Hyperplane{}; _, _ = h.Score(nil); _ = h.Norm(); _ = h.Theta(); _ = h.Dim() },
		"Hyperplane zero Score":  func() { _, err := perceptron.Hyperplane{}.Score(x); mustErr("Score", err) },
		"Hyperplane zero Margin": func() { _, err := perceptron.Hyperplane{}.Margin(nil, 1); mustErr("Margin", err) },
		"Hyperplane zero Errors": func() { _, err := perceptron.Hyperplane{}.Errors(one); mustErr("Errors", err) },
		"Hyperplane nil data": func() {
			h := perceptron.Hyperplane{W: []float64{1}}
			_, err := h.Errors(nil)
			mustErr("Errors(nil)", err)
			_, err = h.PredictAll(zeroData)
			mustErr("PredictAll(zero)", err)
			_, err = h.ErrorRate(nil)
			mustErr("ErrorRate(nil)", err)
			_, _, err = h.DatasetMargin(nil)
			mustErr("DatasetMargin(nil)", err)
		},
		"Result zero":       func() { r := &perceptron.Result{}; _, err := r.Errors(one); mustErr("Result.Errors", err) },
		"PocketResult zero": func() { r := &perceptron.PocketResult{}; _, err := r.Predict(x); mustErr("Pocket.Predict", err) },
		"AveragedResult zero": func() {
			r := &perceptron.AveragedResult{}
			_, err := r.ErrorRate(one)
			mustErr("Averaged.ErrorRate", err)
		},
		"DualResult zero": func() { r := &perceptron.DualResult{}; _, err := r.PredictAll(one); mustErr("Dual.PredictAll", err) },
		"GDResult zero":   func() { r := &perceptron.GDResult{}; _, err := r.Score(x); mustErr("GD.Score", err) },
		"VotedModel zero": func() {
			v := &perceptron.VotedModel{}
			_, err := v.Score(x)
			mustErr("Voted.Score", err)
			_, err = v.Errors(one)
			mustErr("Voted.Errors", err)
		},
		"VotedModel nil": func() { var v *perceptron.VotedModel; _, err := v.Predict(x); mustErr("nil Voted.Predict", err) },
		"VotedModel counts short": func() {
			v := &perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{1}}}}
			mustErr("Voted with no counts", v.Validate())
		},
		"KernelModel zero": func() {
			m := &perceptron.KernelModel{}
			_ = m.Dim()
			_, err := m.Predict(x)
			mustErr("Kernel.Predict", err)
			_, err = m.Errors(one)
			mustErr("Kernel.Errors", err)
			_, err = m.PredictAll(one)
			mustErr("Kernel.PredictAll", err)
			_, err = m.ErrorRate(one)
			mustErr("Kernel.ErrorRate", err)
		},
		"KernelModel nil": func() {
			var m *perceptron.KernelModel
			_ = m.Dim()
			_, err := m.Score(x)
			mustErr("nil Kernel.Score", err)
		},
		"KernelModel short alpha": func() {
			m := &perceptron.KernelModel{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1, -1}, Kernel: perceptron.LinearKernel{}, Eta: 1}
			mustErr("Kernel with no alpha", m.Validate())
		},
		"Online nil": func() {
			var o *perceptron.Online
			_, err := o.Step(x, 1)
			mustErr("nil Online.Step", err)
			_ = o.Hyperplane()
		},
		"Online zero": func() { o := &perceptron.Online{}; _, err := o.Step(x, 1); mustErr("zero Online.Step", err) },
		"OneVsRest nil model": func() {
			o := &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{perceptron.Hyperplane{W: []float64{1}}, nil}}
			_, err := o.Predict(x)
			mustErr("OneVsRest nil model", err)
			o.Models[1] = (*perceptron.Result)(nil)
			_, err = o.Predict(x)
			mustErr("OneVsRest typed nil model", err)
		},
		"OneVsRest zero": func() {
			o := &perceptron.OneVsRestModel{}
			_, err := o.Predict(x)
			mustErr("zero OneVsRest.Predict", err)
			_, err = o.PredictAll(zeroMult)
			mustErr("zero OneVsRest.PredictAll", err)
			_, err = o.ErrorRate(nilMulti)
			mustErr("zero OneVsRest.ErrorRate", err)
		},
		"OneVsRest nil": func() { var o *perceptron.OneVsRestModel; _, err := o.Predict(x); mustErr("nil OneVsRest", err) },
		"OneVsRest(nil)": func() {
			_, err := perceptron.OneVsRest(nil, perceptron.PLALearner(perceptron.Options{}))
			mustErr("OneVsRest(nil)", err)
		},
		"Scaler nil": func() { var s *perceptron.Scaler; _, err := s.Transform(one); mustErr("nil Scaler", err) },
		"Scaler zero": func() {
			s := &perceptron.Scaler{}
			_, err := s.Unscale(perceptron.Hyperplane{})
			mustErr("zero Scaler", err)
		},
		"FitScaler(zero)":  func() { _, err := perceptron.FitScaler(zeroData); mustErr("FitScaler", err) },
		"Recorder zero":    func() { var r perceptron.Recorder; r.Observe(perceptron.Update{W: []float64{1}, X: x}) },
		"Kernels zero":     func() { _ = perceptron.PolyKernel{}.Eval(x, x); _ = perceptron.RBFKernel{}.Eval(x, x) },
		"Tie/Order String": func() { _, _ = perceptron.Tie(7).String(), perceptron.Order(-1).String() },
		"CheckProof(nil)": func() {
			_, _ = perceptron.CheckProof(nil, perceptron.Hyperplane{}, 0, 0, perceptron.Options{Eta: 0})
		},
		"Disagreement zero": func() {
			_, err := perceptron.Disagreement(perceptron.Hyperplane{}, perceptron.Hyperplane{})
			mustErr("Disagreement", err)
		},
		"FromTheta(nil)": func() { _, err := perceptron.FromTheta(nil); mustErr("FromTheta", err) },
		"Loss(zero)":     func() { _, err := perceptron.Loss(perceptron.Hyperplane{}, nilData); mustErr("Loss", err) },
		"LossGradient": func() {
			_, _, err := perceptron.LossGradient(perceptron.Hyperplane{}, zeroData)
			mustErr("LossGradient", err)
		},
		"GD(nil)":  func() { _, err := perceptron.GradientDescent(nil, perceptron.GDOptions{}); mustErr("GD", err) },
		"SGD(nil)": func() { _, err := perceptron.SGD(nil, perceptron.GDOptions{}); mustErr("SGD", err) },
		"Theory(nil)": func() {
			_, err := perceptron.Radius(nil)
			mustErr("Radius", err)
			_, _, err = perceptron.MaxMargin(nil, perceptron.Options{})
			mustErr("MaxMargin", err)
			_, err = perceptron.Bound(zeroData, perceptron.Options{NoBias: true})
			mustErr("Bound", err)
			_, err = perceptron.Separable(nil, perceptron.Options{})
			mustErr("Separable", err)
			//lint:ignore SA1012 a nil context is handled as Background
			_, err = perceptron.Separable(zeroData, perceptron.Options{Control: perceptron.Control{Context: nil}}) //nolint:staticcheck
			mustErr("Separable with a nil context", err)
		},
		"Learners(nil)": func() {
			var o perceptron.Options
			_, err := perceptron.PLA(nil, o)
			mustErr("PLA", err)
			_, err = perceptron.Pocket(zeroData, o)
			mustErr("Pocket", err)
			_, err = perceptron.Voted(nil, o)
			mustErr("Voted", err)
			_, err = perceptron.Averaged(nil, o)
			mustErr("Averaged", err)
			_, err = perceptron.Dual(nil, o)
			mustErr("Dual", err)
			_, err = perceptron.KernelPerceptron(nil, nil, o)
			mustErr("KernelPerceptron", err)
			_, err = perceptron.KernelPerceptron(one, perceptron.LinearKernel{}, o)
			if err != nil {
				t.Errorf("KernelPerceptron with zero Options: %v", err)
			}
		},
		"NewDataset(nil)": func() { _, err := perceptron.NewDataset(nil, nil); mustErr("NewDataset", err) },
	}
	for name, call := range calls {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			call()
		}()
	}
}

// TestZeroOptions: the zero Options trains as its defaults spelled out
// (1000 epochs, η = 1): the same run bit for bit.
func TestZeroOptions(t *testing.T) {
	d, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := perceptron.PLA(d, perceptron.Options{MaxEpochs: 1000, Eta: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.Updates != want.Updates || got.B != want.B || !slices.Equal(got.W, want.W) {
		t.Errorf("Options{}: %+v; MaxEpochs 1000, Eta 1: %+v", got.Hyperplane, want.Hyperplane)
	}
	if _, err := perceptron.PLA(d, perceptron.Options{MaxEpochs: -1}); !errors.Is(err, perceptron.ErrOption) || err.Error() != "perceptron: MaxEpochs must be > 0, got -1" {
		t.Errorf("MaxEpochs -1: %v", err)
	}
}

// TestSentinelErrors: every kind of bad input matches its kind with
// errors.Is, with its exact message.
func TestSentinelErrors(t *testing.T) {
	d := mustData(t, [][]float64{{1, 2}, {-1, 0}}, []float64{1, -1})
	h := perceptron.Hyperplane{W: []float64{1, 1}}
	allPos := &perceptron.Dataset{X: mat.NewDense(2, 1, []float64{1, 2}), Y: []float64{1, 1}}
	nanRow := &perceptron.Dataset{X: mat.NewDense(2, 1, []float64{1, math.NaN()}), Y: []float64{1, -1}}
	for _, c := range []struct {
		name string
		err  func() error
		kind error
		msg  string
	}{
		{"PLA(empty)", func() error { _, err := perceptron.PLA(&perceptron.Dataset{}, perceptron.Options{}); return err },
			perceptron.ErrEmpty, "perceptron: empty data: no rows"},
		{"Score wrong dim", func() error { _, err := h.Score([]float64{1}); return err },
			perceptron.ErrDimension, "perceptron: wrong dimension: row 0 has 1 features, the model expects 2"},
		{"Errors wrong dim", func() error { _, err := perceptron.Hyperplane{W: []float64{1}}.Errors(d); return err },
			perceptron.ErrDimension, "perceptron: wrong dimension: the data has 2 features, the model expects 1"},
		{"Bound one class", func() error { _, err := perceptron.Bound(allPos, perceptron.Options{}); return err },
			perceptron.ErrOneClass, "perceptron: one class only: all 2 labels are 1; need both -1 and +1"},
		{"Separable one class", func() error { _, err := perceptron.Separable(allPos, perceptron.Options{}); return err },
			perceptron.ErrOneClass, "perceptron: one class only: all 2 labels are 1; need both -1 and +1"},
		{"PLA NaN", func() error { _, err := perceptron.PLA(nanRow, perceptron.Options{}); return err },
			perceptron.ErrNonFinite, "perceptron: row 1, column 0: value is NaN"},
		{"NewDataset Inf", func() error {
			_, err := perceptron.NewDataset([][]float64{{1}, {math.Inf(-1)}}, []float64{1, -1})
			return err
		}, perceptron.ErrNonFinite, "perceptron: row 1, column 0: value is -Inf"},
		{"NaN weights", func() error { _, err := perceptron.Hyperplane{W: []float64{math.NaN(), 0}}.Errors(d); return err },
			perceptron.ErrNonFinite, "perceptron: model weight w[0] is NaN"},
		{"Inf bias", func() error {
			_, err := perceptron.Hyperplane{W: []float64{1, 0}, B: math.Inf(1)}.Predict([]float64{1, 2})
			return err
		},
			perceptron.ErrNonFinite, "perceptron: model bias b is +Inf"},
		{"NaN score", func() error {
			_, err := perceptron.Hyperplane{W: []float64{1e308, -1e308}}.Score([]float64{1e308, 1e308})
			return err
		}, perceptron.ErrNonFinite, "perceptron: score is NaN: w·x + b overflows"},
		{"MaxMargin not separable", func() error {
			_, _, err := perceptron.MaxMargin(perceptron.XORData(), perceptron.Options{})
			return err
		},
			perceptron.ErrNotSeparable, "perceptron: data is not linearly separable"},
		{"MaxMargin cancelled", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, _, err := perceptron.MaxMargin(d, perceptron.Options{NoBias: true, Control: perceptron.Control{Context: ctx}})
			return err
		}, perceptron.ErrUndecided, "perceptron: max margin: stopped before it began: context canceled"},
		{"Unscale wrong dim", func() error {
			s, err := perceptron.FitScaler(d)
			if err != nil {
				return err
			}
			_, err = s.Unscale(perceptron.Hyperplane{W: []float64{1, 2, 3}})
			return err
		}, perceptron.ErrDimension, "perceptron: unscale: the hyperplane has 3 weights, the scaler 2 columns"},
	} {
		err := c.err()
		if err == nil || !errors.Is(err, c.kind) || err.Error() != c.msg {
			t.Errorf("%s: %v; want %q matching %v", c.name, err, c.msg, c.kind)
		}
	}
}
