//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/repo"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// The class of TestClassTerm: its own accounts and group, so that a real
// class on the machine is never touched.
const (
	termGroup   = "perceptron-term-test"
	termTeacher = "termteach"
	termHW      = "hw1_hyperplanes"
)

var termStudents = []struct{ login, id, name string }{
	{"termstu1", "9001", "One, Student"},
	{"termstu2", "9002", "Two, Student"},
	{"termstu3", "9003", "Three, Student"},
}

// termRun runs a command with env added, in dir, and returns its output;
// a failure ends the test with the output.
func termRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, repo.Tail(string(out), 60))
	}
	return string(out)
}

// copyCheckout copies the files git knows of this checkout (as they are in
// the work tree) into dst: the course's repository, which the test then
// changes for the mid-term update.
func copyCheckout(t *testing.T, dst string) {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// hubAPI is a student's (or the test's) client of the hub's REST API and
// of their server's, with a token.
type hubAPI struct {
	base, token string
}

func (c *hubAPI) do(ctx context.Context, method, path string, body, out any) (int, error) {
	return localhub.API{Base: c.base, Token: c.token}.Do(ctx, method, path, body, out)
}

// termLogin asks the hub for a token with the student's name and password
// (PAM checks them, as at the login page).
func termLogin(ctx context.Context, base, login, password string) (*hubAPI, int, error) {
	c := &hubAPI{base: base}
	var tok struct {
		Token string `json:"token"`
	}
	code, err := c.do(ctx, http.MethodPost, "/hub/api/users/"+login+"/tokens",
		map[string]any{"auth": map[string]string{"username": login, "password": password}, "note": "term test"}, &tok)
	c.token = tok.Token
	return c, code, err
}

// startServer starts the student's server (which runs
// perceptron-lessons-init) and waits until the hub says it is ready.
func (c *hubAPI) startServer(t *testing.T, ctx context.Context, login string) {
	t.Helper()
	if _, err := c.do(ctx, http.MethodPost, "/hub/api/users/"+login+"/server", nil, nil); err != nil {
		t.Fatalf("%s: starting the server: %v", login, err)
	}
	c.waitServer(t, ctx, login, "start", time.Second, func(servers map[string]hubServer) bool {
		s, ok := servers[""]
		if !ok {
			t.Fatalf("%s: the server failed to start (the hub gave up on it)", login)
		}
		return s.Ready
	})
}

// stopServer stops the student's server and waits until it has.
func (c *hubAPI) stopServer(t *testing.T, ctx context.Context, login string) {
	t.Helper()
	if _, err := c.do(ctx, http.MethodDelete, "/hub/api/users/"+login+"/server", nil, nil); err != nil {
		t.Fatalf("%s: stopping the server: %v", login, err)
	}
	c.waitServer(t, ctx, login, "stop", 500*time.Millisecond, func(servers map[string]hubServer) bool {
		return len(servers) == 0
	})
}

// hubServer is what the hub's API says of a user's server.
type hubServer struct {
	Ready bool `json:"ready"`
}

// waitServer asks the hub for the student's servers every pause until done
// says yes; it fails the test if the hub does not answer or ctx ends (the
// server did not start or stop: what).
func (c *hubAPI) waitServer(t *testing.T, ctx context.Context, login, what string, pause time.Duration, done func(servers map[string]hubServer) bool) {
	t.Helper()
	for {
		var u struct {
			Servers map[string]hubServer `json:"servers"`
		}
		if _, err := c.do(ctx, http.MethodGet, "/hub/api/users/"+login, nil, &u); err != nil {
			t.Fatalf("%s: waiting for the server to %s: %v", login, what, err)
		}
		if done(u.Servers) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: the server did not %s: %v", login, what, ctx.Err())
		case <-time.After(pause):
		}
	}
}

// save writes a notebook into the student's copy through their server's
// contents API, as JupyterLab's save does.
func (c *hubAPI) save(t *testing.T, ctx context.Context, login, path string, nb []byte) {
	t.Helper()
	var content any
	if err := json.Unmarshal(nb, &content); err != nil {
		t.Fatal(err)
	}
	if _, err := c.do(ctx, http.MethodPut, "/user/"+login+"/api/contents/perceptron-lessons/"+path,
		map[string]any{"type": "notebook", "format": "json", "content": content}, nil); err != nil {
		t.Fatalf("%s: saving %s: %v", login, path, err)
	}
}

