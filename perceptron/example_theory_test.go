package perceptron_test

import (
	"fmt"
	"log"

	"github.com/perceptron-go/lessons/perceptron"
)

// The maximum-margin separator of three points: the boundary x1 + x2 = 1
// halfway between the origin and the segment from (2, 0) to (0, 2).
func ExampleMaxMargin() {
	d, err := perceptron.NewDataset([][]float64{{0, 0}, {2, 0}, {0, 2}}, []float64{-1, 1, 1})
	if err != nil {
		log.Fatal(err)
	}
	h, gamma, err := perceptron.MaxMargin(d, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("w = [%.4f %.4f], b = %.4f, gamma = %.4f\n", h.W[0], h.W[1], h.B, gamma)
	// Output:
	// w = [0.7071 0.7071], b = -0.7071, gamma = 0.7071
}

// The convergence theorem on Iris setosa vs versicolor: PLA makes far fewer
// updates than the bound (R/γ)², and every step of the proof holds.
func ExampleBound() {
	d, err := perceptron.Iris().Binary(0, 1)
	if err != nil {
		log.Fatal(err)
	}
	br, err := perceptron.Bound(d, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	var rec perceptron.Recorder
	opt := perceptron.Options{}
	opt.Control.Observer = rec.Observe
	res, err := perceptron.PLA(d, opt)
	if err != nil {
		log.Fatal(err)
	}
	v, err := perceptron.CheckProof(rec.Updates, br.Target, br.Gamma, br.R, perceptron.Options{Eta: opt.Eta})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("R = %.4f, gamma = %.4f, bound = %.0f\n", br.R, br.Gamma, br.Bound)
	fmt.Printf("PLA: %d updates; proof violation: %v\n", res.Updates, v)
	// Output:
	// R = 9.1913, gamma = 0.7491, bound = 151
	// PLA: 5 updates; proof violation: <nil>
}

// Separable decides linear separability (a minimum-norm point on
// standardised features) and returns a certified separator.
func ExampleSeparable() {
	iris := perceptron.Iris()
	for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		d, err := iris.Binary(pair[0], pair[1])
		if err != nil {
			log.Fatal(err)
		}
		answer, err := perceptron.Separable(d, perceptron.Options{})
		ok := answer.Separable
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s vs %s: %v\n", d.Classes[0], d.Classes[1], ok)
	}
	answer, _ := perceptron.Separable(perceptron.XORData(), perceptron.Options{})
	ok := answer.Separable
	fmt.Println("XOR:", ok)
	// Output:
	// setosa vs versicolor: true
	// setosa vs virginica: true
	// versicolor vs virginica: false
	// XOR: false
}

// The dual perceptron counts mistakes per row; w is recovered from them.
func ExampleDual() {
	d, err := perceptron.NewDataset([][]float64{{1, 3}, {2, 1}, {3, 3}, {4, 2}}, []float64{1, -1, 1, -1})
	if err != nil {
		log.Fatal(err)
	}
	r, err := perceptron.Dual(d, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("alpha:", r.Alpha, "w:", r.W, "b:", r.B, "updates:", r.Updates)
	// Output:
	// alpha: [2 2 6 6] w: [-8 10] b: 0 updates: 16
}

// A kernel perceptron learns XOR, which no line separates.
func ExampleKernelPerceptron() {
	xor := perceptron.XORData()
	k, err := perceptron.ParseKernel("poly:2")
	if err != nil {
		log.Fatal(err)
	}
	m, err := perceptron.KernelPerceptron(xor, k, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	e, err := m.Errors(xor)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v: %d updates, %d training errors\n", k, m.Updates, e)
	// Output:
	// poly:2:1: 62 updates, 0 training errors
}

// One perceptron per Iris class, the class scoring highest wins.
func ExampleOneVsRest() {
	iris := perceptron.Iris()
	model, err := perceptron.OneVsRest(iris, perceptron.PLALearner(perceptron.Options{}))
	if err != nil {
		log.Fatal(err)
	}
	rate, err := model.ErrorRate(iris)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("classes %v training error %.4f\n", model.Classes, rate)
	// Output:
	// classes [setosa versicolor virginica] training error 0.3333
}
