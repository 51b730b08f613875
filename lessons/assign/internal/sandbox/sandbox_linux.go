package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// sandboxSupported says the bwrap and setpriv levels can run here.
const sandboxSupported = true

// SysProcAttr puts a child in a session (and so a process group) of its
// own, killed if the grader dies. Where Linux shares the CPU first between
// sessions (autogroups), each test's trusted process and student's tree
// then get a share of their own, and a test's trusted side does not wait
// behind whatever else runs in the grader's session.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// KillGroup kills the process group of pid.
func KillGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

// killPid kills the process pid.
func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

// uidLockDir holds the lock files by which the grader processes of one
// machine claim the test uids of the setpriv level: root's alone (a folder
// another user made or could enter is refused), in /run, which is root's,
// or in the temporary folder of a system without /run.
var uidLockDir = func() string {
	if fi, err := os.Stat("/run"); err == nil && fi.IsDir() {
		return "/run/perceptron-assign-uids"
	}
	return filepath.Join(os.TempDir(), "perceptron-assign-uids")
}()

// claimUID returns a test uid that no other test holds now, in this grader
// process or in another one running at the same time (an instructor
// grading several assignments at once), and its release: an exclusive
// flock on the uid's file, which the kernel also drops when the process
// dies. The lowest free uid is taken, so the files stay as few as the
// tests that ever ran at once. Call release only after everything of the
// uid is gone (removeUID).
func claimUID() (uid int, release func(), err error) {
	if err := os.Mkdir(uidLockDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return 0, nil, fmt.Errorf("sandbox: the folder of the test uids' locks: %w", err)
	}
	fi, err := os.Lstat(uidLockDir)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: the folder of the test uids' locks: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || st.Uid != uint32(os.Geteuid()) || fi.Mode().Perm()&0o077 != 0 {
		return 0, nil, fmt.Errorf("sandbox: %s must be a folder of the grader's user (uid %d) that no one else may enter; it is %v, uid %d: remove it", uidLockDir, os.Geteuid(), fi.Mode(), st.Uid)
	}
	for n := range testUIDCount {
		f, err := os.OpenFile(filepath.Join(uidLockDir, strconv.Itoa(testUIDBase+n)), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return 0, nil, fmt.Errorf("sandbox: claiming a test uid: %w", err)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return testUIDBase + n, func() { f.Close() }, nil
		}
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return 0, nil, fmt.Errorf("sandbox: claiming a test uid: %w", err)
		}
	}
	return 0, nil, fmt.Errorf("sandbox: all %d test uids are in use", testUIDCount)
}
