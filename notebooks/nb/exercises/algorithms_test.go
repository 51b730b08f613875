package exercises

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/perceptron"
)

// onlineRef is lesson 3's worked solution, with a switch for each typical
// slip: strict (< 0 instead of <= 0) and noBias (b never updated).
func onlineRef(strict, noBias bool) OnlineFunc {
	return func(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
		w, b, mistakes := make([]float64, len(X[0])), 0.0, 0
		for i, x := range X {
			score := b
			for j := range w {
				score += float64(w[j] * x[j]) // float64(): no fused multiply-add, as the package
			}
			if m := y[i] * score; m > 0 || tieSkipped(strict, m, w, b) {
				continue
			}
			for j := range w {
				w[j] += x[j] * (eta * y[i])
			}
			if !noBias {
				b += eta * y[i]
			}
			mistakes++
		}
		return w, b, mistakes
	}
}

func TestCheckOnline(t *testing.T) {
	expectVerdict(t, "reference", true, func() bool { return CheckOnline(onlineRef(false, false)) }, "all 12 cases passed")
	expectVerdict(t, "< 0", false, func() bool { return CheckOnline(onlineRef(true, false)) },
		"FAILED: Exercise 1 (OnlinePerceptron): 3 hand-made points, η = 1: mistakes: expected")
	expectVerdict(t, "< 0, the first update forced", false, forced(func() bool { return CheckOnline(onlineRef(true, false)) }), "FAILED")
	expectVerdict(t, "no bias update", false, func() bool { return CheckOnline(onlineRef(false, true)) },
		"FAILED: Exercise 1 (OnlinePerceptron): lesson 3's separable stream (500 points), η = 1: b: expected")
	expectVerdict(t, "stub", false, func() bool {
		return CheckOnline(func([][]float64, []float64, float64) ([]float64, float64, int) { panic("not implemented") })
	},
		"NOT DONE: Exercise 1 (OnlinePerceptron): your function panicked: not implemented")
}

// TestOnlineSolutionIsThePackageBitForBit: the written-out loop (with the
// package's order of operations and float64 guards) gives perceptron.Online's
// weights bit for bit, the exact claim the lesson no longer makes in a cell.
func TestOnlineSolutionIsThePackageBitForBit(t *testing.T) {
	sep, _, _ := perceptron.SeparableData(500, 2, 0.05, 1)
	noisy, _, _ := perceptron.NoisyData(500, 2, 0.05, 0.1, 1)
	for _, tc := range []struct {
		d            *perceptron.Dataset
		eta          float64
		wantMistakes int
	}{{sep, 1, 35}, {noisy, 0.1, 130}} {
		w, b, mistakes := onlineRef(false, false)(tc.d.Rows(), tc.d.Y, tc.eta)
		o, _ := perceptron.NewOnline(2, tc.eta, perceptron.TieMistake)
		for i := range tc.d.N() {
			if _, err := o.Step(tc.d.Row(i), tc.d.Y[i]); err != nil {
				t.Fatal(err)
			}
		}
		same := math.Float64bits(b) == math.Float64bits(o.B) && mistakes == o.Mistakes
		for j := range w {
			same = same && math.Float64bits(w[j]) == math.Float64bits(o.W[j])
		}
		if !same || mistakes != tc.wantMistakes {
			t.Errorf("η = %g: loop w = %v, b = %v, %d mistakes; package w = %v, b = %v, %d; want identical bits and %d mistakes",
				tc.eta, w, b, mistakes, o.W, o.B, o.Mistakes, tc.wantMistakes)
		}
	}
}

// batchRef is lesson 4's worked solution, with a switch for each typical
// slip: strict (< 0), noStop (no clean-pass stop) and noBias.
func batchRef(strict, noStop, noBias bool) BatchPLAFunc {
	return func(X [][]float64, y []float64, eta float64, maxEpochs int) ([]float64, float64, []int) {
		w, b := make([]float64, len(X[0])), 0.0
		var perEpoch []int
		for epoch := 0; epoch < maxEpochs; epoch++ {
			updates := 0
			for i, x := range X {
				score := 0.0
				for j := range w {
					score += float64(w[j] * x[j])
				}
				if m := y[i] * (score + b); m > 0 || tieSkipped(strict, m, w, b) {
					continue
				}
				for j := range w {
					w[j] += float64(x[j] * (eta * y[i]))
				}
				if !noBias {
					b += eta * y[i]
				}
				updates++
			}
			perEpoch = append(perEpoch, updates)
			if updates == 0 && !noStop {
				break
			}
		}
		return w, b, perEpoch
	}
}

