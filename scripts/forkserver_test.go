package scripts_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// probeReport is what scripts/testdata/forkserver/forkserver_probe.py saw in
// the fork server's child it ran in.
type probeReport struct {
	ResUID        []int             `json:"resuid"`
	ResGID        []int             `json:"resgid"`
	Groups        []int             `json:"groups"`
	Cwd           string            `json:"cwd"`
	Umask         int               `json:"umask"`
	Env           map[string]string `json:"env"`
	FDs           map[string]string `json:"fds"`
	Threads       int               `json:"threads"`
	Nice          int               `json:"nice"`
	SessionLeader bool              `json:"session_leader"`
	Random        float64           `json:"random"`
	Argv          []string          `json:"argv"`
	PID           int               `json:"pid"`
	LabSettings   string            `json:"lab_user_settings_dir"`
}

// forkServer is scripts/system/lessons_forkserver.py started for a test,
// with the probe as the servers' main.
type forkServer struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	stder *strings.Builder
}

// startForkServer starts the fork server at nice -10, as the hub starts it
// (hub_first): its children must not inherit that.
func startForkServer(t *testing.T, python, init string) *forkServer {
	t.Helper()
	return startForkServerAs(t, []string{"nice", "-n", "-10"}, python, init)
}

// startForkServerAs starts the fork server under the command prefix (nice,
// setpriv).
func startForkServerAs(t *testing.T, prefix []string, python, init string) *forkServer {
	t.Helper()
	probeDir, err := filepath.Abs("scripts/testdata/forkserver")
	if err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(prefix[1:]), python, "scripts/system/lessons_forkserver.py", init, "--main", "forkserver_probe:main", "json")
	cmd := exec.Command(prefix[0], args...)
	// What the hub's own environment may hold and a server must not get.
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "PYTHONPATH=" + probeDir, "PYTHONDONTWRITEBYTECODE=1", "HOME=/root", "HUB_SECRET=root-only"}
	fs := &forkServer{cmd: cmd, stder: &strings.Builder{}}
	cmd.Stderr = fs.stder
	if fs.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	fs.out = bufio.NewReader(stdout)
	// A file the fork server holds open, which no child may inherit.
	leak, err := os.Open("scripts/system/lessons_forkserver.py")
	if err != nil {
		t.Fatal(err)
	}
	defer leak.Close()
	cmd.ExtraFiles = []*os.File{leak}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fs.in.Close()
		cmd.Wait()
	})
	return fs
}

