package exercises

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/perceptron-go/lessons/perceptron"
)

// inARow counts, on a copy of an online perceptron at (w, b) with rate eta,
// how many updates in a row (x, y) causes when presented again and again:
// the reference of CheckUpdatesInARow, measured rather than computed.
func inARow(w []float64, b float64, x []float64, y, eta float64) int {
	o := must(perceptron.NewOnline(len(w), eta, perceptron.TieMistake))
	copy(o.W, w)
	o.B = b
	for k := 0; ; k++ {
		mistake := must(o.Step(x, y))
		if !mistake {
			return k
		}
	}
}

// CheckUpdatesInARow checks lesson 3's Exercise 3: UpdatesInARow(w, b, x,
// y, eta) returns how many updates in a row the point (x, y) would cause if
// it came back again and again to a perceptron at (w, b) with rate η
// (w ← w + η y x, b ← b + η y; a score of 0 is a mistake): 0 if it is not
// a mistake now. The expected values are measured by running the updates.
func CheckUpdatesInARow(updatesInARow func(w []float64, b float64, x []float64, y, eta float64) int) bool {
	return runLoop("Exercise 3 (UpdatesInARow)", updatesInARow, func(c *checker) {
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
		d := drawn(perceptron.SeparableData(500, 2, 0.05, 1))
		o, _ := perceptron.NewOnline(2, 1, perceptron.TieMistake)
		for i := range d.N() {
			o.Step(d.Row(i), d.Y[i])
		}
		for _, i := range []int{0, 7, 100, 499} {
			cases = append(cases, tc{slices.Clone(o.W), o.B, d.Row(i), -d.Y[i], 1})
		}
		// Random: integer w, b ≠ 0, x and η = 1 or 1/2, so that every score
		// is exact and a whole ratio (the slip of a ceiling) comes up.
		rng := c.random()
		for range 4 {
			d := 1 + rng.IntN(3)
			cases = append(cases, tc{ints(rng, d, -6, 6), nonZero(rng, -6, 6), ints(rng, d, -2, 2), float64(2*rng.IntN(2) - 1), []float64{1, 0.5}[rng.IntN(2)]})
		}
		for _, tc := range cases {
			want := inARow(tc.w, tc.b, tc.x, tc.y, tc.eta)
			got := updatesInARow(slices.Clone(tc.w), tc.b, slices.Clone(tc.x), tc.y, tc.eta)
			c.equal(fmt.Sprintf("w = %.3g, b = %.3g, x = %.3g, y = %+g, η = %g", tc.w, tc.b, tc.x, tc.y, tc.eta), want, got)
		}
		// About 10⁹ updates: a formula answers at once, a simulation of the
		// updates does not within a second. y·s = −2·k0 and η(||x||²+1) = 2
		// exactly, so the answer is k0 + 1 (a whole ratio).
		k0 := 1_000_000_000 + rng.IntN(1_000_000)
		w := []float64{-2 * float64(k0), 0}
		what := fmt.Sprintf("w = %.0f, b = 0, x = [1 0], y = +1, η = 1 (about 10⁹ updates: count them with a formula)", w)
		if got, ok := within(time.Second, func() int { return updatesInARow(w, 0, []float64{1, 0}, 1, 1) }); ok {
			c.equal(what, k0+1, got)
		} else {
			c.report(false, what, k0+1, "no answer within 1 s (a simulation of the updates?)")
		}
	})
}

// within runs f and returns its result if it returns within d, and false
// otherwise (f goes on in the background until the program ends; a panic
// of f is passed on to the caller, as if f had been called directly).
func within(d time.Duration, f func() int) (int, bool) {
	type result struct {
		v     int
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: r}
			}
		}()
		done <- result{v: f()}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		return r.v, true
	case <-time.After(d):
		return 0, false
	}
}

