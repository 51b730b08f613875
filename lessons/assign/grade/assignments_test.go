package grade

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/generate"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// signFlips are the deliberately wrong solutions of the real assignments:
// one edit in one function of the solution notebook (old -> new, first
// occurrence in the function's body) and the tests it must fail, reasoned
// from the tests' code.
var signFlips = map[string][]struct {
	fn, old, new string
	wantFailed   []string
}{
	"hw1_hyperplanes": {
		{"SignedDistance", "return score / math.Sqrt(norm)", "return -score / math.Sqrt(norm)",
			[]string{"TestMargin", "TestMarginIris", "TestMarginMore", "TestSignedDistance", "TestSignedDistanceMore"}}, // Margin calls SignedDistance
		{"ThetaPredict", "return 1", "return -1", []string{"TestThetaPredict", "TestThetaPredictMore"}},
	},
	"hw2_pla": {
		// A score of 0 taken for a correct answer: every run from w = 0
		// changes, but TestEpochMore and TestBatchPLAMore (from w0 ≠ 0 on
		// random data, no exact tie) and TestBatchPLASeparatingStart (no
		// score of 0) still pass.
		{"PLAStep", "if y*score > 0 {", "if y*score >= 0 {",
			[]string{"TestBatchPLA", "TestBatchPLAIris", "TestBatchPLANotSeparable", "TestBatchPLAXOR", "TestEpoch", "TestPLAStep", "TestPLAStepMore"}},
		// Updates counted down: only the tests that check Updates after an
		// update fail.
		{"BatchPLA", "run.Updates += n", "run.Updates -= n", []string{"TestBatchPLA", "TestBatchPLAIris", "TestBatchPLAMore"}},
	},
	"hw3_mistake_bound": {
		{"Radius", "r2 = math.Max(r2, s)", "r2 = math.Min(r2, s)", []string{"TestRadius", "TestRadiusMore"}},
		{"FirstViolation", "align[t] < align[t-1]+eta*gamma-slack", "align[t] > align[t-1]+eta*gamma-slack",
			[]string{"TestFirstViolation", "TestFirstViolationIris", "TestFirstViolationMore", "TestFirstViolationTampered"}},
	},
	"hw4_pocket_voted_averaged": {
		{"VotedPredict", "vote += float64(counts[k]) * sign(score)", "vote -= float64(counts[k]) * sign(score)",
			[]string{"TestVotedPredict", "TestVotedPredictMore", "TestVotedPredictNewPoints", "TestVotedPredictNoisy"}},
		{"AveragedPLA", "w[j] -= u[j] / S", "w[j] += u[j] / S", []string{"TestAveragedPLA", "TestAveragedPLAIris", "TestAveragedPLAMore"}},
	},
	"hw5_dual_kernel": {
		{"KernelPredict", "s += float64(a) * y[i] * k(X[i], x)", "s -= float64(a) * y[i] * k(X[i], x)",
			[]string{"TestKernelPredict", "TestKernelPredictMore"}},
		// TestDualPerceptronMore still passes: with the public variant's
		// data its run ends with b = 0 and the same alpha either way.
		{"DualPerceptron", "b += y[i]", "b -= y[i]", []string{"TestDualPerceptron", "TestDualPerceptronCircles",
			"TestDualPerceptronIris", "TestDualPerceptronRBF", "TestDualPerceptronXOR"}},
	},
}

// TestAssignments checks every assignment in lessons/ (each folder with a
// source.ipynb): the committed student and solution notebooks are up to
// date with the source; every test has points and every student function
// is used by a test; the solution scores full marks; the untouched student
// notebook compiles and scores zero; deliberately wrong solutions lose
// exactly the points of the tests they fail, and only tests that use the
// wrong function; a compile error in one function costs exactly the tests
// that use it; an endless loop is cut off within the time limit.
func TestAssignments(t *testing.T) {
	dirs, err := assignment.Dirs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no lessons/*/source.ipynb")
	}
	g := newGrader(t, *honestTimeout)
	lg := newGrader(t, *loopTimeout)
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			// Two assignments at a time (go test -parallel): one compiles
			// while the other waits for its endless loops to be cut off.
			t.Parallel()
			a := assigntest.Load(t, dir)
			if got := strings.TrimSpace(a.Source.Cells[0].Source); got != assignment.SetupCell {
				t.Errorf("cell 0 of the source is not the standard setup cell:\n%s", got)
			}
			for _, p := range generate.Check(a) {
				t.Errorf("%s\n(run: go run ./lessons/assign generate %s)", p, filepath.Join("lessons", name))
			}
			funcs := studentFuncs(a)
			for _, tf := range a.Tests {
				if tf.Points <= 0 {
					t.Errorf("%s has %v points", tf.Name, tf.Points)
				}
			}
			hidden := 0
			for _, tf := range a.Tests {
				if tf.Hidden {
					hidden++
				}
			}
			if hidden == 0 || hidden == len(a.Tests) {
				t.Errorf("%d hidden tests of %d: want some of each", hidden, len(a.Tests))
			}
			for _, fn := range funcs {
				if len(testsUsing(a, fn)) == 0 {
					t.Errorf("no test uses the student function %s", fn)
				}
			}

			t.Run("solution", func(t *testing.T) {
				checkFullMarks(t, a, grade(t, g, a, "solution.ipynb", repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))))
			})
			t.Run("student", func(t *testing.T) {
				checkUntouched(t, a, grade(t, g, a, "student.ipynb", repo.ReadNotebook(t, filepath.Join(dir, "student.ipynb"))))
			})
			for _, e := range signFlips[name] {
				t.Run("wrong "+e.fn, func(t *testing.T) {
					nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
					replaceInFunc(t, nb, e.fn, e.old, e.new)
					rep := grade(t, g, a, "solution.ipynb with "+e.old+" -> "+e.new+" in "+e.fn, nb)
					checkWrong(t, a, rep, e.fn, e.wantFailed)
				})
			}
			// Each function in turn returns zero values: some tests that
			// use it must fail and no other test.
			for i, fn := range funcs {
				if testing.Short() && i > 0 {
					break
				}
				t.Run("zero "+fn, func(t *testing.T) {
					nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
					zeroFunc(t, nb, fn)
					checkWrong(t, a, grade(t, g, a, "solution.ipynb with "+fn+" returning zero values", nb), fn, nil)
				})
			}
			// The endless loop goes in the function fewest tests use, to
			// keep the wait short.
			loop := slices.MinFunc(funcs, func(x, y string) int { return len(testsUsing(a, x)) - len(testsUsing(a, y)) })
			// A compile error in the function most tests use (the
			// hardest case to isolate): only those tests lose points.
			most := slices.MaxFunc(funcs, func(x, y string) int { return len(testsUsing(a, x)) - len(testsUsing(a, y)) })
			t.Run("compile error in "+most, func(t *testing.T) {
				nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
				breakFunc(t, nb, most)
				rep := grade(t, g, a, "solution.ipynb with a compile error in "+most, nb)
				checkStubbed(t, a, rep, map[string]string{most: "declared and not used: notUsedByGrader"}, nil)
			})
			t.Run("endless loop in "+loop, func(t *testing.T) {
				nb := repo.ReadNotebook(t, filepath.Join(dir, "solution.ipynb"))
				loopFunc(t, nb, loop)
				checkLoop(t, a, grade(t, lg, a, "solution.ipynb with an endless loop in "+loop, nb), loop, *loopTimeout)
			})
		})
	}
}
