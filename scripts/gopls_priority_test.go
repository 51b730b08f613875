//go:build linux

package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestGoplsWrapperPriority checks that the gopls wrapper (scripts/gopls)
// runs gopls where a class's cells come first (issue 31, item 8): in a
// session of its own, whose autogroup has nice 19, at nice 19 itself, as
// the same process the caller started where it may start a session, and
// ended with the process GoNB started where it may not (GoNB starts it as
// a process group leader and stops it by its pid), with GoNB's arguments
// after -listen.timeout; and that
// LESSONS_GOPLS_NICE=off leaves gopls in the kernel's session at the
// kernel's nice. A stand-in gopls.bin reports what it got.
func TestGoplsWrapperPriority(t *testing.T) {
	if _, err := os.Stat("/proc/self/autogroup"); err != nil {
		t.Skip("no autogroups on this kernel")
	}
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := filepath.Join(bin, "gopls")
	src, err := os.ReadFile(filepath.Join(root, "scripts", "gopls"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wrapper, src, 0o755); err != nil {
		t.Fatal(err)
	}
	// The stand-in prints its pid, session, nice, autogroup line and
	// arguments, one a line.
	standIn := "#!/bin/sh\nset -e\nstat=$(cat /proc/$$/stat)\n" +
		"echo \"pid $$\"\necho \"sid $(echo \"$stat\" | awk '{print $6}')\"\n" +
		"echo \"nice $(echo \"$stat\" | awk '{print $19}')\"\necho \"autogroup $(cat /proc/self/autogroup)\"\n" +
		"echo \"args $*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "gopls.bin"), []byte(standIn), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(env ...string) (pid int, report map[string]string) {
		t.Helper()
		cmd := exec.Command(wrapper, "-listen", "unix;/tmp/x.sock")
		cmd.Env = append(os.Environ(), env...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid = cmd.Process.Pid
		if err := cmd.Wait(); err != nil {
			t.Fatalf("wrapper: %v\n%s", err, out.String())
		}
		report = map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			k, v, _ := strings.Cut(line, " ")
			report[k] = v
		}
		return pid, report
	}
	ourSID, err := getsid()
	if err != nil {
		t.Fatal(err)
	}
	ourNice := niceOf(t, os.Getpid())

	pid, r := run("LESSONS_PREFIX=")
	if r["pid"] != strconv.Itoa(pid) {
		t.Errorf("gopls ran as pid %s, not the wrapper's %d (a fork: GoNB could not stop it)", r["pid"], pid)
	}
	if r["sid"] != strconv.Itoa(pid) {
		t.Errorf("gopls's session %s, want a session of its own (%d)", r["sid"], pid)
	}
	if !strings.HasSuffix(r["autogroup"], " nice 19") {
		t.Errorf("gopls's autogroup %q, want nice 19", r["autogroup"])
	}
	if r["nice"] != "19" {
		t.Errorf("gopls's nice %s, want 19", r["nice"])
	}
	if r["args"] != "-listen.timeout=30s -listen unix;/tmp/x.sock" {
		t.Errorf("gopls's arguments %q", r["args"])
	}

	// As GoNB starts it: a process group leader (Setpgid), which setsid
	// must fork for; GoNB stops gopls with SIGKILL to that pid, and gopls
	// must end with it.
	sleeper := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(sleeper, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sleeper, "gopls"), src, 0o755); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	if err := os.WriteFile(filepath.Join(sleeper, "gopls.bin"), []byte("#!/bin/sh\necho $$ >"+pidFile+".tmp\nmv "+pidFile+".tmp "+pidFile+"\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(sleeper, "gopls"))
	cmd.Env = append(os.Environ(), "LESSONS_PREFIX=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var gopls int
	for deadline := time.Now().Add(10 * time.Second); gopls == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			gopls, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	if gopls == 0 {
		cmd.Process.Kill()
		t.Fatal("the stand-in gopls did not start")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	gone := false
	for deadline := time.Now().Add(5 * time.Second); !gone && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		gone = syscall.Kill(gopls, 0) != nil
	}
	if !gone {
		syscall.Kill(gopls, syscall.SIGKILL)
		t.Errorf("gopls [%d] still ran 5 s after GoNB killed the process it started", gopls)
	}

	_, r = run("LESSONS_PREFIX=", "LESSONS_GOPLS_NICE=off")
	if r["sid"] != strconv.Itoa(ourSID) || r["nice"] != strconv.Itoa(ourNice) {
		t.Errorf("LESSONS_GOPLS_NICE=off: session %s nice %s, want the caller's %d and %d", r["sid"], r["nice"], ourSID, ourNice)
	}
}

// getsid returns the session of this process.
func getsid() (int, error) {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(sid), nil
}

// niceOf returns the nice value of process pid (field 19 of its stat).
func niceOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndex(s, ")")+2:])
	n, err := strconv.Atoi(f[16]) // field 19 overall: the third after ")" is field 3
	if err != nil {
		t.Fatal(err)
	}
	return n
}
