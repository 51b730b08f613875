package main

import (
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// fixture is a small assignment (the dot product and friends) that the
// tests generate and grade.
const fixture = "testdata/hw0_fixture"

// repoRoot returns the repository these tests run in.
func repoRoot(t *testing.T) string { t.Helper(); return repo.Dir(t) }

// readNB reads the notebook at path.
func readNB(t *testing.T, path string) *notebook.Notebook {
	t.Helper()
	return repo.ReadNotebook(t, path)
}
