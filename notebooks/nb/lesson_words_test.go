package nb_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// maxLessonWords is the most words of prose (markdown cells, split at white
// space, formulas included) that a lesson may hold (issue 32: "every lesson
// holds at most 2000 words of prose").
const maxLessonWords = 2000

// machineryWords are words about how the pack is built and tested, not
// about the perceptron: student-facing text never uses them.
var machineryWords = regexp.MustCompile(`(?i)\bCI\b|headless|regression[- ]test`)

// lessonText returns a lesson's prose: its markdown cells, and the source of
// its code cells (their comments and strings are read by the student too).
func lessonText(t *testing.T, path string) (prose string, code []string) {
	t.Helper()
	nb := repo.ReadNotebook(t, path)
	var md []string
	for _, c := range nb.Cells {
		if c.Type == "markdown" {
			md = append(md, c.Source)
		} else {
			code = append(code, c.Source)
		}
	}
	return strings.Join(md, "\n"), code
}

// TestLessonWords checks the lessons' prose (issue 32, "half the words"):
// every lesson at most maxLessonWords words of markdown; no text that a
// student reads (markdown or code) speaks of CI, headless runs or
// regression tests; and how to open a collapsed cell (the ⋯) is said once,
// in lesson 00, and nowhere else.
func TestLessonWords(t *testing.T) {
	paths, err := filepath.Glob("notebooks/[0-9][0-9]_*.ipynb")
	if err != nil || len(paths) < 11 {
		t.Fatalf("lessons: %v, %v", paths, err)
	}
	dots := 0
	for _, path := range paths {
		prose, code := lessonText(t, path)
		name := filepath.Base(path)
		if n := len(strings.Fields(prose)); n > maxLessonWords {
			t.Errorf("%s: %d words of prose, want at most %d", name, n, maxLessonWords)
		}
		for _, text := range append([]string{prose}, code...) {
			if m := machineryWords.FindString(text); m != "" {
				t.Errorf("%s: student-facing text speaks of %q: %q", name, m, around(text, m))
			}
		}
		n := strings.Count(prose, "⋯")
		if strings.HasPrefix(name, "00_") {
			dots += n
		} else if n > 0 {
			t.Errorf("%s: says how to open a collapsed cell (the ⋯); only lesson 00 does", name)
		}
	}
	if dots != 1 {
		t.Errorf("lesson 00 mentions the ⋯ %d times, want once", dots)
	}
}

// around returns the text around the first occurrence of s, for a message.
func around(text, s string) string {
	i := strings.Index(text, s)
	return text[max(0, i-60):min(len(text), i+len(s)+60)]
}

// TestMachineryWords checks the pattern of TestLessonWords on sentences it
// must catch and sentences it must let through.
func TestMachineryWords(t *testing.T) {
	for _, s := range []string{"which CI runs", "a saved or headless run", "are regression tests of the package", "Regression-tests"} {
		if !machineryWords.MatchString(s) {
			t.Errorf("%q: not caught", s)
		}
	}
	for _, s := range []string{"CIRCLES", "the circle", "logistic regression", "the decision boundary", "specific"} {
		if machineryWords.MatchString(s) {
			t.Errorf("%q: caught, but it is about the lessons' subject", s)
		}
	}
}
