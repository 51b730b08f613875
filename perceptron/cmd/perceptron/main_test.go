package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// call runs the command with args and returns its exit status, stdout and
// stderr.
func call(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// trainJSON runs train and decodes its output.
func trainJSON(t *testing.T, args ...string) *ModelFile {
	t.Helper()
	code, out, errs := call(append([]string{"train"}, args...)...)
	if code != 0 {
		t.Fatalf("train %v: exit %d, stderr %q", args, code, errs)
	}
	if errs != "" {
		t.Errorf("train %v: unexpected stderr %q", args, errs)
	}
	var m ModelFile
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("train %v: output is not one JSON model: %v\n%s", args, err, out)
	}
	return &m
}

// tol is the tolerance of the golden weights below: they are short
// decimals (MIT 6.036's printed answers, -3.4 and 9.1 for Iris) that the
// float64 sums hit only up to a few ulps, so 1e-9 is far above rounding and
// far below any real difference.
const tol = 1e-9

func closeTo(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			return false
		}
	}
	return true
}

// TestTrainGolden checks train against golden values from independent
// sources: the Iris setosa/versicolor run of the lessons (10 updates) and
// MIT 6.036 hw2's perceptron and averaged perceptron answers (T = 100).
func TestTrainGolden(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		w         []float64
		b         float64
		updates   int
		perEpoch  []int // nil: not checked
		epochs    int
		converged bool
		lastRow   int
		errors    int
		classes   []string
		names     []string // class_names
		features  []int
		featNames []string
	}{
		{
			name: "iris setosa vs versicolor, sepal and petal length",
			args: []string{"--features", "0,2", "--classes", "0,1", "testdata/iris.csv"},
			w:    []float64{-3.4, 9.1}, b: -2, updates: 10, perEpoch: []int{2, 2, 3, 2, 1, 0},
			epochs: 6, converged: true, lastRow: 0, errors: 0,
			classes: []string{"0", "1"}, names: []string{"setosa", "versicolor"}, features: []int{0, 2},
		},
		{
			name: "iris by class names, flags after the file",
			args: []string{"testdata/iris.csv", "--classes", "setosa,versicolor", "--features", "0,2"},
			w:    []float64{-3.4, 9.1}, b: -2, updates: 10, perEpoch: []int{2, 2, 3, 2, 1, 0},
			epochs: 6, converged: true, lastRow: 0, errors: 0,
			classes: []string{"0", "1"}, names: []string{"setosa", "versicolor"}, features: []int{0, 2},
		},
		{
			name: "MIT super simple separable, pla",
			args: []string{"--max-epochs", "100", "testdata/simple.txt"},
			w:    []float64{-9, 18}, b: 2, updates: 12, epochs: 6, converged: true, lastRow: 2,
			classes: []string{"-1", "1"}, features: []int{0, 1}, featNames: []string{"x1", "x2"},
		},
		{
			name: "MIT super simple separable, averaged",
			args: []string{"--algo", "averaged", "--max-epochs", "100", "testdata/simple.txt"},
			w:    []float64{-9.0525, 17.5825}, b: 1.9425, updates: 12, epochs: 100, converged: true, lastRow: 2,
			classes: []string{"-1", "1"}, features: []int{0, 1}, featNames: []string{"x1", "x2"},
		},
		{
			name: "MIT xor, pla",
			args: []string{"--max-epochs", "100", "testdata/xor.txt"},
			w:    []float64{0, -3}, b: 0, updates: 394, epochs: 100, lastRow: 3, errors: 2,
			classes: []string{"-1", "1"}, features: []int{0, 1}, featNames: []string{"x1", "x2"},
		},
		{
			name: "MIT xor, averaged",
			args: []string{"--algo", "averaged", "--max-epochs", "100", "testdata/xor.txt"},
			w:    []float64{1.47, -1.7275}, b: 0.985, updates: 394, epochs: 100, lastRow: 3, errors: 1,
			classes: []string{"-1", "1"}, features: []int{0, 1}, featNames: []string{"x1", "x2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := trainJSON(t, tc.args...)
			if !closeTo(m.W, tc.w) || !(math.Abs(m.B-tc.b) <= tol) {
				t.Errorf("w = %v, b = %v; want %v, %v", m.W, m.B, tc.w, tc.b)
			}
			if m.Updates != tc.updates || m.Epochs != tc.epochs || m.Converged != tc.converged || m.LastMistakeRow != tc.lastRow {
				t.Errorf("updates %d, epochs %d, converged %v, last_mistake_row %d; want %d, %d, %v, %d",
					m.Updates, m.Epochs, m.Converged, m.LastMistakeRow, tc.updates, tc.epochs, tc.converged, tc.lastRow)
			}
			if tc.perEpoch != nil && !reflect.DeepEqual(m.UpdatesPerEpoch, tc.perEpoch) {
				t.Errorf("updates_per_epoch %v, want %v", m.UpdatesPerEpoch, tc.perEpoch)
			}
			sum := 0
			for _, u := range m.UpdatesPerEpoch {
				sum += u
			}
			if sum != m.Updates || len(m.UpdatesPerEpoch) != m.Epochs {
				t.Errorf("updates_per_epoch %v does not add up to %d updates in %d epochs", m.UpdatesPerEpoch, m.Updates, m.Epochs)
			}
			if m.TrainingErrors != tc.errors || m.TrainingError != float64(tc.errors)/float64(m.N) {
				t.Errorf("training_errors %d, training_error %v; want %d of %d", m.TrainingErrors, m.TrainingError, tc.errors, m.N)
			}
			if !reflect.DeepEqual(m.Classes, tc.classes) || !reflect.DeepEqual(m.ClassNames, tc.names) ||
				!reflect.DeepEqual(m.Features, tc.features) || !reflect.DeepEqual(m.FeatureNames, tc.featNames) {
				t.Errorf("classes %q, class_names %q, features %v, feature_names %q; want %q, %q, %v, %q",
					m.Classes, m.ClassNames, m.Features, m.FeatureNames, tc.classes, tc.names, tc.features, tc.featNames)
			}
			if m.D != len(tc.w) || m.Tie != "mistake" || m.Order != "in-order" || m.Eta != 1 || m.Seed != 1 {
				t.Errorf("d %d, tie %q, order %q, eta %v, seed %d: not the defaults", m.D, m.Tie, m.Order, m.Eta, m.Seed)
			}
		})
	}
}

