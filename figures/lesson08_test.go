package figures

import (
	"math"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson08Numbers pins what lesson 8 quotes of its descents on the 30
// points on a line: full-batch GD (η = 1/32) reaches the zero-loss wedge
// in 3 steps, SGD (η = 1/4, seed 3) in 60, and both start at L = 0.
func TestLesson08Numbers(t *testing.T) {
	line := Drawn(perceptron.SeparableData(30, 1, 0.05, 3))(t)
	d := perceptron.Augment(line)
	gd, err1 := perceptron.GradientDescent(d, perceptron.GDOptions{Eta: 1.0 / 32, Steps: 100, NoBias: true})
	sgd, err2 := perceptron.SGD(d, perceptron.GDOptions{Eta: 1.0 / 4, Steps: 2000, Seed: 3, NoBias: true})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !gd.Converged || gd.Steps != 3 || !sgd.Converged || sgd.Steps != 60 || gd.Losses[0] != 0 || sgd.Losses[0] != 0 {
		t.Errorf("GD: converged %v in %d steps; SGD: converged %v in %d; first losses %v, %v; want 3 and 60 steps from L = 0",
			gd.Converged, gd.Steps, sgd.Converged, sgd.Steps, gd.Losses[0], sgd.Losses[0])
	}
}

// TestLesson08EtaTenth pins lesson 8's η = 0.1 on iris (setosa vs
// versicolor, sepal and petal length), which its check cell asserts only
// as "parts from η = 1 at a score within rounding of 0, if at all": the
// two runs do not part, make the updates [2 2 3 2 1 0], and 0.1 times the
// weights of η = 1 are the weights of η = 0.1 up to one rounding of each
// of about 10 terms.
func TestLesson08EtaTenth(t *testing.T) {
	iris := Must(perceptron.Iris().Binary(0, 1, 0, 2))(t)
	p := Must(lessondata.EtaParting(iris, perceptron.Options{}, 0.1))(t)
	one, r := p.One, p.Other
	tol := 1e-14 * 0.1 * (1 + math.Abs(one.B) + math.Abs(one.W[0]) + math.Abs(one.W[1]))
	if p.Parted || !slices.Equal(r.UpdatesPerEpoch(), []int{2, 2, 3, 2, 1, 0}) || !slices.Equal(one.UpdatesPerEpoch(), r.UpdatesPerEpoch()) ||
		math.Abs(r.B-0.1*one.B) > tol || math.Abs(r.W[0]-0.1*one.W[0]) > tol || math.Abs(r.W[1]-0.1*one.W[1]) > tol {
		t.Errorf("η = 0.1: parted %v, updates %v, w = %v, b = %v; want [2 2 3 2 1 0] and 0.1 times w = %v, b = %v (tolerance %v)",
			p.Parted, r.UpdatesPerEpoch(), r.W, r.B, one.W, one.B, tol)
	}
}
