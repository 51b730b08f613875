package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestLessonsPullNeverConflicts does what a student of a clone does (issue
// 31, item 9): opens the lessons with scripts/lessons.sh (which makes the
// working copy my-lessons/), runs a lesson (which rewrites the notebook in
// the copy), and pulls a new upstream commit that changes that lesson and
// another: git pull succeeds and leaves a clean tree, and the next start of
// lessons.sh keeps the student's notebook, puts the new version beside it,
// and replaces the lesson the student never ran.
func TestLessonsPullNeverConflicts(t *testing.T) {
	for _, c := range []string{"bash", "git"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skip("no " + c)
		}
	}
	const ran, untouched, hw = "notebooks/04_batch_pla.ipynb", "notebooks/03_online_perceptron.ipynb", "lessons/hw1_hyperplanes/student.ipynb"
	env := append(os.Environ(), "TZ=UTC", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		return string(out)
	}
	read := func(path string) string { return repo.MustRead(t, path) }
	write := func(path, data string) { repo.Write(t, path, data) }

	// Upstream: the repository's own lessons.sh, lessons-sync.sh,
	// .gitignore and go.mod, and some lessons.
	upstream := filepath.Join(t.TempDir(), "upstream")
	for _, f := range []string{"scripts/lessons.sh", "scripts/system/lessons-sync.sh", ".gitignore", "go.mod",
		"docs/student.md", "notebooks/00_start_here.ipynb", ran, untouched, hw} {
		write(filepath.Join(upstream, f), repo.ReadFile(f))
	}
	run(upstream, "git", "-c", "init.defaultBranch=main", "init", "-q")
	run(upstream, "git", "add", "-A")
	run(upstream, "git", "commit", "-qm", "lessons")
	clone := filepath.Join(t.TempDir(), "clone")
	run(upstream, "git", "clone", "-q", upstream, clone)

	// Open: the working copy, with go.mod above its notebooks.
	out := run(clone, "bash", "scripts/lessons.sh", "--copy-only")
	if !strings.Contains(out, "copying the lessons into my-lessons/") {
		t.Errorf("the first start does not say where the working copy is:\n%s", out)
	}
	mine := filepath.Join(clone, "my-lessons")
	for _, f := range []string{ran, untouched, hw, "docs/student.md"} {
		if read(filepath.Join(mine, f)) != read(filepath.Join(clone, f)) {
			t.Errorf("my-lessons/%s is not a copy of %s", f, f)
		}
	}
	if got := strings.TrimSpace(run(filepath.Join(mine, "notebooks"), "go", "env", "GOMOD")); got != filepath.Join(clone, "go.mod") {
		t.Errorf("from my-lessons/notebooks the setup cell finds go.mod %q, want the clone's", got)
	}

	// Run: the lesson in the copy is rewritten (outputs, execution counts).
	work := strings.Replace(read(filepath.Join(mine, ran)), `"outputs": []`, `"outputs": [{"name": "stdout", "output_type": "stream", "text": ["my run"]}]`, 1)
	if work == read(filepath.Join(mine, ran)) {
		t.Fatalf("%s has no empty outputs to fill", ran)
	}
	write(filepath.Join(mine, ran), work)
	if s := run(clone, "git", "status", "--porcelain"); s != "" {
		t.Errorf("running a lesson in the working copy changed the clone's tracked files:\n%s", s)
	}

	// Upstream changes both lessons; the student pulls.
	newRan := read(filepath.Join(upstream, ran)) + "\n"
	newUntouched := read(filepath.Join(upstream, untouched)) + "\n"
	write(filepath.Join(upstream, ran), newRan)
	write(filepath.Join(upstream, untouched), newUntouched)
	run(upstream, "git", "commit", "-qam", "lessons 03 and 04 changed")
	run(clone, "git", "pull", "-q", "--ff-only")
	if s := run(clone, "git", "status", "--porcelain"); s != "" {
		t.Errorf("after git pull the clone is not clean:\n%s", s)
	}

	// The next start brings the update in and keeps the work.
	out = run(clone, "bash", "scripts/lessons.sh", "--copy-only")
	if got := read(filepath.Join(mine, ran)); got != work {
		t.Errorf("the student's run of %s was not kept", ran)
	}
	beside := strings.TrimSuffix(ran, ".ipynb") + ".updated-" + time.Now().UTC().Format("2006-01-02") + ".ipynb"
	if got := read(filepath.Join(mine, beside)); got != newRan {
		t.Errorf("the new version of %s is not beside it as %s", ran, beside)
	}
	if got := read(filepath.Join(mine, untouched)); got != newUntouched {
		t.Errorf("%s, which the student never ran, was not updated", untouched)
	}
	for _, msg := range []string{
		"lessons.sh: kept your edited " + ran + "; its new version is beside it: " + beside,
		"lessons.sh: updated " + untouched + " (you had not changed it)",
	} {
		if !strings.Contains(out, msg) {
			t.Errorf("the start after the pull does not say %q; it said:\n%s", msg, out)
		}
	}
}
