package exercises

import (
	"fmt"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron"
)

// VotedAveragedFunc is the signature of lesson 7's algorithm exercise: PLA
// on the rows X with labels y and learning rate eta, run for exactly
// epochs cyclic passes (no early stop), returning every weight vector it
// went through (w_0 = 0 first) with its survival count, and the average of
// the weights after every step.
type VotedAveragedFunc func(X [][]float64, y []float64, eta float64, epochs int) (vectors []perceptron.Hyperplane, counts []int, average perceptron.Hyperplane)

// CheckVotedAveraged checks lesson 7's algorithm exercise, VotedAveraged,
// against perceptron.Voted (its Vectors and Counts) and
// perceptron.Averaged (its explicit average) on iris, on small separable
// data and on noisy data with η = 0.5: the counts exactly, the vectors and
// the average within 1e-9 relative (a correct loop may sum in another
// order; a wrong one is off by far more). A VotedAveraged that calls the
// package fails.
func CheckVotedAveraged(f VotedAveragedFunc) bool {
	return runAlgorithm("Exercise 1 (VotedAveraged)", f, func(rng *rand.Rand) []algoCase {
		iris := must(perceptron.Iris().Binary(0, 1, 0, 2))
		rd, reta := randomData(rng, 10+rng.IntN(20), 2, 0.1), []float64{1, 0.5}[rng.IntN(2)]
		return []algoCase{
			{"4 separable points", fourPoints(), 1, 2},
			{"iris setosa vs versicolor", iris, 1, 6},
			{"30 noisy points, eta 0.5", drawn(perceptron.NoisyData(30, 2, 0.05, 0.1, 5)), 0.5, 3},
			{"iris, 9 epochs (3 more after its first clean pass: no early stop)", iris, 1, 9},
			{fmt.Sprintf("%d random integer points, eta %g", rd.N(), reta), rd, reta, 2 + rng.IntN(4)},
		}
	}, func(c *checker, tc algoCase) {
		opt := perceptron.Options{MaxEpochs: tc.n, Eta: tc.eta}
		v, a := must(perceptron.Voted(tc.d, opt)), must(perceptron.Averaged(tc.d, opt))
		vectors, counts, avg := f(tc.d.Rows(), tc.d.Y, tc.eta, tc.n)
		what := fmt.Sprintf("%s, %d epochs", tc.name, tc.n)
		c.equal(what+": survival counts", v.Counts, counts)
		c.vectors(what+": weight vectors", v.Vectors, vectors, 1e-9)
		c.closeSlice(what+": average w", a.Explicit.W, avg.W, 1e-9)
		c.bias(what+": average b", a.Explicit.B, avg.B, 1e-9)
	})
}

// flat returns [w..., b].
func flat(h perceptron.Hyperplane) []float64 {
	return append(append([]float64(nil), h.W...), h.B)
}

// vectors checks a list of hyperplanes within tol, and reports their
// number and the first that differs rather than every vector.
func (c *checker) vectors(what string, want, got []perceptron.Hyperplane, tol float64) {
	if len(want) != len(got) {
		c.report(false, what, fmt.Sprintf("%d vectors", len(want)), fmt.Sprintf("%d vectors", len(got)))
		return
	}
	for k := range want {
		w, g := flat(want[k]), flat(got[k])
		pass := len(w) == len(g)
		for j := 0; pass && j < len(w); j++ {
			pass = closeTo(w[j], g[j], tol)
		}
		if !pass {
			c.report(false, fmt.Sprintf("%s: vector %d [w b]", what, k), fmtSlice(w), fmtSlice(g))
			return
		}
	}
	c.report(true, what, fmt.Sprintf("%d vectors", len(want)), fmt.Sprintf("%d vectors, each within %g", len(got), tol))
}

// PassesVotedAveraged runs CheckVotedAveraged without printing and says whether every
// case passed: a later cell draws from the student's function only then.
func PassesVotedAveraged(f VotedAveragedFunc) bool {
	return quietly(func() bool { return CheckVotedAveraged(f) })
}
