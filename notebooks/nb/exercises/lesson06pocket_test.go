package exercises

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// pocketVariant is lesson 6's PocketPLA with switches for typical mistakes.
func pocketVariant(strict, tieIsMistake, bias bool) PocketFunc {
	return pocketFrom(strict, tieIsMistake, bias, -1)
}

// pocketFrom is pocketVariant whose pocket starts with the error count
// start instead of the errors of w = 0 (start < 0).
func pocketFrom(strict, tieIsMistake, bias bool, start int) PocketFunc {
	return func(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int) {
		errorsOf := func(w []float64, b float64) int {
			e := 0
			for i, x := range X {
				s := b
				for j := range x {
					s += w[j] * x[j]
				}
				if y[i]*s < 0 || (tieIsMistake && y[i]*s == 0) {
					e++
				}
			}
			return e
		}
		w, b := make([]float64, len(X[0])), 0.0
		pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w)}, errorsOf(w, b)
		if start >= 0 {
			pocketErrors = start
		}
		for epoch := 0; epoch < maxEpochs; epoch++ {
			clean := true
			for i, x := range X {
				if m := y[i] * (b + dot(w, x)); m > 0 || tieSkipped(!tieIsMistake, m, w, b) {
					continue
				}
				clean = false
				for j := range w {
					w[j] += eta * y[i] * x[j]
				}
				if bias {
					b += eta * y[i]
				}
				if e := errorsOf(w, b); e < pocketErrors || (!strict && e == pocketErrors) {
					pocket, pocketErrors = perceptron.Hyperplane{W: slices.Clone(w), B: b}, e
				}
			}
			if clean {
				break
			}
		}
		return pocket, perceptron.Hyperplane{W: w, B: b}, pocketErrors
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

func TestCheckPocketPLA(t *testing.T) {
	wrong := map[string]PocketFunc{
		"< 0 instead of <= 0":     pocketVariant(true, false, true),
		"no bias update":          pocketVariant(true, true, false),
		"pockets ties (<= not <)": pocketVariant(false, true, true),
		"the pocket keeps w only": func(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
			pocket, last, e := pocketVariant(true, true, true)(X, y, eta, maxEpochs)
			return perceptron.Hyperplane{W: pocket.W}, last, e
		},
		"< 0, the first update forced": func(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
			forceFirst = true
			defer func() { forceFirst = false }()
			return pocketVariant(true, false, true)(X, y, eta, maxEpochs)
		},
	}
	expectChecker(t, CheckPocketPLA, pocketVariant(true, true, true), wrong, func([][]float64, []float64, float64, int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
		panic("not implemented: write PocketPLA")
	})
}

// TestPocketStartCannotMatter: a pocket that starts with 2^30 errors
// instead of the errors of w = 0 gives the same answers, on the checker's
// cases and on 50 random data sets, because it cannot differ: with ties
// counted as mistakes w = 0 misclassifies all N points, and the first
// update from w = 0 classifies its own point right (y·η(||x||² + 1) > 0),
// so it makes at most N − 1 errors and replaces w = 0 whichever the start.
// No check case can tell the two apart (review B's item 4b is not a
// checker defect).
func TestPocketStartCannotMatter(t *testing.T) {
	big := pocketFrom(true, true, true, 1<<30)
	expectVerdict(t, "start at 2^30", true, func() bool { return CheckPocketPLA(big) }, "all 16 cases passed")
	for seed := uint64(1); seed <= 50; seed++ {
		d, _, err := perceptron.NoisyData(20, 2, 0, 0.2, seed)
		if err != nil {
			t.Fatal(err)
		}
		want, err := perceptron.Pocket(d, perceptron.Options{MaxEpochs: 3})
		if err != nil {
			t.Fatal(err)
		}
		if want.History[0].Errors >= d.N() {
			t.Errorf("seed %d: the first update makes %d errors of %d", seed, want.History[0].Errors, d.N())
		}
		pocket, _, errs := big(d.Rows(), d.Y, 1, 3)
		if errs != want.PocketErrors || !slices.Equal(pocket.W, want.W) || pocket.B != want.B {
			t.Errorf("seed %d: start at 2^30 gives %v, %d errors; the package %v, %d", seed, pocket, errs, want.Hyperplane, want.PocketErrors)
		}
	}
}