func TestCheckBatchPLA(t *testing.T) {
	expectVerdict(t, "reference", true, func() bool { return CheckBatchPLA(batchRef(false, false, false)) }, "all 12 cases passed")
	expectVerdict(t, "< 0", false, func() bool { return CheckBatchPLA(batchRef(true, false, false)) },
		"FAILED: Exercise 1 (BatchPLA): iris (setosa vs versicolor), η = 1, at most 1000 epochs: updates per epoch: expected [2 2 3 2 1 0], got [0]")
	expectVerdict(t, "< 0, the first update forced", false, forced(func() bool { return CheckBatchPLA(batchRef(true, false, false)) }), "FAILED")
	expectVerdict(t, "no clean-pass stop", false, func() bool { return CheckBatchPLA(batchRef(false, true, false)) },
		"FAILED: Exercise 1 (BatchPLA): 3 hand-made points, η = 1, at most 100 epochs: updates per epoch")
	expectVerdict(t, "no bias update", false, func() bool { return CheckBatchPLA(batchRef(false, false, true)) },
		"FAILED: Exercise 1 (BatchPLA): iris (setosa vs versicolor), η = 1, at most 1000 epochs: b: expected")
	expectVerdict(t, "stub", false, func() bool {
		return CheckBatchPLA(func([][]float64, []float64, float64, int) ([]float64, float64, []int) { panic("not implemented") })
	},
		"NOT DONE: Exercise 1 (BatchPLA): your function panicked: not implemented")
}

// TestBatchSolutionIsThePackageBitForBit: as for the online learner, on iris
// (10 updates in 6 epochs) and on noisy data for 20 epochs with η = 0.1.
func TestBatchSolutionIsThePackageBitForBit(t *testing.T) {
	iris, _ := perceptron.Iris().Binary(0, 1, 0, 2)
	noisy, _, _ := perceptron.NoisyData(200, 2, 0, 0.1, 1)
	for _, tc := range []struct {
		d         *perceptron.Dataset
		eta       float64
		maxEpochs int
	}{{iris, 1, 1000}, {noisy, 0.1, 20}} {
		w, b, perEpoch := batchRef(false, false, false)(tc.d.Rows(), tc.d.Y, tc.eta, tc.maxEpochs)
		opt := perceptron.Options{}
		opt.Eta, opt.MaxEpochs = tc.eta, tc.maxEpochs
		res, err := perceptron.PLA(tc.d, opt)
		if err != nil {
			t.Fatal(err)
		}
		same := slices.Equal(perEpoch, res.UpdatesPerEpoch()) && math.Float64bits(b) == math.Float64bits(res.B)
		for j := range w {
			same = same && math.Float64bits(w[j]) == math.Float64bits(res.W[j])
		}
		if !same {
			t.Errorf("η = %g: loop w = %v, b = %v, per epoch %v; package w = %v, b = %v, per epoch %v", tc.eta, w, b, perEpoch, res.W, res.B, res.UpdatesPerEpoch())
		}
	}
}

// cheatOnline passes every case by calling the package: the checker must
// refuse it when it can read the notebook's program.
func cheatOnline(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
	o, _ := perceptron.NewOnline(len(X[0]), eta, perceptron.TieMistake)
	for i, x := range X {
		o.Step(x, y[i])
	}
	return o.W, o.B, o.Mistakes
}

// cheatMain is what GoNB writes to $GONB_TMP_DIR/main.go for a notebook
// whose cheatOnline hides the package call in a helper, under another
// import name.
const cheatMain = `package main

import (
	"fmt"

	pc "github.com/perceptron-go/lessons/perceptron"
)

func learner(eta float64) *pc.Online {
	o, _ := pc.NewOnline(2, eta, pc.TieMistake)
	return o
}

func cheatOnline(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {
	o := learner(eta)
	for i, x := range X {
		o.Step(x, y[i])
	}
	return o.W, o.B, o.Mistakes
}

func main() { fmt.Println() }
`

func TestCheckerRefusesThePackage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(cheatMain), 0o644); err != nil {
		t.Fatal(err)
	}
	// Outside GoNB the checker has no source to read and the cheat passes:
	// this is what the refusal below is measured against.
	t.Setenv("GONB_TMP_DIR", "")
	expectVerdict(t, "cheat, no source", true, func() bool { return CheckOnline(cheatOnline) })
	t.Setenv("GONB_TMP_DIR", dir)
	expectVerdict(t, "cheat", false, func() bool { return CheckOnline(cheatOnline) },
		"FAILED: Exercise 1 (OnlinePerceptron): write it with a loop, not perceptron.Online.Step")
	// A loop that only mentions the data set type passes.
	loop := "package main\n\nimport \"github.com/perceptron-go/lessons/perceptron\"\n\nfunc cheatOnline(X [][]float64, y []float64, eta float64) ([]float64, float64, int) {\n\tvar d *perceptron.Dataset\n\t_ = d\n\treturn nil, 0, 0\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := packageCall(cheatOnline); got != "" || err != nil {
		t.Errorf("packageCall of a function that names only perceptron.Dataset = %q, %v; want \"\" and no error", got, err)
	}
}

