package sandbox

import "syscall"

// sandboxSupported says the bwrap and setpriv levels can run here.
const sandboxSupported = true

// SysProcAttr puts a child in a process group of its own, killed if the
// grader dies.
func SysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// KillGroup kills the process group of pid.
func KillGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

// killPid kills the process pid.
func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