// TestTrainMatchesPackage checks that every algo and option reaches the
// package's learner unchanged: the JSON holds exactly (bit for bit, as
// encoding/json round-trips float64) what the package computes on the same
// data with the same options.
func TestTrainMatchesPackage(t *testing.T) {
	d, err := perceptron.ReadCSVFile("testdata/iris.csv", perceptron.CSVOptions{Header: perceptron.HeaderYes, Features: []int{0, 2}, Classes: []string{"1", "2"}})
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"--features", "0,2", "--classes", "versicolor,virginica", "--order", "shuffle", "--seed", "7",
		"--eta", "0.5", "--tie", "negative", "--max-epochs", "30", "--max-updates", "200", "testdata/iris.csv"}
	opt := perceptron.Options{}
	opt.Order, opt.Seed, opt.Eta, opt.Tie, opt.MaxEpochs, opt.MaxUpdates = perceptron.Shuffle, 7, 0.5, perceptron.TieNegative, 30, 200
	for _, algo := range []string{"pla", "pocket", "averaged", "voted"} {
		t.Run(algo, func(t *testing.T) {
			m := trainJSON(t, append([]string{"--algo", algo}, base...)...)
			var res perceptron.Result
			var vectors []SavedVote
			switch algo {
			case "pla":
				r, err := perceptron.PLA(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				res = *r
			case "pocket":
				r, err := perceptron.Pocket(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				res = perceptron.Result{Hyperplane: r.Hyperplane, Stats: r.Stats}
				if m.PocketErrors == nil || *m.PocketErrors != r.PocketErrors || *m.PocketErrors != m.TrainingErrors {
					t.Errorf("pocket_errors %v, training_errors %d; package %d", m.PocketErrors, m.TrainingErrors, r.PocketErrors)
				}
				if m.Last == nil || !reflect.DeepEqual(m.Last.W, r.Last.W) || m.Last.B != r.Last.B {
					t.Errorf("last %v, package %v", m.Last, r.Last)
				}
			case "averaged":
				r, err := perceptron.Averaged(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				res = perceptron.Result{Hyperplane: r.Hyperplane, Stats: r.Stats}
				if m.Last == nil || m.Explicit == nil || !reflect.DeepEqual(m.Explicit.W, r.Explicit.W) {
					t.Errorf("last %v, explicit %v; package %v, %v", m.Last, m.Explicit, r.Last, r.Explicit)
				}
			case "voted":
				r, err := perceptron.Voted(d, opt)
				if err != nil {
					t.Fatal(err)
				}
				res = perceptron.Result{Hyperplane: r.Last(), Stats: r.Stats}
				for k, h := range r.Vectors {
					vectors = append(vectors, SavedVote{W: h.W, B: h.B, Count: r.Counts[k]})
				}
				if m.NVectors != len(vectors) || !reflect.DeepEqual(m.Vectors, vectors) {
					t.Errorf("%d vectors, package %d (or they differ)", m.NVectors, len(vectors))
				}
				e, err := r.Errors(d)
				if err != nil {
					t.Fatal(err)
				}
				if m.TrainingErrors != e {
					t.Errorf("training_errors %d, package's vote %d", m.TrainingErrors, e)
				}
			}
			if !reflect.DeepEqual(m.W, res.W) || m.B != res.B || m.Updates != res.Updates || m.Epochs != res.Epochs ||
				!reflect.DeepEqual(m.UpdatesPerEpoch, res.UpdatesPerEpoch()) || m.LastMistakeRow != res.LastMistakeRow || m.Converged != res.Converged {
				t.Errorf("JSON %+v\ndiffers from the package's %+v", m, res)
			}
			if algo != "voted" {
				e, err := res.Errors(d)
				if err != nil {
					t.Fatal(err)
				}
				if m.TrainingErrors != e {
					t.Errorf("training_errors %d, package %d", m.TrainingErrors, e)
				}
			}
			if m.Updates > 200 || m.Order != "shuffle" || m.Tie != "negative" || m.Eta != 0.5 || m.Seed != 7 || m.MaxUpdates != 200 {
				t.Errorf("options not reported: %+v", m)
			}
		})
	}
}

// TestTrainNoBias checks --no-bias: b stays 0.
func TestTrainNoBias(t *testing.T) {
	m := trainJSON(t, "--no-bias", "--max-epochs", "100", "testdata/simple.txt")
	if m.B != 0 || !m.NoBias || !m.Converged || m.TrainingErrors != 0 {
		t.Errorf("no-bias run: b %v, no_bias %v, converged %v, training_errors %d", m.B, m.NoBias, m.Converged, m.TrainingErrors)
	}
}

// tempWriter returns a function that writes text to the file name in a
// fresh temporary directory of t and returns the file's path.
func tempWriter(t *testing.T) func(name, text string) string {
	dir := t.TempDir()
	return func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// TestCLIErrors checks every bad flag value and bad file: the exact message on
// stderr, nothing on stdout, exit status 2 for the command line and 1 for
// the data.
func TestCLIErrors(t *testing.T) {
	write := tempWriter(t)
	ragged := write("ragged.txt", "1 2 1\n3 4 -1\n5 1\n")
	nan := write("nan.csv", "1,2,1\n3,NaN,-1\n")
	one := write("one.csv", "1,2,1\n3,4,1\n")
	tiny := write("tiny.csv", "1,1e-300,1\n1,-1e-300,-1\n") // margin 1e-300: (R/γ)² overflows
	zeros := write("zeros.csv", "1,2,0\n3,4,0\n")
	badModel := write("bad.json", "{not json")
	votedNoVectors := write("voted.json", `{"algo":"voted","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake"}`)
	tieModel := write("tie.json", `{"algo":"pla","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"sideways"}`)
	good := write("good.json", `{"algo":"pla","w":[1,2],"b":0,"columns":3,"features":[0,1],"classes":["-1","1"],"tie":"mistake"}`)
	wide := write("wide.txt", "1 2 3 4\n")
	notNum := write("notnum.txt", "1 2 1\n3 x -1\n")
	raggedPredict := write("raggedp.txt", "x y\n1 2\n3 4 1\n")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, ""}, // usage text
		{[]string{"frobnicate"}, 2, `perceptron: unknown command "frobnicate": want train, predict, bound, version or help`},
		{[]string{"train"}, 2, "perceptron: train: missing FILE"},
		{[]string{"train", "a.csv", "b.csv"}, 2, "perceptron: train: want one FILE, got 2: a.csv b.csv"},
		// "--" ends the flags (what followed the file was parsed as flags).
		{[]string{"train", "--", "testdata/simple.txt", "--algo", "voted"}, 2, "perceptron: train: want one FILE, got 3: testdata/simple.txt --algo voted"},
		{[]string{"train", "--algo", "voted", "--", "-x.csv"}, 1, "perceptron: open -x.csv: no such file or directory"},
		{[]string{"predict", "--model", "--", "testdata/simple.txt"}, 1, "perceptron: open --: no such file or directory"},
		// A class name and its index are one class (it said "binary: neg
		// and pos are both class 0", helper-68).
		{[]string{"train", "--classes", "setosa,0", "testdata/iris.csv"}, 2, `perceptron: --classes: "setosa" and "0" are one class: label 0 is the class name "setosa" of line 1 (scikit-learn's n_samples,n_features,names)`},
		{[]string{"train", "--bogus", "testdata/simple.txt"}, 2, "perceptron: train: flag provided but not defined: -bogus"},
		{[]string{"train", "testdata/simple.txt", "--max-epochs"}, 2, "perceptron: train: flag needs an argument: -max-epochs"},
		{[]string{"train", "--algo", "foo", "testdata/simple.txt"}, 2, `perceptron: --algo: unknown algorithm "foo": want pla, pocket, averaged or voted`},
		{[]string{"train", "--max-epochs", "0", "testdata/simple.txt"}, 2, `perceptron: --max-epochs: want an integer > 0, got "0"`},
		{[]string{"train", "--max-epochs", "x", "testdata/simple.txt"}, 2, `perceptron: --max-epochs: want an integer > 0, got "x"`},
		{[]string{"train", "--max-updates", "-1", "testdata/simple.txt"}, 2, `perceptron: --max-updates: want an integer >= 0 (0 means no limit), got "-1"`},
		{[]string{"train", "--order", "zigzag", "testdata/simple.txt"}, 2, `perceptron: --order: unknown order "zigzag": want in-order, random-cycle, shuffle or mistake`},
		{[]string{"train", "--seed", "-1", "testdata/simple.txt"}, 2, `perceptron: --seed: want an integer in [0, 2^64), got "-1"`},
		{[]string{"train", "--eta", "0", "testdata/simple.txt"}, 2, `perceptron: --eta: want a finite number > 0, got "0"`},
		{[]string{"train", "--eta", "NaN", "testdata/simple.txt"}, 2, `perceptron: --eta: want a finite number > 0, got "NaN"`},
		{[]string{"train", "--eta", "-Inf", "testdata/simple.txt"}, 2, `perceptron: --eta: want a finite number > 0, got "-Inf"`},
		{[]string{"train", "--eta", "+Inf", "testdata/simple.txt"}, 2, `perceptron: --eta: want a finite number > 0, got "+Inf"`},
		{[]string{"train", "--eta", "5e-324", "testdata/simple.txt"}, 2, `perceptron: --eta: "5e-324" is subnormal (below 2^-1022, about 2.2e-308): every update would lose bits; use a larger value`},
		{[]string{"train", "--tie", "zero", "testdata/simple.txt"}, 2, `perceptron: --tie: want mistake or negative, got "zero"`},
		{[]string{"train", "--features", "a", "testdata/simple.txt"}, 2, `perceptron: --features: want 0-based column numbers separated by commas, got "a"`},
		{[]string{"train", "--features", "-1", "testdata/simple.txt"}, 2, `perceptron: --features: want 0-based column numbers separated by commas, got "-1"`},
		{[]string{"train", "--classes", "1", "testdata/simple.txt"}, 2, `perceptron: --classes: want two labels separated by a comma, got "1"`},
		{[]string{"train", "--classes", "1,1", "testdata/simple.txt"}, 2, `perceptron: --classes: the two labels are both "1"`},
		{[]string{"train", "--classes", "1,1.0", "testdata/simple.txt"}, 2, `perceptron: --classes: "1" and "1.0" are one number, so one label`},
		{[]string{"bound", "--classes", "+1,1", "testdata/simple.txt"}, 2, `perceptron: --classes: "+1" and "1" are one number, so one label`},
		{[]string{"train", "--header", "maybe", "testdata/simple.txt"}, 2, `perceptron: --header: want auto, yes or no, got "maybe"`},
		{[]string{"bound", "--no-bias=maybe", "testdata/simple.txt"}, 2, `perceptron: bound: invalid boolean value "maybe" for -no-bias: parse error`},
		{[]string{"predict", "testdata/simple.txt"}, 2, "perceptron: predict: missing --model MODEL.json"},
		{[]string{"predict", "--model", good, "--header", "maybe", "testdata/simple.txt"}, 2, `perceptron: --header: want auto, yes or no, got "maybe"`},

		{[]string{"train", "testdata/nofile.csv"}, 1, "perceptron: open testdata/nofile.csv: no such file or directory"},
		// Flag values that do not fit the file are usage errors too.
		{[]string{"train", "--features", "0,5", "testdata/simple.txt"}, 2, "perceptron: --features: column 5 out of range: testdata/simple.txt has 3 columns, 0..1 may be features"},
		{[]string{"train", "--features", "2", "testdata/simple.txt"}, 2, "perceptron: --features: column 2 is the label column of testdata/simple.txt"},
		{[]string{"train", "--features", "0,0", "testdata/simple.txt"}, 2, "perceptron: --features: column 0 repeated"},
		{[]string{"train", "--classes", "1,7", "testdata/simple.txt"}, 2, `perceptron: testdata/simple.txt: class "7" not found in the label column (column 2); its values are "-1", "1"`},
		{[]string{"train", "testdata/iris.csv"}, 1, `perceptron: testdata/iris.csv: 3 label values in column 4 ("0", "1", "2"): choose two classes with --classes A,B`},
		// --header no reads scikit-learn's first line, and a header, as data.
		{[]string{"train", "--header", "no", "testdata/iris.csv"}, 1, `perceptron: testdata/iris.csv: line 1, column 2: cannot parse "setosa" as a number`},
		{[]string{"train", "--header", "no", "testdata/simple.txt"}, 1, `perceptron: testdata/simple.txt: line 1, column 0: cannot parse "x1" as a number`},
		{[]string{"train", ragged}, 1, "perceptron: " + ragged + ": line 3: 2 fields, expected 3 (as on line 1)"},
		{[]string{"train", nan}, 1, "perceptron: " + nan + ": line 2, column 1: value is NaN"},
		// Labels all +1 load (they say what they mean) and train (see
		// TestTrainOneClass), but the theorem needs two classes.
		{[]string{"bound", one}, 1, "perceptron: one class only: all 2 labels are 1; need both -1 and +1"},
		// Separable, but the bound is beyond float64: an error that says
		// so, not a JSON encoder's complaint about +Inf.
		{[]string{"bound", "--no-bias", tiny}, 1, "perceptron: bound: the data is separable (margin γ = 1e-300, radius R = 1), but the bound (R/γ)² on the updates exceeds the float64 range"},
		{[]string{"train", zeros}, 1, "perceptron: " + zeros + `: only one label value "0" in column 2: need two classes`},
		{[]string{"predict", "--model", "testdata/nofile.json", "testdata/simple.txt"}, 1, "perceptron: open testdata/nofile.json: no such file or directory"},
		{[]string{"predict", "--model", badModel, "testdata/simple.txt"}, 1, "perceptron: model " + badModel + ": invalid character 'n' looking for beginning of object key string"},
		{[]string{"predict", "--model", votedNoVectors, "testdata/simple.txt"}, 1, "perceptron: model " + votedNoVectors + `: a voted model needs its "vectors"`},
		{[]string{"predict", "--model", tieModel, "testdata/simple.txt"}, 1, "perceptron: model " + tieModel + `: unknown tie policy "sideways": want mistake or negative`},
		{[]string{"predict", "--model", good, wide}, 1, "perceptron: " + wide + ": line 1 has 4 fields; the model wants 3 (features and label, as in training) or 2 (features only)"},
		{[]string{"predict", "--model", good, raggedPredict}, 1, "perceptron: " + raggedPredict + ": line 3: 3 fields, expected 2 (as on line 2)"},
		{[]string{"predict", "--model", good, notNum}, 1, "perceptron: " + notNum + `: line 2, column 1: cannot parse "x" as a number`},
	} {
		code, out, errs := call(tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, errs)
		}
		if out != "" {
			t.Errorf("%q: unexpected stdout %q", tc.args, out)
		}
		if tc.msg == "" {
			if !strings.HasPrefix(errs, "usage:") {
				t.Errorf("%q: stderr %q, want the usage text", tc.args, errs)
			}
			continue
		}
		if errs != tc.msg+"\n" {
			t.Errorf("%q:\nstderr %q\nwant   %q", tc.args, errs, tc.msg+"\n")
		}
	}
}

