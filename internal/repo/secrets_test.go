package repo

import (
	"os"
	"strings"
	"testing"
)

// TestSecretsCheck: the check finds each kind of leak in a file made from
// the real source notebooks, and passes the student notebooks.
func TestSecretsCheck(t *testing.T) {
	s := LoadSecrets(t, ".")
	student, err := os.ReadFile("lessons/hw2_pla/student.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Check("lessons/hw2_pla/student.ipynb", student, nil); len(p) != 0 {
		t.Errorf("the student notebook is reported: %v", p)
	}
	// The solution code itself, with no marker, pasted into a Go file.
	code := strings.Join(s.solution["hw2_pla"], "\n")
	if p := s.Check("perceptron/x.go", []byte(code), nil); len(p) == 0 {
		t.Error("a Go file holding hw2's solution code is not reported")
	}
	hidden := strings.Join(s.hidden["hw3_mistake_bound"], "\n")
	if p := s.Check("notes.txt", []byte(hidden), []string{"hw3_mistake_bound"}); len(p) == 0 {
		t.Error("hw3's hidden tests are not reported, even with its solutions released")
	}
	if p := s.Check("x.go", []byte("x := 1\n\t"+BeginHidden+"\n"), nil); len(p) == 0 {
		t.Error("a line opening hidden tests is not reported")
	}
	sol, err := os.ReadFile("lessons/hw1_hyperplanes/solution.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Check("lessons/hw1_hyperplanes/solution.ipynb", sol, nil); len(p) == 0 {
		t.Error("an unreleased solution.ipynb is not reported")
	}
	if p := s.Check("lessons/hw1_hyperplanes/solution.ipynb", sol, []string{"hw1_hyperplanes"}); len(p) != 0 {
		t.Errorf("hw1's released solution.ipynb is reported: %v", p)
	}
	if p := s.Check("lessons/hw1_hyperplanes/source.ipynb", []byte("{}"), []string{"hw1_hyperplanes"}); len(p) == 0 {
		t.Error("a source.ipynb is not reported")
	}
}
