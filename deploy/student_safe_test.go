package deploy_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
	"github.com/perceptron-go/lessons/internal/repo"
)

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
	s := repo.LoadSecrets(t, ".")
	dir := studentRelease(t)
	s.CheckTree(t, "the student release", dir, repo.FilesUnder(t, dir), nil)

	dir = studentRelease(t, "--release-solutions", "hw1,hw3_mistake_bound")
	files := repo.FilesUnder(t, dir)
	s.CheckTree(t, "the student release with hw1 and hw3 released", dir, files, []string{"hw1_hyperplanes", "hw3_mistake_bound"})
	for _, want := range []string{"lessons/hw1_hyperplanes/solution.ipynb", "lessons/hw3_mistake_bound/solution.ipynb"} {
		if !slices.Contains(files, want) {
			t.Errorf("--release-solutions hw1,hw3_mistake_bound: the release lacks %s", want)
		}
	}
	// An image built from that release lets the released solutions in.
	image := imageFiles(t, dir)
	s.CheckTree(t, "an image built from the release with hw1 and hw3 released", dir, image, []string{"hw1_hyperplanes", "hw3_mistake_bound"})
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
		"hidden test":    `{"cell_type": "code", "metadata": {}, "execution_count": null, "outputs": [], "source": ["` + repo.BeginHidden + `\n", "` + repo.EndHidden + `\n"]},`,
		"written answer": `{"cell_type": "markdown", "metadata": {}, "source": ["` + repo.BeginAnswer + `\n", "The nearest point is x - t w with t = (w.x + b)/|w|^2.\n", "` + repo.EndAnswer + `\n"]},`,
	} {
		t.Run(name, func(t *testing.T) { releaseRefuses(t, cell) })
	}
}

// releaseRefuses: with cell pasted into hw2's student notebook, the
// release fails, names the file and leaves nothing behind.
func releaseRefuses(t *testing.T, cell string) {
	// A copy of the repository's scripts, go.mod and one assignment, where
	// the cell has been pasted into the student notebook.
	tree := t.TempDir()
	for _, f := range []string{"scripts/student-release.sh", "go.mod", "lessons/hw2_pla/student.ipynb", "lessons/hw2_pla/source.ipynb"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, "student.ipynb") {
			data = bytes.Replace(data, []byte(`"cells": [`), []byte(`"cells": [`+cell), 1)
		}
		if err := os.MkdirAll(filepath.Join(tree, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tree, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(t.TempDir(), "release")
	out, err := exec.Command("bash", filepath.Join(tree, "scripts/student-release.sh"), dest).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "lessons/hw2_pla/student.ipynb") {
		t.Fatalf("a release whose student notebook holds %s: err %v, output %s; want a refusal naming the file", cell, err, out)
	}
	if left := repo.FilesUnder(t, dest); len(left) != 0 {
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
	for _, rel := range repo.FilesUnder(t, dir) {
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
	s := repo.LoadSecrets(t, ".")
	files := imageFiles(t, ".")
	// Only what the build context holds of the repository's own files (not
	// bin/ or .venv/, left out by .dockerignore anyway).
	s.CheckTree(t, "the image (Dockerfile's COPY . and .dockerignore)", ".", files, nil)
	if slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "lessons/assign/") }) {
		t.Error("the image holds lessons/assign/, the grader and its hidden-test fixtures")
	}
}

