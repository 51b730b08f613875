package cellfmt

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

func TestMain(m *testing.M) { repo.Main(m) }

// TestLessonCells formats every Go cell of the lessons and assignments: each
// parses (the format command works on every cell a student gets), and
// formatting the result again changes nothing. The lessons' cells are
// committed as gofmt formats them, so the format command leaves a cell the
// student has not edited as it is. (The assignments' sources are the
// instructor's, with their solution and hidden-test markers; the notebooks
// students get from them are generated.)
func TestLessonCells(t *testing.T) {
	cells, changed := 0, 0
	for _, path := range repo.FindNotebooks(t) {
		nb := repo.ReadNotebook(t, path)
		if nb.KernelName() != "gonb" {
			continue
		}
		for i, src := range nb.CodeSources() {
			cells++
			got, err := Format(src)
			if err != nil {
				if errors.Is(err, ErrSyntax) || errors.Is(err, ErrUnformattable) {
					t.Errorf("%s, code cell %d: %v", path, i+1, err)
					continue
				}
				t.Fatalf("%s, code cell %d: an error of no kind: %v", path, i+1, err)
			}
			if got != src {
				changed++
				if strings.HasPrefix(filepath.ToSlash(path), "notebooks/") {
					t.Errorf("%s, code cell %d is not as gofmt formats it; formatted:\n%s", path, i+1, got)
				}
			}
			if again, err := Format(got); err != nil || again != got {
				t.Errorf("%s, code cell %d: formatting again gives %q, %v", path, i+1, again, err)
			}
		}
	}
	if cells == 0 {
		t.Fatal("no Go cell in the lessons")
	}
	t.Logf("%d Go cells, %d of them not as gofmt formats them", cells, changed)
}
