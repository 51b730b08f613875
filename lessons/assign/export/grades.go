package export

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/perceptron-go/lessons/lessons/assign/internal/csvfile"
)

// Grade is one row of grades.csv.
type Grade struct {
	Student, StudentID, Submission, Assignment string
	Score, MaxScore                            float64
}

// ErrGrades is the error kind of a grades.csv that cannot be read.
var ErrGrades = errors.New("export: bad grades.csv")

// ReadGrades reads the rows of a grades.csv that "assign grade" wrote.
func ReadGrades(path string) ([]Grade, error) {
	rows, err := csvfile.Read(path, ErrGrades)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: %s is empty", ErrGrades, path)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"student", "student_id", "submission", "assignment", "score", "max_score"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%w: %s has no column %q (was it written by assign grade?)", ErrGrades, path, h)
		}
	}
	var gs []Grade
	for i, r := range rows[1:] {
		g := Grade{Student: r[col["student"]], StudentID: r[col["student_id"]], Submission: r[col["submission"]], Assignment: r[col["assignment"]]}
		for _, f := range []struct {
			name string
			v    *float64
		}{{"score", &g.Score}, {"max_score", &g.MaxScore}} {
			if *f.v, err = strconv.ParseFloat(r[col[f.name]], 64); err != nil {
				return nil, fmt.Errorf("%w: %s, row %d: %s %q is not a number", ErrGrades, path, i+2, f.name, r[col[f.name]])
			}
		}
		gs = append(gs, g)
	}
	return gs, nil
}
