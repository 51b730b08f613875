package exercises

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The tests fix the seed of the checkers' random cases, so that they are
// reproducible (TestReferencesPassOnManySeeds draws others).
func init() { SetSeed(1) }

// capture runs f with Out redirected and returns what it printed.
func capture(t *testing.T, f func()) string {
	t.Helper()
	var b strings.Builder
	old := Out
	Out = &b
	defer func() { Out = old }()
	f()
	return b.String()
}

// TestRunReportsEveryCase: the verdict comes first, then the failing
// cases with their expected values, then the passing ones by name only
// (their expected values would give a hard-coded answer away).
func TestRunReportsEveryCase(t *testing.T) {
	var ok bool
	tenth := 0.1 // a variable, so that 0.1 + 0.2 is rounded at run time
	got := capture(t, func() {
		ok = run("Exercise 0 (Demo)", func(c *checker) {
			c.equal("n = 2", 4, 4)
			c.close("x = 0.1", 0.3, tenth+0.2, 1e-12)
			c.closeSlice("w", []float64{1, 2}, []float64{1, 2.5}, 1e-12)
		})
	})
	want := "FAILED: Exercise 0 (Demo): 1 of 3 cases failed\n" +
		"FAILED: Exercise 0 (Demo): w: expected [1 2], got [1 2.5]\n" +
		"passed: Exercise 0 (Demo): n = 2\n" +
		"passed: Exercise 0 (Demo): x = 0.1\n"
	if ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = false and\n%s", ok, got, want)
	}
}

func TestRunReportsAPanicAsNotDone(t *testing.T) {
	var ok bool
	got := capture(t, func() {
		ok = run("Exercise 0 (Demo)", func(c *checker) {
			c.equal("n = 1", 1, 1)
			panic("not implemented")
		})
	})
	if want := "NOT DONE: Exercise 0 (Demo): your function panicked: not implemented\npassed: Exercise 0 (Demo): n = 1\n"; ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = false and\n%s", ok, got, want)
	}
	got = capture(t, func() { ok = run("Exercise 0 (Demo)", func(c *checker) { c.equal("n = 1", 1, 1) }) })
	if want := "PASSED: Exercise 0 (Demo): all 1 cases passed\npassed: Exercise 0 (Demo): n = 1\n"; !ok || got != want {
		t.Errorf("ok = %v, printed\n%s\nwant ok = true and\n%s", ok, got, want)
	}
	got = capture(t, func() { ok = run("Exercise 0 (Demo)", func(c *checker) {}) })
	if ok || !strings.HasPrefix(got, "FAILED: Exercise 0 (Demo): the check ran no case") {
		t.Errorf("a check without cases: ok = %v, printed %q", ok, got)
	}
}

// TestRandomCasesPrintTheirSeed: a check that draws cases names its seed,
// and SetSeed draws the same cases again.
func TestRandomCasesPrintTheirSeed(t *testing.T) {
	defer SetSeed(nextSeed)
	draw := func() (float64, string) {
		var x float64
		out := capture(t, func() {
			run("Exercise 0 (Demo)", func(c *checker) {
				x = c.random().Float64()
				c.equal("x", 1, 2)
			})
		})
		return x, out
	}
	SetSeed(41)
	x1, out := draw()
	if !strings.HasPrefix(out, "FAILED: Exercise 0 (Demo): 1 of 1 cases failed (random cases: seed 41, exercises.SetSeed(41) draws them again)\n") {
		t.Errorf("printed\n%s\nwant the seed in the verdict", out)
	}
	x2, _ := draw()
	SetSeed(42)
	x3, _ := draw()
	if x1 != x2 || x1 == x3 {
		t.Errorf("seed 41 drew %v then %v, seed 42 %v: want the same draw for the same seed only", x1, x2, x3)
	}
}

// TestReportHTML: the HTML report starts with the verdict, coloured by
// it, shows the failing cases before the passing ones and escapes text.
func TestReportHTML(t *testing.T) {
	c := &checker{name: "Exercise 0 (<Demo>)"}
	c.equal("a < b", 1, 2)
	c.equal("ok", 1, 1)
	head, failing, hints, passing := c.lines(failed, "1 of 2 cases failed")
	h := reportHTML(failed, head, failing, hints, passing)
	iv, ifail, ipass := strings.Index(h, "FAILED: Exercise 0 (&lt;Demo&gt;): 1 of 2"), strings.Index(h, "a &lt; b: expected 1, got 2"), strings.Index(h, "passed: Exercise 0")
	if iv < 0 || ifail < iv || ipass < ifail || !strings.Contains(h, colours[failed][1]) || strings.Contains(h, "<Demo>") {
		t.Errorf("HTML report out of order, uncoloured or unescaped:\n%s", h)
	}
}

func TestCloseRejectsNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	if closeTo(1, nan, 1e-9) || closeTo(1, inf, 1e-9) || !closeTo(2, 2+1e-12, 1e-9) {
		t.Error("closeTo: NaN or Inf accepted, or a near value refused")
	}
}

// TestReferencesPassOnManySeeds: the reference solutions pass every
// random draw, on 30 seeds (what a student's right answer meets on each
// run), and a function that knows only the fixed cases' answers fails.
func TestReferencesPassOnManySeeds(t *testing.T) {
	defer SetSeed(nextSeed)
	for seed := uint64(1); seed <= 30; seed++ {
		SetSeed(seed)
		for name, check := range map[string]func() bool{
			"Predict":          func() bool { return CheckPredict(PredictSolution) },
			"OnlinePerceptron": func() bool { return CheckOnline(onlineRef(false, false)) },
			"BatchPLA":         func() bool { return CheckBatchPLA(batchRef(false, false, false)) },
			"PocketPLA":        func() bool { return CheckPocketPLA(pocketVariant(true, true, true)) },
			"VotedAveraged":    func() bool { return CheckVotedAveraged(votedVariant(false, true, true)) },
			"BatchGD":          func() bool { return CheckBatchGD(batchGDVariant(false, false, false)) },
			"DualPLA":          func() bool { return CheckDualPLA(dualVariant(false, true, true)) },
		} {
			expectVerdict(t, fmt.Sprintf("%s, seed %d", name, seed), true, check, "cases passed (random cases: seed "+fmt.Sprint(seed)+")")
		}
	}
	SetSeed(1)
	known := map[string]float64{}
	for _, tc := range lesson01Cases {
		known[fmt.Sprint(tc.w, tc.b, tc.x)] = PredictSolution(tc.w, tc.b, tc.x)
	}
	table := func(w []float64, b float64, x []float64) float64 { return known[fmt.Sprint(w, b, x)] }
	expectVerdict(t, "a table of the fixed cases' answers", false, func() bool { return CheckPredict(table) }, "FAILED: Exercise 1 (Predict): w = ")
}
