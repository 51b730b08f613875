package figures

import (
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson08Numbers pins what lesson 8 quotes of its descents on the 30
// points on a line: full-batch GD (η = 1/32) reaches the zero-loss wedge
// in 3 steps, SGD (η = 1/4, seed 3) in 60, and both start at L = 0.
func TestLesson08Numbers(t *testing.T) {
	line, _, err := perceptron.SeparableData(30, 1, 0.05, 3)
	if err != nil {
		t.Fatal(err)
	}
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
