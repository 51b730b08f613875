package e2e

import (
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestMain runs the tests in the repository's root: they read its files by
// paths from there.
func TestMain(m *testing.M) { repo.Main(m) }
