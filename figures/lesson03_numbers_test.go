package figures_test

import (
	"math"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/figures"
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson03Numbers holds the exact numbers lesson 3 prints, as
// regression tests (the lesson's check cell asserts properties only): 35
// mistakes on the separable stream under a bound of 918, 130 on the noisy
// one, 20 of which would take 2 updates in a row; the animated run's 6
// mistakes and its one point left misclassified.
func TestLesson03Numbers(t *testing.T) {
	sep := figures.Drawn(perceptron.SeparableData(500, 2, 0.05, 1))(t)
	noisy := figures.Drawn(perceptron.NoisyData(500, 2, 0.05, 0.1, 1))(t)
	a := figures.Must(lessondata.CumulativeMistakes(sep))(t)
	b := figures.Must(lessondata.CumulativeMistakes(noisy))(t)
	bound := figures.Must(perceptron.Bound(sep, perceptron.Options{}))(t)
	if a[len(a)-1] != 35 || b[len(b)-1] != 130 || math.Round(bound.Bound) != 918 {
		t.Errorf("mistakes %v and %v, bound %v; the lesson says 35, 130 and 918", a[len(a)-1], b[len(b)-1], bound.Bound)
	}
	for _, tc := range []struct {
		d     *perceptron.Dataset
		twice int
	}{{sep, 0}, {noisy, 20}} {
		o, _ := perceptron.NewOnline(2, 1, perceptron.TieMistake)
		twice := 0
		for i := range tc.d.N() {
			x, y := tc.d.Row(i), tc.d.Y[i]
			c := *o
			c.W = slices.Clone(o.W)
			k := 0
			for m, _ := c.Step(x, y); m; m, _ = c.Step(x, y) {
				k++
			}
			if k == 2 {
				twice++
			}
			o.Step(x, y)
		}
		if twice != tc.twice {
			t.Errorf("%d mistakes would take 2 updates in a row; the lesson says %d", twice, tc.twice)
		}
	}
	small := figures.Drawn(perceptron.SeparableData(30, 2, 0.1, 1))(t)
	o, _ := perceptron.NewOnline(2, 1, perceptron.TieMistake)
	for i := range small.N() {
		o.Step(small.Row(i), small.Y[i])
	}
	if e, _ := o.Hyperplane().Errors(small); o.Mistakes != 6 || e != 1 {
		t.Errorf("animated run: %d mistakes, %d points misclassified at the end; the lesson says 6 and 1", o.Mistakes, e)
	}
}

// TestLesson03UpdateExample checks the example of lesson 3's update figure:
// x is a mistake of w (w·x = −0.2 ≤ 0 with y = +1) and not of w + y x
// ((w + y x)·x = 0.96), which is its score raised by ||x||² = 1.16.
func TestLesson03UpdateExample(t *testing.T) {
	u := figures.Lesson03Update
	before := u.W[0]*u.X[0] + u.W[1]*u.X[1]
	after := (u.W[0]+u.Y*u.X[0])*u.X[0] + (u.W[1]+u.Y*u.X[1])*u.X[1]
	if math.Abs(before+0.2) > 1e-12 || math.Abs(after-0.96) > 1e-12 || u.Y != 1 {
		t.Errorf("w·x = %v, (w + y x)·x = %v, y = %v; want -0.2, 0.96, +1", before, after, u.Y)
	}
	if _, err := figures.UpdateFigure(u.W, u.X, 0, "bad"); err == nil {
		t.Errorf("UpdateFigure with y = 0: no error")
	}
}

// TestLesson03EtaStreams pins what lesson 3's streams show of the learning
// rate (its check cell leaves it to this test): online, from w = 0, b = 0,
// η = 0.1 makes its mistakes on exactly the points where η = 1 makes them,
// 35 on the separable stream and 130 on the noisy one, with no score
// within rounding of 0 to part them.
func TestLesson03EtaStreams(t *testing.T) {
	sep := figures.Drawn(perceptron.SeparableData(500, 2, 0.05, 1))(t)
	noisy := figures.Drawn(perceptron.NoisyData(500, 2, 0.05, 0.1, 1))(t)
	for _, tc := range []struct {
		name     string
		d        *perceptron.Dataset
		mistakes int
	}{{"separable", sep, 35}, {"noisy", noisy, 130}} {
		one, _ := perceptron.NewOnline(2, 1, perceptron.TieMistake)
		tenth, _ := perceptron.NewOnline(2, 0.1, perceptron.TieMistake)
		for i := range tc.d.N() {
			a, err1 := one.Step(tc.d.Row(i), tc.d.Y[i])
			b, err2 := tenth.Step(tc.d.Row(i), tc.d.Y[i])
			if err1 != nil || err2 != nil || a != b {
				t.Fatalf("%s stream, point %d: mistake at η = 1 %v, at η = 0.1 %v (%v, %v)", tc.name, i, a, b, err1, err2)
			}
		}
		if one.Mistakes != tc.mistakes {
			t.Errorf("%s stream: %d mistakes, the lesson says %d", tc.name, one.Mistakes, tc.mistakes)
		}
	}
}
