package deploy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// The grader's markers (lessons/assign/generate.go), written in two parts so
// that no line of this file is one.
var (
	beginSolution = "// BEGIN " + "SOLUTION"
	endSolution   = "// END " + "SOLUTION"
	beginHidden   = "// BEGIN " + "HIDDEN TESTS"
	// A written answer's worked solution, in a markdown cell of a source.
	beginAnswer = "<!-- BEGIN " + "SOLUTION -->"
	endAnswer   = "<!-- END " + "SOLUTION -->"
	endHidden   = "// END " + "HIDDEN TESTS"
)

// secrets is what no student artifact may hold before its release: for each
// assignment (lessons/NAME/source.ipynb), the distinctive lines of its
// solutions and of its hidden tests.
type secrets struct {
	solution, hidden map[string][]string // assignment folder -> lines
}

// codeLines returns the lines of a notebook's cells, or of any other file.
func codeLines(path string, data []byte) []string {
	if strings.HasSuffix(path, ".ipynb") {
		var nb notebook
		if json.Unmarshal(data, &nb) == nil {
			var lines []string
			for _, c := range nb.Cells {
				lines = append(lines, strings.Split(multiline(c.Source), "\n")...)
			}
			return lines
		}
	}
	return strings.Split(string(data), "\n")
}

