package exercises

import (
	"fmt"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron"
)

// DualFunc is the signature of lesson 9's algorithm exercise: the dual
// perceptron on the rows X with labels y and learning rate eta, at most
// maxEpochs cyclic passes (stopping after a pass without a mistake). It
// returns the mistake counts α and the bias b.
type DualFunc func(X [][]float64, y []float64, eta float64, maxEpochs int) (alpha []int, b float64)

// CheckDualPLA checks lesson 9's algorithm exercise, DualPLA, against
// perceptron.Dual on four points, on iris with η = 1 and with η = 0.1 (its
// b = −0.2: a DualPLA that leaves η out of b or of the score gets −2), on
// noisy data with η = 0.5 (not separable: the run ends at maxEpochs) and
// on the digits 3 vs 8:
// the counts α exactly and b within 1e-9 relative. A DualPLA that calls
// the package fails.
func CheckDualPLA(f DualFunc) bool {
	return runAlgorithm("Exercise 1 (DualPLA)", f, func(rng *rand.Rand) []algoCase {
		rd, reta := randomData(rng, 10+rng.IntN(20), 2, 0.1), []float64{1, 0.5}[rng.IntN(2)]
		iris := must(perceptron.Iris().Binary(0, 1, 0, 2))
		return []algoCase{
			{"4 points", fourPoints(), 1, 100},
			{"iris setosa vs versicolor", iris, 1, 100},
			{"iris setosa vs versicolor, eta 0.1", iris, 0.1, 100},
			{"40 noisy points, eta 0.5", drawn(perceptron.NoisyData(40, 2, 0.05, 0.1, 9)), 0.5, 5},
			{"digits 3 vs 8", must(perceptron.Digits().Binary(3, 8)), 1, 100},
			{fmt.Sprintf("%d random integer points, eta %g", rd.N(), reta), rd, reta, 3 + rng.IntN(20)},
		}
	}, func(c *checker, tc algoCase) {
		want := must(perceptron.Dual(tc.d, perceptron.Options{MaxEpochs: tc.n, Eta: tc.eta}))
		alpha, b := f(tc.d.Rows(), tc.d.Y, tc.eta, tc.n)
		what := fmt.Sprintf("%s, at most %d epochs", tc.name, tc.n)
		c.equal(what+": alpha", want.Alpha, alpha)
		c.bias(what+": b", want.B, b, 1e-9)
	})
}

// PassesDualPLA runs CheckDualPLA without printing and says whether every
// case passed: a later cell draws from the student's function only then.
func PassesDualPLA(f DualFunc) bool {
	return quietly(func() bool { return CheckDualPLA(f) })
}