// TestHelp checks that help prints the usage to stdout with status 0.
func TestHelp(t *testing.T) {
	code, out, errs := call("help")
	if code != 0 || !strings.HasPrefix(out, "usage:") || errs != "" {
		t.Errorf("help: exit %d, stdout %.20q, stderr %q", code, out, errs)
	}
}

// TestPredictRoundTrip trains, writes the model file and predicts with it:
// one label per line as the training file writes its labels, and the error
// rate on stderr when the file is labelled. The errors predict counts on
// the training file must be train's training_errors, for every algo (the
// voted model needs its vectors from the JSON to get this right).
func TestPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		file   string
		labels string // the expected stdout, "" to skip
		stderr string // the expected stderr, "" to skip
	}{
		{
			name: "iris pla", args: []string{"--features", "0,2", "--classes", "0,1", "testdata/iris.csv"},
			file:   "testdata/iris.csv",
			labels: strings.Repeat("0\n", 50) + strings.Repeat("1\n", 100),
			stderr: "error rate: 50 of 150 rows = 0.3333333333333333 (50 rows have a label that is neither \"0\" nor \"1\": each is an error)\n",
		},
		{
			name: "iris unlabelled", args: []string{"--features", "0,2", "--classes", "0,1", "testdata/iris.csv"},
			file: "testdata/iris_unlabelled.csv", labels: "0\n1\n1\n",
		},
		{name: "xor voted", args: []string{"--algo", "voted", "--max-epochs", "100", "testdata/xor.txt"}, file: "testdata/xor.txt"},
		{name: "xor averaged", args: []string{"--algo", "averaged", "--max-epochs", "100", "testdata/xor.txt"}, file: "testdata/xor.txt"},
		{name: "xor pocket", args: []string{"--algo", "pocket", "--max-epochs", "100", "testdata/xor.txt"}, file: "testdata/xor.txt"},
		{
			name: "iris 1 vs 2 voted", args: []string{"--algo", "voted", "--features", "0,2", "--classes", "1,2", "--max-epochs", "20", "testdata/iris.csv"},
			file: "testdata/iris.csv",
		},
		{
			name: "iris 1 vs 2 pocket", args: []string{"--algo", "pocket", "--classes", "1,2", "--max-updates", "50", "--order", "random-cycle", "testdata/iris.csv"},
			file: "testdata/iris.csv",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, js, errs := call(append([]string{"train"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("train: exit %d: %s", code, errs)
			}
			var m ModelFile
			if err := json.Unmarshal([]byte(js), &m); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := call("predict", "--model", path, tc.file)
			if code != 0 {
				t.Fatalf("predict: exit %d: %s", code, errs)
			}
			if tc.labels != "" && out != tc.labels {
				t.Errorf("predict printed\n%s\nwant\n%s", out, tc.labels)
			}
			if tc.stderr != "" && errs != tc.stderr {
				t.Errorf("predict stderr %q, want %q", errs, tc.stderr)
			}
			if tc.file == "testdata/iris_unlabelled.csv" {
				if errs != "" {
					t.Errorf("unlabelled file: stderr %q, want nothing", errs)
				}
				return
			}
			if m.N == strings.Count(out, "\n") {
				want := fmt.Sprintf("error rate: %d of %d rows = %g\n", m.TrainingErrors, m.N, m.TrainingError)
				if errs != want {
					t.Errorf("predict stderr %q, want %q", errs, want)
				}
			} else if rows := strings.Count(out, "\n"); !strings.HasPrefix(errs, fmt.Sprintf("error rate: %d of %d rows = ", m.TrainingErrors+rows-m.N, rows)) {
				// The rows of the file's other classes are errors too.
				t.Errorf("predict stderr %q, want %d errors of %d rows", errs, m.TrainingErrors+rows-m.N, rows)
			}
		})
	}
}

