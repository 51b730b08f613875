package written

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/export"
)

// TestQuestionsAndAnswers reads hw1's declared questions, finds the worked
// answers in its solution and none in its student notebook, and finds an
// answer by its heading when the cell ID is lost.
func TestQuestionsAndAnswers(t *testing.T) {
	qs, err := Questions(repo.ReadNotebook(t, "../../hw1_hyperplanes/source.ipynb"), "hw1")
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].Name != "ex1a" || qs[0].Points != 2 || qs[1].Name != "ex2a" {
		t.Fatalf("hw1's questions: %+v", qs)
	}
	sol := repo.ReadNotebook(t, "../../hw1_hyperplanes/solution.ipynb")
	for _, q := range qs {
		if a, ok := Answer(sol, q); !ok || !strings.HasPrefix(a, "**Worked answer.**") || strings.Contains(a, "read by the instructor") {
			t.Errorf("%s in the solution: %q, %v", q.Name, a, ok)
		}
		if a, ok := Answer(repo.ReadNotebook(t, "../../hw1_hyperplanes/student.ipynb"), q); ok {
			t.Errorf("%s in the student notebook: %q, want none", q.Name, a)
		}
	}
	for _, c := range sol.Cells {
		c.ID = ""
	}
	if a, ok := Answer(sol, qs[1]); !ok || !strings.HasPrefix(a, "**Worked answer.**") {
		t.Errorf("by heading: %q, %v", a, ok)
	}
	page := Page(sol, qs, "ann")
	if !strings.Contains(page.Cells[1].Source, "## ex1a (2 points)") || len(page.Cells) != len(sol.Cells)+4 {
		t.Errorf("page: %d cells, first answer %q", len(page.Cells), page.Cells[1].Source)
	}
	// A question without its points is refused.
	src := repo.ReadNotebook(t, "../../hw1_hyperplanes/source.ipynb")
	for _, c := range src.Cells {
		delete(c.Metadata, "lessons")
	}
	if _, err := Questions(src, "hw1"); !errors.Is(err, ErrWritten) || !strings.Contains(err.Error(), "needs its name and points") {
		t.Errorf("undeclared: %v", err)
	}
}

func TestSheet(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "written.csv")
	qs := []Question{{Name: "ex1a", Points: 2}, {Name: "ex2a", Points: 3}}
	if n, err := WriteSheet(path, qs, []string{"s/ann_5001_1_student.ipynb", "s/bob.ipynb"}); err != nil || n != 2 {
		t.Fatalf("WriteSheet: %d, %v", n, err)
	}
	// The instructor fills ann's row; a second run adds cid, keeps ann's.
	b, _ := os.ReadFile(path)
	filled := strings.Replace(string(b), "ann_5001_1_student.ipynb,,", "ann_5001_1_student.ipynb,1.5,3", 1)
	os.WriteFile(path, []byte(filled), 0o600)
	if n, err := WriteSheet(path, qs, []string{"s/ann_5001_1_student.ipynb", "s/cid.ipynb"}); err != nil || n != 1 {
		t.Fatalf("second WriteSheet: %d, %v", n, err)
	}
	s, err := ReadSheet(path)
	if err != nil {
		t.Fatal(err)
	}
	gs := []export.Grade{
		{Student: "ann", StudentID: "5001", Submission: "x/ann_5001_1_student.ipynb", Score: 10, MaxScore: 14},
		{Student: "bob", Submission: "x/bob.ipynb", Score: 4, MaxScore: 14},
		{Student: "dan", Submission: "x/dan.ipynb", Score: 1, MaxScore: 14},
	}
	var log bytes.Buffer
	out, _, err := s.Merge(gs, &log)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{14.5, 4, 1} {
		if out[i].Score != want || out[i].MaxScore != 19 {
			t.Errorf("%s: %v/%v, want %v/19", gs[i].Student, out[i].Score, out[i].MaxScore, want)
		}
	}
	for _, w := range []string{"bob.ipynb: ex1a, ex2a not scored", "dan.ipynb has no row"} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("log lacks %q:\n%s", w, log.String())
		}
	}
	// A score above the maximum names its row and column.
	os.WriteFile(path, []byte(strings.Replace(filled, ",1.5,3", ",1.5,4", 1)), 0o600)
	if _, err := ReadSheet(path); !errors.Is(err, ErrWritten) || !strings.Contains(err.Error(), `row 2 (ann), column ex2a: "4" is not a score from 0 to 3`) {
		t.Errorf("score above the maximum: %v", err)
	}
}
