package main

import "syscall"

// sandboxSupported says the bwrap and setpriv levels can run here.
const sandboxSupported = true

// sysProcAttr puts a child in a process group of its own, killed if the
// grader dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group of pid.
func killGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

// killPid kills the process pid.
func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
