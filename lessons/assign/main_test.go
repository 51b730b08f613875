package main

import (
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// fixture is a small assignment (the dot product and friends) that the
// tests generate and grade.
const fixture = "testdata/hw0_fixture"

// repoRoot returns the repository these tests run in.
func repoRoot(t *testing.T) string {
	t.Helper()
	repo, err := assignment.FindRepo(".")
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// readNB reads the notebook at path.
func readNB(t *testing.T, path string) *notebook.Notebook {
	t.Helper()
	nb, err := notebook.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}
