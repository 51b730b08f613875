package grade

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perceptron-go/lessons/lessons/assign/internal/csvfile"
	"github.com/perceptron-go/lessons/lessons/assign/internal/ident"
)

// failed makes rep a zero for reason, a failure of the grader on that
// submission (not of its tests).
func failed(rep *Report, reason string) {
	rep.Score = 0
	rep.Notes = append(rep.Notes, reason)
	for i := range rep.Tests {
		rep.Tests[i].Score = 0
		if rep.Tests[i].Status == StatusPassed {
			rep.Tests[i].Status = StatusMissing
		}
	}
}

// writeReport writes NAME.report.txt (the instructor's), NAME.student.txt
// (the student's, to send back) and NAME.results.json of submission
// sub (under out, in the same sub-folders as under target, if out is set).
func writeReport(rep *Report, sub, target string, folder bool, out, results string) error {
	js, err := rep.JSON()
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(sub), ".ipynb")
	dir := filepath.Dir(sub)
	if out != "" {
		rel, _ := filepath.Rel(target, filepath.Dir(sub))
		if !folder {
			rel = "."
		}
		dir = filepath.Join(out, rel)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	jsonPath := filepath.Join(dir, base+".results.json")
	if results != "" {
		jsonPath = results
	}
	if err := os.WriteFile(filepath.Join(dir, base+".report.txt"), []byte(rep.Text()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, base+".student.txt"), []byte(rep.StudentText()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(jsonPath, js, 0o644)
}

// writeGradesFile writes dir/grades.csv, once, after every test process
// is gone, by the grader only. With merge, the rows of an existing
// grades.csv are kept, but those of the submissions graded again (same
// submission path, else same student, ID and assignment), which the new
// rows replace: a regrade of one file keeps the class's grades.csv whole.
func writeGradesFile(dir string, subs []string, reports []*Report, merge bool, stdout io.Writer) error {
	p := filepath.Join(dir, "grades.csv")
	rows := make([]gradeRow, len(reports))
	for i, rep := range reports {
		rows[i] = rowOf(subs[i], rep)
	}
	if merge {
		old, err := readGradeRows(p)
		if err != nil {
			return fmt.Errorf("regrade: %s cannot be merged: %w", p, err)
		}
		rows = mergeRows(old, rows)
	}
	var buf strings.Builder
	writeGrades(&buf, rows)
	if err := os.WriteFile(p+".tmp", []byte(buf.String()), 0o644); err != nil {
		return err
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		return err
	}
	if merge {
		fmt.Fprintf(stdout, "updated %s\n", p)
	} else {
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	return nil
}

// gradesHeader is the start of grades.csv's header; a column per test
// follows.
var gradesHeader = []string{"student", "student_id", "submission", "assignment", "score", "max_score"}

// gradeRow is one row of grades.csv.
type gradeRow struct {
	fields []string          // as gradesHeader
	tests  []string          // the assignment's tests, in order
	scores map[string]string // by test
}

// rowOf is the row of submission sub: the student (ident.Of its path: the
// name and the gradebook's ID the file name carries), the submission, the
// assignment, the total, the maximum and each test's points.
func rowOf(sub string, rep *Report) gradeRow {
	st := ident.Of(sub)
	r := gradeRow{fields: []string{ident.SpreadsheetSafe(st.Name), st.ID, sub, rep.Assignment, num(rep.Score), num(rep.MaxScore)}, scores: map[string]string{}}
	for _, tr := range rep.Tests {
		r.tests = append(r.tests, tr.Name)
		r.scores[tr.Name] = num(tr.Score)
	}
	return r
}

// readGradeRows reads a grades.csv that writeGrades wrote.
func readGradeRows(path string) ([]gradeRow, error) {
	recs, err := csvfile.Read(path, nil)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || len(recs[0]) < len(gradesHeader) || !slices.Equal(recs[0][:len(gradesHeader)], gradesHeader) {
		return nil, fmt.Errorf("its header is not %s,...", strings.Join(gradesHeader, ","))
	}
	cols := recs[0][len(gradesHeader):]
	var rows []gradeRow
	for _, rec := range recs[1:] {
		if len(rec) != len(recs[0]) {
			return nil, fmt.Errorf("a row of %d fields under a header of %d", len(rec), len(recs[0]))
		}
		r := gradeRow{fields: slices.Clone(rec[:len(gradesHeader)]), scores: map[string]string{}}
		for j, c := range cols {
			v := rec[len(gradesHeader)+j]
			if v == "" {
				continue
			}
			name := c
			if a, t, ok := strings.Cut(c, ":"); ok && a == r.fields[3] {
				name = t
			}
			r.tests = append(r.tests, name)
			r.scores[name] = v
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// mergeRows replaces in old each row of a submission of fresh (the same
// submission path, else the same student, ID and assignment) and appends
// the fresh rows that replace none.
func mergeRows(old, fresh []gradeRow) []gradeRow {
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	out := slices.Clone(old)
	for _, f := range fresh {
		at := slices.IndexFunc(out, func(r gradeRow) bool { return abs(r.fields[2]) == abs(f.fields[2]) })
		if at < 0 && f.fields[0] != "" {
			at = slices.IndexFunc(out, func(r gradeRow) bool {
				return r.fields[0] == f.fields[0] && r.fields[1] == f.fields[1] && r.fields[3] == f.fields[3]
			})
		}
		if at >= 0 {
			out[at] = f
			continue
		}
		out = append(out, f)
	}
	return out
}

// writeGrades writes grades.csv: a row per submission with the student,
// the submission, the assignment, the total and the maximum, then a column
// per test, named after it (ASSIGNMENT:TEST when the rows hold several
// assignments), empty where a submission's assignment has no such test.
func writeGrades(out io.Writer, rows []gradeRow) {
	assignments := map[string]bool{}
	for _, r := range rows {
		if r.fields[3] != "" && len(r.tests) > 0 {
			assignments[r.fields[3]] = true
		}
	}
	column := func(r gradeRow, test string) string {
		if len(assignments) > 1 {
			return r.fields[3] + ":" + test
		}
		return test
	}
	var tests []string
	seen := map[string]bool{}
	for _, r := range rows {
		for _, t := range r.tests {
			if c := column(r, t); !seen[c] {
				seen[c] = true
				tests = append(tests, c)
			}
		}
	}
	w := csv.NewWriter(out)
	w.Write(append(slices.Clone(gradesHeader), tests...))
	for _, r := range rows {
		row := slices.Clone(r.fields)
		scores := map[string]string{}
		for _, t := range r.tests {
			scores[column(r, t)] = r.scores[t]
		}
		for _, c := range tests {
			row = append(row, scores[c])
		}
		w.Write(row)
	}
	w.Flush()
}
