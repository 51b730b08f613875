package repo

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
)

// The grader's markers (lessons/assign/generate.go), written in two parts so
// that no line of this file is one.
var (
	BeginSolution = "// BEGIN " + "SOLUTION"
	EndSolution   = "// END " + "SOLUTION"
	BeginHidden   = "// BEGIN " + "HIDDEN TESTS"
	// A written answer's worked solution, in a markdown cell of a source.
	BeginAnswer = "<!-- BEGIN " + "SOLUTION -->"
	EndAnswer   = "<!-- END " + "SOLUTION -->"
	EndHidden   = "// END " + "HIDDEN TESTS"
)

// Secrets is what no student artifact may hold before its release: for each
// assignment (lessons/NAME/source.ipynb), the distinctive lines of its
// solutions and of its hidden tests.
type Secrets struct {
	solution, hidden map[string][]string // assignment folder -> lines
}

// codeLines returns the lines of a notebook's cells, or of any other file.
func codeLines(path string, data []byte) []string {
	if strings.HasSuffix(path, ".ipynb") {
		if nb, err := notebook.Parse(data); err == nil {
			var lines []string
			for _, c := range nb.Cells {
				lines = append(lines, strings.Split(c.Source, "\n")...)
			}
			return lines
		}
	}
	return strings.Split(string(data), "\n")
}

// LoadSecrets reads every assignment's source.ipynb. A line is distinctive
// when, trimmed, it is at least 24 characters long, is no comment and is
// neither in the assignment's student notebook (whose stubs share
// signatures) nor in a lesson under notebooks/ (lesson 09 builds the Gram
// matrix as hw5's solution does: what the lessons teach is no secret).
func LoadSecrets(t *testing.T, root string) Secrets {
	t.Helper()
	s := Secrets{solution: map[string][]string{}, hidden: map[string][]string{}}
	taught := map[string]bool{}
	lessons, err := filepath.Glob(filepath.Join(root, "notebooks", "*.ipynb"))
	if err != nil || len(lessons) == 0 {
		t.Fatalf("no notebooks/*.ipynb under %s (%v)", root, err)
	}
	for _, path := range lessons {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range codeLines(path, data) {
			taught[strings.TrimSpace(l)] = true
		}
	}
	sources, err := filepath.Glob(filepath.Join(root, "lessons", "*", "source.ipynb"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no lessons/*/source.ipynb under %s (%v): nothing to check the artifacts against", root, err)
	}
	for _, path := range sources {
		dir := filepath.Dir(path)
		name := filepath.Base(dir)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		student := maps.Clone(taught)
		if sd, err := os.ReadFile(filepath.Join(dir, "student.ipynb")); err == nil {
			for _, l := range codeLines("student.ipynb", sd) {
				student[strings.TrimSpace(l)] = true
			}
		}
		var in *[]string
		var sol, hid []string
		for _, l := range codeLines(path, data) {
			tl := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(tl, BeginSolution), strings.HasPrefix(tl, BeginAnswer):
				in = &sol
			case strings.HasPrefix(tl, BeginHidden):
				in = &hid
			case strings.HasPrefix(tl, EndSolution), strings.HasPrefix(tl, EndHidden), strings.HasPrefix(tl, EndAnswer):
				in = nil
			case in != nil && len(tl) >= 24 && !strings.HasPrefix(tl, "//") && !student[tl]:
				*in = append(*in, tl)
			}
		}
		if len(sol) == 0 || len(hid) == 0 {
			t.Fatalf("%s: found %d distinctive solution lines and %d hidden-test lines; each assignment has both", path, len(sol), len(hid))
		}
		s.solution[name], s.hidden[name] = sol, hid
	}
	return s
}

// Check returns why the file rel (relative to an artifact's root) may not be
// given to students; released lists the assignments whose solution.ipynb may
// be. A file holds an assignment's solution or hidden tests when it has a
// line opening one, or three of its distinctive lines (all, if fewer).
func (s Secrets) Check(rel string, data []byte, released []string) []string {
	var problems []string
	rel = filepath.ToSlash(rel)
	base := filepath.Base(rel)
	assignment := filepath.Base(filepath.Dir(rel))
	isSolution := base == "solution.ipynb" || strings.HasSuffix(base, "_solution.ipynb")
	releasedSolution := isSolution && strings.HasPrefix(rel, "lessons/") && slices.Contains(released, assignment)
	if base == "source.ipynb" || strings.HasSuffix(base, "_source.ipynb") {
		problems = append(problems, rel+": an assignment's source (solutions and hidden tests)")
	}
	if isSolution && !releasedSolution {
		problems = append(problems, rel+": a solution not released")
	}
	lines := codeLines(rel, data)
	have := map[string]bool{}
	for i, l := range lines {
		tl := strings.TrimSpace(l)
		have[tl] = true
		if strings.HasPrefix(tl, BeginHidden) || (strings.HasPrefix(tl, BeginSolution) || strings.HasPrefix(tl, BeginAnswer)) && !releasedSolution {
			problems = append(problems, fmt.Sprintf("%s:%d: %q", rel, i+1, tl))
		}
	}
	holds := func(kind string, m map[string][]string, skip string) {
		for name, want := range m {
			if name == skip {
				continue
			}
			var found []string
			for _, l := range want {
				if have[l] {
					found = append(found, l)
				}
			}
			if len(found) >= min(3, len(want)) {
				problems = append(problems, fmt.Sprintf("%s: holds %d lines of %s's %s, such as %q", rel, len(found), name, kind, found[0]))
			}
		}
	}
	skip := ""
	if releasedSolution {
		skip = assignment
	}
	holds("solutions", s.solution, skip)
	holds("hidden tests", s.hidden, "")
	return problems
}

// CheckTree checks every file of an artifact, given as paths relative to
// root, and that it holds what students need: the lessons and each
// assignment's student notebook.
func (s Secrets) CheckTree(t *testing.T, what, root string, files []string, released []string) {
	t.Helper()
	if len(files) == 0 {
		t.Fatalf("%s: no files", what)
	}
	for _, need := range []string{"go.mod", "go.sum", "notebooks/00_start_here.ipynb", "perceptron/data.go"} {
		if !slices.Contains(files, need) {
			t.Errorf("%s: lacks %s, which students need", what, need)
		}
	}
	for name := range s.solution {
		if !slices.Contains(files, "lessons/"+name+"/student.ipynb") {
			t.Errorf("%s: lacks lessons/%s/student.ipynb", what, name)
		}
	}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Check(rel, data, released) {
			t.Errorf("%s gives students %s", what, p)
		}
	}
}

// FilesUnder lists the regular files under dir, relative to it, with "/".
func FilesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
