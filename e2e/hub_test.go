//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/perceptron-go/lessons/internal/localhub"
	"github.com/perceptron-go/lessons/internal/repo"
)

// The shared install of scripts/setup.sh --system (see scripts/setup-system.sh).
const (
	defaultSystemPrefix = "/usr/local/lib/perceptron-lessons"
	systemSetupHint     = "run `sudo bash scripts/setup.sh --system` (scripts/test.sh does when run as root)"
	firstLesson         = "notebooks/00_start_here.ipynb"
)

var hubTimeout = flag.Duration("hub.timeout", 12*time.Minute,
	"time limit for TestJupyterHub (two users' first lesson at once, then lesson 3's slider)")

// systemKernelSpec is the kernel spec that scripts/setup.sh --system
// registered for every user: in LESSONS_JUPYTER_DATA, as set-up was given it
// (an install beside another), else in /usr/local/share/jupyter.
func systemKernelSpec() string {
	data := os.Getenv("LESSONS_JUPYTER_DATA")
	if data == "" {
		data = "/usr/local/share/jupyter"
	}
	return filepath.Join(data, "kernels/gonb/kernel.json")
}

// systemPrefix is where scripts/setup.sh --system installed the lessons.
func systemPrefix() string {
	if p := os.Getenv("LESSONS_PREFIX"); p != "" {
		return p
	}
	return defaultSystemPrefix
}

