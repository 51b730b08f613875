// Package assigntest holds what the grader's packages' tests share about
// assignments.
package assigntest

import (
	"testing"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// Load loads the assignment in dir, or fails the test.
func Load(t testing.TB, dir string) *assignment.Assignment {
	t.Helper()
	a, err := assignment.LoadAssignment(dir)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
