// Package ident tells whose a submission is from its file name, as the
// common gradebooks name the files of a "download all submissions":
//
//   - Canvas: lastfirst_12345_67890_NAME.ipynb (or lastfirst_LATE_12345_67890_NAME.ipynb):
//     the student's name, then Canvas's user ID, then the submission's;
//   - Moodle: Full Name_123456_assignsubmission_file_NAME.ipynb, or the file
//     NAME.ipynb in a folder "Full Name_123456_assignsubmission_file_":
//     the name and Moodle's participant ID;
//   - Gradescope's "Export Submissions": NAME.ipynb in a folder
//     submission_123456789 (its submission_metadata.yml maps the
//     submission ID to the student);
//   - anything else: NAME.ipynb is the student NAME, except the generic
//     student.ipynb, solution.ipynb and submission.ipynb, for which the
//     folder is the student (one folder per student, as GitHub Classroom
//     clones them).
package ident

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Student is whose a submission is.
type Student struct {
	Name    string // the student's name as the file name gives it ("" for Gradescope's export)
	ID      string // the gradebook's ID of the student (Canvas user ID, Moodle participant ID) or of the submission (Gradescope); "" if the name has none
	Pattern string // "canvas", "moodle", "gradescope", "folder" or "file"
}

// Key is the student's identifier in grades.csv and in exported file
// names: the ID if there is one, else the name.
func (s Student) Key() string {
	if s.ID != "" {
		return s.ID
	}
	return s.Name
}

var (
	canvas     = regexp.MustCompile(`^([^_]+)(?:_LATE)?_(\d+)_(\d+)_.+$`)
	moodle     = regexp.MustCompile(`^(.+)_(\d+)_assignsubmission_[a-z]+_`)
	gradescope = regexp.MustCompile(`^submission_(\d+)$`)
)

// generic are file names that say nothing of the student.
var generic = map[string]bool{"student": true, "solution": true, "submission": true}

// Of returns whose the submission at path is.
func Of(path string) Student {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	dir := filepath.Base(filepath.Dir(path))
	if m := canvas.FindStringSubmatch(base); m != nil {
		return Student{Name: m[1], ID: m[2], Pattern: "canvas"}
	}
	for _, part := range []string{base, dir} {
		if m := moodle.FindStringSubmatch(part); m != nil {
			return Student{Name: m[1], ID: m[2], Pattern: "moodle"}
		}
	}
	if m := gradescope.FindStringSubmatch(dir); m != nil {
		return Student{ID: m[1], Pattern: "gradescope"}
	}
	if generic[strings.ToLower(base)] && dir != "." && dir != string(filepath.Separator) {
		return Student{Name: dir, Pattern: "folder"}
	}
	return Student{Name: base, Pattern: "file"}
}

// SpreadsheetSafe keeps a name taken from a file name from being read as
// a formula by the spreadsheet that opens a CSV of grades: a leading
// = + - @, tab or carriage return gets a quote before it.
func SpreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
