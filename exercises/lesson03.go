package exercises

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// inARow counts, on a copy of an online perceptron at (w, b) with rate eta,
// how many updates in a row (x, y) causes when presented again and again:
// the reference of CheckUpdatesInARow, measured rather than computed.
func inARow(w []float64, b float64, x []float64, y, eta float64) int {
	o, err := perceptron.NewOnline(len(w), eta, perceptron.TieMistake)
	if err != nil {
		panic(err)
	}
	copy(o.W, w)
	o.B = b
	for k := 0; ; k++ {
		mistake, err := o.Step(x, y)
		if err != nil {
			panic(err)
		}
		if !mistake {
			return k
		}
	}
}

// CheckUpdatesInARow checks lesson 3's Exercise 2: UpdatesInARow(w, b, x,
// y, eta) returns how many updates in a row the point (x, y) would cause if
// it came back again and again to a perceptron at (w, b) with rate η
// (w ← w + η y x, b ← b + η y; a score of 0 is a mistake): 0 if it is not
// a mistake now. The expected values are measured by running the updates.
func CheckUpdatesInARow(updatesInARow func(w []float64, b float64, x []float64, y, eta float64) int) bool {
	return run("Exercise 2 (UpdatesInARow)", func(c *checker) {
		type tc struct {
			w      []float64
			b      float64
			x      []float64
			y, eta float64
		}
		cases := []tc{
			{[]float64{0, 0}, 0, []float64{0.5, -0.25}, 1, 1}, // score 0 at the start
			{[]float64{1, 0}, 0, []float64{1, 0}, 1, 1},       // already right
			{[]float64{1, 0}, 0, []float64{2, 0}, -1, 1},      // y·s = -2, ||x||²+1 = 5
			{[]float64{5, 0}, 0, []float64{2, 0}, -1, 1},      // y·s = -10 = -2·5: 3 updates, not 2
			{[]float64{3, 1}, 0.5, []float64{1, 1}, -1, 0.5},  // y·s = -4.5, η(||x||²+1) = 1.5
		}
		// Points of lesson 3's separable stream against the learner after
		// the whole stream, with the wrong label.
		d, _, err := perceptron.SeparableData(500, 2, 0.05, 1)
		if err != nil {
			panic(err)
		}
		o, _ := perceptron.NewOnline(2, 1, perceptron.TieMistake)
		for i := range d.N() {
			o.Step(d.Row(i), d.Y[i])
		}
		for _, i := range []int{0, 7, 100, 499} {
			cases = append(cases, tc{slices.Clone(o.W), o.B, d.Row(i), -d.Y[i], 1})
		}
		for _, tc := range cases {
			want := inARow(tc.w, tc.b, tc.x, tc.y, tc.eta)
			got := updatesInARow(slices.Clone(tc.w), tc.b, slices.Clone(tc.x), tc.y, tc.eta)
			c.equal(fmt.Sprintf("w = %.3g, b = %.3g, x = %.3g, y = %+g, η = %g", tc.w, tc.b, tc.x, tc.y, tc.eta), want, got)
		}
	})
}

// CheckOnlineMistakes checks lesson 3's Exercise 1: OnlineMistakes(X, y,
// order) runs the online perceptron (w = 0, b = 0, η = 1, a score of 0 a
// mistake) over the rows order[0], order[1], …, each received once, and
// returns the number of mistakes it made.
func CheckOnlineMistakes(onlineMistakes func(X [][]float64, y []float64, order []int) int) bool {
	return run("Exercise 1 (OnlineMistakes)", func(c *checker) {
		d, _, err := perceptron.SeparableData(500, 2, 0.05, 1)
		if err != nil {
			panic(err)
		}
		n := d.N()
		forward, reverse := make([]int, n), make([]int, n)
		for i := range n {
			forward[i], reverse[i] = i, n-1-i
		}
		shuffled := rand.New(rand.NewPCG(3, 4)).Perm(n)
		small := []int{2, 0, 1}
		for _, tc := range []struct {
			what  string
			d     *perceptron.Dataset
			order []int
		}{
			{"3 hand-made points, order [2 0 1]", handMade(), small},
			{"lesson 3's stream, in order", d, forward},
			{"the stream reversed", d, reverse},
			{"the stream in a random order (seed 3)", d, shuffled},
			{"the first 50 points only", d, forward[:50]},
		} {
			o, _ := perceptron.NewOnline(tc.d.D(), 1, perceptron.TieMistake)
			for _, i := range tc.order {
				if _, err := o.Step(tc.d.Row(i), tc.d.Y[i]); err != nil {
					panic(err)
				}
			}
			c.equal(tc.what, o.Mistakes, onlineMistakes(tc.d.Rows(), slices.Clone(tc.d.Y), slices.Clone(tc.order)))
		}
	})
}

// handMade is three points on which the order matters.
func handMade() *perceptron.Dataset {
	d, err := perceptron.NewDataset([][]float64{{1, 1}, {-1, 0.5}, {0.5, -1}}, []float64{1, -1, 1})
	if err != nil {
		panic(err)
	}
	return d
}
