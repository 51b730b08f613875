package sandbox

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// timed is a student's process for the time-limit tests: it reads its
// part from the calls pipe (fd 3) and plays it: "spin" loops forever,
// "sleep" waits forever without using the CPU, "work" uses 600 ms of CPU
// time, writes "done" on the replies pipe (fd 4), and ends.
const timed = `package main

import (
	"bufio"
	"os"
	"syscall"
	"time"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	part, _ := bufio.NewReader(os.NewFile(3, "calls")).ReadString('\n')
	switch part {
	case "spin\n":
		for x := 0; ; x++ {
		}
	case "sleep\n":
		time.Sleep(time.Hour)
	case "work\n":
		x := 0
		for cpu() < 600*time.Millisecond {
			for i := 0; i < 1000000; i++ {
				x += i
			}
		}
		os.NewFile(4, "replies").WriteString("done\n")
		if x == 42 {
			println(x)
		}
	}
}
`

// TestTimeLimitIsCPUTime checks the time limit of a test: the CPU time of
// the student's processes, so that a test that waits for a core behind
// other work is not stopped, one that loops is stopped at the limit, and
// one that waits forever without the CPU is stopped at WallLimit.
func TestTimeLimitIsCPUTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := buildProgram(t, "timed", timed)
	sb := openSandbox(t, LevelBwrap)
	server, cleanup, err := sb.Prepare(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	const limit = time.Second
	play := func(part string) Result {
		// The trusted side sends the part and prints the reply.
		r := sb.Run("/bin/sh", []string{"-c", "echo " + part + " >&6; cat <&5"}, server, []byte("key"), limit)
		if r.Err != nil {
			t.Fatalf("%s: %v\n%s", part, r.Err, r.Output)
		}
		return r
	}

	t.Run("busy machine", func(t *testing.T) {
		// Spinners in sessions of their own (each its own share of the
		// CPU where Linux groups by session), twice as many as cores:
		// the program gets a third of a core or less, so its 600 ms of
		// CPU take longer than the limit in wall time.
		var spinners []*exec.Cmd
		for range 2 * runtime.NumCPU() {
			c := exec.Command("setsid", "sh", "-c", "while :; do :; done")
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			spinners = append(spinners, c)
		}
		defer func() {
			for _, c := range spinners {
				c.Process.Kill()
				c.Wait()
			}
		}()
		time.Sleep(200 * time.Millisecond)
		r := play("work")
		if r.TimedOut || !strings.Contains(r.Output, "done") {
			t.Errorf("600 ms of CPU under a 1 s limit, on a busy machine: timed out %v (stalled %v) after %.2f s, output %q",
				r.TimedOut, r.Stalled, r.Seconds, r.Output)
		}
		if r.Seconds <= limit.Seconds() {
			t.Logf("the machine was not busy enough to show it: %.2f s of wall time", r.Seconds)
		}
	})
	t.Run("endless loop", func(t *testing.T) {
		r := play("spin")
		if !r.TimedOut || r.Stalled {
			t.Errorf("an endless loop: timed out %v, stalled %v, want stopped at the CPU limit", r.TimedOut, r.Stalled)
		}
		if r.Seconds < limit.Seconds() || r.Seconds >= WallLimit(limit).Seconds() {
			t.Errorf("an endless loop ran %.2f s, want at least the limit %v and less than the wall bound %v", r.Seconds, limit, WallLimit(limit))
		}
	})
	t.Run("waits forever", func(t *testing.T) {
		r := play("sleep")
		if !r.TimedOut || !r.Stalled {
			t.Errorf("a program that waits forever: timed out %v, stalled %v, want stopped at the wall bound", r.TimedOut, r.Stalled)
		}
		if r.Seconds < WallLimit(limit).Seconds() {
			t.Errorf("a program that waits forever ran %.2f s, want the wall bound %v", r.Seconds, WallLimit(limit))
		}
	})
}
