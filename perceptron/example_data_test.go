package perceptron_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/perceptron-go/lessons/perceptron"
)

func ExampleReadCSV() {
	// The NTU homework layout: whitespace-separated, a header, labels 1/-1.
	const file = `x1 x2 x3 x4 y
0.97681 0.10723 0.64385 0.29556 1
0.67194 0.2418 0.83075 0.42741 1
0.20619 0.23321 0.81004 0.98691 -1
`
	d, err := perceptron.ReadCSV(strings.NewReader(file), perceptron.CSVOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.N(), "rows of", d.D(), "features:", d.Features)
	fmt.Println("classes -1, +1:", d.Classes)
	fmt.Println("y:", d.Y)

	// A ragged line is reported with its line number.
	_, err = perceptron.ReadCSV(strings.NewReader("x1,x2,y\n1,2,1\n3,-1\n"), perceptron.CSVOptions{})
	fmt.Println(err)
	// Output:
	// 3 rows of 4 features: [x1 x2 x3 x4]
	// classes -1, +1: [-1 1]
	// y: [1 1 -1]
	// perceptron: line 3: 2 fields, expected 3 (as on line 2)
}

func ExampleIris() {
	iris := perceptron.Iris()
	fmt.Println(iris.N(), "flowers,", iris.D(), "features, classes", iris.ClassNames)

	// Setosa (-1) against versicolor (+1) on sepal and petal length.
	d, err := iris.Binary(0, 1, 0, 2)
	if err != nil {
		log.Fatal(err)
	}
	r, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Features, d.Classes)
	fmt.Printf("%d updates, per epoch %v, w = (%.1f, %.1f), b = %.0f\n", r.Updates, r.UpdatesPerEpoch(), r.W[0], r.W[1], r.B)
	// Output:
	// 150 flowers, 4 features, classes [setosa versicolor virginica]
	// [sepal length (cm) petal length (cm)] [setosa versicolor]
	// 10 updates, per epoch [2 2 3 2 1 0], w = (-3.4, 9.1), b = -2
}

func ExampleTrainTestSplit() {
	d, err := perceptron.BreastCancer().Binary(0, 1)
	if err != nil {
		log.Fatal(err)
	}
	train, test, err := perceptron.TrainTestSplit(d, 0.25, 42)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("train:", train.N(), "test:", test.N())
	// Output:
	// train: 427 test: 142
}

func ExampleSeparableData() {
	d, target, err := perceptron.SeparableData(100, 2, 0.1, 1)
	if err != nil {
		log.Fatal(err)
	}
	margin, _, err := target.DatasetMargin(d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.N(), "points, target margin at least 0.1:", margin >= 0.1)
	r, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("PLA converged:", r.Converged)
	// Output:
	// 100 points, target margin at least 0.1: true
	// PLA converged: true
}

func ExampleDisagreement() {
	xAxis := perceptron.Hyperplane{W: []float64{0, 1}}            // sign(x2)
	yAxis := perceptron.Hyperplane{W: []float64{1, 0}}            // sign(x1)
	shifted := perceptron.Hyperplane{W: []float64{1, 0}, B: -0.5} // sign(x1 - 1/2)
	p, _ := perceptron.Disagreement(xAxis, yAxis)
	q, _ := perceptron.Disagreement(yAxis, shifted)
	fmt.Println(p, q)
	// Output:
	// 0.5 0.25
}

func ExampleCreditApplicants() {
	d, rule, err := perceptron.CreditApplicants(500, 0.1, 7)
	if err != nil {
		log.Fatal(err)
	}
	mistakes, _ := rule.Errors(d)
	fmt.Println(d.Features, d.Classes)
	fmt.Println("the bank's rule:", rule.W, rule.B)
	fmt.Println("decisions that break it:", mistakes)
	// Output:
	// [age (years) salary (k$) years in job debt (k$)] [denied approved]
	// the bank's rule: [0.02 0.05 0.1 -0.1] -2.5
	// decisions that break it: 50
}

func ExampleXORData() {
	d := perceptron.XORData()
	opt := perceptron.Options{}
	opt.MaxEpochs = 100
	r, err := perceptron.PLA(d, opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Rows(), d.Y, "converged:", r.Converged)
	// Output:
	// [[1 1] [2 2] [1 2] [2 1]] [1 1 -1 -1] converged: false
}
