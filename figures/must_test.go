package figures

import (
	"testing"

	"github.com/perceptron-go/lessons/perceptron"
)

// Must returns a function that gives v, or ends the test t at once when
// err is not nil: the tests' one line for a call that must not fail,
// d := Must(perceptron.Iris().Binary(0, 1, 0, 2))(t). It is exported for
// the external tests (figures_test) and exists in test builds only.
func Must[T any](v T, err error) func(t testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// Drawn is Must for a data generator, which also returns its hidden
// hyperplane.
func Drawn(d *perceptron.Dataset, _ perceptron.Hyperplane, err error) func(t testing.TB) *perceptron.Dataset {
	return Must(d, err)
}
