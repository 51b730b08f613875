package figures_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/figures"
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson04Numbers holds the exact numbers lesson 4 prints, as
// regression tests (the lesson's own check cell asserts properties only,
// so that a student's experiment never turns it red): iris's 10 updates in
// 6 epochs; the LFD experiment's medians, means and spread; the pick
// rules' ratio of mean updates and their P[f != g] over seeds 1 to 8, and
// the spread over those seeds of the means, the medians and P[f != g]; the
// budget curves' plateau.
func TestLesson04Numbers(t *testing.T) {
	res := figures.Must(perceptron.PLA(mustIris(t), perceptron.Options{}))(t)
	if want := []int{2, 2, 3, 2, 1, 0}; res.Updates != 10 || res.Epochs != 6 || !slices.Equal(res.UpdatesPerEpoch(), want) || !res.Converged {
		t.Errorf("iris: %d updates, %d epochs %v, converged %v; want 10, 6 %v, true", res.Updates, res.Epochs, res.UpdatesPerEpoch(), res.Converged, want)
	}
	p := map[int]float64{}
	for _, tc := range []struct{ n, median, medianMistake int }{{10, 7, 7}, {100, 58, 63}} {
		for _, order := range []perceptron.Order{perceptron.InOrder, perceptron.RandomMistake} {
			s := lfd(t, tc.n, order, 1)
			u := slices.Sorted(slices.Values(s.Updates))
			want := map[perceptron.Order]int{perceptron.InOrder: tc.median, perceptron.RandomMistake: tc.medianMistake}[order]
			lo, hi := 0.5*float64(tc.n), 2*float64(tc.n)
			if s.NotConverged != 0 || s.MeanUpdates < lo || s.MeanUpdates > hi || u[len(u)/2] != want || math.Abs(s.MeanDisagreement-1/float64(tc.n)) > 0.5/float64(tc.n) {
				t.Errorf("N=%d %v: %d not converged, mean %.1f, median %d (want %d), P %.4f", tc.n, order, s.NotConverged, s.MeanUpdates, u[len(u)/2], want, s.MeanDisagreement)
			}
			if prev, ok := p[tc.n]; ok && math.Abs(prev-s.MeanDisagreement) > 0.0005 {
				t.Errorf("N=%d: mean P %.4f and %.4f for the two rules, want within 0.0005", tc.n, prev, s.MeanDisagreement)
			}
			p[tc.n] = s.MeanDisagreement
		}
	}
	if r := p[10] / p[100]; r < 7 || r > 9 {
		t.Errorf("P[f != g] at N = 10 over N = 100: %.2f, want 7..9", r)
	}
	var ratios []float64
	gap := 0.0 // the largest |P[f != g]| difference between the two rules
	// The spread over seeds 1-8 that the lesson quotes, for N = 10 and
	// N = 100: the mean updates of each rule, the medians and the mean
	// P[f != g] of both rules.
	seedSpread := map[int]map[string][]float64{10: {}, 100: {}}
	for seed := uint64(1); seed <= 8; seed++ {
		for _, n := range []int{10, 100} {
			c, m := lfd(t, n, perceptron.InOrder, seed), lfd(t, n, perceptron.RandomMistake, seed)
			gap = max(gap, math.Abs(c.MeanDisagreement-m.MeanDisagreement))
			if n == 100 {
				ratios = append(ratios, c.MeanUpdates/m.MeanUpdates)
			}
			sp := seedSpread[n]
			sp["in order"] = append(sp["in order"], c.MeanUpdates)
			sp["mistake"] = append(sp["mistake"], m.MeanUpdates)
			for _, s := range []perceptron.LFDSummary{c, m} {
				sp["medians"] = append(sp["medians"], float64(slices.Sorted(slices.Values(s.Updates))[len(s.Updates)/2]))
				sp["P"] = append(sp["P"], s.MeanDisagreement)
			}
		}
	}
	if got, want := fmt.Sprintf("%.2f", ratios), "[1.02 1.30 1.33 1.30 1.26 1.55 1.19 1.15]"; got != want || gap > 0.005 {
		t.Errorf("N = 100, seeds 1-8: cyclic over random-mistake mean updates %s, want %s; P[f != g] of the two rules %.4f apart, want within 0.005", got, want, gap)
	}
	var quoted []string
	for _, n := range []int{10, 100} {
		sp, pf := seedSpread[n], map[int]string{10: "%.3f-%.3f", 100: "%.4f-%.4f"}[n]
		quoted = append(quoted, fmt.Sprintf("N = %d: in order %.1f-%.1f, mistake %.1f-%.1f, medians %.0f-%.0f, P "+pf, n,
			slices.Min(sp["in order"]), slices.Max(sp["in order"]), slices.Min(sp["mistake"]), slices.Max(sp["mistake"]),
			slices.Min(sp["medians"]), slices.Max(sp["medians"]), slices.Min(sp["P"]), slices.Max(sp["P"])))
	}
	if got, want := strings.Join(quoted, "; "), "N = 10: in order 11.0-13.7, mistake 9.8-10.7, medians 6-7, P 0.101-0.109; "+
		"N = 100: in order 107.6-166.9, mistake 96.1-120.1, medians 55-63, P 0.0129-0.0143"; got != want {
		t.Errorf("seeds 1-8, lowest-highest:\n got %s\nwant %s (the numbers lesson 4 quotes)", got, want)
	}
	c, m := lfd(t, 100, perceptron.InOrder, 1), lfd(t, 100, perceptron.RandomMistake, 1)
	far, spread := 0, false
	for k := range c.Updates {
		a, b := float64(c.Updates[k]), float64(m.Updates[k])
		if a > 10*b || b > 10*a {
			far++
		}
		spread = spread || min(a, b) <= 20 && max(a, b) >= 200
	}
	if far != 14 || !spread {
		t.Errorf("%d of 1000 data sets beyond a factor 10 (the lesson says 14); 20 against 200: %v", far, spread)
	}
	train, test, err := figures.Lesson04BudgetCurves(20)
	if err != nil {
		t.Fatal(err)
	}
	for k, budget := range figures.Lesson04Budgets {
		if budget >= 20 && (train[k] < 0.22 || train[k] > 0.32 || test[k] < 0.22 || test[k] > 0.32) || math.Abs(test[k]-train[k]) > 0.05 {
			t.Errorf("budget %d: training error %.3f, test error %.3f (the lesson says both wander around 0.27)", budget, train[k], test[k])
		}
	}
}

