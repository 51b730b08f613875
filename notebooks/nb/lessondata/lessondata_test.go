package lessondata

import (
	"fmt"
	"go/build"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestImportsOnlyPerceptron: the package's reason to exist is that a cell
// using it links no plotting and no notebook machinery.
func TestImportsOnlyPerceptron(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if strings.Contains(imp, ".") && imp != "github.com/perceptron-go/lessons/perceptron" {
			t.Errorf("lessondata imports %s; it may import only the standard library and perceptron", imp)
		}
	}
}

// TestBankData: every applicant is labelled by the lesson's own rule, on the
// columns the lesson names, and both labels occur.
func TestBankData(t *testing.T) {
	for _, tc := range []struct {
		name string
		data func() (*perceptron.Dataset, error)
		rule perceptron.Hyperplane
		n, d int
	}{
		{"Lesson01Data", Lesson01Data, Lesson01Rule(), 15, 2},
		{"Lesson02Data", Lesson02Data, Lesson02Rule(), 20, 1},
	} {
		d, err := tc.data()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d.N() != tc.n || d.D() != tc.d || len(d.Features) != tc.d {
			t.Errorf("%s: %d x %d with features %q, want %d x %d", tc.name, d.N(), d.D(), d.Features, tc.n, tc.d)
		}
		seen := map[float64]bool{}
		for i := range d.N() {
			want, err := tc.rule.Predict(d.Row(i))
			if err != nil || d.Y[i] != want {
				t.Errorf("%s: row %d labelled %v, the rule says %v (%v)", tc.name, i, d.Y[i], want, err)
			}
			seen[d.Y[i]] = true
		}
		if !seen[-1] || !seen[1] {
			t.Errorf("%s: labels %v, want both classes", tc.name, seen)
		}
	}
}

