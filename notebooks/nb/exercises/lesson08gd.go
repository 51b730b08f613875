package exercises

import (
	"fmt"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron"
)

// BatchGDFunc is the signature of lesson 8's algorithm exercise:
// full-batch gradient descent on the perceptron loss, on augmented rows X
// (each starting with 1, so θ[0] is the bias) with labels y and step size
// eta, from θ = 0, for at most maxSteps steps, stopping as soon as the
// gradient is 0. It returns the path: θ at the start and after every step.
type BatchGDFunc func(X [][]float64, y []float64, eta float64, maxSteps int) (path [][]float64)

// CheckBatchGD checks lesson 8's algorithm exercise, BatchGD, against
// perceptron.GradientDescent (NoBias on the augmented rows: the same
// descent) on the lesson's 30 points on a line, on iris, on XOR and on four
// points where a pass of PLA would end elsewhere: the number of steps
// exactly, and every point of the path within 1e-9 relative (sums of at
// most a few hundred terms; a wrong step is off by far more). Three cases
// are about the limit: iris stopped by it before its gradient is 0, iris
// with a limit of exactly the steps it needs, and iris versicolor against
// virginica, whose gradient is never 0, so that a loop that runs one step
// too many or too few fails. A BatchGD that calls the package fails.
func CheckBatchGD(f BatchGDFunc) bool {
	return runAlgorithm("Exercise 2 (BatchGD)", f, func(rng *rand.Rand) []algoCase {
		rd := randomData(rng, 10+rng.IntN(20), 2, 0.1)
		return []algoCase{
			{"4 points, where a PLA pass ends elsewhere", fourPoints(), 0.5, 20},
			{"30 points on a line", drawn(perceptron.SeparableData(30, 1, 0.05, 3)), 1.0 / 32, 100},
			{"iris setosa vs versicolor", must(perceptron.Iris().Binary(0, 1, 0, 2)), 1, 40},
			{"iris setosa vs versicolor, stopped by the limit after 4 of the 6 steps it needs", must(perceptron.Iris().Binary(0, 1, 0, 2)), 1, 4},
			{"iris setosa vs versicolor, a limit of exactly the 6 steps it needs", must(perceptron.Iris().Binary(0, 1, 0, 2)), 1, 6},
			{"iris versicolor vs virginica, whose gradient is never 0: the limit ends the run", must(perceptron.Iris().Binary(1, 2, 0, 2)), 1, 15},
			{"XOR, which no line separates", perceptron.XORData(), 1, 10},
			{"4 points where a score of 0 comes up after the first step", tieAfterFirstStep(), 1, 20},
			{fmt.Sprintf("%d random integer points", rd.N()), rd, []float64{1, 0.5}[rng.IntN(2)], 5 + rng.IntN(20)},
		}
	}, func(c *checker, tc algoCase) {
		aug := perceptron.Augment(tc.d)
		want := must(perceptron.GradientDescent(aug, perceptron.GDOptions{Eta: tc.eta, Steps: tc.n, NoBias: true}))
		wantPath := make([]perceptron.Hyperplane, len(want.Path))
		for k, h := range want.Path {
			wantPath[k] = perceptron.Hyperplane{W: h.W}
		}
		path := f(aug.Rows(), aug.Y, tc.eta, tc.n)
		gotPath := make([]perceptron.Hyperplane, len(path))
		for k, theta := range path {
			gotPath[k] = perceptron.Hyperplane{W: theta}
		}
		what := fmt.Sprintf("%s, η = %v, at most %d steps", tc.name, tc.eta, tc.n)
		c.equal(what+": steps", want.Steps, len(path)-1)
		c.vectors(what+": path θ_0, θ_1, ...", wantPath, gotPath, 1e-9)
	})
}

// tieAfterFirstStep is four points on which θ_1 = Σ y_i x_i scores a point
// exactly 0: a descent that counts only y·s < 0 as a mistake (and forces
// its first step from θ = 0) stops there, one step early.
func tieAfterFirstStep() *perceptron.Dataset {
	return must(perceptron.NewDataset([][]float64{{3, -2}, {-3, 0}, {-3, 3}, {0, 0}}, []float64{-1, 1, 1, -1}))
}

// PassesBatchGD runs CheckBatchGD without printing and says whether every
// case passed: a later cell draws from the student's function only then.
func PassesBatchGD(f BatchGDFunc) bool {
	return quietly(func() bool { return CheckBatchGD(f) })
}
