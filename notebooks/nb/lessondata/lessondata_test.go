package lessondata

import (
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
