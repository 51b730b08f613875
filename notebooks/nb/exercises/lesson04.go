package exercises

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/perceptron-go/lessons/perceptron"
)

// CheckMisclassified checks lesson 4's Exercise 2: Misclassified(w, b, X,
// y) returns, in increasing order, the rows i with y_i(w·x_i + b) ≤ 0: the
// mistakes that the random-mistake rule picks from, and that a clean pass
// leaves empty.
func CheckMisclassified(misclassified func(w []float64, b float64, X [][]float64, y []float64) []int) bool {
	return runLoop("Exercise 2 (Misclassified)", misclassified, func(c *checker) {
		d := must(perceptron.Iris().Binary(0, 1, 0, 2))
		after1, final := must(perceptron.PLA(d, perceptron.Options{MaxEpochs: 1})), must(perceptron.PLA(d, perceptron.Options{}))
		for _, tc := range []struct {
			what string
			h    perceptron.Hyperplane
			d    *perceptron.Dataset
		}{
			{"3 hand-made points, w = [1 0], b = 0 (one score is 0)", perceptron.Hyperplane{W: []float64{1, 0}}, handMade3()},
			{"iris, w = 0, b = 0 (every score is 0)", perceptron.Hyperplane{W: []float64{0, 0}}, d},
			{"iris, after PLA's first epoch", after1.Hyperplane, d},
			{"iris, after PLA converged", final.Hyperplane, d},
		} {
			want := []int{}
			for i := range tc.d.N() {
				if s, _ := tc.h.Score(tc.d.Row(i)); tc.d.Y[i]*s <= 0 {
					want = append(want, i)
				}
			}
			c.equal(tc.what, want, misclassified(tc.h.W, tc.h.B, tc.d.Rows(), tc.d.Y))
		}
	})
}

// fourPoints is the separable fixture of the algorithm checkers (lessons 6
// to 9): two points of each class in the plane.
func fourPoints() *perceptron.Dataset {
	return must(perceptron.NewDataset([][]float64{{1, 1}, {-1, 0}, {0, -1}, {2, 0}}, []float64{1, -1, -1, 1}))
}

// handMade3 is three points of the plane, one of them on the boundary
// w = [1 0], b = 0.
func handMade3() *perceptron.Dataset {
	return must(perceptron.NewDataset([][]float64{{1, 1}, {0, 2}, {-1, 0}}, []float64{-1, 1, -1}))
}

// CheckDisagreement checks lesson 4's Exercise 3:
// EstimateDisagreement(f, g, n, seed) estimates P[f(x) ≠ g(x)] for x
// uniform on the square [-1, 1]² from n points drawn with
// rand.New(rand.NewPCG(seed, 0)) (any seeded draw will do). It compares the
// estimate with the exact value of perceptron.Disagreement, allowing 5
// standard errors sqrt(p(1−p)/n), and checks that the same seed gives the
// same estimate and that f against itself gives 0. The estimate may ask f
// and g for their predictions (f.Predict, f.Score): the exercise is the
// experiment, not the sign; calling perceptron.Disagreement fails.
func CheckDisagreement(estimate func(f, g perceptron.Hyperplane, n int, seed uint64) float64) bool {
	return runLoop("Exercise 3 (EstimateDisagreement)", estimate, func(c *checker) {
		rng := c.random()
		line := func() perceptron.Hyperplane {
			// Through two random points of the square, as in LFD.
			x1, y1, x2, y2 := 2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1, 2*rng.Float64()-1
			return perceptron.Hyperplane{W: []float64{y2 - y1, x1 - x2}, B: x2*y1 - x1*y2}
		}
		pairs := [][2]perceptron.Hyperplane{
			{{W: []float64{1, 0}}, {W: []float64{0, 1}}},          // quadrants: exactly 1/2
			{{W: []float64{1, 0}, B: -0.5}, {W: []float64{1, 0}}}, // a strip: 1/4
			{line(), line()}, {line(), line()},
		}
		const n = 100000
		for k, fg := range pairs {
			want := must(perceptron.Disagreement(fg[0], fg[1]))
			got := estimate(fg[0], fg[1], n, rng.Uint64())
			tol := 5 * math.Sqrt(want*(1-want)/n)
			c.report(math.Abs(got-want) <= tol, fmt.Sprintf("pair %d (f: w = %.2f, b = %.2f; g: w = %.2f, b = %.2f), n = %d, within ±%.4f", k+1,
				fg[0].W, fg[0].B, fg[1].W, fg[1].B, n, tol), want, got)
		}
		f := pairs[2][0]
		seed := rng.Uint64()
		a, b := estimate(f, pairs[2][1], 1000, seed), estimate(f, pairs[2][1], 1000, seed)
		c.equal(fmt.Sprintf("the same seed twice (n = 1000, seed %d)", seed), a, b)
		c.equal("f against itself", 0.0, estimate(f, f, 1000, rng.Uint64()))
		// An estimate from n draws: a count over n (n = 10 gives tenths), and
		// from 30 seeds at n = 100 on the quadrants (p = 1/2) a spread of
		// about sqrt(p(1-p)/n) = 0.05 (within 0.4 to 1.6 times that: about 4.5
		// standard errors of a standard deviation of 30 draws either side).
		// A fixed grid that ignores n and the seed gives neither.
		tenth := estimate(pairs[0][0], pairs[0][1], 10, rng.Uint64())
		c.report(math.Abs(10*tenth-math.Round(10*tenth)) < 1e-9, "quadrants, n = 10: a count of 10 draws", "a multiple of 0.1", tenth)
		var sum, sum2 float64
		for range 30 {
			e := estimate(pairs[0][0], pairs[0][1], 100, rng.Uint64())
			sum, sum2 = sum+e, sum2+e*e
		}
		sd := math.Sqrt(math.Max(0, (sum2-sum*sum/30)/29))
		c.report(sd >= 0.02 && sd <= 0.08, "quadrants, n = 100, 30 seeds: the spread of the estimates", "a standard deviation in [0.02, 0.08]", sd)
	}, "Predict", "Score")
}

