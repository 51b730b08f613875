// Package csvfile reads the CSV files that the grader's commands write and
// the instructor edits: grades.csv, a manual-score sheet, an extensions
// list, a collection's manifest.
package csvfile

import (
	"encoding/csv"
	"fmt"
	"os"
)

// Read returns the records of the CSV file at path. A file that cannot be
// opened is the error of os.Open; one that is not CSV (a quote left open,
// rows of different lengths) is an error naming path, of kind kind when
// kind is not nil.
func Read(path string, kind error) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		if kind != nil {
			return nil, fmt.Errorf("%w: %s: %v", kind, path, err)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nil
}
