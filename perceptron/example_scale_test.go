package perceptron_test

import (
	"fmt"

	"github.com/perceptron-go/lessons/perceptron"
)

// ExampleScaler standardises the credit applicants on the training set,
// trains the pocket algorithm there and reads the learned score card back
// in the original units, at the bank's threshold of 2.5.
func ExampleScaler() {
	d, rule, err := perceptron.CreditApplicants(1000, 0.05, 1)
	if err != nil {
		panic(err)
	}
	train, test, err := perceptron.TrainTestSplit(d, 0.25, 1)
	if err != nil {
		panic(err)
	}
	sc, err := perceptron.FitScaler(train)
	if err != nil {
		panic(err)
	}
	z, _ := sc.Transform(train)
	zTest, _ := sc.Transform(test)
	opt := perceptron.Options{}
	opt.MaxEpochs = 50
	res, err := perceptron.Pocket(z, opt)
	if err != nil {
		panic(err)
	}
	e, _ := res.ErrorRate(zTest)
	raw, _ := sc.Unscale(res.Hyperplane)
	c := rule.B / raw.B // rescale to the rule's threshold
	fmt.Printf("test error %.3f\n", e)
	fmt.Printf("learned: %.3f·age + %.3f·salary + %.3f·years %+.3f·debt > %.1f\n", c*raw.W[0], c*raw.W[1], c*raw.W[2], c*raw.W[3], -c*raw.B)
	fmt.Printf("hidden:  %.3f·age + %.3f·salary + %.3f·years %+.3f·debt > %.1f\n", rule.W[0], rule.W[1], rule.W[2], rule.W[3], -rule.B)
	// Output:
	// test error 0.084
	// learned: 0.022·age + 0.045·salary + 0.110·years -0.109·debt > 2.5
	// hidden:  0.020·age + 0.050·salary + 0.100·years -0.100·debt > 2.5
}
