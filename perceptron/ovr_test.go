package perceptron_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// ovrGolden is testdata/sklearn/ovr_golden.json, written by
// testdata/sklearn/make_ovr_golden.py with scikit-learn 1.2.1.
type ovrGolden struct {
	Cases []struct {
		Dataset string `json:"dataset"`
		MaxIter int    `json:"max_iter"`
		Models  []struct {
			WHex []string `json:"w_hex"`
			BHex string   `json:"b_hex"`
		} `json:"models"`
		Predictions []int   `json:"predictions"`
		ErrorRate   float64 `json:"error_rate"`
	} `json:"cases"`
}

// TestOneVsRestSklearn compares OneVsRest(PLALearner) with scikit-learn's
// OneVsRestClassifier(Perceptron(shuffle=False, tol=None, eta0=1,
// max_iter=k)) on all of Iris and digits: the weights of every class's
// perceptron bit for bit (both sum left to right and update the same way),
// the predicted class of every row and the training error rate (Iris after
// 1000 epochs: 1/3, versicolor against the rest is far from separable).
func TestOneVsRestSklearn(t *testing.T) {
	var g ovrGolden
	loadGolden(t, "testdata/sklearn/ovr_golden.json", &g)
	if len(g.Cases) != 4 {
		t.Fatalf("%d golden cases, want 4", len(g.Cases))
	}
	load := map[string]func() *perceptron.MultiDataset{"iris": perceptron.Iris, "digits": perceptron.Digits}
	hex := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range g.Cases {
		m := load[c.Dataset]()
		opt := perceptron.Options{}
		opt.MaxEpochs = c.MaxIter
		model, err := perceptron.OneVsRest(m, perceptron.PLALearner(opt))
		if err != nil {
			t.Fatal(err)
		}
		name := c.Dataset + " max_iter " + strconv.Itoa(c.MaxIter)
		if len(model.Models) != len(c.Models) || !slices.Equal(model.Classes, m.ClassNames) {
			t.Fatalf("%s: %d models, classes %v", name, len(model.Models), model.Classes)
		}
		for k, gm := range c.Models {
			h := model.Models[k].(perceptron.Hyperplane)
			if h.B != hex(gm.BHex) {
				t.Errorf("%s class %d: b = %v, sklearn %v", name, k, h.B, hex(gm.BHex))
			}
			for j, s := range gm.WHex {
				if h.W[j] != hex(s) {
					t.Errorf("%s class %d: w[%d] = %v, sklearn %v", name, k, j, h.W[j], hex(s))
					break
				}
			}
		}
		p, err := model.PredictAll(m)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p, c.Predictions) {
			t.Errorf("%s: predictions differ from sklearn's", name)
		}
		rate, err := model.ErrorRate(m)
		// Both are (number of errors)/n computed the same way: exact.
		if err != nil || rate != c.ErrorRate {
			t.Errorf("%s: error rate %v (%v), sklearn %v", name, rate, err, c.ErrorRate)
		}
	}
}