// TestCheckChoice: every question's right letter, taken from its worked
// answer in the lesson (an independent source: "The answer is (c)" in the
// markdown cell after the check cell), passes with its explanation; every
// other letter fails with its own; the explanations and answers are not in
// the package's source in plain text.
func TestCheckChoice(t *testing.T) {
	right := workedAnswers(t)
	if len(right) != len(choices) {
		t.Errorf("worked answers found for %v; want one for each of the %d questions", right, len(choices))
	}
	src, err := os.ReadFile("questions.go")
	if err != nil {
		t.Fatal(err)
	}
	for id, q := range choices {
		letter := right[id]
		expectVerdict(t, id+" right", true, func() bool { return CheckChoice(id, strings.ToUpper(letter)) }, "PASSED: "+q.title+": right: ")
		for a := range q.why {
			why := unseal(id, a, q.why[a])
			if len(why) < 20 || strings.Contains(string(src), why[:20]) || !utf8.ValidString(why) {
				t.Errorf("%s (%s): explanation %q unreadable, or in questions.go in plain text", id, a, why)
			}
			if a != letter {
				expectVerdict(t, id+" wrong "+a, false, func() bool { return CheckChoice(id, a) }, "FAILED: "+q.title+": wrong: ("+a+") "+why)
			}
		}
		expectVerdict(t, id+" empty", false, func() bool { return CheckChoice(id, " ") }, "NOT DONE: "+q.title)
		expectVerdict(t, id+" unknown", false, func() bool { return CheckChoice(id, "z") }, "is not one of the choices")
	}
}

// workedAnswers reads the lessons' right letters: for each check cell
// exercises.CheckChoice("id", …), the letter of "The answer is (x)" in the
// worked answer that follows it.
func workedAnswers(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../../*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`exercises\.CheckChoice\("([^"]+)"`)
	answer := regexp.MustCompile(`The answer is \(([a-z])\)`)
	out := map[string]string{}
	for _, path := range paths {
		nbk, err := notebook.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range nbk.Cells {
			m := call.FindStringSubmatch(c.Source)
			if m == nil {
				continue
			}
			for _, next := range nbk.Cells[i+1:] {
				if a := answer.FindStringSubmatch(next.Source); a != nil {
					out[m[1]] = a[1]
					break
				}
			}
		}
	}
	return out
}

// TestCheckBoundByHand: the answer worked out on paper (R = √10,
// γ = 1/√5, bound 50; by hand, independently of perceptron.Bound, which
// the check takes its values from) passes, and so does it rounded to the
// three digits the lesson says are enough (3.16, 0.447 and 3.16²/0.447² =
// 49.97); 3.2 for √10 (1% off) fails; R measured on x (3) and γ taken as
// the raw line's margin over |w| (1) fail with their hints. The data's
// best θ* has b* ≠ 0, so that the raw margin is not the theorem's γ.
func TestCheckBoundByHand(t *testing.T) {
	b, err := perceptron.Bound(BoundByHandData(), perceptron.Options{})
	if err != nil || b.Target.B == 0 {
		t.Fatalf("the bound-by-hand data's θ* = %+v (%v): its b* must not be 0", b.Target, err)
	}
	if !(math.Abs(b.R-math.Sqrt(10)) <= 1e-12) || !(math.Abs(b.Gamma*math.Sqrt(5)-1) <= 1e-9) || !(math.Abs(b.Bound-50) <= 1e-6) {
		t.Errorf("perceptron.Bound gives R = %v, γ = %v, bound %v; by hand √10, 1/√5, 50", b.R, b.Gamma, b.Bound)
	}
	expectVerdict(t, "by hand", true, func() bool { return CheckBoundByHand(math.Sqrt(10), 1/math.Sqrt(5), 50) }, "all 3 cases passed")
	expectVerdict(t, "three digits", true, func() bool { return CheckBoundByHand(3.16, 0.447, 50) }, "all 3 cases passed")
	expectVerdict(t, "three digits, bound from them", true, func() bool { return CheckBoundByHand(3.16, 0.447, 3.16*3.16/(0.447*0.447)) }, "all 3 cases passed")
	expectVerdict(t, "two digits", false, func() bool { return CheckBoundByHand(3.2, 0.447, 50) },
		"FAILED: Question (lesson 5): R, γ and the bound by hand: R = max ||[1, x_i]|| (within 0.5%): expected 3.1622776601683795, got 3.2")
	expectVerdict(t, "R on x", false, func() bool { return CheckBoundByHand(3, 0.447, 45) }, "hint: R is measured on the augmented points")
	expectVerdict(t, "γ of the raw line", false, func() bool { return CheckBoundByHand(math.Sqrt(10), 1, 10) }, "hint: 1 is the distance of the line x = 2")
	expectVerdict(t, "γ of another unit θ", false, func() bool { return CheckBoundByHand(math.Sqrt(10), 0.3, 111) }, "hint: the points y_i [1, x_i] are [1, 3] and [−1, −1]")
	expectVerdict(t, "empty", false, func() bool { return CheckBoundByHand(0, 0, 0) }, "NOT DONE")
}
