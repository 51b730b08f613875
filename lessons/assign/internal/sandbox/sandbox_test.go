package sandbox

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestSandboxRefuses checks that the grader stops with a clear message,
// rather than running tests unisolated, when bubblewrap is missing, and
// that an unknown level is an error.
func TestSandboxRefuses(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := New(LevelBwrap, 2048)
	want := "the sandbox needs bubblewrap: apt-get install bubblewrap (or, where user namespaces are blocked, -sandbox=setpriv; see lessons/README.md)"
	if err == nil || err.Error() != want {
		t.Errorf("without bwrap: %v, want %q", err, want)
	}
	if _, err := New("chroot", 2048); err == nil || err.Error() != `unknown -sandbox "chroot": want bwrap, setpriv or none` {
		t.Errorf("unknown level: %v", err)
	}
	sb, err := New(LevelNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := sb.Describe(); !strings.HasPrefix(d, "NO ISOLATION") {
		t.Errorf("level none describes itself as %q", d)
	}
}

// TestEachProcess: the test's own process is among those read, and its
// status's Uid: line gives the uids the kernel reports (real one first).
func TestEachProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc:", err)
	}
	found := false
	eachProcess("status", func(pid int, status string) {
		if pid == os.Getpid() {
			u := statusUIDs(status)
			found = len(u) == 4 && u[0] == strconv.Itoa(os.Getuid()) && u[1] == strconv.Itoa(os.Geteuid())
		}
	})
	if !found {
		t.Errorf("eachProcess did not give this process (pid %d) with its uids", os.Getpid())
	}
	if u := statusUIDs("Name:\tx\nUid:\t1001\t1002\t1003\t1004\nGid:\t5\t5\t5\t5\n"); len(u) != 4 || u[0] != "1001" || u[3] != "1004" {
		t.Errorf("statusUIDs: %q", u)
	}
	if u := statusUIDs("Name:\tx\n"); u != nil {
		t.Errorf("statusUIDs of a status without Uid: %q, want none", u)
	}
}
