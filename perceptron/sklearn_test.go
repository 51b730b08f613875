package perceptron_test

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// sklearnGolden is testdata/sklearn/perceptron_golden.json, written by
// testdata/sklearn/make_perceptron_golden.py with scikit-learn 1.2.1.
type sklearnGolden struct {
	Versions map[string]string `json:"versions"`
	Cases    []struct {
		Name     string `json:"name"`
		Dataset  string `json:"dataset"`
		Neg      int    `json:"neg"`
		Pos      int    `json:"pos"`
		Features []int  `json:"features"`
		N        int    `json:"n"`
		D        int    `json:"d"`
		NPos     int    `json:"n_pos"`
		Fits     []struct {
			MaxIter        int      `json:"max_iter"`
			NIter          int      `json:"n_iter"`
			Coef           []string `json:"coef"`
			Intercept      string   `json:"intercept"`
			Predictions    string   `json:"predictions"`
			TrainingErrors int      `json:"training_errors"`
		} `json:"fits"`
	} `json:"cases"`
}

// parseHexFloat parses Python's float.hex output ("0x1.8p+1", "-0x0.0p+0").
func parseHexFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("golden float %q: %v", s, err)
	}
	return v
}

// loadGolden reads the JSON golden file at path (made by the scripts of
// testdata/sklearn) into v.
func loadGolden(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestPLAMatchesSklearn checks that PLA with the cyclic order, Eta 1 and
// MaxEpochs k learns exactly, bit for bit, the coef_ and intercept_ of
// scikit-learn's Perceptron(shuffle=False, tol=None, eta0=1, max_iter=k) on
// the same real rows. Both add w_j x_j left to right and update
// w_j += x_j·(η y), so there is no rounding difference to tolerate: any
// difference in a single bit is a bug. The predictions are compared under
// TieNegative, which is scikit-learn's predict (score > 0 is the positive
// class, so a score of 0 is the negative one).
func TestPLAMatchesSklearn(t *testing.T) {
	var g sklearnGolden
	loadGolden(t, "testdata/sklearn/perceptron_golden.json", &g)
	if len(g.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	loaders := map[string]func() *perceptron.MultiDataset{
		"iris":          perceptron.Iris,
		"breast_cancer": perceptron.BreastCancer,
		"wine":          perceptron.Wine,
		"digits":        perceptron.Digits,
	}
	fits := 0
	for _, c := range g.Cases {
		load, ok := loaders[c.Dataset]
		if !ok {
			t.Fatalf("%s: unknown data set %q", c.Name, c.Dataset)
		}
		d, err := load().Binary(c.Neg, c.Pos, c.Features...)
		if err != nil {
			t.Fatalf("%s: Binary: %v", c.Name, err)
		}
		if d.N() != c.N || d.D() != c.D {
			t.Fatalf("%s: got %d×%d rows, scikit-learn had %d×%d", c.Name, d.N(), d.D(), c.N, c.D)
		}
		npos := 0
		for _, y := range d.Y {
			if y > 0 {
				npos++
			}
		}
		if npos != c.NPos {
			t.Fatalf("%s: %d rows labelled +1, scikit-learn had %d", c.Name, npos, c.NPos)
		}
		for _, f := range c.Fits {
			opt := perceptron.Options{}
			opt.MaxEpochs = f.MaxIter
			res, err := perceptron.PLA(d, opt)
			if err != nil {
				t.Fatalf("%s, max_iter %d: %v", c.Name, f.MaxIter, err)
			}
			fits++
			// PLA stops after a clean epoch; scikit-learn runs all
			// max_iter epochs but a clean epoch changes nothing.
			if res.Epochs > f.NIter || (!res.Converged && res.Epochs != f.NIter) {
				t.Errorf("%s, max_iter %d: %d epochs (converged %v), scikit-learn n_iter_ %d",
					c.Name, f.MaxIter, res.Epochs, res.Converged, f.NIter)
			}
			if len(f.Coef) != len(res.W) {
				t.Fatalf("%s: %d weights, scikit-learn has %d", c.Name, len(res.W), len(f.Coef))
			}
			for j, s := range f.Coef {
				want := parseHexFloat(t, s)
				if math.Float64bits(res.W[j]) != math.Float64bits(want) {
					t.Errorf("%s, max_iter %d: w[%d] = %v (%s), scikit-learn %v (%s)",
						c.Name, f.MaxIter, j, res.W[j], strconv.FormatFloat(res.W[j], 'x', -1, 64), want, s)
				}
			}
			want := parseHexFloat(t, f.Intercept)
			if math.Float64bits(res.B) != math.Float64bits(want) {
				t.Errorf("%s, max_iter %d: b = %v (%s), scikit-learn %v (%s)", c.Name, f.MaxIter, res.B, strconv.FormatFloat(res.B, 'x', -1, 64), want, f.Intercept)
			}
			pred, err := res.PredictAll(d)
			if err != nil {
				t.Fatal(err)
			}
			if len(pred) != len(f.Predictions) {
				t.Fatalf("%s: %d predictions, scikit-learn %d", c.Name, len(pred), len(f.Predictions))
			}
			errs := 0
			for i, p := range pred {
				w := 1.0
				if f.Predictions[i] == '-' {
					w = -1
				}
				if p != w {
					t.Errorf("%s, max_iter %d: row %d predicted %v, scikit-learn %v", c.Name, f.MaxIter, i, p, w)
				}
				if p != d.Y[i] {
					errs++
				}
			}
			if errs != f.TrainingErrors {
				t.Errorf("%s, max_iter %d: %d training errors, scikit-learn %d", c.Name, f.MaxIter, errs, f.TrainingErrors)
			}
		}
	}
	t.Logf("%d cases, %d fits bit-identical to scikit-learn %s", len(g.Cases), fits, g.Versions["sklearn"])
}