// TestCumulativeMistakes: the counts never fall, grow by at most one per
// point, and end at the mistakes of the package's own online run.
func TestCumulativeMistakes(t *testing.T) {
	d, _, err := perceptron.NoisyData(200, 2, 0, 0.1, 3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CumulativeMistakes(d)
	if err != nil {
		t.Fatal(err)
	}
	o, err := perceptron.NewOnline(d.D(), 1, perceptron.TieMistake)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.N() {
		if _, err := o.Step(d.Row(i), d.Y[i]); err != nil {
			t.Fatal(err)
		}
		prev := 0.0
		if i > 0 {
			prev = got[i-1]
		}
		if step := got[i] - prev; step != 0 && step != 1 {
			t.Fatalf("point %d: the count moved by %v", i, step)
		}
	}
	if got[len(got)-1] != float64(o.Mistakes) || o.Mistakes == 0 {
		t.Errorf("last count %v, the online run made %d mistakes", got[len(got)-1], o.Mistakes)
	}
}

// TestAtThreshold: the rescaled rule has threshold t, the same predictions
// everywhere (a positive multiple of (w, b)), and b >= 0 or t <= 0 is an
// error.
func TestAtThreshold(t *testing.T) {
	h := perceptron.Hyperplane{W: []float64{0.05, -0.1}, B: -1.1}
	g, err := AtThreshold(h, 2.5)
	if err != nil {
		t.Fatal(err)
	}
	if g.B != -2.5 {
		t.Errorf("b = %v, want -2.5", g.B)
	}
	for _, x := range [][]float64{{0, 0}, {30, 2}, {60, 3}, {10, 40}, {22, 0}} {
		a, _ := h.Predict(x)
		b, _ := g.Predict(x)
		if a != b {
			t.Errorf("x = %v: h predicts %v, the rescaled rule %v", x, a, b)
		}
	}
	if slices.Equal(g.W, h.W) {
		t.Error("the weights did not change")
	}
	for _, bad := range []struct {
		b, t float64
	}{{1.1, 2.5}, {0, 2.5}, {-1.1, 0}, {-1.1, -1}} {
		if _, err := AtThreshold(perceptron.Hyperplane{W: []float64{1}, B: bad.b}, bad.t); err == nil {
			t.Errorf("b = %v, t = %v: no error", bad.b, bad.t)
		}
	}
}

// TestEtaParting: on iris, the η = 1 and η = 0.1 runs with a random cycle,
// seed 7, part after 7 shared updates because the η = 1 line passes, in
// exact arithmetic, through the setosa at (4.8, 1.9) (w = (−2.8, 7.6),
// b = −1: −13.44 + 14.44 − 1 = 0), and rounding leaves its score at
// −1.78e-15, a correct side; η = 0.1 goes on to 12 updates. Over 4 orders,
// 3 rates and seeds 1..200 (2400 pairs of runs), 9 part, every one where a
// score is within rounding of 0 (relative 1e-15), and η = 0.5, a power of 2,
// scales every number exactly and never parts.
func TestEtaParting(t *testing.T) {
	iris, err := IrisData()
	if err != nil {
		t.Fatal(err)
	}
	p, err := EtaParting(iris, perceptron.Options{Order: perceptron.RandomCycle, Seed: 7}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Parted || p.Shared != 7 || p.Row != 24 || p.Score != -1.7763568394002505e-15 || p.One.Updates != 7 || p.Other.Updates != 12 || !p.One.Converged || !p.Other.Converged {
		t.Errorf("random cycle, seed 7: %+v, updates %d and %d; want parted after 7 shared at row 24, score -1.776e-15, 7 and 12 updates", p, p.One.Updates, p.Other.Updates)
	}
	if x := iris.Row(24); !slices.Equal(x, []float64{4.8, 1.9}) || iris.Y[24] != -1 || !slices.Equal(p.One.W, []float64{-2.8, 7.599999999999999}) || p.One.B != -1 {
		t.Errorf("row 24 = %v (y %v), η = 1 ends at w %v, b %v; want (4.8, 1.9) setosa, w (-2.8, 7.6 rounded down), b -1", x, iris.Y[24], p.One.W, p.One.B)
	}
	parted := map[float64]int{}
	for _, order := range []perceptron.Order{perceptron.InOrder, perceptron.RandomCycle, perceptron.Shuffle, perceptron.RandomMistake} {
		for _, eta := range []float64{0.1, 0.5, 3} {
			for seed := uint64(1); seed <= 200; seed++ {
				p, err := EtaParting(iris, perceptron.Options{Order: order, Seed: seed}, eta)
				if err != nil {
					t.Fatal(err)
				}
				if p.Parted {
					parted[eta]++
					if !(p.Relative <= 1e-15) {
						t.Errorf("%v, η = %g, seed %d: parted with the nearest score %v (relative %v), not at rounding level", order, eta, seed, p.Score, p.Relative)
					}
				} else if p.One.Updates != p.Other.Updates {
					t.Errorf("%v, η = %g, seed %d: did not part, yet %d and %d updates", order, eta, seed, p.One.Updates, p.Other.Updates)
				}
			}
		}
	}
	if parted[0.1] != 8 || parted[0.5] != 0 || parted[3] != 1 {
		t.Errorf("pairs that part by η: %v; want 0.1: 8, 0.5: 0, 3: 1", parted)
	}
}

// TestEtaPartingSame: two runs that cannot part (η = 1 twice) share every
// update.
func TestEtaPartingSame(t *testing.T) {
	iris, err := IrisData()
	if err != nil {
		t.Fatal(err)
	}
	p, err := EtaParting(iris, perceptron.Options{}, 1)
	if err != nil || p.Parted || p.Shared != 10 || p.Row != -1 {
		t.Errorf("η = 1 against itself: %+v, %v; want 10 shared updates, not parted", p, err)
	}
}

// TestRecencyErrors holds lesson 3's measurement of the online
// perceptron's recency bias: the same 50 flipped labels cost the final
// weights 2.2% errors when they come early in the stream and 15.9% when
// they come late.
func TestRecencyErrors(t *testing.T) {
	early, late, err := RecencyErrors(20)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.4f %.4f", early, late); got != "0.0224 0.1591" {
		t.Errorf("early, late = %s; want 0.0224 0.1591", got)
	}
}