// The cheats below pass every case by calling the package; the checkers
// must refuse them when they can read the notebook's program.
func cheatPocket(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
	d, _ := perceptron.NewDataset(X, y)
	r, _ := perceptron.Pocket(d, perceptron.Options{MaxEpochs: maxEpochs, Eta: eta})
	return r.Hyperplane, r.Last, r.PocketErrors
}

func cheatVoted(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
	d, _ := perceptron.NewDataset(X, y)
	v, _ := perceptron.Voted(d, perceptron.Options{MaxEpochs: epochs, Eta: eta})
	a, _ := perceptron.Averaged(d, perceptron.Options{MaxEpochs: epochs, Eta: eta})
	return v.Vectors, v.Counts, a.Explicit
}

func cheatGD(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
	d, _ := perceptron.NewDataset(X, y)
	r, _ := perceptron.GradientDescent(d, perceptron.GDOptions{Eta: eta, Steps: maxSteps, NoBias: true})
	var path [][]float64
	for _, h := range r.Path {
		path = append(path, h.W)
	}
	return path
}

func cheatDual(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
	d, _ := perceptron.NewDataset(X, y)
	m, _ := perceptron.KernelPerceptron(d, perceptron.LinearKernel{}, perceptron.Options{MaxEpochs: maxEpochs, Eta: eta})
	return m.Alpha, m.B
}

// cheatsMain is what GoNB would write to $GONB_TMP_DIR/main.go for a
// notebook holding the cheats (the pocket's through a helper), and a
// correct pocket that only builds Hyperplane literals.
const cheatsMain = `package main

import "github.com/perceptron-go/lessons/perceptron"

func learn(d *perceptron.Dataset) *perceptron.PocketResult {
	r, _ := perceptron.Pocket(d, perceptron.Options{})
	return r
}

func cheatPocket(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
	d, _ := perceptron.NewDataset(X, y)
	r := learn(d)
	return r.Hyperplane, r.Last, r.PocketErrors
}

func cheatVoted(X [][]float64, y []float64, eta float64, epochs int) ([]perceptron.Hyperplane, []int, perceptron.Hyperplane) {
	v, _ := perceptron.Voted(nil, perceptron.Options{})
	return v.Vectors, v.Counts, perceptron.Hyperplane{}
}

func cheatGD(X [][]float64, y []float64, eta float64, maxSteps int) [][]float64 {
	r, _ := perceptron.GradientDescent(nil, perceptron.GDOptions{})
	return [][]float64{r.W}
}

func cheatDual(X [][]float64, y []float64, eta float64, maxEpochs int) ([]int, float64) {
	m, _ := perceptron.KernelPerceptron(nil, perceptron.LinearKernel{}, perceptron.Options{})
	return m.Alpha, m.B
}

func loopPocket(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
	return perceptron.Hyperplane{W: make([]float64, len(X[0]))}, perceptron.Hyperplane{}, len(X)
}
`

func loopPocket(X [][]float64, y []float64, eta float64, maxEpochs int) (perceptron.Hyperplane, perceptron.Hyperplane, int) {
	return pocketVariant(true, true, true)(X, y, eta, maxEpochs)
}

func TestAlgorithmCheckersRefuseThePackage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(cheatsMain), 0o644); err != nil {
		t.Fatal(err)
	}
	expectRefusal(t, dir, "pocket", func() bool { return CheckPocketPLA(cheatPocket) }, "FAILED: Exercise 1 (PocketPLA): write it with a loop, not perceptron.NewDataset")
	expectRefusal(t, dir, "voted", func() bool { return CheckVotedAveraged(cheatVoted) }, "FAILED: Exercise 1 (VotedAveraged): write it with a loop, not perceptron.Voted")
	expectRefusal(t, dir, "gradient descent", func() bool { return CheckBatchGD(cheatGD) }, "FAILED: Exercise 2 (BatchGD): write it with a loop, not perceptron.GradientDescent")
	expectRefusal(t, dir, "dual", func() bool { return CheckDualPLA(cheatDual) }, "FAILED: Exercise 1 (DualPLA): write it with a loop, not perceptron.KernelPerceptron")
	// A loop whose only mention of the package is the Hyperplane it returns passes.
	t.Setenv("GONB_TMP_DIR", dir)
	expectVerdict(t, "pocket loop", true, func() bool { return CheckPocketPLA(loopPocket) }, "all 16 cases passed")
}
