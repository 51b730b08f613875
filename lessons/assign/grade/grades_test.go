package grade

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fakeReport(assignment string, scores ...float64) *Report {
	rep := &Report{Assignment: assignment}
	for i, s := range scores {
		rep.Tests = append(rep.Tests, TestResult{Name: "Test" + string(rune('A'+i)), Score: s, MaxScore: 1})
		rep.Score += s
		rep.MaxScore++
	}
	return rep
}

// TestRegradeMergesGrades checks that grading one file again replaces its
// row of the batch's grades.csv (found by its path, else by its student,
// ID and assignment) and keeps every other row, test columns included,
// and that a file no row holds is added, with per-assignment columns once
// the file holds two assignments.
func TestRegradeMergesGrades(t *testing.T) {
	dir := t.TempDir()
	subs := []string{"subs/doejane_48213_9120334_hw2_pla.ipynb", "subs/roe_777_1_hw2_pla.ipynb"}
	if err := writeGradesFile(dir, subs, []*Report{fakeReport("hw2_pla", 1, 0), fakeReport("hw2_pla", 1, 1)}, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		b, err := os.ReadFile(filepath.Join(dir, "grades.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The same file, graded again: its row changes in place.
	if err := writeGradesFile(dir, subs[:1], []*Report{fakeReport("hw2_pla", 1, 1)}, true, io.Discard); err != nil {
		t.Fatal(err)
	}
	want := "student,student_id,submission,assignment,score,max_score,TestA,TestB\n" +
		"doejane,48213,subs/doejane_48213_9120334_hw2_pla.ipynb,hw2_pla,2,2,1,1\n" +
		"roe,777,subs/roe_777_1_hw2_pla.ipynb,hw2_pla,2,2,1,1\n"
	if got := read(); got != want {
		t.Errorf("after a regrade of doejane's file:\n%s\nwant:\n%s", got, want)
	}
	// Her late resubmission, another file: it replaces her row.
	late := "subs/doejane_LATE_48213_9120335_hw2_pla-1.ipynb"
	if err := writeGradesFile(dir, []string{late}, []*Report{fakeReport("hw2_pla", 0, 1)}, true, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := read(); !strings.Contains(got, "doejane,48213,"+late+",hw2_pla,1,2,0,1\n") || strings.Count(got, "\ndoejane,") != 1 {
		t.Errorf("after doejane's resubmission:\n%s", got)
	}
	// Another assignment: columns per assignment, every score kept.
	if err := writeGradesFile(dir, []string{"subs/new_1_2_hw1.ipynb"}, []*Report{fakeReport("hw1", 1)}, true, io.Discard); err != nil {
		t.Fatal(err)
	}
	want = "student,student_id,submission,assignment,score,max_score,hw2_pla:TestA,hw2_pla:TestB,hw1:TestA\n" +
		"doejane,48213," + late + ",hw2_pla,1,2,0,1,\n" +
		"roe,777,subs/roe_777_1_hw2_pla.ipynb,hw2_pla,2,2,1,1,\n" +
		"new,1,subs/new_1_2_hw1.ipynb,hw1,1,1,,,1\n"
	if got := read(); got != want {
		t.Errorf("after another assignment:\n%s\nwant:\n%s", got, want)
	}
	// And back: a file with prefixed columns merges by assignment.
	if err := writeGradesFile(dir, []string{"subs/roe_777_1_hw2_pla.ipynb"}, []*Report{fakeReport("hw2_pla", 0, 0)}, true, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := read(); !strings.Contains(got, "roe,777,subs/roe_777_1_hw2_pla.ipynb,hw2_pla,0,2,0,0,\n") || !strings.Contains(got, "new,1,subs/new_1_2_hw1.ipynb,hw1,1,1,,,1\n") {
		t.Errorf("after a regrade in a file of two assignments:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, "grades.csv"), []byte("name,score\n"), 0o644)
	if err := writeGradesFile(dir, subs[:1], []*Report{fakeReport("hw2_pla", 1)}, true, io.Discard); err == nil {
		t.Errorf("a grades.csv of another shape was merged into, want an error")
	}
}

// TestStudentReport checks that the student's report shows a hidden
// test's name, points, status and message but not what it expected, got
// or printed, which the instructor's report shows, until the instructor
// releases it.
func TestStudentReport(t *testing.T) {
	rep := &Report{Submission: "bob.ipynb", Assignment: "hw2_pla", Score: 2, MaxScore: 3, Variant: "1f3a", Tests: []TestResult{
		{Name: "TestPLAStep", Status: StatusPassed, Score: 2, MaxScore: 2, Output: "passed: w: expected [1 2], got [1 2]"},
		{Name: "TestPLAStepMore", Hidden: true, Status: StatusFailed, MaxScore: 1, Message: "TestPLAStepMore checks that w is not modified.",
			Output: "FAILED: w after a score-0 step: expected [-1 -3 0], got [-1 -3 1]"},
	}}
	secret := "expected [-1 -3 0]"
	for _, c := range []struct {
		name, text string
		show       bool
	}{
		{"instructor's", rep.Text(), true},
		{"student's", rep.StudentText(), false},
	} {
		if strings.Contains(c.text, secret) != c.show {
			t.Errorf("the %s report shows the hidden test's expected value: %v, want %v:\n%s", c.name, !c.show, c.show, c.text)
		}
		for _, want := range []string{"FAIL    TestPLAStepMore (hidden test): 0 / 1 (failed", "PASS    TestPLAStep: 2 / 2"} {
			if !strings.Contains(c.text, want) {
				t.Errorf("the %s report lacks %q:\n%s", c.name, want, c.text)
			}
		}
	}
	if s := rep.StudentText(); !strings.Contains(s, "checks that w is not modified") || strings.Contains(s, "Hidden data") {
		t.Errorf("the student's report lacks the hidden test's message, or names the variant:\n%s", s)
	}
	js, err := rep.JSON()
	if err != nil || strings.Contains(string(js), secret) {
		t.Errorf("results.json shows the hidden test's expected value (%v):\n%s", err, js)
	}
	rep.ReleaseHidden = true
	if !strings.Contains(rep.StudentText(), secret) {
		t.Errorf("released, the student's report still hides the hidden test's output:\n%s", rep.StudentText())
	}
	if js, _ := rep.JSON(); !strings.Contains(string(js), secret) {
		t.Errorf("released, results.json still hides the hidden test's output:\n%s", js)
	}
}
