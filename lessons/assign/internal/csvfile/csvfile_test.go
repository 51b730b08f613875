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

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := func(name, data string) string { return repo.Write(t, filepath.Join(dir, name), data) }
	rows, err := Read(file("ok.csv", "student,due\n\"Doe, Jane\",2026-12-01 23:59\n"), nil)
	if err != nil || len(rows) != 2 || !slices.Equal(rows[1], []string{"Doe, Jane", "2026-12-01 23:59"}) {
		t.Errorf("ok.csv: %q, %v", rows, err)
	}
	kind := errors.New("bad sheet")
	bad := file("bad.csv", "a,b\n1,2,3\n")
	if _, err := Read(bad, kind); !errors.Is(err, kind) || !strings.Contains(err.Error(), bad) {
		t.Errorf("rows of different lengths: %v, want the kind and the path", err)
	}
	if _, err := Read(bad, nil); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("rows of different lengths, no kind: %v, want the path", err)
	}
	if _, err := Read(filepath.Join(dir, "none.csv"), kind); !errors.Is(err, os.ErrNotExist) || errors.Is(err, kind) {
		t.Errorf("a missing file: %v, want os.ErrNotExist", err)
	}
}