// sharedInstall makes a shared install's layout (scripts/setup-system.sh) in
// a temporary PREFIX, without root: its lessons/ the student release, its
// lib/lessons-env.sh, lib/lessons-sync.sh and bin/perceptron-lessons-init as set-up writes them,
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
	for f, dst := range map[string]string{"lessons-env.sh": "lib/lessons-env.sh", "lessons-sync.sh": "lib/lessons-sync.sh", "perceptron-lessons-init": "bin/perceptron-lessons-init"} {
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
	s := repo.LoadSecrets(t, ".")
	prefix, env := sharedInstall(t)
	dest := filepath.Join(t.TempDir(), "perceptron-lessons")
	out := lessonsInit(t, prefix, env, dest)
	if !strings.Contains(out, "copying the lessons into "+dest) {
		t.Errorf("the first copy does not say where it copies:\n%s", out)
	}
	s.CheckTree(t, "the student's copy (perceptron-lessons-init)", dest, repo.FilesUnder(t, dest), nil)
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
	read := func(path string) string { return repo.MustRead(t, path) }
	write := func(path, data string) { repo.Write(t, path, data) }
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
	// A Go file the student edited: its new version beside it is not a .go
	// file, so the package still builds with the student's version alone.
	const editedGo = "notebooks/nb/nb.go"
	goWork := read(filepath.Join(dest, editedGo)) + "\n// my change\n"
	write(filepath.Join(dest, editedGo), goWork)
	newGo := read(filepath.Join(prefix, "lessons", editedGo)) + "\n// the instructor's change\n"
	write(filepath.Join(prefix, "lessons", editedGo), newGo)
	goOut := lessonsInit(t, prefix, env, dest)
	goBeside := editedGo + ".updated-" + time.Now().UTC().Format("2006-01-02")
	if got, err := os.ReadFile(filepath.Join(dest, goBeside)); err != nil || string(got) != newGo {
		t.Errorf("the new version of the edited %s is not beside it as %s (%v)", editedGo, goBeside, err)
	}
	if !strings.Contains(goOut, "kept your edited "+editedGo+"; its new version is beside it: "+goBeside) {
		t.Errorf("the update does not name %s; it said:\n%s", goBeside, goOut)
	}
	build := exec.Command("go", "vet", "./notebooks/nb/")
	build.Dir, build.Env = dest, append(os.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("the student's copy does not build after the update kept %s: %v\n%s", editedGo, err, out)
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
	before := repo.FilesUnder(t, dest)
	if out := lessonsInit(t, prefix, env, dest); strings.Contains(out, "perceptron-lessons-init: ") {
		t.Errorf("a second update with nothing new said:\n%s", out)
	}
	if after := repo.FilesUnder(t, dest); !slices.Equal(before, after) {
		t.Errorf("a second update with nothing new changed the files: %v, then %v", before, after)
	}
	if got := read(filepath.Join(dest, edited)); got != studentWork {
		t.Errorf("a second update changed the student's edited %s", edited)
	}
}

// TestLessonsInitCompilesOnlyChangedGo: perceptron-lessons-init compiles
// nothing for a copy whose Go files are those of the shared lessons (the
// prebuilt cache linked into the user's holds its packages), and compiles
// the module of a copy with a Go file of the student's, saying when that
// fails.
func TestLessonsInitCompilesOnlyChangedGo(t *testing.T) {
	prefix, env := sharedInstall(t)
	// A shared prebuilt cache (empty: the copy's packages are not in it, so
	// a build would have to write them into the user's cache).
	if err := os.Mkdir(filepath.Join(prefix, "gocache"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prefix, "gocache.stamp"), []byte("test\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gocache := t.TempDir()
	env = append(env, "GOCACHE="+gocache)
	dest := filepath.Join(t.TempDir(), "perceptron-lessons")
	lessonsInit(t, prefix, env, dest)
	lessonsInit(t, prefix, env, dest)
	var entries []string
	filepath.WalkDir(gocache, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, "-a") {
			entries = append(entries, path)
		}
		return nil
	})
	if len(entries) > 0 {
		t.Errorf("perceptron-lessons-init compiled a copy whose Go files are the shared lessons' (%d build cache entries, such as %s)", len(entries), entries[0])
	}

	// A Go file of the student's in a package of the copy: the module is
	// compiled, and its error reported (here one that go finds before
	// compiling anything: a second package name in the folder).
	if err := os.WriteFile(filepath.Join(dest, "notebooks/nb/view/mine.go"), []byte("package mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(prefix, "bin/perceptron-lessons-init"), dest)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("perceptron-lessons-init %s: %v\n%s", dest, err, out)
	}
	if want := "compiling the lessons' Go module in " + dest + " failed"; !strings.Contains(string(out), want) || !strings.Contains(string(out), "mine.go") {
		t.Errorf("with a Go file of the student's that does not compile, perceptron-lessons-init did not say %q and name the file; it said:\n%s", want, out)
	}
}