// spawn sends one request and returns the child's pid.
func (fs *forkServer) spawn(t *testing.T, req map[string]any) int {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("writing to the fork server: %v\n%s", err, fs.stder)
	}
	line, err := fs.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the fork server's reply: %v\n%s", err, fs.stder)
	}
	var reply struct {
		PID   int    `json:"pid"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &reply); err != nil || reply.PID <= 0 {
		t.Fatalf("fork server reply %q (%v)\n%s", line, err, fs.stder)
	}
	return reply.PID
}

// waitFile waits up to a minute for path to exist and returns its content.
func waitFile(t *testing.T, path string, fs *forkServer) []byte {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			return b
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	t.Fatalf("%s not written within a minute; the fork server's log:\n%s", path, fs.stder)
	return nil
}

// TestForkServerChild checks, from inside the children of the students'
// servers' fork server, that each is what JupyterHub's LocalProcessSpawner
// would have started: the student's uid, gid and groups (none of root's),
// the folder asked for, the hub's umask, exactly the environment the hub
// gave (none of the fork server's own), no file descriptor but 0-2, no
// thread, a session of its own, the lower priority, a random state of its
// own, what the imports computed from HOME (JupyterLab's user settings)
// in the student's, perceptron-lessons-init run first as the student, and SIGINT taken
// as SIGTERM (on which jupyter_server shuts its kernels down).
func TestForkServerChild(t *testing.T) {
	python := forkServerPython(t)
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	const uid, gid, group2 = 65534, 65534, 100 // nobody, nogroup, users
	if err := os.Chown(home, uid, gid); err != nil {
		t.Fatal(err)
	}
	init := filepath.Join(dir, "init")
	if err := os.WriteFile(init, []byte("#!/bin/sh\nid -u >\"$HOME/init-ran-as\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hubUmask := syscall.Umask(0o022)
	syscall.Umask(hubUmask)

	fs := startForkServer(t, python, init)
	env := func(out string) map[string]string {
		return map[string]string{"PATH": "/usr/bin:/bin", "HOME": home, "USER": "nobody", "JUPYTERHUB_API_TOKEN": "student-token", "PROBE_OUT": out}
	}
	student := map[string]any{"uid": uid, "gid": gid, "groups": []int{gid, group2}, "cwd": home}
	out1, out2 := filepath.Join(home, "probe1"), filepath.Join(home, "probe2")
	pid1 := fs.spawn(t, map[string]any{"env": env(out1), "args": []string{"--port=20001"}, "cmd": []string{"/bin/false"}, "nice": 5, "user": student})
	pid2 := fs.spawn(t, map[string]any{"env": env(out2), "args": []string{"--port=20002"}, "cmd": []string{"/bin/false"}, "nice": 5, "user": student})

	var r1, r2 probeReport
	if err := json.Unmarshal(waitFile(t, out1, fs), &r1); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(waitFile(t, out2, fs), &r2); err != nil {
		t.Fatal(err)
	}
	for _, r := range []probeReport{r1, r2} {
		if want := []int{uid, uid, uid}; !slices.Equal(r.ResUID, want) {
			t.Errorf("real, effective, saved uid %v, want %v", r.ResUID, want)
		}
		if want := []int{gid, gid, gid}; !slices.Equal(r.ResGID, want) {
			t.Errorf("real, effective, saved gid %v, want %v", r.ResGID, want)
		}
		if want := []int{group2, gid}; !slices.Equal(r.Groups, want) {
			t.Errorf("groups %v, want %v", r.Groups, want)
		}
		if r.Cwd != home {
			t.Errorf("working folder %s, want %s", r.Cwd, home)
		}
		if r.Umask != hubUmask {
			t.Errorf("umask %#o, want the hub's %#o", r.Umask, hubUmask)
		}
		if want := env(r.Env["PROBE_OUT"]); !maps.Equal(r.Env, want) {
			t.Errorf("environment %v, want exactly %v", r.Env, want)
		}
		for fd, target := range r.FDs {
			if fd != "0" && fd != "1" && fd != "2" {
				t.Errorf("file descriptor %s (%s) open in the child", fd, target)
			}
		}
		if r.FDs["0"] != "/dev/null" {
			t.Errorf("stdin is %s, want /dev/null", r.FDs["0"])
		}
		if want := filepath.Join(home, ".jupyter/lab/user-settings"); r.LabSettings != want {
			t.Errorf("JupyterLab's user settings in %s, want %s (the student's HOME, not the fork server's)", r.LabSettings, want)
		}
		if r.Threads != 1 {
			t.Errorf("%d threads in the child, want 1", r.Threads)
		}
		if r.Nice != 5 {
			t.Errorf("nice %d, want 5 (the request's, whatever the fork server's, %d)", r.Nice, fs.nice(t))
		}
		if !r.SessionLeader {
			t.Error("the child does not lead a session of its own")
		}
	}
	if r1.Random == r2.Random {
		t.Errorf("two children drew the same random number %v: they share the fork server's random state", r1.Random)
	}
	if want := []string{"jupyterhub-singleuser", "--port=20001"}; !slices.Equal(r1.Argv, want) {
		t.Errorf("argv %q, want %q", r1.Argv, want)
	}
	if got := strings.TrimSpace(string(waitFile(t, filepath.Join(home, "init-ran-as"), fs))); got != fmt.Sprint(uid) {
		t.Errorf("perceptron-lessons-init ran as uid %s, want %d", got, uid)
	}

	// The hub stops a server with SIGINT: the child takes it as SIGTERM.
	if err := syscall.Kill(pid1, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(waitFile(t, out1+".term", fs))); got != "SIGTERM" {
		t.Errorf("after SIGINT the probe recorded %q, want SIGTERM", got)
	}
	// Ended children are reaped: the pid is gone, not a zombie that the
	// hub's poll (kill -0) would take for a running server.
	gone := false
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(pid1, 0) != nil {
			gone = true
			break
		}
	}
	if !gone {
		t.Errorf("pid %d still exists after the server ended", pid1)
	}
	syscall.Kill(pid2, syscall.SIGTERM)
}

// TestForkServerHubUser checks the fork server's child for JupyterHub's
// SimpleLocalProcessSpawner (every server as the hub's user, for
// measurements): its home made, and with a single-user application chosen
// in the environment (which the preloaded modules read at import), the
// command run instead of the preloaded main.
func TestForkServerHubUser(t *testing.T) {
	python := forkServerPython(t)
	dir := t.TempDir()
	fs := startForkServer(t, python, "/bin/true")
	home := filepath.Join(dir, "new", "home")
	out := filepath.Join(dir, "probe")
	fs.spawn(t, map[string]any{"env": map[string]string{"HOME": home, "PROBE_OUT": out}, "args": []string{"--x"}, "cmd": []string{"/bin/false"},
		"user": map[string]any{"cwd": home, "makedirs": true}})
	var r probeReport
	if err := json.Unmarshal(waitFile(t, out, fs), &r); err != nil {
		t.Fatal(err)
	}
	if r.Cwd != home || r.ResUID[0] != 0 || r.Nice != fs.nice(t) {
		t.Errorf("working folder %s, uid %d, nice %d; want %s, 0, %d (the fork server's)", r.Cwd, r.ResUID[0], r.Nice, home, fs.nice(t))
	}
	syscall.Kill(r.PID, syscall.SIGTERM)

	script := filepath.Join(dir, "server")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$JUPYTERHUB_SINGLEUSER_APP $*\" >\"$PROBE_OUT\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(dir, "exec")
	fs.spawn(t, map[string]any{"env": map[string]string{"HOME": home, "PROBE_OUT": out, "JUPYTERHUB_SINGLEUSER_APP": "notebook"}, "args": []string{"--a", "b c"},
		"cmd": []string{script}, "user": map[string]any{"cwd": home}})
	if got, want := strings.TrimSpace(string(waitFile(t, out, fs))), "notebook --a b c"; got != want {
		t.Errorf("the command run instead wrote %q, want %q", got, want)
	}
}

// TestForkServerWithoutRoot checks a fork server of a hub without root
// started at a larger nice than the servers' (10 more than the test's,
// against 5): the child, which may not lower its nice, starts anyway, at
// the fork server's.
func TestForkServerWithoutRoot(t *testing.T) {
	python := forkServerPython(t)
	dir, err := os.MkdirTemp("", "forkserver-without-root-") // (t.TempDir's parent is root's alone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	fs := startForkServerAs(t, []string{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "nice", "-n", "10"}, python, "/bin/true")
	home := filepath.Join(dir, "home")
	out := filepath.Join(dir, "probe")
	fs.spawn(t, map[string]any{"env": map[string]string{"HOME": home, "PROBE_OUT": out}, "args": []string{}, "cmd": []string{"/bin/false"},
		"nice": 5, "user": map[string]any{"cwd": home, "makedirs": true}})
	var r probeReport
	if err := json.Unmarshal(waitFile(t, out, fs), &r); err != nil {
		t.Fatal(err)
	}
	// nice -n 10 adds to the nice this test runs at (10 from 0, 19 from
	// a nice go test): the child's is the fork server's, whatever it is.
	want := fs.nice(t)
	if want <= 5 {
		t.Fatalf("the fork server runs at nice %d, want more than the 5 asked for", want)
	}
	if r.ResUID[0] != 65534 || r.Nice != want {
		t.Errorf("the child: uid %d, nice %d; want 65534 and %d (the fork server's)", r.ResUID[0], r.Nice, want)
	}
	syscall.Kill(r.PID, syscall.SIGTERM)
}

// nice is the fork server's nice value (/proc/PID/stat's 19th field).
func (fs *forkServer) nice(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", fs.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	stat := string(b)
	f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:]) // state ppid ...: field 3 on
	n, err := strconv.Atoi(f[16])
	if err != nil {
		t.Fatalf("/proc/%d/stat: %q", fs.cmd.Process.Pid, stat)
	}
	return n
}

// forkServerPython is the Jupyter environment's Python that the fork
// server's tests run it with; they skip without root (the fork server
// changes users) or without the environment.
func forkServerPython(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the fork server changes users: run as root")
	}
	python, err := filepath.Abs(".venv/bin/python")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(python); err != nil {
		t.Skipf("the Jupyter environment (scripts/setup.sh makes .venv): %v", err)
	}
	return python
}