// TestOneVsRestSetosa checks that setosa against the rest is learned
// perfectly (it is linearly separable) and that every setosa row is
// predicted as setosa. (Rows of the other classes may be predicted as
// setosa too: when both other models score a row negative, setosa's less
// negative score can win the argmax; sklearn does the same, see
// TestOneVsRestSklearn.)
func TestOneVsRestSetosa(t *testing.T) {
	m := perceptron.Iris()
	model, err := perceptron.OneVsRest(m, perceptron.PLALearner(perceptron.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float64, m.N())
	for i, l := range m.Labels {
		y[i] = -1
		if l == 0 {
			y[i] = 1
		}
	}
	setosa := &perceptron.Dataset{X: m.X, Y: y}
	if e, err := model.Models[0].(perceptron.Hyperplane).Errors(setosa); err != nil || e != 0 {
		t.Errorf("setosa vs rest: %d errors (%v)", e, err)
	}
	p, err := model.PredictAll(m)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range p {
		if m.Labels[i] == 0 && c != 0 {
			t.Errorf("row %d (class %d) predicted %d", i, m.Labels[i], c)
		}
	}
}

// constScorer scores every point with the same value: a Model of one
// feature through the origin, with a bias only.
func constScorer(c float64) perceptron.Model { return perceptron.Hyperplane{W: []float64{0}, B: c} }

func TestOneVsRestTiesAndErrors(t *testing.T) {
	model := &perceptron.OneVsRestModel{Classes: []string{"a", "b", "c"}, Models: []perceptron.Model{constScorer(1), constScorer(2), constScorer(2)}}
	if c, err := model.Predict([]float64{0}); err != nil || c != 1 {
		t.Errorf("tie between classes 1 and 2: predicted %d (%v), want 1", c, err)
	}
	m := perceptron.Iris()
	bad := &perceptron.MultiDataset{X: m.X, Labels: m.Labels, ClassNames: []string{"setosa"}}
	if _, err := perceptron.OneVsRest(bad, perceptron.PLALearner(perceptron.Options{})); !errors.Is(err, perceptron.ErrClasses) {
		t.Errorf("one class: %v", err)
	}
	opt := perceptron.Options{}
	opt.MaxEpochs = -1
	if _, err := perceptron.OneVsRest(m, perceptron.PLALearner(opt)); !errors.Is(err, perceptron.ErrOption) || err.Error() != "perceptron: one-vs-rest: class 0 (setosa): MaxEpochs must be > 0, got -1" {
		t.Errorf("bad options: %v", err)
	}
	labels := slices.Clone(m.Labels)
	labels[7] = 3
	bad = &perceptron.MultiDataset{X: m.X, Labels: labels, ClassNames: m.ClassNames}
	if _, err := perceptron.OneVsRest(bad, perceptron.PLALearner(perceptron.Options{})); !errors.Is(err, perceptron.ErrLabel) {
		t.Errorf("bad label: %v", err)
	}
}

// TestOneVsRestKeepsKinds: a learner's error is wrapped with the class it
// was learning, and keeps its kind (issue 24: it was flattened with %s).
func TestOneVsRestKeepsKinds(t *testing.T) {
	m := perceptron.Iris()
	m.X.Scale(1e307, m.X)
	opt := perceptron.Options{}
	_, err := perceptron.OneVsRest(m, perceptron.PLALearner(opt))
	if !errors.Is(err, perceptron.ErrNonFinite) {
		t.Errorf("Iris × 1e307: %v, want ErrNonFinite", err)
	}
	_, err = perceptron.OneVsRest(perceptron.Iris(), func(*perceptron.Dataset) (perceptron.Model, error) {
		return nil, perceptron.ErrUndecided
	})
	if !errors.Is(err, perceptron.ErrUndecided) || err.Error() != "perceptron: one-vs-rest: class 0 (setosa): undecided" {
		t.Errorf("learner error: %v, want ErrUndecided named with the class", err)
	}
}

// TestOneVsRestModelValidate: a hand-built model whose class names and
// models do not match one for one (1 name, 2 models: Predict said class 1,
// outside Classes), with a nil model or models of different dimensions is
// refused by Validate and by Predict (a red-team case); so is
// (*MultiDataset)(nil).Class, which panicked.
func TestOneVsRestModelValidate(t *testing.T) {
	h := func(w ...float64) perceptron.Model { return perceptron.Hyperplane{W: w} }
	for _, tc := range []struct {
		name string
		o    *perceptron.OneVsRestModel
		want error
	}{
		{"nil", nil, perceptron.ErrModel},
		{"no models", &perceptron.OneVsRestModel{}, perceptron.ErrModel},
		{"no names, no models", &perceptron.OneVsRestModel{Classes: []string{}}, perceptron.ErrModel},
		{"1 name, 2 models", &perceptron.OneVsRestModel{Classes: []string{"a"}, Models: []perceptron.Model{h(-1), h(1)}}, perceptron.ErrModel},
		{"3 names, 2 models", &perceptron.OneVsRestModel{Classes: []string{"a", "b", "c"}, Models: []perceptron.Model{h(-1), h(1)}}, perceptron.ErrModel},
		{"a nil model", &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{h(1), (*perceptron.Result)(nil)}}, perceptron.ErrModel},
		{"dimensions 1 and 2", &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{h(1), h(1, 1)}}, perceptron.ErrDimension},
		// A class's model that its own Validate refuses: Validate
		// accepted it, and Predict's error named no class (helper-72).
		{"a NaN weight", &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{h(1), h(math.NaN())}}, perceptron.ErrNonFinite},
		{"a negative count", &perceptron.OneVsRestModel{Classes: []string{"a", "b"}, Models: []perceptron.Model{h(1),
			&perceptron.VotedModel{Vectors: []perceptron.Hyperplane{{W: []float64{1}}}, Counts: []int{-1}}}}, perceptron.ErrModel},
	} {
		err := tc.o.Validate()
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Validate %v; want %v", tc.name, err, tc.want)
		}
		if c, err := tc.o.Predict([]float64{1}); !errors.Is(err, tc.want) {
			t.Errorf("%s: Predict %d, %v; want %v", tc.name, c, err, tc.want)
		}
		if strings.HasPrefix(tc.name, "a N") || strings.HasPrefix(tc.name, "a negative") {
			if err == nil || !strings.Contains(err.Error(), "the model of class 1 (b): ") {
				t.Errorf("%s: Validate %v; want it to name class 1 (b)", tc.name, err)
			}
		}
	}
	for _, names := range [][]string{{"a", "b"}, nil} {
		ok := &perceptron.OneVsRestModel{Classes: names, Models: []perceptron.Model{h(-1), h(1)}}
		if c, err := ok.Predict([]float64{1}); ok.Validate() != nil || err != nil || c != 1 {
			t.Errorf("a valid model, classes %q: Predict %d, %v", names, c, err)
		}
	}
	if _, err := (*perceptron.MultiDataset)(nil).Class("a"); !errors.Is(err, perceptron.ErrEmpty) {
		t.Errorf("(*perceptron.MultiDataset)(nil).Class: %v; want perceptron.ErrEmpty", err)
	}
}