// loadSecrets reads every assignment's source.ipynb. A line is distinctive
// when, trimmed, it is at least 24 characters long, is no comment and is
// neither in the assignment's student notebook (whose stubs share
// signatures) nor in a lesson under notebooks/ (lesson 09 builds the Gram
// matrix as hw5's solution does: what the lessons teach is no secret).
func loadSecrets(t *testing.T, root string) secrets {
	t.Helper()
	s := secrets{solution: map[string][]string{}, hidden: map[string][]string{}}
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
			case strings.HasPrefix(tl, beginSolution), strings.HasPrefix(tl, beginAnswer):
				in = &sol
			case strings.HasPrefix(tl, beginHidden):
				in = &hid
			case strings.HasPrefix(tl, endSolution), strings.HasPrefix(tl, endHidden), strings.HasPrefix(tl, endAnswer):
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

// check returns why the file rel (relative to an artifact's root) may not be
// given to students; released lists the assignments whose solution.ipynb may
// be. A file holds an assignment's solution or hidden tests when it has a
// line opening one, or three of its distinctive lines (all, if fewer).
func (s secrets) check(rel string, data []byte, released []string) []string {
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
		if strings.HasPrefix(tl, beginHidden) || (strings.HasPrefix(tl, beginSolution) || strings.HasPrefix(tl, beginAnswer)) && !releasedSolution {
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

// checkTree checks every file of an artifact, given as paths relative to
// root, and that it holds what students need: the lessons and each
// assignment's student notebook.
func (s secrets) checkTree(t *testing.T, what, root string, files []string, released []string) {
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
		for _, p := range s.check(rel, data, released) {
			t.Errorf("%s gives students %s", what, p)
		}
	}
}

// filesUnder lists the regular files under dir, relative to it, with "/".
func filesUnder(t *testing.T, dir string) []string {
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

// TestSecretsCheck: the check finds each kind of leak in a file made from
// the real source notebooks, and passes the student notebooks.
func TestSecretsCheck(t *testing.T) {
	s := loadSecrets(t, ".")
	student, err := os.ReadFile("lessons/hw2_pla/student.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.check("lessons/hw2_pla/student.ipynb", student, nil); len(p) != 0 {
		t.Errorf("the student notebook is reported: %v", p)
	}
	// The solution code itself, with no marker, pasted into a Go file.
	code := strings.Join(s.solution["hw2_pla"], "\n")
	if p := s.check("perceptron/x.go", []byte(code), nil); len(p) == 0 {
		t.Error("a Go file holding hw2's solution code is not reported")
	}
	hidden := strings.Join(s.hidden["hw3_mistake_bound"], "\n")
	if p := s.check("notes.txt", []byte(hidden), []string{"hw3_mistake_bound"}); len(p) == 0 {
		t.Error("hw3's hidden tests are not reported, even with its solutions released")
	}
	if p := s.check("x.go", []byte("x := 1\n\t"+beginHidden+"\n"), nil); len(p) == 0 {
		t.Error("a line opening hidden tests is not reported")
	}
	sol, err := os.ReadFile("lessons/hw1_hyperplanes/solution.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.check("lessons/hw1_hyperplanes/solution.ipynb", sol, nil); len(p) == 0 {
		t.Error("an unreleased solution.ipynb is not reported")
	}
	if p := s.check("lessons/hw1_hyperplanes/solution.ipynb", sol, []string{"hw1_hyperplanes"}); len(p) != 0 {
		t.Errorf("hw1's released solution.ipynb is reported: %v", p)
	}
	if p := s.check("lessons/hw1_hyperplanes/source.ipynb", []byte("{}"), []string{"hw1_hyperplanes"}); len(p) == 0 {
		t.Error("a source.ipynb is not reported")
	}
}

// studentRelease runs scripts/student-release.sh into a new folder.
func studentRelease(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "release")
	out, err := exec.Command("bash", append(append([]string{"scripts/student-release.sh"}, args...), dir)...).CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/student-release.sh %v: %v\n%s", args, err, out)
	}
	return dir
}

// TestStudentRelease: the release for nbgitpuller and the shared install
// holds the lessons and no secret, and with --release-solutions the named
// solutions only; a release that would leak is refused.
func TestStudentRelease(t *testing.T) {
	s := loadSecrets(t, ".")
	dir := studentRelease(t)
	s.checkTree(t, "the student release", dir, filesUnder(t, dir), nil)

	dir = studentRelease(t, "--release-solutions", "hw1,hw3_mistake_bound")
	files := filesUnder(t, dir)
	s.checkTree(t, "the student release with hw1 and hw3 released", dir, files, []string{"hw1_hyperplanes", "hw3_mistake_bound"})
	for _, want := range []string{"lessons/hw1_hyperplanes/solution.ipynb", "lessons/hw3_mistake_bound/solution.ipynb"} {
		if !slices.Contains(files, want) {
			t.Errorf("--release-solutions hw1,hw3_mistake_bound: the release lacks %s", want)
		}
	}
	// An image built from that release lets the released solutions in.
	image := imageFiles(t, dir)
	s.checkTree(t, "an image built from the release with hw1 and hw3 released", dir, image, []string{"hw1_hyperplanes", "hw3_mistake_bound"})
	if !slices.Contains(image, "lessons/hw1_hyperplanes/solution.ipynb") || slices.Contains(image, "lessons/hw2_pla/solution.ipynb") {
		t.Error("an image built from the release with hw1 and hw3 released does not hold exactly their solutions")
	}

	out, err := exec.Command("bash", "scripts/student-release.sh", "--release-solutions", "hw9", filepath.Join(t.TempDir(), "r")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no assignment hw9") {
		t.Errorf("--release-solutions hw9: err %v, output %s; want a refusal naming hw9", err, out)
	}
}

// TestStudentReleaseRefusesLeaks: a file that would still hold hidden tests,
// or the worked answer of a written question, after the release's exclusions
// makes it fail and leaves nothing behind.
func TestStudentReleaseRefusesLeaks(t *testing.T) {
	for name, cell := range map[string]string{
		"hidden test":    `{"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": ["` + beginHidden + `\n", "` + endHidden + `\n"]},`,
		"written answer": `{"cell_type": "markdown", "metadata": {}, "source": ["` + beginAnswer + `\n", "The nearest point is x - t w with t = (w.x + b)/|w|^2.\n", "` + endAnswer + `\n"]},`,
	} {
		t.Run(name, func(t *testing.T) { releaseRefuses(t, cell) })
	}
}

// releaseRefuses: with cell pasted into hw2's student notebook, the
// release fails, names the file and leaves nothing behind.
func releaseRefuses(t *testing.T, cell string) {
	// A copy of the repository's scripts, go.mod and one assignment, where
	// the cell has been pasted into the student notebook.
	repo := t.TempDir()
	for _, f := range []string{"scripts/student-release.sh", "go.mod", "lessons/hw2_pla/student.ipynb", "lessons/hw2_pla/source.ipynb"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, "student.ipynb") {
			data = bytes.Replace(data, []byte(`"cells": [`), []byte(`"cells": [`+cell), 1)
		}
		if err := os.MkdirAll(filepath.Join(repo, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(t.TempDir(), "release")
	out, err := exec.Command("bash", filepath.Join(repo, "scripts/student-release.sh"), dest).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "lessons/hw2_pla/student.ipynb") {
		t.Fatalf("a release whose student notebook holds %s: err %v, output %s; want a refusal naming the file", cell, err, out)
	}
	if left := filesUnder(t, dest); len(left) != 0 {
		t.Errorf("the refused release left %v", left)
	}
}

// imageFiles lists the files that the Dockerfile's `COPY . ${HOME}` puts
// into the image from the build context dir: every file not excluded by its
// .dockerignore, read as Docker reads it (moby/patternmatcher). It fails if
// the Dockerfile copies anything else into the image (COPY of another
// source, ADD), which this list would not show.
func imageFiles(t *testing.T, dir string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	ins, err := parseDockerfile(string(src))
	if err != nil {
		t.Fatal(err)
	}
	copies := 0
	for _, in := range ins {
		switch in.cmd {
		case "ADD":
			t.Fatalf("Dockerfile:%d: ADD: the image's file list is computed from COPY . only", in.line)
		case "COPY":
			var args []string
			for _, a := range strings.Fields(in.args) {
				if !strings.HasPrefix(a, "--") {
					args = append(args, a)
				}
			}
			if len(args) != 2 || args[0] != "." {
				t.Fatalf("Dockerfile:%d: COPY %s: the image's file list is computed from COPY . only", in.line, in.args)
			}
			copies++
		}
	}
	if copies != 1 {
		t.Fatalf("the Dockerfile has %d COPY instructions, want the one COPY . of the build context", copies)
	}
	f, err := os.Open(filepath.Join(dir, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	patterns, err := ignorefile.ReadAll(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, rel := range filesUnder(t, dir) {
		excluded, err := pm.MatchesOrParentMatches(rel)
		if err != nil {
			t.Fatal(err)
		}
		if !excluded {
			files = append(files, rel)
		}
	}
	return files
}

// TestImageFilesStudentSafe: the image built from this repository (Docker,
// Binder, Zero to JupyterHub) gets no source.ipynb, solution, hidden test or
// grader. (TestDockerImage lists the files of the image it builds and checks
// them the same way.)
func TestImageFilesStudentSafe(t *testing.T) {
	s := loadSecrets(t, ".")
	files := imageFiles(t, ".")
	// Only what the build context holds of the repository's own files (not
	// bin/ or .venv/, left out by .dockerignore anyway).
	s.checkTree(t, "the image (Dockerfile's COPY . and .dockerignore)", ".", files, nil)
	if slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "lessons/assign/") }) {
		t.Error("the image holds lessons/assign/, the grader and its hidden-test fixtures")
	}
}

// sharedInstall makes a shared install's layout (scripts/setup-system.sh) in
// a temporary PREFIX, without root: its lessons/ the student release, its
// lib/lessons-env.sh and bin/perceptron-lessons-init as set-up writes them,
// its module cache this user's own (the modules go.sum names, downloaded by
// setup.sh). It returns PREFIX and the environment of a user whose HOME is
// a new folder.
func sharedInstall(t *testing.T) (prefix string, env []string) {
	t.Helper()
	prefix = filepath.Join(t.TempDir(), "prefix")
	for _, d := range []string{"bin", "lib"} {
		if err := os.MkdirAll(filepath.Join(prefix, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	for f, dst := range map[string]string{"lessons-env.sh": "lib/lessons-env.sh", "perceptron-lessons-init": "bin/perceptron-lessons-init"} {
		data, err := os.ReadFile(filepath.Join("scripts/system", f))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(data, []byte("@PREFIX@"), []byte(prefix))
		data = bytes.ReplaceAll(data, []byte("@GOROOT@"), []byte(goEnv("GOROOT")))
		if err := os.WriteFile(filepath.Join(prefix, dst), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	release := studentRelease(t)
	if err := os.Rename(release, filepath.Join(prefix, "lessons")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(goEnv("GOMODCACHE"), filepath.Join(prefix, "gomodcache")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env = append(os.Environ(), "HOME="+home, "GOCACHE="+goEnv("GOCACHE"), "TZ=UTC")
	return prefix, env
}

// lessonsInit runs the install's perceptron-lessons-init into dest.
func lessonsInit(t *testing.T, prefix string, env []string, dest string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(prefix, "bin/perceptron-lessons-init"), dest)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("perceptron-lessons-init %s: %v\n%s", dest, err, out)
	}
	if strings.Contains(string(out), "failed") {
		t.Fatalf("perceptron-lessons-init %s:\n%s", dest, out)
	}
	return string(out)
}

// TestPerUserCopyStudentSafe: the copy that a shared install's
// perceptron-lessons-init gives each student holds the lessons, builds, and
// holds no secret.
func TestPerUserCopyStudentSafe(t *testing.T) {
	s := loadSecrets(t, ".")
	prefix, env := sharedInstall(t)
	dest := filepath.Join(t.TempDir(), "perceptron-lessons")
	out := lessonsInit(t, prefix, env, dest)
	if !strings.Contains(out, "copying the lessons into "+dest) {
		t.Errorf("the first copy does not say where it copies:\n%s", out)
	}
	s.checkTree(t, "the student's copy (perceptron-lessons-init)", dest, filesUnder(t, dest), nil)
}

// TestLessonsUpdateKeepsWork: run again after the install changed,
// perceptron-lessons-init adds a new file, replaces a notebook the student
// never edited, and keeps one the student edited with the new version beside
// it, saying so; run once more, it changes nothing.
func TestLessonsUpdateKeepsWork(t *testing.T) {
	prefix, env := sharedInstall(t)
	dest := filepath.Join(t.TempDir(), "perceptron-lessons")
	lessonsInit(t, prefix, env, dest)

	const edited, untouched, added = "notebooks/04_batch_pla.ipynb", "notebooks/03_online_perceptron.ipynb", "lessons/hw1_hyperplanes/solution.ipynb"
	read := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{edited, untouched} {
		if _, err := os.Stat(filepath.Join(dest, f)); err != nil {
			t.Fatalf("the first copy lacks %s: %v", f, err)
		}
	}
	// The student edits one notebook; the instructor changes it and another
	// in the install, and releases a solution.
	studentWork := strings.Replace(read(filepath.Join(dest, edited)), `"cells": [`, `"cells": [{"cell_type": "markdown", "metadata": {}, "source": ["my notes"]},`, 1)
	write(filepath.Join(dest, edited), studentWork)
	newEdited := read(filepath.Join(prefix, "lessons", edited)) + "\n"
	newUntouched := read(filepath.Join(prefix, "lessons", untouched)) + "\n"
	solution := read(filepath.Join("lessons", added[len("lessons/"):]))
	write(filepath.Join(prefix, "lessons", edited), newEdited)
	write(filepath.Join(prefix, "lessons", untouched), newUntouched)
	write(filepath.Join(prefix, "lessons", added), solution)

	out := lessonsInit(t, prefix, env, dest)
	if got := read(filepath.Join(dest, edited)); got != studentWork {
		t.Errorf("the student's edited %s was not kept", edited)
	}
	// The new version beside it, named for today (UTC, as TZ says).
	beside := filepath.Join(dest, strings.TrimSuffix(edited, ".ipynb")+".updated-"+time.Now().UTC().Format("2006-01-02")+".ipynb")
	if got, err := os.ReadFile(beside); err != nil || string(got) != newEdited {
		t.Errorf("the new version of the edited %s is not beside it as %s (%v)", edited, beside, err)
	}
	if got := read(filepath.Join(dest, untouched)); got != newUntouched {
		t.Errorf("%s, which the student never edited, was not replaced by the new version", untouched)
	}
	if got := read(filepath.Join(dest, added)); got != solution {
		t.Errorf("the new file %s was not added", added)
	}
	for _, msg := range []string{
		"kept your edited " + edited + "; its new version is beside it: " + strings.TrimPrefix(beside, dest+"/"),
		"updated " + untouched + " (you had not changed it)",
		"added " + added,
	} {
		if !strings.Contains(out, msg) {
			t.Errorf("the update does not say %q; it said:\n%s", msg, out)
		}
	}
	if strings.Count(out, "perceptron-lessons-init: ") != 3 {
		t.Errorf("the update said more than the three changes:\n%s", out)
	}

	// Run again with nothing new: nothing changes, nothing is said.
	before := filesUnder(t, dest)
	if out := lessonsInit(t, prefix, env, dest); strings.Contains(out, "perceptron-lessons-init: ") {
		t.Errorf("a second update with nothing new said:\n%s", out)
	}
	if after := filesUnder(t, dest); !slices.Equal(before, after) {
		t.Errorf("a second update with nothing new changed the files: %v, then %v", before, after)
	}
	if got := read(filepath.Join(dest, edited)); got != studentWork {
		t.Errorf("a second update changed the student's edited %s", edited)
	}
}