// BatchPLAFunc is the signature of lesson 4's first exercise: batch PLA in
// cyclic passes from w = 0, b = 0, returning the final weights and the
// updates made in each epoch (the last one 0 when a clean pass stopped it).
type BatchPLAFunc func(X [][]float64, y []float64, eta float64, maxEpochs int) (w []float64, b float64, perEpoch []int)

// CheckBatchPLA checks lesson 4's Exercise 1: BatchPLA(X, y, eta,
// maxEpochs) visits rows 0, 1, …, n−1 in every epoch from w = 0, b = 0,
// updates w ← w + η y_i x_i, b ← b + η y_i at each mistake
// (y_i(w·x_i + b) ≤ 0), and stops after the first epoch without a
// mistake or after maxEpochs epochs. The expected values come from
// perceptron.PLA (Result.UpdatesPerEpoch); the weights are compared within
// a relative 1e-9, the updates per epoch exactly. A function that calls
// the package fails with "write it with a loop, not perceptron.X".
func CheckBatchPLA(batchPLA BatchPLAFunc) bool {
	return runAlgorithm("Exercise 1 (BatchPLA)", batchPLA, func(rng *rand.Rand) []algoCase {
		iris := must(perceptron.Iris().Binary(0, 1, 0, 2))
		rd, reta, rmax := randomData(rng, 10+rng.IntN(30), 2, 0.1*float64(rng.IntN(2))), []float64{1, 0.5}[rng.IntN(2)], 3+rng.IntN(30)
		return []algoCase{
			{"3 hand-made points, η = 1, at most 100 epochs", handMade3(), 1, 100},
			{"iris (setosa vs versicolor), η = 1, at most 1000 epochs", iris, 1, 1000},
			{"iris, η = 1, at most 2 epochs (stopped before a clean pass)", iris, 1, 2},
			{"200 noisy points (10% flipped), η = 0.1, at most 20 epochs", drawn(perceptron.NoisyData(200, 2, 0, 0.1, 1)), 0.1, 20},
			{fmt.Sprintf("%d random integer points, η = %g, at most %d epochs", rd.N(), reta, rmax), rd, reta, rmax},
		}
	}, func(c *checker, tc algoCase) {
		res := must(perceptron.PLA(tc.d, perceptron.Options{Eta: tc.eta, MaxEpochs: tc.n}))
		w, b, perEpoch := batchPLA(tc.d.Rows(), slices.Clone(tc.d.Y), tc.eta, tc.n)
		c.equal(tc.name+": updates per epoch", res.UpdatesPerEpoch(), perEpoch)
		c.closeSlice(tc.name+": w", res.W, w, 1e-9)
		c.bias(tc.name+": b", res.B, b, 1e-9)
	})
}

// PassesBatchPLA runs CheckBatchPLA without printing and says whether
// every case passed: a later cell draws from the student's function only
// then.
func PassesBatchPLA(batchPLA BatchPLAFunc) bool {
	return quietly(func() bool { return CheckBatchPLA(batchPLA) })
}
