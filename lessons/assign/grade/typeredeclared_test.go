package grade

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// TestGradeRedeclaredGivenType: a submission that redeclares a type of the
// assignment's given code (hw2's PLARun) with other fields is graded with
// the assignment's type; the report names the type and the submission's
// cell, and only the tests of the function that used the student's field
// lose their points.
func TestGradeRedeclaredGivenType(t *testing.T) {
	needBubblewrap(t)
	repoDir := repo.Dir(t)
	a := assigntest.Load(t, filepath.Join(repoDir, "lessons", "hw2_pla"))
	nb := repo.ReadNotebook(t, filepath.Join(repoDir, "lessons", "hw2_pla", "solution.ipynb"))
	typeCell := -1
	for i, c := range nb.Cells {
		if c.Type == "code" && strings.Contains(c.Source, "type PLARun struct") {
			if !strings.Contains(c.Source, "\tUpdates int\n") {
				t.Fatalf("cell %d declares PLARun without the field Updates: update the test", i)
			}
			c.Source = strings.Replace(c.Source, "\tUpdates int\n", "\tCount int\n", 1)
			typeCell = i
		}
	}
	if typeCell < 0 {
		t.Fatal("hw2's solution declares no type PLARun: update the test")
	}
	replaceInFunc(t, nb, "BatchPLA", "run.Updates += n", "run.Count += n")
	rep := grade(t, newGrader(t, time.Minute), a, "redeclared.ipynb", nb)

	want := "type PLARun is declared by the assignment; your cell " + strconv.Itoa(typeCell) + " redeclares it"
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, want)
	}
	if !found {
		t.Errorf("no note says %q; notes: %q", want, rep.Notes)
	}
	if !strings.Contains(rep.Text(), want) {
		t.Errorf("the report does not say %q", want)
	}
	checkStubbed(t, a, rep, map[string]string{"BatchPLA": "Count"},
		[]string{"TestBatchPLA", "TestBatchPLAIris", "TestBatchPLAMore", "TestBatchPLANotSeparable", "TestBatchPLASeparatingStart", "TestBatchPLAXOR"})

	// The same declaration, copied as the assignment has it, is no mistake.
	nb = repo.ReadNotebook(t, filepath.Join(repoDir, "lessons", "hw2_pla", "solution.ipynb"))
	rep = grade(t, newGrader(t, time.Minute), a, "same.ipynb", nb)
	for _, n := range rep.Notes {
		if strings.Contains(n, "PLARun") {
			t.Errorf("a note on the unchanged PLARun: %q", n)
		}
	}
	checkFullMarks(t, a, rep)
}
