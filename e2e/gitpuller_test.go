//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/repo"
)

// TestNbgitpuller updates a student's lessons as a course does when its copy
// lives in git (docs/instructor.md, "Updates from git: nbgitpuller"): the real
// nbgitpuller of the Jupyter environment, in a Jupyter server started as
// lessons.sh --lab starts it, pulls from a git repository that `git daemon`
// serves on 127.0.0.1. The first pull clones the course into the student's
// folder; the student then edits one lesson while the instructor commits a
// change to another and a new one; the second pull brings the instructor's
// commit and keeps the student's edit.
func TestNbgitpuller(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git not found: %v", err)
	}
	ctx := browserContext(t)
	tmp := t.TempDir()
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Instructor", "GIT_AUTHOR_EMAIL=i@example.org",
			"GIT_COMMITTER_NAME=Instructor", "GIT_COMMITTER_EMAIL=i@example.org", "GIT_CONFIG_NOSYSTEM=1", "HOME="+tmp)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	write := func(path, content string) { repo.Write(t, path, content) }

	// The instructor's repository, with two lessons.
	repos := filepath.Join(tmp, "repos")
	course := filepath.Join(repos, "course")
	first, err := os.ReadFile(firstLesson)
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(course, "notebooks/00_start_here.ipynb"), string(first))
	write(filepath.Join(course, "notebooks/notes.md"), "# Notes\n\nWeek 1.\n")
	run(repos, "init", "-q", "-b", "main", course)
	run(course, "add", ".")
	run(course, "commit", "-q", "-m", "week 1")

	// git daemon on 127.0.0.1 and a free port, serving repos/.
	port, err := localhub.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	daemon := exec.Command(git, "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", fmt.Sprintf("--port=%d", port),
		"--base-path="+repos, repos)
	daemonLog := filepath.Join(tmp, "git-daemon.log")
	logFile, err := os.Create(daemonLog)
	if err != nil {
		t.Fatal(err)
	}
	daemon.Stdout, daemon.Stderr = logFile, logFile
	daemon.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := daemon.Start(); err != nil {
		t.Fatalf("git daemon: %v", err)
	}
	exited := waitClose(daemon, logFile)
	t.Cleanup(func() { stopGroup(daemon.Process.Pid, exited, 5*time.Second) })
	repoURL := fmt.Sprintf("git://127.0.0.1:%d/course", port)
	for i := 0; ; i++ {
		if exec.Command(git, "ls-remote", repoURL).Run() == nil {
			break
		}
		if i == 50 {
			t.Fatalf("git daemon does not serve %s:\n%s", repoURL, repo.ReadFile(daemonLog))
		}
		time.Sleep(100 * time.Millisecond)
	}

	// The student's server: JupyterLab from the environment, on their home.
	rt := newJupyterRuntime(t)
	home := filepath.Join(tmp, "student")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, ctx, rt, home, serverSpec{
		what: "nbgitpuller test: JupyterLab", base: "/user/student/", log: "jupyterlab.log", hint: notebookSetupHint,
		args: func(port int, token string) []string {
			return []string{"-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port),
				"--port-retries=0", "--ServerApp.root_dir=" + home, "--IdentityProvider.token=" + token,
				"--ServerApp.password=", "--ServerApp.base_url=/user/student/"}
		},
	})
	target := filepath.Join(home, "lessons")
	pull := func(what string) {
		t.Helper()
		events := gitPull(t, ctx, srv, url.Values{"repo": {repoURL}, "branch": {"main"}, "targetpath": {"lessons"}})
		t.Logf("%s: nbgitpuller: %s", what, strings.Join(events, " | "))
	}

	pull("first pull")
	for _, f := range []string{"notebooks/00_start_here.ipynb", "notebooks/notes.md"} {
		if _, err := os.Stat(filepath.Join(target, f)); err != nil {
			t.Fatalf("after the first pull: %v", err)
		}
	}

	// The student writes in the notes; the instructor changes the first
	// lesson and adds a second.
	mine := "# Notes\n\nWeek 1.\n\nMy answer: the margin grows.\n"
	write(filepath.Join(target, "notebooks/notes.md"), mine)
	changed := strings.Replace(string(first), "Start here", "Start here (updated)", 1)
	if changed == string(first) {
		changed = string(first) + "\n"
	}
	write(filepath.Join(course, "notebooks/00_start_here.ipynb"), changed)
	write(filepath.Join(course, "notebooks/01_week2.md"), "# Week 2\n")
	run(course, "add", ".")
	run(course, "commit", "-q", "-m", "week 2")

	pull("second pull")
	if got := repo.ReadFile(filepath.Join(target, "notebooks/00_start_here.ipynb")); got != changed {
		t.Errorf("after the second pull, the instructor's change to 00_start_here.ipynb is missing")
	}
	if _, err := os.Stat(filepath.Join(target, "notebooks/01_week2.md")); err != nil {
		t.Errorf("after the second pull, the instructor's new lesson is missing: %v", err)
	}
	if got := repo.ReadFile(filepath.Join(target, "notebooks/notes.md")); got != mine {
		t.Errorf("after the second pull, the student's notes are %q, want their own %q", got, mine)
	}
	if head := strings.TrimSpace(run(target, "log", "-1", "--format=%s", "origin/main")); head != "week 2" {
		t.Errorf("the student's copy tracks %q, want the instructor's last commit \"week 2\"", head)
	}
}

// gitPull asks the server's nbgitpuller to pull (its /git-pull/api, which
// the page behind a /git-pull link calls) and returns the phases and output
// it streamed; it fails the test unless the pull finished.
func gitPull(t *testing.T, ctx context.Context, srv *jupyterServer, q url.Values) []string {
	t.Helper()
	pctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, srv.base+"/git-pull/api?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+srv.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("nbgitpuller: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("nbgitpuller: %s", resp.Status)
	}
	var events []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var ev struct {
			Phase  string `json:"phase"`
			Output string `json:"output"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &ev); err != nil {
			t.Fatalf("nbgitpuller sent %q: %v", data, err)
		}
		events = append(events, strings.TrimSpace(ev.Phase+" "+ev.Output))
		switch ev.Phase {
		case "finished":
			return events
		case "error":
			t.Fatalf("nbgitpuller failed:\n%s", strings.Join(events, "\n"))
		}
	}
	t.Fatalf("nbgitpuller's stream ended without finishing (%v):\n%s", sc.Err(), strings.Join(events, "\n"))
	return nil
}
