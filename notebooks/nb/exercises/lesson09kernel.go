package exercises

import (
	"fmt"

	"github.com/perceptron-go/lessons/perceptron"
)

// KernelPLAFunc is the signature of lesson 9's Exercise 4: the kernel
// perceptron on the rows X with labels y and the kernel k, with η = 1, at
// most maxEpochs cyclic passes (stopping after a pass without a mistake).
// Its score of row j is f(x_j) = Σ_i α_i y_i k(x_i, x_j) + b, a mistake
// when y_j f(x_j) ≤ 0; an update adds 1 to α_j and y_j to b. It returns
// the counts α and the bias b.
type KernelPLAFunc func(X [][]float64, y []float64, k func(x, z []float64) float64, maxEpochs int) (alpha []int, b float64)

// CheckKernelPLA checks lesson 9's Exercise 4, KernelPLA, against
// perceptron.KernelPerceptron (η = 1, the same epochs) on XOR with the
// kernel (x·z + 1)², the two circles with the RBF kernel, iris with the
// linear kernel, and random integer points with a polynomial kernel
// (where scores of exactly 0 come up): the counts α exactly and b within
// 1e-9 relative. A KernelPLA that calls the package fails (the kernel it
// is given is a function value, so it needs none).
func CheckKernelPLA(f KernelPLAFunc) bool {
	return runLoop("Exercise 4 (KernelPLA)", f, func(c *checker) {
		circles := must(perceptron.Circles(100, 0.05, 1))
		iris := must(perceptron.Iris().Binary(0, 1, 0, 2))
		rng := c.random()
		rd := randomData(rng, 8+rng.IntN(12), 2, 0.2)
		rk := perceptron.PolyKernel{Degree: 1 + rng.IntN(3), C: float64(rng.IntN(3))}
		for _, tc := range []struct {
			name      string
			d         *perceptron.Dataset
			k         perceptron.Kernel
			maxEpochs int
		}{
			{"XOR, (x·z + 1)²", perceptron.XORData(), perceptron.PolyKernel{Degree: 2, C: 1}, 100},
			{"XOR, linear kernel (never converges)", perceptron.XORData(), perceptron.LinearKernel{}, 7},
			{"two circles, RBF γ = 2", circles, perceptron.RBFKernel{Gamma: 2}, 100},
			{"iris setosa vs versicolor, linear kernel", iris, perceptron.LinearKernel{}, 100},
			{fmt.Sprintf("%d random integer points, (x·z + %g)^%d", rd.N(), rk.C, rk.Degree), rd, rk, 2 + rng.IntN(10)},
		} {
			want := must(perceptron.KernelPerceptron(tc.d, tc.k, perceptron.Options{MaxEpochs: tc.maxEpochs}))
			alpha, b := f(tc.d.Rows(), tc.d.Y, tc.k.Eval, tc.maxEpochs)
			what := fmt.Sprintf("%s, at most %d epochs", tc.name, tc.maxEpochs)
			c.equal(what+": alpha", want.Alpha, alpha)
			c.bias(what+": b", want.B, b, 1e-9)
		}
		c.note("score row j with Σ_i α_i y_i k(x_i, x_j) + b, using the α and b as they are at that moment; a score of 0 is a mistake.")
	})
}

// PassesKernelPLA runs CheckKernelPLA without printing and says whether
// every case passed: a later cell draws from the student's function only
// then.
func PassesKernelPLA(f KernelPLAFunc) bool {
	return quietly(func() bool { return CheckKernelPLA(f) })
}