// withAnswer returns the notebook nb with the markdown cell of cell ID id
// replaced by text.
func withAnswer(t *testing.T, nb []byte, id, text string) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(nb, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range doc["cells"].([]any) {
		cell := c.(map[string]any)
		if cell["id"] == id {
			cell["source"] = text
			found = true
		}
	}
	if !found {
		t.Fatalf("no cell %s", id)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestClassTerm walks one term of a class on one server, as
// docs/instructor.md tells an instructor to run it: the shared install
// (scripts/setup.sh --system, into a prefix of its own, from a copy of this
// checkout); the roster from a Canvas export (three students and the
// instructor; run twice, the second changes nothing; then a student drops
// and is locked); the instructor's settings in the local configuration
// file (the hub listens where it says); the JupyterHub of the install with
// PAM, where the students log in with the passwords the roster gave
// (the dropped one cannot); privacy (one student cannot read the other's
// notebook); two students work on hw1 through their servers; a mid-term
// update (a fixed notebook) that keeps their work, the local settings and
// the roster and says what it changed; collection; grading; the written
// answers' pages and sheet; and export with a late policy and the written
// points, the gradebook checked cell by cell. It needs root and is
// skipped otherwise. LESSONS_TERM_PREFIX (default
// /var/tmp/perceptron-lessons-term) keeps the install's Jupyter environment
// and build cache between runs.
func TestClassTerm(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("TestClassTerm makes accounts and runs JupyterHub: run it as root")
	}
	repoDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	prefix := termPrefix()
	cfgDir := prefix + "-etc"
	os.RemoveAll(cfgDir)
	work := t.TempDir()
	os.Chmod(work, 0o755)
	course := filepath.Join(work, "course")
	copyCheckout(t, course)
	setupEnv := termSetupEnv(prefix, cfgDir)
	install := prefix + "/prefix"

	// 1. The shared install.
	out := termRun(t, course, setupEnv, "bash", "scripts/setup.sh", "--system", "--no-apt")
	local := filepath.Join(cfgDir, "jupyterhub_config.local.py")
	if !strings.Contains(out, "wrote "+local) {
		t.Errorf("the first install does not say it wrote %s:\n%s", local, repo.Tail(out, 20))
	}

	// 2. The roster: a Canvas gradebook export. The test's accounts are
	// removed at the end, and first what an interrupted run left.
	removeAccounts := func() {
		for _, s := range append(termStudents, struct{ login, id, name string }{termTeacher, "", ""}) {
			termEndUser(uidOf(s.login))
			exec.Command("userdel", "--remove", s.login).Run()
		}
		exec.Command("groupdel", termGroup).Run()
	}
	removeAccounts()
	t.Cleanup(removeAccounts)
	var roster strings.Builder
	roster.WriteString("Student,ID,SIS User ID,SIS Login ID,Section,hw1_hyperplanes (1201)\n    Points Possible,,,,,13\n")
	for _, s := range termStudents {
		fmt.Fprintf(&roster, "%q,%s,S%s,%s,Section 1,\n", s.name, s.id, s.id, s.login)
	}
	rosterCSV := filepath.Join(work, "roster.csv")
	os.WriteFile(rosterCSV, []byte(roster.String()), 0o600)
	passwords := filepath.Join(work, "passwords.csv")
	rosterArgs := []string{"run", "./lessons/assign", "roster", "-group", termGroup, "-admin", termTeacher, "-config-dir", cfgDir, "-passwords", passwords}
	dry := termRun(t, repoDir, nil, "go", append(append([]string{}, rosterArgs...), "-n", rosterCSV)...)
	if !strings.Contains(dry, "3 students, 1 admins; 5 changes") || !strings.Contains(dry, "dry run: nothing changed") || uidOf("termstu1") >= 0 {
		t.Fatalf("roster -n:\n%s", dry)
	}
	termRun(t, repoDir, nil, "go", append(append([]string{}, rosterArgs...), rosterCSV)...)
	if again := termRun(t, repoDir, nil, "go", append(append([]string{}, rosterArgs...), rosterCSV)...); !strings.Contains(again, "; 0 changes") {
		t.Errorf("the second roster run changed something:\n%s", again)
	}
	pw := map[string]string{}
	for _, r := range repo.ReadCSV(t, passwords) {
		pw[r[0]] = r[1]
	}
	for _, s := range termStudents {
		home := "/home/" + s.login
		if fi, err := os.Stat(home); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, want mode 0700 (%v)", home, fi.Mode().Perm(), err)
		}
		if pw[s.login] == "" {
			t.Errorf("no first password of %s in %s", s.login, passwords)
		}
	}
	// termstu3 drops.
	dropped := strings.Replace(roster.String(), fmt.Sprintf("%q,9003,S9003,termstu3,Section 1,\n", "Three, Student"), "", 1)
	os.WriteFile(rosterCSV, []byte(dropped), 0o600)
	if out := termRun(t, repoDir, nil, "go", append(append([]string{}, rosterArgs...), rosterCSV)...); !strings.Contains(out, "lock termstu3") {
		t.Errorf("the dropped student is not locked:\n%s", out)
	}

	// 3. The instructor's settings: the hub's address (and completion off).
	ports, err := localhub.FreePorts(3)
	if err != nil {
		t.Fatal(err)
	}
	settings := fmt.Sprintf("\n# the term's settings\nc.JupyterHub.bind_url = \"http://127.0.0.1:%d\"\nc.Spawner.environment = {\"LESSONS_COMPLETION\": \"off\"}\n", ports[0])
	f, err := os.OpenFile(local, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(settings)
	f.Close()
	localBefore := repo.ReadFile(local)
	rosterBefore := repo.ReadFile(filepath.Join(cfgDir, "roster.json"))

	// 4. The hub, with PAM (the shipped default) and the install's files.
	hubDir := filepath.Join(work, "hub")
	os.MkdirAll(hubDir, 0o700)
	testConfig := fmt.Sprintf("load_subconfig(%q)\n", filepath.Join(install, "jupyterhub_config.py")) +
		localhub.Private(hubDir, ports[1], ports[2]) +
		fmt.Sprintf("c.Spawner.environment.update({\"JUPYTER_PATH\": %q})\n", prefix+"/share/jupyter")
	if err := os.WriteFile(filepath.Join(hubDir, "config.py"), []byte(testConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", ports[0]) // the local file's address
	runHub(t, ctx, filepath.Join(install, "venv/bin/jupyterhub"), hubDir, filepath.Join(hubDir, "config.py"), base, 5*time.Minute)

	// 5. Logins: the two students with their first passwords; the dropped
	// one cannot, nor a wrong password.
	if _, code, err := termLogin(ctx, base, "termstu3", pw["termstu3"]); err == nil || code != 403 {
		t.Errorf("the dropped student logged in (%d, %v)", code, err)
	}
	if _, code, err := termLogin(ctx, base, "termstu1", "wrong"); err == nil || code != 403 {
		t.Errorf("a wrong password logged in (%d, %v)", code, err)
	}
	api := map[string]*hubAPI{}
	for _, s := range termStudents[:2] {
		c, _, err := termLogin(ctx, base, s.login, pw[s.login])
		if err != nil {
			t.Fatalf("%s cannot log in: %v", s.login, err)
		}
		api[s.login] = c
		c.startServer(t, ctx, s.login)
	}

	// 6. Privacy.
	nbPath := "lessons/" + termHW + "/student.ipynb"
	for _, p := range []string{"/home/termstu1", "/home/termstu1/perceptron-lessons"} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v (%v), want 0700", p, fi.Mode().Perm(), err)
		}
	}
	if out, err := exec.Command("runuser", "-u", "termstu2", "--", "head", "/home/termstu1/perceptron-lessons/"+nbPath).CombinedOutput(); err == nil || !strings.Contains(string(out), "Permission denied") {
		t.Errorf("termstu2 reads termstu1's notebook (%v):\n%s", err, out)
	}
	if out, err := exec.Command("runuser", "-u", "termstu1", "--", "head", "-c", "1", "/home/termstu1/perceptron-lessons/"+nbPath).CombinedOutput(); err != nil {
		t.Errorf("termstu1 cannot read their own notebook: %v\n%s", err, out)
	}

	// 7. The students work: termstu1 hands in hw1 solved (its worked
	// answers too), termstu2 the notebook as handed out with one written
	// answer. The due date is before both; termstu1 has an extension.
	due := time.Now().Truncate(time.Second).Add(-time.Second)
	time.Sleep(2 * time.Second)
	solution, _ := os.ReadFile(filepath.Join(repoDir, "lessons", termHW, "solution.ipynb"))
	student, _ := os.ReadFile(filepath.Join(repoDir, "lessons", termHW, "student.ipynb"))
	api["termstu1"].save(t, ctx, "termstu1", nbPath, solution)
	answer := "**Your derivation (a)** (read by the instructor; not autograded):\n\nMy derivation: p = x - t w lies on H."
	api["termstu2"].save(t, ctx, "termstu2", nbPath, withAnswer(t, student, "c08fd5e0", answer))
	work1 := repo.ReadFile("/home/termstu1/perceptron-lessons/" + nbPath)

	// 8. The mid-term update: a fixed hw1 notebook, set-up run again.
	fixed := filepath.Join(course, "lessons", termHW, "student.ipynb")
	b, _ := os.ReadFile(fixed)
	os.WriteFile(fixed, bytes.Replace(b, []byte("# Assignment 1: hyperplanes"), []byte("# Assignment 1 (fixed): hyperplanes"), 1), 0o644)
	out = termRun(t, course, setupEnv, "bash", "scripts/setup.sh", "--system", "--no-apt")
	if !strings.Contains(out, "lessons: changed lessons/"+termHW+"/student.ipynb") {
		t.Errorf("the update does not say it changed the notebook:\n%s", repo.Tail(out, 20))
	}
	if repo.ReadFile(local) != localBefore || repo.ReadFile(filepath.Join(cfgDir, "roster.json")) != rosterBefore {
		t.Errorf("the update changed the local settings or the roster")
	}
	for _, s := range termStudents[:2] {
		api[s.login].stopServer(t, ctx, s.login)
		api[s.login].startServer(t, ctx, s.login)
	}
	if got := repo.ReadFile("/home/termstu1/perceptron-lessons/" + nbPath); got != work1 {
		t.Errorf("the update changed termstu1's work")
	}
	beside, _ := filepath.Glob("/home/termstu1/perceptron-lessons/lessons/" + termHW + "/student.updated-*.ipynb")
	if len(beside) != 1 || !strings.Contains(repo.ReadFile(beside[0]), "Assignment 1 (fixed)") {
		t.Errorf("the fixed notebook is not beside termstu1's work: %v", beside)
	}
	if code, err := httpGet(ctx, base+"/hub/login"); err != nil || code != 200 {
		t.Errorf("after the update the hub no longer answers where the local file says: %d %v", code, err)
	}

	// 9. Collect, grade, the written answers, export.
	subs := filepath.Join(work, "submissions")
	out = termRun(t, repoDir, nil, "go", "run", "./lessons/assign", "collect", "-assignment", termHW, "-config-dir", cfgDir, "-out", subs)
	if !strings.Contains(out, "2 of 2 students") {
		t.Errorf("collect: %s", out)
	}
	grades := filepath.Join(work, "grades")
	termRun(t, repoDir, nil, "go", "run", "./lessons/assign", "grade", "-assignment", termHW, "-out", grades, subs)
	a, err := assignment.LoadAssignment(filepath.Join(repoDir, "lessons", termHW))
	if err != nil {
		t.Fatal(err)
	}
	auto := a.MaxScore()
	scores := map[string]string{}
	for _, r := range repo.ReadCSV(t, filepath.Join(grades, "grades.csv"))[1:] {
		scores[r[0]] = r[4]
	}
	if want := strconv.FormatFloat(auto, 'g', -1, 64); scores["termstu1"] != want || scores["termstu2"] != "0" {
		t.Fatalf("grades.csv: %v, want termstu1 %s, termstu2 0", scores, want)
	}
	written := filepath.Join(work, "written")
	termRun(t, repoDir, nil, "go", "run", "./lessons/assign", "written", "-assignment", termHW, "-out", written, "-jupyter", filepath.Join(install, "venv/bin/jupyter"), subs)
	page := repo.ReadFile(filepath.Join(written, "termstu2_9002_0_student.html"))
	if i, j := strings.Index(page, "My derivation: p = x - t w lies on H."), strings.Index(page, "The notebook as handed in"); i < 0 || j < 0 || i > j {
		t.Errorf("termstu2's page does not show the written answer before the notebook (%d, %d)", i, j)
	}
	sheet := repo.ReadCSV(t, filepath.Join(written, "written.csv"))
	if !slices.Equal(sheet[0], []string{"student", "student_id", "submission", "ex1a (max 2)", "ex2a (max 2)"}) || len(sheet) != 3 {
		t.Fatalf("written.csv: %q", sheet)
	}
	// The instructor scores: termstu1 2 and 1.5, termstu2 1 (ex2a left empty).
	for _, r := range sheet[1:] {
		switch r[0] {
		case "termstu1":
			r[3], r[4] = "2", "1.5"
		case "termstu2":
			r[3] = "1"
		}
	}
	var sb strings.Builder
	cw := csv.NewWriter(&sb)
	cw.WriteAll(sheet)
	os.WriteFile(filepath.Join(written, "written.csv"), []byte(sb.String()), 0o600)
	ext := filepath.Join(work, "extensions.csv")
	os.WriteFile(ext, []byte("student,due\ntermstu1,"+time.Now().Add(time.Hour).UTC().Format(time.RFC3339)+"\n"), 0o600)
	canvas := filepath.Join(work, "canvas.csv")
	out = termRun(t, repoDir, nil, "go", "run", "./lessons/assign", "export", "-grades", filepath.Join(grades, "grades.csv"), "-o", canvas,
		"-due", due.UTC().Format(time.RFC3339), "-extensions", ext, "-late-penalty", "5%/day", "-written", filepath.Join(written, "written.csv"))
	if !strings.Contains(out, "termstu2") || !strings.Contains(out, "1 day(s) late") {
		t.Errorf("export does not report termstu2's late submission:\n%s", out)
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	possible := auto + 4
	want := [][]string{
		{"Student", "ID", "SIS User ID", "SIS Login ID", "Section", termHW, termHW + " late days"},
		{"Points Possible", "", "", "", "", num(possible), ""},
		{"termstu1", "9001", "", "", "", num(auto + 3.5), "0"},
		{"termstu2", "9002", "", "", "", num(math.Round((1-0.05*possible)*1e6) / 1e6), "1"},
	}
	got := repo.ReadCSV(t, canvas)
	slices.SortFunc(got[2:], func(x, y []string) int { return strings.Compare(x[0], y[0]) })
	if len(got) != len(want) {
		t.Fatalf("canvas.csv: %d rows, want %d:\n%q", len(got), len(want), got)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("canvas.csv row %d: %q, want %q", i+1, got[i], want[i])
			continue
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("canvas.csv row %d, column %q: %q, want %q", i+1, want[0][j], got[i][j], want[i][j])
			}
		}
	}
}

// termEndUser ends what a test account still runs, by process id, before
// the account is removed: the hub has stopped their servers, which on a
// loaded machine may take a while to exit (TestJupyterHub checks that
// nothing outlives the hub).
func termEndUser(uid int) {
	if uid <= 0 {
		return
	}
	for i := 0; i < 300 && len(userProcesses(uid)) > 0; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	for i := 0; i < 50 && len(userProcesses(uid)) > 0; i++ {
		for _, pid := range userProcesses(uid) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// uidOf returns the user ID of login, or -1 if there is no such account.
func uidOf(login string) int {
	out, err := exec.Command("id", "-u", login).Output()
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return -1
	}
	return n
}
