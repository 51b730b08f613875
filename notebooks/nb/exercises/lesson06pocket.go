package exercises

import (
	"fmt"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron"
)

// PocketFunc is the signature of lesson 6's algorithm exercise: the pocket
// algorithm on the rows X with labels y, learning rate eta, at most
// maxEpochs cyclic passes (stopping after a pass without a mistake). It
// returns the pocket's weights, PLA's last weights and the pocket's
// training errors.
type PocketFunc func(X [][]float64, y []float64, eta float64, maxEpochs int) (pocket, last perceptron.Hyperplane, pocketErrors int)

// CheckPocketPLA checks lesson 6's algorithm exercise, PocketPLA, against
// perceptron.Pocket (same options, rows in order) on small separable data
// and on noisy data in 2-D and 3-D: the pocket's and the last weights
// within 1e-9 relative (sums of a few hundred terms of size about 1: a
// correct loop differs from the package by rounding only) and the pocket's
// errors exactly. A PocketPLA that calls the package fails.
func CheckPocketPLA(f PocketFunc) bool {
	return runAlgorithm("Exercise 1 (PocketPLA)", f, func(rng *rand.Rand) []algoCase {
		rd, reta := randomData(rng, 10+rng.IntN(30), 2, 0.15), []float64{1, 0.5}[rng.IntN(2)]
		return []algoCase{
			{"4 separable points", fourPoints(), 1, 10},
			{"100 noisy 2-D points", drawn(perceptron.NoisyData(100, 2, 0, 0.1, 2)), 1, 10}, // pocket b = 1, last b = 0
			{"60 noisy 3-D points, eta 0.5", drawn(perceptron.NoisyData(60, 3, 0.05, 0.1, 4)), 0.5, 3},
			{fmt.Sprintf("%d random integer points, eta %g", rd.N(), reta), rd, reta, 2 + rng.IntN(8)},
		}
	}, func(c *checker, tc algoCase) {
		want := must(perceptron.Pocket(tc.d, perceptron.Options{MaxEpochs: tc.n, Eta: tc.eta}))
		pocket, last, errs := f(tc.d.Rows(), tc.d.Y, tc.eta, tc.n)
		what := fmt.Sprintf("%s, %d epochs", tc.name, tc.n)
		c.closeSlice(what+": pocket w", want.W, pocket.W, 1e-9)
		c.bias(what+": pocket b", want.B, pocket.B, 1e-9)
		c.equal(what+": pocket errors", want.PocketErrors, errs)
		c.closeSlice(what+": last w", want.Last.W, last.W, 1e-9)
		c.bias(what+": last b", want.Last.B, last.B, 1e-9)
	})
}

// PassesPocketPLA runs CheckPocketPLA without printing and says whether every
// case passed: a later cell draws from the student's function only then.
func PassesPocketPLA(f PocketFunc) bool {
	return quietly(func() bool { return CheckPocketPLA(f) })
}
