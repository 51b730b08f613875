package csvfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestRead: a CSV file's records, quotes undone; a file that is not CSV is
// an error naming it, of the kind given; a missing file is os.ErrNotExist.
func TestRead(t *testing.T) {
	kind := errors.New("bad sheet")
	dir := t.TempDir()
	for _, tc := range []struct {
		name, data string // name "": a file that does not exist
		kind       error
		want       [][]string // nil: an error, of kind kind, naming the file
	}{
		{"ok.csv", "student,due\n\"Doe, Jane\",2026-12-01 23:59\n", kind, [][]string{{"student", "due"}, {"Doe, Jane", "2026-12-01 23:59"}}},
		{"ragged.csv", "a,b\n1,2,3\n", kind, nil},
		{"open-quote.csv", "a,\"b\n", nil, nil},
		{"", "", kind, nil},
	} {
		path := filepath.Join(dir, "none.csv")
		if tc.name != "" {
			path = repo.Write(t, filepath.Join(dir, tc.name), tc.data)
		}
		rows, err := Read(path, tc.kind)
		switch {
		case tc.want != nil:
			if err != nil || !slices.EqualFunc(rows, tc.want, slices.Equal) {
				t.Errorf("%s: %q, %v; want %q", path, rows, err, tc.want)
			}
		case tc.name == "":
			if !errors.Is(err, os.ErrNotExist) || errors.Is(err, kind) {
				t.Errorf("a missing file: %v, want os.ErrNotExist only", err)
			}
		case err == nil || !strings.Contains(err.Error(), path) || (tc.kind != nil) != errors.Is(err, kind):
			t.Errorf("%s: %v; want an error naming the file, of kind %v", path, err, tc.kind)
		}
	}
}
