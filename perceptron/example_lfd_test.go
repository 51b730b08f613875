package perceptron_test

import (
	"fmt"

	"github.com/perceptron-go/lessons/perceptron"
)

// The experiment of Learning From Data, exercise 1.4: 1000 random target
// lines, 10 points each, PLA picking a random misclassified point.
func ExampleLFDExperiment() {
	s, err := perceptron.LFDExperiment(1000, 10, perceptron.RandomMistake, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean updates %.1f, mean P[f != g] %.3f, not converged %d\n",
		s.MeanUpdates, s.MeanDisagreement, s.NotConverged)
	// Output:
	// mean updates 10.6, mean P[f != g] 0.105, not converged 0
}
