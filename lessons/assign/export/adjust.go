package export

import (
	"encoding/csv"
	"io"
	"strings"
)

// Column is a column that an Adjust adds to the gradebook, after the
// assignment's: its title and a value per student (by Key).
type Column struct {
	Title  string
	Values map[string]string
}

// Adjust changes the grades before the gradebook is written (written
// answers' points, a late policy) and may add columns. It is set by the
// command from its own flags (lessons/assign/late, lessons/assign/written).
type Adjust func(gs []Grade, stderr io.Writer) ([]Grade, []Column, error)

// Key is the student of a grade as the gradebook's rows tell them apart:
// the LMS's ID, else the name.
func Key(g Grade) string {
	if g.StudentID == "" {
		return "name:" + g.Student
	}
	return "id:" + g.StudentID
}

// appendColumns adds cols to a gradebook CSV that Canvas wrote: the
// title in the header, nothing on the Points Possible row, and each
// student's value on their row (found by ID, else by name).
func appendColumns(gradebook string, cols []Column) (string, error) {
	if len(cols) == 0 {
		return gradebook, nil
	}
	rows, err := csv.NewReader(strings.NewReader(gradebook)).ReadAll()
	if err != nil {
		return "", err
	}
	for i, r := range rows {
		for _, c := range cols {
			switch {
			case i == 0:
				r = append(r, c.Title)
			case i == 1:
				r = append(r, "")
			default:
				key := "id:" + r[1]
				if r[1] == "" {
					key = "name:" + strings.TrimPrefix(r[0], "'")
				}
				r = append(r, c.Values[key])
			}
		}
		rows[i] = r
	}
	var b strings.Builder
	cw := csv.NewWriter(&b)
	cw.WriteAll(rows)
	return b.String(), cw.Error()
}
