package ident

import "testing"

// TestOf reads the file names of the gradebooks' downloads.
func TestOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Student
	}{
		// Canvas: Assignments > Download Submissions.
		{"subs/doejane_48213_9120334_hw2_pla.ipynb", Student{Name: "doejane", ID: "48213", Pattern: "canvas"}},
		{"subs/doejane_LATE_48213_9120335_hw2_pla-1.ipynb", Student{Name: "doejane", ID: "48213", Pattern: "canvas"}},
		{"subs/obrienpat_7_55_student.ipynb", Student{Name: "obrienpat", ID: "7", Pattern: "canvas"}},
		// Moodle: Assignment > Download all submissions, flat or in folders.
		{"subs/Jane Doe_1234567_assignsubmission_file_hw2_pla.ipynb", Student{Name: "Jane Doe", ID: "1234567", Pattern: "moodle"}},
		{"subs/Jean-Luc Picard_88_assignsubmission_file_/student.ipynb", Student{Name: "Jean-Luc Picard", ID: "88", Pattern: "moodle"}},
		// Gradescope: Export Submissions.
		{"export/submission_246813579/hw2_pla.ipynb", Student{ID: "246813579", Pattern: "gradescope"}},
		// Anything else.
		{"subs/alice.ipynb", Student{Name: "alice", Pattern: "file"}},
		{"subs/bob/student.ipynb", Student{Name: "bob", Pattern: "folder"}},
		{"subs/carol/Submission.ipynb", Student{Name: "carol", Pattern: "folder"}},
		{"student.ipynb", Student{Name: "student", Pattern: "file"}},
		{"subs/hw2_pla_dave.ipynb", Student{Name: "hw2_pla_dave", Pattern: "file"}},
		{"subs/submission_12x/eve.ipynb", Student{Name: "eve", Pattern: "file"}},
	} {
		if got := Of(tc.path); got != tc.want {
			t.Errorf("Of(%q) = %+v, want %+v", tc.path, got, tc.want)
		}
	}
	if k := Of("subs/doejane_48213_9120334_hw2_pla.ipynb").Key(); k != "48213" {
		t.Errorf("Key of a Canvas name = %q, want the user ID 48213", k)
	}
	if k := Of("subs/alice.ipynb").Key(); k != "alice" {
		t.Errorf("Key of a plain name = %q, want alice", k)
	}
}

// TestSpreadsheetSafe quotes what a spreadsheet would run as a formula.
func TestSpreadsheetSafe(t *testing.T) {
	for in, want := range map[string]string{
		"doejane":           "doejane",
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")",
		"+1":                "'+1",
		"-2+3":              "'-2+3",
		"@SUM(A1)":          "'@SUM(A1)",
		"":                  "",
	} {
		if got := SpreadsheetSafe(in); got != want {
			t.Errorf("SpreadsheetSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