// TestOneVsRestTiesAsSklearnPerceptron checks OneVsRest where classes tie
// at the maximum score, which integer features make common (PLA's scores
// are then integers). On the rows -1, 2 and 0 of classes 0, 1 and 2,
// scikit-learn 1.2.1's Perceptron(shuffle=False, tol=None, eta0=1,
// max_iter=5) and OneVsRestClassifier of it both learn w = -2, 1, 0 and
// b = -1 for every class, so every model scores -1 at x = 0: Perceptron's
// predict answers [0 1 0] (np.argmax, the lowest class), while
// OneVsRestClassifier's answers [0 1 2] (the last class to reach the
// maximum). OneVsRest learns the same weights and predicts as Perceptron.
func TestOneVsRestTiesAsSklearnPerceptron(t *testing.T) {
	x := [][]float64{{-1}, {2}, {0}}
	d, err := perceptron.NewDataset(x, []float64{-1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	m := &perceptron.MultiDataset{X: d.X, Labels: []int{0, 1, 2}, ClassNames: []string{"0", "1", "2"}}
	opt := perceptron.Options{MaxEpochs: 5}
	model, err := perceptron.OneVsRest(m, perceptron.PLALearner(opt))
	if err != nil {
		t.Fatal(err)
	}
	for c, w := range []float64{-2, 1, 0} {
		h := model.Models[c].(perceptron.Hyperplane)
		if h.W[0] != w || h.B != -1 {
			t.Errorf("class %d: w = %v, b = %v; scikit-learn w = %v, b = -1", c, h.W, h.B, w)
		}
	}
	p, err := model.PredictAll(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 0}; !slices.Equal(p, want) {
		t.Errorf("predicted %v, scikit-learn's Perceptron %v (OneVsRestClassifier [0 1 2])", p, want)
	}
	if rate, err := model.ErrorRate(m); err != nil || rate != 1.0/3 {
		t.Errorf("error rate %v (%v), scikit-learn's Perceptron 1/3", rate, err)
	}
}