// requireSystemInstall fails the test unless the shared install is in place
// and up to date with this repository: the kernel spec runs its wrapper, the
// prebuilt build cache has its stamp, and its copy of the scripts and the
// JupyterHub configuration are those of this checkout.
func requireSystemInstall(t *testing.T) string {
	t.Helper()
	prefix := systemPrefix()
	b, err := os.ReadFile(systemKernelSpec())
	if err != nil {
		t.Fatalf("the system-wide gonb kernel spec: %v: %s", err, systemSetupHint)
	}
	var spec struct {
		Argv []string `json:"argv"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatalf("%s: %v", systemKernelSpec(), err)
	}
	if want := []string{prefix + "/bin/gonb-kernel", "--kernel", "{connection_file}"}; !slices.Equal(spec.Argv, want) {
		t.Fatalf("%s: argv is %q, want %q: %s", systemKernelSpec(), spec.Argv, want, systemSetupHint)
	}
	if _, err := os.Stat(filepath.Join(prefix, "gocache.stamp")); err != nil {
		t.Fatalf("the prebuilt Go build cache: %v: %s", err, systemSetupHint)
	}
	files := []string{"bin/go", "bin/gonb-kernel", "bin/perceptron-lessons-init", "bin/lessons-singleuser", "lib/lessons-env.sh", "lib/lessons-sync.sh",
		"lib/python/lessons_spawner.py", "lib/python/lessons_forkserver.py", "jupyterhub_config.py"}
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join("scripts/system", filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		configDir := os.Getenv("LESSONS_CONFIG_DIR")
		if configDir == "" {
			configDir = "/etc/perceptron-lessons"
		}
		want := strings.NewReplacer("@PREFIX@", prefix, "@CONFIG@", configDir, "/usr/local/lib/perceptron-lessons", prefix).Replace(string(src))
		got, err := os.ReadFile(filepath.Join(prefix, f))
		if err != nil {
			t.Fatalf("the shared install: %v: %s", err, systemSetupHint)
		}
		// @GOROOT@ is the machine's.
		if i := strings.Index(want, "@GOROOT@"); i >= 0 {
			want = strings.ReplaceAll(want, "@GOROOT@", goroot(t))
		}
		if string(got) != want {
			t.Fatalf("%s differs from scripts/system/%s: the shared install is out of date: %s", filepath.Join(prefix, f), filepath.Base(f), systemSetupHint)
		}
	}
	return prefix
}

func goroot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// timedRun is one execution of a notebook: its wall time and the CPU time
// of the executor, the kernel and what they ran (go build included).
type timedRun struct {
	wall, cpu float64
}

// runTimed executes the notebook at path (in its own folder) with nbclient
// and the gonb kernel found with env, and fails the test if a cell shows an
// error or the kernel does not run it.
func runTimed(t *testing.T, python string, env []string, path string) timedRun {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	cmd := exec.Command(python, "-c", executor, path, dst, fmt.Sprint(int(cellTimeout.Seconds())))
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: executing with nbclient: %v\n%s", path, err, repo.Tail(stderr.String(), 40))
	}
	wall := time.Since(start).Seconds()
	// The rusage of a waited-for process includes its waited-for children:
	// the kernel, go build, the compiler and the cell's program.
	cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	var rep executorReport
	if err := json.Unmarshal(lastLine(stdout.Bytes()), &rep); err != nil {
		t.Fatalf("%s: executor report: %v: %q\n%s", path, err, stdout.String(), repo.Tail(stderr.String(), 40))
	}
	if rep.FailedCell >= 0 || rep.Failure != "" {
		t.Fatalf("%s: cell %d: %s\n%s", path, rep.FailedCell, rep.Failure, repo.Tail(stderr.String(), 40))
	}
	got := repo.ReadNotebook(t, dst)
	committed := repo.ReadNotebook(t, firstLesson)
	if problems := checkExecuted(committed, got); len(problems) > 0 {
		t.Fatalf("%s:\n%s", path, strings.Join(problems, "\n"))
	}
	return timedRun{wall: wall, cpu: cpu}
}

// checkWarm asserts what makes the first lesson warm, then runs it and logs
// its times. The cause: a build of the lesson's cells, as GoNB makes it (a
// module of its own that requires this one by a replace directive, see
// warmCheckModule), compiles nothing but the cell itself. The build runs in
// shell sh, with the kernel's environment env, after setup (a shell command
// that sets Go's environment as the kernel's wrapper does, or ""). Then the
// lesson runs twice through the kernel, and both runs' wall and CPU times are
// logged (timings belong in benchmarks, not in assertions).
func checkWarm(t *testing.T, python string, env []string, path, moduleDir, setup string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	imports := warmCheckModule(t, dir, moduleDir, moduleDir, path)
	script := `cd "$1" && go build -v -o /dev/null . 2>&1`
	if setup != "" {
		script = setup + " && " + script
	}
	cmd := exec.Command("sh", "-c", script, "sh", dir)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: building its cells' packages as GoNB does: %v\n%s", path, err, repo.Tail(string(out), 30))
	}
	if extra := compiledBesides(string(out), warmCheckPath); len(extra) > 0 {
		t.Errorf("%s: a build of its cells compiles %d packages besides the cell, which set-up should have compiled (scripts/prebuild.sh): %v",
			path, len(extra), extra)
	} else {
		t.Logf("%s: a build of its cells (%d imports) compiles only the cell: set-up left nothing to compile", path, len(imports))
	}
	for _, what := range []string{"first run after set-up", "second run"} {
		r := runTimed(t, python, env, path)
		t.Logf("%s: %s: %.1f s wall, %.1f s CPU (kernel and builds)", path, what, r.wall, r.cpu)
	}
}

// warmCheckPath is the module path of warmCheckModule's module.
const warmCheckPath = "gonbcheck"

// warmCheckModule writes into dir the module GoNB builds a notebook's cells
// in: go.mod requires the lessons' module (the go.mod of moduleDir, whose
// requirements it copies, with go.sum) replaced by replaceDir (moduleDir as
// the build sees it), as the notebooks' setup cell does, and main.go imports
// every package the notebook's cells import. It returns those imports.
func warmCheckModule(t *testing.T, dir, moduleDir, replaceDir, notebookPath string) []string {
	t.Helper()
	nb := repo.ReadNotebook(t, notebookPath)
	imports := slices.DeleteFunc(repo.NotebookImports(map[string][]string{notebookPath: nb.CodeSources()}), func(p string) bool { return p == "testing" })
	gomod := []byte(repo.MustRead(t, filepath.Join(moduleDir, "go.mod")))
	gosum := repo.MustRead(t, filepath.Join(moduleDir, "go.sum"))
	module := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(gomod)
	if module == nil {
		t.Fatalf("%s/go.mod names no module", moduleDir)
	}
	mod := regexp.MustCompile(`(?m)^module\s+\S+`).ReplaceAllString(string(gomod), "module "+warmCheckPath)
	mod = regexp.MustCompile(`(?ms)^tool\s*(\(.*?\)|\S+)\s*$`).ReplaceAllString(mod, "")
	mod += fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", module[1], module[1], replaceDir)
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n")
	for _, p := range imports {
		fmt.Fprintf(&main, "\t_ %q\n", p)
	}
	main.WriteString(")\n\nfunc main() {}\n")
	for name, content := range map[string]string{"go.mod": mod, "go.sum": gosum, "main.go": main.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return imports
}

// compiledBesides returns the packages that `go build -v` output says it
// compiled, other than the main package main.
func compiledBesides(out, main string) []string {
	var extra []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && line != main {
			extra = append(extra, line)
		}
	}
	return extra
}

// envWithout returns env without the variables named.
func envWithout(env []string, names ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(names, name)
	})
}

// TestFirstLessonWarm checks what issue 12 asks, that after scripts/setup.sh,
// on an empty Go build cache, lesson 00 runs warm, by its cause: the builds
// of its cells find every package compiled (see checkWarm).
//
// "user": the per-user set-up's prebuild (scripts/prebuild.sh) fills a new,
// empty GOCACHE, then the lesson runs with the user's gonb kernel.
//
// "system": a new user of the shared install (a new, empty HOME, so an empty
// GOCACHE), made by perceptron-lessons-init as JupyterHub's servers do, runs
// the lesson from that copy with the system kernel spec, whose wrapper
// copies the shared prebuilt cache in. Skipped when not root (no shared
// install is made then).
func TestFirstLessonWarm(t *testing.T) {
	t.Run("user", func(t *testing.T) {
		rt := newJupyterRuntime(t)
		gocache := t.TempDir()
		env := append(envWithout(rt.env, "GOCACHE"), "GOCACHE="+gocache)
		cmd := exec.Command("bash", "scripts/prebuild.sh")
		cmd.Env = env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("scripts/prebuild.sh: %v\n%s", err, repo.Tail(string(out), 30))
		} else {
			t.Logf("scripts/prebuild.sh into an empty GOCACHE took %.0fs:\n%s", time.Since(start).Seconds(), repo.Tail(string(out), 3))
		}
		root, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		checkWarm(t, rt.python, env, firstLesson, root, "")
	})
	t.Run("system", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("the shared install (scripts/setup.sh --system) is made only by root")
		}
		prefix := requireSystemInstall(t)
		python, err := filepath.Abs("bin/jupyter-python")
		if err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		// A new user: nothing of root's Go or Jupyter settings, so the kernel
		// is the system one (no user kernel spec in the new data folder).
		env := append(envWithout(os.Environ(), "GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
			"JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"),
			"HOME="+home, "PYDEVD_DISABLE_FILE_VALIDATION=1")
		copyDir := filepath.Join(home, "perceptron-lessons")
		cmd := exec.Command(filepath.Join(prefix, "bin/perceptron-lessons-init"), copyDir)
		cmd.Env = env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("perceptron-lessons-init: %v\n%s", err, repo.Tail(string(out), 30))
		}
		t.Logf("perceptron-lessons-init (copy, build cache, the copy's packages) took %.1fs", time.Since(start).Seconds())
		find := exec.Command(python, "-c", "import jupyter_client.kernelspec as k; print(k.KernelSpecManager().get_kernel_spec('gonb').resource_dir)")
		find.Env = env
		out, err := find.Output()
		if err != nil {
			t.Fatalf("finding the gonb kernel spec: %v\n%s", err, stderrOf(err))
		}
		if got, want := strings.TrimSpace(string(out)), filepath.Dir(systemKernelSpec()); got != want {
			t.Fatalf("a new user's gonb kernel spec is %s, want the system-wide %s", got, want)
		}
		checkWarm(t, python, env, filepath.Join(copyDir, firstLesson), copyDir, ". "+filepath.Join(prefix, "lib/lessons-env.sh"))
		if _, err := os.Stat(filepath.Join(home, ".cache/perceptron-lessons/gonb.log")); err != nil {
			t.Errorf("GoNB's log is not in the user's cache folder: %v", err)
		}
	})
}

// hubUser is a system user made for TestJupyterHub.
type hubUser struct {
	name      string
	uid, gid  int
	home      string
	shots     string
	browser   context.Context
	firstTime float64
}

// createHubUser adds a system user with a home folder and registers, with
// t.Cleanup, the end of every process it still runs (by process id) and its
// removal with its home.
func createHubUser(t *testing.T, name string) *hubUser {
	t.Helper()
	if out, err := exec.Command("useradd", "--create-home", "--shell", "/bin/bash", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v\n%s", name, err, out)
	}
	u := &hubUser{name: name}
	t.Cleanup(func() {
		killUserProcesses(t, u.uid)
		if out, err := exec.Command("userdel", "--remove", name).CombinedOutput(); err != nil {
			t.Errorf("userdel --remove %s: %v\n%s", name, err, out)
		}
	})
	out, err := exec.Command("id", "-u", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	if u.uid, err = strconv.Atoi(strings.TrimSpace(string(out))); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command("id", "-g", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	if u.gid, err = strconv.Atoi(strings.TrimSpace(string(out))); err != nil {
		t.Fatal(err)
	}
	u.home = "/home/" + name
	if out, err := exec.Command("getent", "passwd", name).Output(); err == nil {
		if f := strings.Split(strings.TrimSpace(string(out)), ":"); len(f) >= 6 {
			u.home = f[5]
		}
	}
	return u
}

// userProcesses lists the processes that run as uid, zombies aside: a
// zombie has ended and runs nothing; it waits for its parent to collect it.
func userProcesses(uid int) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) == nil && int(st.Uid) == uid && !isZombie(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// isZombie reports whether process pid has ended and only waits to be
// collected (state Z in /proc/PID/stat).
func isZombie(pid int) bool {
	stat := repo.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := strings.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// killUserProcesses ends what a test user still runs after the hub has
// stopped its server (a kernel or a cell left behind would be a bug: it is
// reported), one process id at a time.
func killUserProcesses(t *testing.T, uid int) {
	if uid == 0 {
		return
	}
	// Processes the hub's stop has signalled may take a moment to end.
	for i := 0; i < 50 && len(userProcesses(uid)) > 0; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	for i := 0; i < 50; i++ {
		pids := userProcesses(uid)
		if len(pids) == 0 {
			return
		}
		if i == 0 {
			var cmds []string
			for _, pid := range pids {
				cmds = append(cmds, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(repo.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)), "\x00", " ")))
			}
			t.Errorf("hub test: user %d still runs %d processes after the hub stopped (ending them):\n    %s", uid, len(pids), strings.Join(cmds, "\n    "))
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hub is a running JupyterHub.
type hub struct {
	base string // http://127.0.0.1:PORT, the proxy's public address
	log  string // the hub's log file
	dir  string // its folder (configuration, database, proxy.pid)
}

// startHub starts the shared install's JupyterHub (its Jupyter environment) on 127.0.0.1 (the proxy's public port,
// the hub's port and the proxy's API port all free ports) with the shared
// install's configuration, the users allowed and a dummy authenticator with
// one password, waits until the login page answers, and registers its
// shutdown (the hub stops the single-user servers and the proxy) with
// t.Cleanup.
func startHub(t *testing.T, ctx context.Context, prefix string, users []*hubUser, password string) *hub {
	t.Helper()
	ports, err := localhub.FreePorts(3)
	if err != nil {
		t.Fatalf("hub test: %v", err)
	}
	dir := t.TempDir()
	var names []string
	for _, u := range users {
		names = append(names, u.name)
	}
	config := fmt.Sprintf(`# TestJupyterHub: the shared install's configuration, then the test's settings.
load_subconfig(%q)
c.JupyterHub.bind_url = "http://127.0.0.1:%d"
# The test drives JupyterLab through its application object.
c.Spawner.args = list(c.Spawner.args) + ["--LabApp.expose_app_in_browser=True"]
`, filepath.Join(prefix, "jupyterhub_config.py"), ports[0]) + localhub.Dummy(password, names) + localhub.Private(dir, ports[1], ports[2])
	configPath := filepath.Join(dir, "jupyterhub_test_config.py")
	if err := os.WriteFile(configPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &hub{base: fmt.Sprintf("http://127.0.0.1:%d", ports[0]), dir: dir}
	h.log = runHub(t, ctx, filepath.Join(prefix, "venv/bin/jupyterhub"), dir, configPath, h.base, 90*time.Second, "PYDEVD_DISABLE_FILE_VALIDATION=1")
	return h
}

// runHub starts jupyterhub (the program) with the configuration
// configPath in dir, its output in dir/jupyterhub.log, which it returns;
// stops it, its process group and the proxy of dir/proxy.pid when the
// test ends (the log's tail if the test failed); and waits until base
// answers /hub/login, failing the test if the hub exits first or does not
// answer within wait (a loaded machine starts a hub slowly).
func runHub(t *testing.T, ctx context.Context, jupyterhub, dir, configPath, base string, wait time.Duration, env ...string) string {
	t.Helper()
	log := filepath.Join(dir, "jupyterhub.log")
	logFile, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jupyterhub, "-f", configPath)
	cmd.Dir = dir
	cmd.Env = append(envWithout(os.Environ(), "JUPYTER_PATH", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR"), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	// The hub's configuration (hub_first) gives its session the share of
	// nice -10; the hub shares this test's session (as on a CI runner), so
	// the session gets its own share back once the hub has stopped.
	if share := repo.ReadFile("/proc/self/autogroup"); strings.Contains(share, " nice ") {
		nice := strings.TrimSpace(share[strings.LastIndex(share, " nice ")+len(" nice "):])
		t.Cleanup(func() { os.WriteFile("/proc/self/autogroup", []byte(nice), 0) })
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("hub test: starting jupyterhub: %v: %s", err, systemSetupHint)
	}
	exited := waitClose(cmd, logFile)
	t.Cleanup(func() {
		// SIGTERM: the hub stops every single-user server (they shut their
		// kernels down) and the proxy; a generous grace for that.
		stopGroup(cmd.Process.Pid, exited, 60*time.Second)
		stopProxy(t, filepath.Join(dir, "proxy.pid"))
		if t.Failed() {
			t.Logf("JupyterHub log (%s):\n%s", log, repo.Tail(repo.ReadFile(log), 60))
		}
	})

	ready, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		resp, err := httpGet(ready, base+"/hub/login")
		if err == nil && resp == 200 {
			return log
		}
		select {
		case <-exited:
			t.Fatalf("hub test: jupyterhub exited before it answered (%v):\n%s", cmd.ProcessState, repo.Tail(repo.ReadFile(log), 40))
		case <-ready.Done():
			t.Fatalf("hub test: jupyterhub did not answer on %s within %v (last: %v, %v):\n%s", base, wait, resp, err, repo.Tail(repo.ReadFile(log), 40))
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// checkHubFirst checks the CPU shares of the hub's processes while the
// users' servers run (jupyterhub_config.py's hub_first): the hub, its fork
// server and the proxy at nice -10, each user's server and kernel at the
// servers' nice, 5, whatever the hub's; and where Linux shares the CPU
// first between sessions (autogroups) and the hub has one of its own, the
// hub's session (with the fork server) and the proxy's at the share of
// nice -10, each server and kernel a session of its own at nice 0 (a
// server's start at nice 5 among sessions made the logins slower and the
// cells too: docs/instructor.md, "The hub and the proxy first"). A process
// started without a session (a CI runner's) is in no autogroup of its own:
// its nice then counts against each session's share.
func checkHubFirst(t *testing.T, h *hub, users []*hubUser) {
	type proc struct {
		pid, ppid, sid, nice int
		group                string // /proc/PID/autogroup: "/autogroup-N nice K", or "" (none of its own)
		cmdline              string
	}
	read := func(pid int) (proc, bool) {
		stat := repo.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		i := strings.LastIndexByte(stat, ')')
		if i < 0 {
			return proc{}, false
		}
		f := strings.Fields(stat[i+1:]) // state ppid pgrp session ... (field 3 on)
		if len(f) < 17 {
			return proc{}, false
		}
		ppid, _ := strconv.Atoi(f[1])
		sid, _ := strconv.Atoi(f[3])
		nice, _ := strconv.Atoi(f[16])
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		return proc{pid, ppid, sid, nice, strings.TrimSpace(repo.ReadFile(fmt.Sprintf("/proc/%d/autogroup", pid))),
			strings.ReplaceAll(string(b), "\x00", " ")}, true
	}
	var all []proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := read(pid); ok {
				all = append(all, p)
			}
		}
	}
	config := filepath.Join(h.dir, "jupyterhub_test_config.py")
	var hubProc, forkServer proc
	for _, p := range all {
		if strings.Contains(p.cmdline, "jupyterhub -f "+config) {
			hubProc = p
		}
	}
	for _, p := range all { // (a second pass: the fork server may come first in /proc)
		if strings.Contains(p.cmdline, "lessons_forkserver.py") && hubProc.pid != 0 && p.ppid == hubProc.pid {
			forkServer = p
		}
	}
	if hubProc.pid == 0 || forkServer.pid == 0 {
		t.Fatalf("the hub (pid %d) or its fork server (pid %d) not found in /proc", hubProc.pid, forkServer.pid)
	}
	pidText := strings.TrimSpace(repo.ReadFile(filepath.Join(h.dir, "proxy.pid")))
	proxyPID, err := strconv.Atoi(pidText)
	if err != nil {
		t.Fatalf("proxy.pid: %q", pidText)
	}
	proxy, ok := read(proxyPID)
	if !ok || !strings.Contains(proxy.cmdline, "configurable-http-proxy") {
		t.Fatalf("pid %d of proxy.pid is not the proxy: %q", proxyPID, proxy.cmdline)
	}
	// Autogroups count where they are on and the hub has one of its own.
	autogroups := strings.TrimSpace(repo.ReadFile("/proc/sys/kernel/sched_autogroup_enabled")) == "1" && hubProc.group != ""
	if !autogroups {
		t.Logf("the hub's autogroup %q (on: %q): the processes' nice alone is checked", hubProc.group, repo.ReadFile("/proc/sys/kernel/sched_autogroup_enabled"))
	}
	for _, p := range []struct {
		name string
		proc
	}{{"the hub", hubProc}, {"the fork server", forkServer}, {"the proxy", proxy}} {
		if p.nice != -10 {
			t.Errorf("%s (pid %d) at nice %d, want -10", p.name, p.pid, p.nice)
		}
	}
	if autogroups {
		if !strings.HasSuffix(hubProc.group, " nice -10") {
			t.Errorf("the hub's session has the CPU share %q, want nice -10", hubProc.group)
		}
		if forkServer.group != hubProc.group {
			t.Errorf("the fork server's CPU share %q is not the hub's %q (a session of its own?)", forkServer.group, hubProc.group)
		}
	}
	// JupyterHub starts the proxy in a session of its own, with an
	// autogroup of its own where Linux has them.
	if proxy.sid == hubProc.sid || autogroups && !strings.HasSuffix(proxy.group, " nice -10") {
		t.Errorf("the proxy: session %d with the CPU share %q, want a session of its own (JupyterHub starts it so) at nice -10", proxy.sid, proxy.group)
	}
	for _, u := range users {
		var server, kernel bool
		for _, pid := range userProcesses(u.uid) {
			p, ok := read(pid)
			if !ok {
				continue
			}
			switch {
			case p.ppid == forkServer.pid: // the server
				server = true
			case strings.Contains(p.cmdline, "/bin/gonb --force_deps"): // (gonb-kernel's exec)
				kernel = true
			default:
				continue
			}
			if p.nice != 5 || p.sid == hubProc.sid || autogroups && (!strings.HasSuffix(p.group, " nice 0") || p.group == hubProc.group) {
				t.Errorf("%s: %q (pid %d, session %d) at nice %d with the CPU share %q, want nice 5 in a session of its own (at nice 0 where autogroups count)", u.name, p.cmdline, pid, p.sid, p.nice, p.group)
			}
		}
		if !server || !kernel {
			t.Errorf("%s: server found %v, GoNB kernel found %v (want both running)", u.name, server, kernel)
		}
	}
}

// stopProxy ends the configurable-http-proxy whose pid file is given, if the
// hub left it running.
func stopProxy(t *testing.T, pidFile string) {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return // the hub removed it when it stopped the proxy
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return
	}
	if syscall.Kill(pid, 0) == nil && strings.Contains(repo.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)), "configurable-http-proxy") {
		t.Errorf("hub test: the proxy (pid %d) still runs after the hub stopped; ending it", pid)
		syscall.Kill(pid, syscall.SIGTERM)
	}
}

func httpGet(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// login signs the user in on the hub's login page in their browser, as a
// student does, and waits until the hub has started their server (which
// first copies the lessons into their home) and shows its notebook list.
func login(t *testing.T, ctx context.Context, h *hub, u *hubUser, password string) {
	t.Helper()
	start := time.Now()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(h.base+"/hub/login"),
		chromedp.WaitVisible(chromedp.ID("username_input")),
		chromedp.SendKeys(chromedp.ID("username_input"), u.name),
		chromedp.SendKeys(chromedp.ID("password_input"), password),
		chromedp.Click(chromedp.ID("login_submit")),
	); err != nil {
		t.Fatalf("%s: signing in on %s/hub/login: %v", u.name, h.base, err)
	}
	// The hub's default URL: the lessons' folder, listed by JupyterLab's file
	// browser.
	want := h.base + "/user/" + u.name + "/lab/tree/perceptron-lessons/notebooks"
	listed := `[...document.querySelectorAll('.jp-DirListing-itemText')].some(e => e.textContent.trim() === '00_start_here.ipynb')`
	var loc string
	for {
		var err error
		loc, err = chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + (`+listed+` ? ' LISTED' : '')`))
		if err == nil && strings.HasPrefix(loc, want) && strings.HasSuffix(loc, " LISTED") {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: after signing in, waiting for %s to list 00_start_here.ipynb: %v (page: %q)", u.name, want, ctx.Err(), loc)
		case <-time.After(500 * time.Millisecond):
		}
	}
	t.Logf("%s: signed in; the server started and listed the lessons in %.1fs", u.name, time.Since(start).Seconds())
}

