package grade

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

// run is the run stage: each test of rep, a pair of processes (the
// trusted test binary and the student's program in the sandbox), at most
// g.Parallel at a time over every submission the Grader grades.
func (g *Grader) run(b *built, rep *Report, variant string) error {
	bin, cleanup, err := g.Sandbox.Prepare(b.server)
	if err != nil {
		return err
	}
	defer cleanup()
	g.semOnce.Do(func() { g.sem = make(chan struct{}, max(1, g.Parallel)) })
	var wg sync.WaitGroup
	for i := range rep.Tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.sem <- struct{}{}
			defer func() { <-g.sem }()
			g.runTest(b.trusted, bin, variant, &rep.Tests[i])
			rep.Tests[i].markStubbed(rep.Stubs)
		}()
	}
	wg.Wait()
	return nil
}

// markStubbed marks a test that panicked (or failed, if it recovered the
// panic) in a stubbed function: it scores 0 because that function did not
// compile.
func (r *TestResult) markStubbed(stubs []Stub) {
	if r.Status != StatusPanic && r.Status != StatusFailed {
		return
	}
	for _, st := range stubs {
		prefix := st.Func + " does not compile: "
		if st.Undefined {
			prefix = st.Func + " is not defined with this signature"
		}
		if strings.Contains(r.Output, prefix) {
			r.Status = StatusCompile
			return
		}
	}
}

// runTest runs one test in its own sandboxed process, within the time
// limit. The score comes only from the verdict channel (see harness.go):
// what the test prints, and its exit code, only explain a failure.
//
// The trusted process reads the verdict key, then the variant (hex, maybe
// empty), on fd 3.
func (g *Grader) runTest(trusted, server, variant string, r *TestResult) {
	key := newKey()
	args := []string{"-test.run=^" + harnessName(r.Name) + "$", "-test.v", "-test.count=1",
		"-test.timeout=" + (sandbox.WallLimit(g.Timeout) + 30*time.Second).String()}
	run := g.Sandbox.Run(trusted, args, server, append(slices.Clone(key), variant...), g.Timeout)
	r.Seconds = run.Seconds
	text := run.Output
	if passed(run.Verdict, key, r.Name) && !run.TimedOut && !run.OOM {
		r.Status, r.Score = StatusPassed, r.MaxScore
		r.Output = cleanOutput(text, r.Name)
		return
	}
	switch {
	case run.Err != nil:
		r.Status = StatusFailed
		r.Output = "the grader could not run the test: " + run.Err.Error()
	case run.TimedOut:
		r.Status = StatusTimeout
		r.Output = fmt.Sprintf("stopped after the time limit of %v of CPU time: an endless loop, or far too slow", g.Timeout)
		if run.Stalled {
			r.Output = fmt.Sprintf("stopped after %v without an end, having used %.1f s of its time limit of %v of CPU time: it waited for something that never came, or the grading machine was too busy to finish it", sandbox.WallLimit(g.Timeout), run.CPU, g.Timeout)
		}
		if s := cleanOutput(text, r.Name); s != "" {
			r.Output += "\noutput before it was stopped:\n" + s
		}
	case run.OOM || strings.Contains(text, "fatal error: out of memory") || strings.Contains(text, "runtime: out of memory"):
		r.Status = StatusOOM
		r.Output = cleanOutput(text, r.Name)
		if i := fatalError.FindStringIndex(text); i != nil {
			r.Output = cleanOutput(text[:i[0]], r.Name)
		}
		if r.Output != "" {
			r.Output += "\n"
		}
		r.Output += fmt.Sprintf("killed: its processes used more than the memory limit of %d MiB", g.Sandbox.MemoryMB)
	case fatalError.MatchString(text):
		r.Status = StatusPanic
		r.Output = cleanOutput(text[:fatalError.FindStringIndex(text)[0]], r.Name)
		if r.Output != "" {
			r.Output += "\n"
		}
		r.Output += fatalError.FindString(text)
	case strings.Contains(text, "\npanic: ") || strings.HasPrefix(text, "panic: "):
		r.Status = StatusPanic
		r.Output = panicOutput(text, r.Name)
	default:
		r.Status = StatusFailed
		r.Output = cleanOutput(text, r.Name)
		if r.Output == "" {
			r.Output = "no verdict: the test process ended without reporting one"
		}
	}
}

// fatalError matches the runtime's unrecoverable errors, such as running
// out of memory or a stack overflow.
var fatalError = regexp.MustCompile(`(?m)^fatal error: .*$`)

// framePos matches a stack frame's position in the graded code.
var framePos = regexp.MustCompile(`^(source_)?cell(\d+):(\d+)`)

// testLocation matches the file:line prefix go test puts on t.Errorf output.
var testLocation = regexp.MustCompile(`^\s*(source_)?cell\d+:\d+: `)

// cleanOutput keeps what the test printed, without go test's own lines.
func cleanOutput(text, name string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "", t == "PASS", t == "FAIL", strings.HasPrefix(t, "=== "),
			strings.HasPrefix(t, "--- PASS: "+name), strings.HasPrefix(t, "--- FAIL: "+name),
			strings.HasPrefix(t, "--- PASS: "+harnessName(name)), strings.HasPrefix(t, "--- FAIL: "+harnessName(name)),
			strings.HasPrefix(t, "ok  "), strings.HasPrefix(t, "exit status "):
			continue
		}
		keep = append(keep, testLocation.ReplaceAllString(strings.TrimRight(l, " \t\r"), ""))
	}
	return strings.Join(keep, "\n")
}

// panicOutput keeps the panic message, what the test printed before it, and
// the stack frames in the graded code (cellN:LINE positions).
func panicOutput(text, name string) string {
	i := strings.Index(text, "panic: ")
	before := cleanOutput(text[:i], name)
	rest := text[i:]
	lines := strings.Split(rest, "\n")
	out := []string{}
	if before != "" {
		out = append(out, before)
	}
	msg := []string{}
	j := 0
	for ; j < len(lines) && !strings.HasPrefix(lines[j], "goroutine "); j++ {
		if strings.TrimSpace(lines[j]) != "" {
			l := strings.TrimRight(lines[j], " \t")
			if len(msg) > 0 {
				l = strings.TrimPrefix(l, "\t") // the runtime indents a message's next lines
			}
			msg = append(msg, l)
		}
	}
	// Go's testing marks the panic " [recovered, repanicked]", after the
	// last line of a message of several lines.
	for i := len(msg) - 1; i >= 0; i-- {
		if k := strings.LastIndex(msg[i], " [recovered"); k > 0 {
			msg[i] = msg[i][:k]
			break
		}
	}
	out = append(out, msg...)
	var frames []string
	for ; j+1 < len(lines); j++ {
		fn, pos := strings.TrimSpace(lines[j]), strings.TrimSpace(lines[j+1])
		if m := framePos.FindStringSubmatch(pos); strings.HasPrefix(fn, "graded.") && m != nil {
			if k := strings.Index(fn, "("); k > 0 {
				fn = fn[:k]
			}
			where := "your cell " + m[2]
			if m[1] != "" {
				where = "cell " + m[2] + " of the source"
			}
			frames = append(frames, fmt.Sprintf("    %s (%s, line %s)", strings.TrimPrefix(fn, "graded."), where, m[3]))
			j++
		}
	}
	if len(frames) > 0 {
		if slices.Contains(msg, "in:") {
			// The student's process named the frames of its code: these
			// are the test's.
			out = append(out, "called from:")
		} else {
			out = append(out, "in:")
		}
		out = append(out, frames...)
	}
	return strings.Join(out, "\n")
}
