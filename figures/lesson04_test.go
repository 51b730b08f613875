package figures

import (
	"testing"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TestLesson04Explore checks the captions of the η and order explorer: on
// iris, cyclic PLA makes 10 updates in 6 epochs and ends at w = (-3.4,
// 9.1), b = -2 (lessons 0 and 4, and scikit-learn's Perceptron with
// shuffle=False gives the same weights); with η = 0.5 the updates are the
// same and w/η, b/η are those weights.
func TestLesson04Explore(t *testing.T) {
	for _, tc := range []struct {
		eta  float64
		want string
	}{
		{1, "10 updates in 6 epochs [2 2 3 2 1 0] (converged true); w = [-3.4 9.1], b = -2; w/η = [-3.4 9.1], b/η = -2"},
		{0.5, "10 updates in 6 epochs [2 2 3 2 1 0] (converged true); w = [-1.7 4.55], b = -1; w/η = [-3.4 9.1], b/η = -2"},
	} {
		p, caption, err := Lesson04Explore(tc.eta, "in-order", 1)
		if err != nil {
			t.Fatal(err)
		}
		if caption != tc.want {
			t.Errorf("η = %v: caption\n%s\nwant\n%s", tc.eta, caption, tc.want)
		}
		if _, err := plots.PNG(p, Width, Height); err != nil {
			t.Errorf("rendering: %v", err)
		}
	}
	if _, _, err := Lesson04Explore(1, "backwards", 1); err == nil || err.Error() != `perceptron: unknown order "backwards": want in-order, random-cycle, shuffle or mistake` {
		t.Errorf("unknown order: %v", err)
	}
	if _, _, err := Lesson04Explore(0, "in-order", 1); err == nil || err.Error() != "figures: η must be a finite number > 0, got 0" {
		t.Errorf("η = 0: %v", err)
	}
}