// TestJupyterHub serves the lessons to a class as scripts/setup.sh --system
// and its JupyterHub configuration (docs/instructor.md, "A class on one server") do: it
// starts the shared install's JupyterHub 5.5 (its Jupyter environment, with
// configurable-http-proxy from npm) on 127.0.0.1 with its
// configuration and a dummy authenticator, makes two system users, and in
// one headless Chromium each they sign in on the login page, get their
// server at /user/NAME/ (with their own copy of the lessons) and run lesson 00
// with Run All, both at the same time; each must finish with no error
// and with every figure of the committed notebook drawn, in JupyterLab 4.6,
// the front end the install serves (as the Docker image and Zero to
// JupyterHub do). Then the first user
// moves lesson 3's slider (a GoNB widget, whose websocket must reach the
// kernel under /user/NAME/). It also checks that new notebooks default to the
// gonb kernel, and that GoNB's log is in each user's own cache folder.
//
// The hub, the proxy, the users' servers, kernels and browsers are stopped,
// and the users removed with their homes, in every case. It needs root
// (useradd, a hub that spawns servers as other users) and is skipped
// otherwise; CI runs as root.
func TestJupyterHub(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("TestJupyterHub creates system users and runs JupyterHub as root: run it as root (CI does)")
	}
	prefix := requireSystemInstall(t)
	for _, cmd := range []string{"venv/bin/jupyterhub", "venv/bin/jupyterhub-singleuser", "proxy/node_modules/.bin/configurable-http-proxy"} {
		if _, err := os.Stat(filepath.Join(prefix, cmd)); err != nil {
			t.Fatalf("hub test: %v: %s", err, systemSetupHint)
		}
	}
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("hub test: Chromium not found (%v): %s", err, browserSetupHint)
	}
	deadline := time.Now().Add(*hubTimeout)
	if d, ok := t.Deadline(); ok && d.Add(-90*time.Second).Before(deadline) {
		deadline = d.Add(-90 * time.Second)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	t.Cleanup(cancel)

	suffix := fmt.Sprintf("%x", time.Now().UnixNano()&0xffffff)
	users := []*hubUser{createHubUser(t, "plhub1"+suffix), createHubUser(t, "plhub2"+suffix)}
	password := fmt.Sprintf("pw-%x", time.Now().UnixNano())
	h := startHub(t, ctx, prefix, users, password)

	shots := shotsDir(t, "hub")
	for _, u := range users {
		u.shots = filepath.Join(shots, u.name)
		if err := os.MkdirAll(u.shots, 0o755); err != nil {
			t.Fatal(err)
		}
		u.browser = startChromium(t, ctx, chromium)
	}
	committed := repo.ReadNotebook(t, firstLesson)
	rel := "perceptron-lessons/" + firstLesson

	t.Run("lesson 00, two users at once", func(t *testing.T) {
		for _, u := range users {
			t.Run(u.name, func(t *testing.T) {
				t.Parallel()
				tab, closeTab := chromedp.NewContext(u.browser)
				defer closeTab()
				lctx, cancel := context.WithTimeout(tab, 4*time.Minute)
				defer cancel()
				login(t, lctx, h, u, password)
				checkLabFeatures(t, lctx, append(slices.Clone(labFeatures), hubFeatures...))
				// What JupyterLab's launcher offers: the kernel specs its
				// service manager read from the server.
				kernel, err := chromedp.Run(lctx, chromedp.Evaluate[string](`(async () => {
					const m = window.jupyterapp.serviceManager.kernelspecs;
					await m.ready;
					return m.specs.default;
				})()`, chromedp.EvalAwaitPromise))
				if err != nil {
					t.Errorf("%s: reading the server's default kernel: %v", u.name, err)
				} else if kernel != "gonb" {
					t.Errorf("%s: the server's default kernel for new notebooks is %q, want \"gonb\"", u.name, kernel)
				}
				start := time.Now()
				srv := &jupyterServer{base: h.base + "/user/" + u.name, shots: "lab_"}
				runInLab(t, u.browser, srv, rel, committed, u.shots)
				u.firstTime = time.Since(start).Seconds()
				if log := filepath.Join(u.home, ".cache/perceptron-lessons/gonb.log"); !ownedBy(log, u.uid) {
					t.Errorf("%s: GoNB's log %s is missing or not the user's", u.name, log)
				}
			})
		}
	})
	for _, u := range users {
		t.Logf("%s: lesson 00 opened and run in %.1fs (first lesson on this user's new build cache; the two ran at once)", u.name, u.firstTime)
	}
	if entries, err := filepath.Glob(filepath.Join(prefix, "*", "gonb.log")); err == nil && len(entries) > 0 {
		t.Errorf("GoNB wrote a log into the shared install: %v", entries)
	}
	if t.Failed() {
		return
	}
	t.Run("the hub and the proxy first", func(t *testing.T) { checkHubFirst(t, h, users) })

	t.Run("widget", func(t *testing.T) {
		u := users[0]
		// The lesson as committed, under a name of its own (its live cell
		// serves the slider in a browser).
		b, err := os.ReadFile(widgetNotebook)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte(widgetMarker)); n != 1 {
			t.Fatalf("%s: %q occurs %d times, want once (its live cell)", widgetNotebook, widgetMarker, n)
		}
		name := strings.TrimSuffix(filepath.Base(widgetNotebook), ".ipynb") + "_widget.ipynb"
		path := filepath.Join(u.home, "perceptron-lessons/notebooks", name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(path, u.uid, u.gid); err != nil {
			t.Fatal(err)
		}
		srv := &jupyterServer{base: h.base + "/user/" + u.name, shots: "lab_"}
		runWidgetInLab(t, u.browser, srv, "perceptron-lessons/notebooks/"+name, u.shots)
	})
}

// ownedBy reports whether path is a regular file owned by uid.
func ownedBy(path string, uid int) bool {
	var st syscall.Stat_t
	return syscall.Stat(path, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && int(st.Uid) == uid
}

// TestJupyterHubConfigReadme checks that the instructor guide (docs/instructor.md) shows the JupyterHub
// configuration that set-up installs and TestJupyterHub runs, word for word,
// in its section "A class on one server (JupyterHub)".
func TestJupyterHubConfigReadme(t *testing.T) {
	sec, ok := repo.Section(repo.MustRead(t, "docs/instructor.md"), "A class on one server (JupyterHub)")
	if !ok {
		t.Fatal(`docs/instructor.md has no "## A class on one server (JupyterHub)" section`)
	}
	config, err := os.ReadFile("scripts/system/jupyterhub_config.py")
	if err != nil {
		t.Fatal(err)
	}
	block := "```python\n" + string(config) + "```\n"
	if !strings.Contains(sec, block) {
		t.Errorf("docs/instructor.md's section \"A class on one server (JupyterHub)\" does not show scripts/system/jupyterhub_config.py word for word in a ```python block")
	}
}