// TestPredictTie checks the tie policy of a model: a score of exactly 0 is
// printed "?" (and is an error) under mistake and is the first class under
// negative.
func TestPredictTie(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.txt")
	if err := os.WriteFile(data, []byte("u v label\n0 5 a\n1 1 b\n-1 0 a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tie, out, errs string }{
		{"mistake", "?\nb\na\n", "error rate: 1 of 3 rows = 0.3333333333333333\n"},
		{"negative", "a\nb\na\n", "error rate: 0 of 3 rows = 0\n"},
	} {
		path := filepath.Join(dir, tc.tie+".json")
		js := `{"algo":"pla","w":[1,0],"b":0,"columns":3,"features":[0,1],"classes":["a","b"],"tie":"` + tc.tie + `"}`
		if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := call("predict", "--model", path, data)
		if code != 0 || out != tc.out || errs != tc.errs {
			t.Errorf("tie %s: exit %d, stdout %q, stderr %q; want 0, %q, %q", tc.tie, code, out, errs, tc.out, tc.errs)
		}
	}
}

// svcGolden is ../../testdata/sklearn/svc_golden.json: hard-margin
// separators from scikit-learn's SVC, polished and certified by
// make_svc_golden.py.
type svcGolden struct {
	Cases []struct {
		Dataset  string `json:"dataset"`
		Neg      int    `json:"neg"`
		Pos      int    `json:"pos"`
		Features []int  `json:"features"`
		Origin   *struct {
			Theta  []float64 `json:"theta"`
			Margin float64   `json:"margin"`
			RAug   float64   `json:"R_aug"`
			Bound  float64   `json:"bound"`
		} `json:"origin"`
	} `json:"cases"`
}

// boundOut is the output of bound.
type boundOut struct {
	R         float64  `json:"R"`
	Gamma     *float64 `json:"gamma"`
	Bound     *float64 `json:"bound"`
	Separable bool     `json:"separable"`
	Target    *hyper   `json:"target"`
	NoBias    bool     `json:"no_bias"`
	N, D      int
	Classes   []string `json:"classes"`
	Features  []int    `json:"features"`
}

func boundJSON(t *testing.T, args ...string) boundOut {
	t.Helper()
	code, out, errs := call(append([]string{"bound"}, args...)...)
	if code != 0 {
		t.Fatalf("bound %v: exit %d: %s", args, code, errs)
	}
	var b boundOut
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBound checks bound on separable Iris pairs against scikit-learn's
// hard-margin SVM through the origin of the augmented rows [1, x]
// (svc_golden.json), and the same theorem run with --no-bias on a file
// that holds the constant 1 as a column. The golden margins are certified
// to about 1e-12 and the package promises 1e-6; 1e-7 relative checks both.
func TestBound(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/sklearn/svc_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g svcGolden
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	const rel = 1e-7
	near := func(got, want float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }
	dir := t.TempDir()
	checked := 0
	for _, c := range g.Cases {
		if c.Dataset != "iris" || c.Origin == nil {
			continue
		}
		feats := "0,1,2,3"
		if c.Features != nil {
			feats = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(c.Features)), ","), "[]")
		}
		classes := fmt.Sprintf("%d,%d", c.Neg, c.Pos)
		b := boundJSON(t, "--features", feats, "--classes", classes, "testdata/iris.csv")
		if !b.Separable || b.Gamma == nil || b.Bound == nil || b.Target == nil {
			t.Fatalf("iris %s on %s: not separable: %+v", classes, feats, b)
		}
		if !near(b.R, c.Origin.RAug) || !near(*b.Gamma, c.Origin.Margin) || !near(*b.Bound, c.Origin.Bound) {
			t.Errorf("iris %s on %s: R %v, gamma %v, bound %v; SVC %v, %v, %v", classes, feats, b.R, *b.Gamma, *b.Bound,
				c.Origin.RAug, c.Origin.Margin, c.Origin.Bound)
		}
		// The target is θ*/||θ*|| split into (w, b).
		theta := append([]float64{b.Target.B}, b.Target.W...)
		norm := 0.0
		for _, v := range c.Origin.Theta {
			norm += v * v
		}
		norm = math.Sqrt(norm)
		for j, v := range theta {
			if !(math.Abs(v-c.Origin.Theta[j]/norm) <= 1e-6) {
				t.Errorf("iris %s on %s: target θ = %v, SVC %v/%v", classes, feats, theta, c.Origin.Theta, norm)
				break
			}
		}

		// --no-bias on [1, x] is the same theorem.
		d, err := perceptron.Iris().Binary(c.Neg, c.Pos, c.Features...)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for i := 0; i < d.N(); i++ {
			sb.WriteString("1")
			for _, v := range d.Row(i) {
				fmt.Fprintf(&sb, " %v", v)
			}
			fmt.Fprintf(&sb, " %v\n", d.Y[i])
		}
		aug := filepath.Join(dir, fmt.Sprintf("aug%d.txt", checked))
		if err := os.WriteFile(aug, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		nb := boundJSON(t, "--no-bias", aug)
		if !nb.NoBias || !nb.Separable || !near(nb.R, c.Origin.RAug) || !near(*nb.Gamma, c.Origin.Margin) {
			t.Errorf("iris %s on %s with the 1 column, --no-bias: %+v; SVC R %v, gamma %v", classes, feats, nb, c.Origin.RAug, c.Origin.Margin)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d golden Iris cases", checked)
	}

	// Versicolor and virginica are not separable on these features.
	b := boundJSON(t, "--features", "0,2", "--classes", "1,2", "testdata/iris.csv")
	if b.Separable || b.Gamma != nil || b.Bound != nil || b.Target != nil || !(b.R > 0) {
		t.Errorf("iris 1 vs 2: %+v, want not separable with null gamma, bound and target", b)
	}
	// The bound holds for the training run.
	m := trainJSON(t, "--features", "0,2", "--classes", "0,1", "testdata/iris.csv")
	b = boundJSON(t, "--features", "0,2", "--classes", "0,1", "testdata/iris.csv")
	if float64(m.Updates) > *b.Bound {
		t.Errorf("%d updates > bound %v", m.Updates, *b.Bound)
	}
}