func mustIris(t *testing.T) *perceptron.Dataset {
	t.Helper()
	d := figures.Must(lessondata.IrisData())(t)
	return d
}

func lfd(t *testing.T, n int, order perceptron.Order, seed uint64) perceptron.LFDSummary {
	t.Helper()
	s := figures.Must(perceptron.LFDExperiment(1000, n, order, seed))(t)
	return s
}

// TestLesson04EpochCurves holds lesson 4's table of epoch limits: in 2-D
// the last iterate's training and test errors wander together near 0.25;
// with 50 features and 100 training points more epochs drive the training
// error to 0.001 while the test error stays near 0.35 (overfitting), and
// one epoch leaves both high (underfitting).
func TestLesson04EpochCurves(t *testing.T) {
	for _, tc := range []struct {
		dim         int
		train, test string
	}{
		{2, "[0.2550 0.2485 0.2390 0.2690 0.2475 0.2700 0.2680 0.2650]", "[0.2725 0.2615 0.2440 0.2745 0.2435 0.2705 0.2845 0.2775]"},
		{50, "[0.2035 0.1445 0.1050 0.0800 0.0470 0.0140 0.0045 0.0010]", "[0.3525 0.3455 0.3380 0.3370 0.3410 0.3480 0.3495 0.3490]"},
	} {
		train, test, err := figures.Lesson04EpochCurves(20, tc.dim)
		if err != nil {
			t.Fatal(err)
		}
		if got, gotTest := fmt.Sprintf("%.4f", train), fmt.Sprintf("%.4f", test); got != tc.train || gotTest != tc.test {
			t.Errorf("d = %d: training %s, test %s; want %s, %s", tc.dim, got, gotTest, tc.train, tc.test)
		}
	}
}

// TestLesson04Target pins lesson 4's figure of one LFD run (N = 10, seed
// 3): PLA makes 3 updates and P[f ≠ g] = 0.142, the grey area over 4.
func TestLesson04Target(t *testing.T) {
	_, prob, err := figures.TargetVsLearned(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	d, f, err := perceptron.LFDDataBothClasses(10, 3)
	if err != nil {
		t.Fatal(err)
	}
	res := figures.Must(perceptron.PLA(d, perceptron.Options{}))(t)
	want := figures.Must(perceptron.Disagreement(f, res.Hyperplane))(t)
	if got := fmt.Sprintf("%.3f %d", prob, res.Updates); got != "0.142 3" || prob != want {
		t.Errorf("P[f != g], updates = %s (Disagreement %v); want 0.142 3", got, want)
	}
}