// CheckOnlineMistakes checks lesson 3's Exercise 2: OnlineMistakes(X, y,
// order) runs the online perceptron (w = 0, b = 0, η = 1, a score of 0 a
// mistake) over the rows order[0], order[1], …, each received once, and
// returns the number of mistakes it made.
func CheckOnlineMistakes(onlineMistakes func(X [][]float64, y []float64, order []int) int) bool {
	return runLoop("Exercise 2 (OnlineMistakes)", onlineMistakes, func(c *checker) {
		d := drawn(perceptron.SeparableData(500, 2, 0.05, 1))
		n := d.N()
		forward, reverse := make([]int, n), make([]int, n)
		for i := range n {
			forward[i], reverse[i] = i, n-1-i
		}
		shuffled := rand.New(rand.NewPCG(3, 4)).Perm(n)
		small := []int{2, 0, 1}
		rng := c.random()
		rd := randomData(rng, 20+rng.IntN(20), 2, 0.1)
		rorder := rng.Perm(rd.N())[:rd.N()-rng.IntN(5)]
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
			{"random integer points, in a random order", rd, rorder},
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
	return must(perceptron.NewDataset([][]float64{{1, 1}, {-1, 0.5}, {0.5, -1}}, []float64{1, -1, 1}))
}

// OnlineFunc is the signature of lesson 3's first exercise: the online
// perceptron run once over the rows of X in order, from w = 0, b = 0, with
// rate eta, returning the final weights and the number of mistakes.
type OnlineFunc func(X [][]float64, y []float64, eta float64) (w []float64, b float64, mistakes int)

// CheckOnline checks lesson 3's Exercise 1: OnlinePerceptron(X, y, eta)
// receives the rows of X in order, each once, starting from w = 0, b = 0;
// a point with y·(w·x + b) <= 0 is a mistake and updates w ← w + η y x,
// b ← b + η y. The expected values come from perceptron.Online; the weights
// are compared within a relative 1e-9 (a loop that adds in another order
// rounds differently), the mistakes exactly. A function that calls the
// package fails with "write it with a loop, not perceptron.X".
func CheckOnline(online OnlineFunc) bool {
	return runLoop("Exercise 1 (OnlinePerceptron)", online, func(c *checker) {
		sep := drawn(perceptron.SeparableData(500, 2, 0.05, 1))
		noisy := drawn(perceptron.NoisyData(500, 2, 0.05, 0.1, 1))
		head := sep.Rows()[:50]
		rng := c.random()
		rd, reta := randomData(rng, 20+rng.IntN(20), 2, 0.1), []float64{1, 0.5}[rng.IntN(2)]
		for _, tc := range []struct {
			what string
			X    [][]float64
			y    []float64
			eta  float64
		}{
			{"3 hand-made points, η = 1", handMade().Rows(), handMade().Y, 1},
			{"the first 50 points of lesson 3's stream, η = 1", head, sep.Y[:50], 1},
			{"lesson 3's separable stream (500 points), η = 1", sep.Rows(), sep.Y, 1},
			{"the noisy stream (10% of labels flipped), η = 0.1", noisy.Rows(), noisy.Y, 0.1},
			{fmt.Sprintf("%d random integer points (scores of 0 after updates), η = %g", rd.N(), reta), rd.Rows(), rd.Y, reta},
		} {
			o := must(perceptron.NewOnline(len(tc.X[0]), tc.eta, perceptron.TieMistake))
			for i, x := range tc.X {
				if _, err := o.Step(x, tc.y[i]); err != nil {
					panic(err)
				}
			}
			w, b, mistakes := online(clone2(tc.X), slices.Clone(tc.y), tc.eta)
			c.equal(tc.what+": mistakes", o.Mistakes, mistakes)
			c.closeSlice(tc.what+": w", o.W, w, 1e-9)
			c.bias(tc.what+": b", o.B, b, 1e-9)
		}
	})
}

// PassesOnline runs CheckOnline without printing and says whether every
// case passed: a later cell draws from the student's function only then.
func PassesOnline(online OnlineFunc) bool {
	return quietly(func() bool { return CheckOnline(online) })
}

// clone2 copies a matrix, so that a function that writes into its input
// cannot change the expected values.
func clone2(X [][]float64) [][]float64 {
	out := make([][]float64, len(X))
	for i, row := range X {
		out[i] = slices.Clone(row)
	}
	return out
}
