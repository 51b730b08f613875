package exercises

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// SGDFunc is the signature of lesson 8's Exercise 3: stochastic gradient
// descent on the perceptron loss over the augmented rows X (each starting
// with 1, so θ[0] is the bias) with labels y and step size eta, from θ = 0,
// for exactly epochs passes over the rows in order, one step
// θ ← θ − η ∇L_i(θ) per row, L_i the loss of that row alone (a score of 0
// counted as a mistake). It returns θ after every step: epochs·n vectors.
type SGDFunc func(X [][]float64, y []float64, eta float64, epochs int) (path [][]float64)

// CheckSGD checks lesson 8's Exercise 3, SGD, against PLA: from θ = 0 with
// the rows in order, SGD on the perceptron loss makes exactly PLA's
// updates (perceptron.PLA on the augmented rows with NoBias, InOrder, the
// same η and epochs). On the lesson's points on a line, iris, noisy data
// and random integer data (where scores of exactly 0 come up), it compares
// the number of steps, the θ of every update (each within 1e-9 relative:
// the same sums in the same order) and the last θ. An SGD that calls the
// package fails.
func CheckSGD(f SGDFunc) bool {
	return runAlgorithm("Exercise 3 (SGD)", f, func(rng *rand.Rand) []algoCase {
		rd := randomData(rng, 8+rng.IntN(12), 2, 0.2)
		return []algoCase{
			{"30 points on a line, η = 1/4", drawn(perceptron.SeparableData(30, 1, 0.05, 3)), 0.25, 20},
			{"iris setosa vs versicolor, η = 1", must(perceptron.Iris().Binary(0, 1, 0, 2)), 1, 8},
			{"40 noisy points, η = 0.5", drawn(perceptron.NoisyData(40, 2, 0, 0.1, 5)), 0.5, 3},
			{fmt.Sprintf("%d random integer points, η = 1", rd.N()), rd, 1, 2 + rng.IntN(5)},
		}
	}, func(c *checker, tc algoCase) {
		aug := perceptron.Augment(tc.d)
		var rec perceptron.Recorder
		opt := perceptron.Options{NoBias: true, Eta: tc.eta, MaxEpochs: tc.n}
		opt.Control.Observer = rec.Observe
		want := must(perceptron.PLA(aug, opt))
		path := f(aug.Rows(), aug.Y, tc.eta, tc.n)
		what := fmt.Sprintf("%s, %d epochs", tc.name, tc.n)
		c.equal(what+": steps (epochs × rows)", tc.n*aug.N(), len(path))
		moves, prev := [][]float64{}, make([]float64, aug.D())
		for _, theta := range path {
			if !slices.Equal(theta, prev) {
				moves = append(moves, theta)
			}
			prev = theta
		}
		first := -1 // the first update where SGD and PLA differ
		for k := range max(len(moves), len(rec.Updates)) {
			if k >= len(moves) || k >= len(rec.Updates) || !sliceClose(rec.Updates[k].W, moves[k], 1e-9) {
				first = k + 1
				break
			}
		}
		c.equal(what+": the first update that is not PLA's (0: none)", 0, max(first, 0))
		c.closeSlice(what+": θ after the last step", want.W, prev, 1e-9)
	}, "SGD's step on a row that is a mistake (y θ·x ≤ 0, a score of 0 included) is θ + η y x; on a correct row the row's loss is flat and θ stays.")
}

// sliceClose reports whether got has want's length and every element within
// tol relative of want's.
func sliceClose(want, got []float64, tol float64) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if !closeTo(want[i], got[i], tol) {
			return false
		}
	}
	return true
}

// PassesSGD runs CheckSGD without printing and says whether every case
// passed.
func PassesSGD(f SGDFunc) bool {
	return quietly(func() bool { return CheckSGD(f) })
}
