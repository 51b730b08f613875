package figures_test

import (
	"fmt"
	"testing"

	"github.com/perceptron-go/lessons/figures"
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
)

// TestLesson01Numbers holds the exact numbers lesson 1 prints, as
// regression tests (the lesson's check cells assert properties only): the
// two-feature bank's margin 2.24 k$ on its 15 applicants and MaxMargin's
// 5.88; its 1 mistake, with a negative margin, against the 15 real
// decisions; the hidden rule's 50 mistakes in 1000 with 5 % overruled.
func TestLesson01Numbers(t *testing.T) {
	bank2 := perceptron.Hyperplane{W: []float64{0.05, -0.1}, B: -1.1}
	d := figures.Must(lessondata.Lesson01Data())(t)
	gamma, _, err := bank2.DatasetMargin(d)
	if err != nil {
		t.Fatal(err)
	}
	_, best, err := perceptron.MaxMargin(d, perceptron.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.2f %.2f", gamma, best); got != "2.24 5.88" {
		t.Errorf("margins of the bank and of MaxMargin: %s; the lesson says 2.24 5.88", got)
	}
	all := figures.Drawn(perceptron.CreditApplicants(15, 0, 2))(t)
	real := &perceptron.Dataset{X: d.X, Y: all.Y}
	e := figures.Must(bank2.Errors(real))(t)
	if g, _, _ := bank2.DatasetMargin(real); e != 1 || g >= 0 {
		t.Errorf("two-feature bank on the real decisions: %d errors, margin %v; the lesson says 1 and < 0", e, g)
	}
	noisy, rule, err := perceptron.CreditApplicants(1000, 0.05, 1)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := rule.Errors(noisy); err != nil || e != 50 {
		t.Errorf("hidden rule with 5%% of 1000 decisions flipped: %d errors (%v), the lesson says 50", e, err)
	}
}
