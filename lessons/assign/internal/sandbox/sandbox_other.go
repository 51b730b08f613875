//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"syscall"
)

// sandboxSupported says the bwrap and setpriv levels can run here: they
// need Linux. Elsewhere (an instructor's macOS or Windows laptop) only
// -sandbox=none runs, which is no sandbox.
const sandboxSupported = false

// SysProcAttr has no process groups to offer here.
func SysProcAttr() *syscall.SysProcAttr { return nil }

// KillGroup cannot reach a group here; the process itself is killed.
func KillGroup(pid int) { killPid(pid) }

// killPid kills the process pid.
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// claimUID: the setpriv level needs Linux.
func claimUID() (int, func(), error) {
	return 0, nil, errors.New("sandbox: the setpriv level needs Linux")
}
