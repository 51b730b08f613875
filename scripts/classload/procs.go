package main

import (
	"bufio"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// proc identifies a process: its id and its start time (clock ticks after
// boot), so that a reused id is never taken for it.
type proc struct {
	pid   int
	start uint64
}

// procSet remembers every process seen in the hub's tree.
type procSet struct {
	mu   sync.Mutex
	seen map[proc]bool
}

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuOf returns the CPU time a process and its waited-for children used,
// from /proc/PID/stat (utime, stime, cutime, cstime).
func cpuOf(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, v := range f[11:15] {
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * clockTick
}

// kernelCPU returns the CPU time used so far by the kernel whose connection
// file names id (GoNB: its gopls, its builds, the cells' programs), with
// its live descendants, or 0 if it is not found.
func kernelCPU(id string) time.Duration {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(b), "kernel-"+id+".json") {
			continue
		}
		var total time.Duration
		for _, p := range tree(pid) {
			total += cpuOf(p.pid)
		}
		return total
	}
	return 0
}

// statOf reads a process's parent and start time from /proc/PID/stat.
func statOf(pid int) (ppid int, start uint64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	// After the name: state ppid pgrp session tty tpgid flags minflt cminflt
	// majflt cmajflt utime stime cutime cstime priority nice threads
	// itrealvalue starttime.
	if len(f) < 20 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	return ppid, start, err1 == nil && err2 == nil
}

// tree returns root and its descendants now running.
func tree(root int) []proc {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]int{}
	starts := map[int]uint64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, start, ok := statOf(pid)
		if !ok {
			continue
		}
		children[ppid] = append(children[ppid], pid)
		starts[pid] = start
	}
	if _, ok := starts[root]; !ok {
		return nil
	}
	var out []proc
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, proc{p, starts[p]})
		queue = append(queue, children[p]...)
	}
	return out
}

// pss returns a process's proportional set size in bytes (shared pages
// counted once over the processes that share them), or 0 if it has gone.
func pss(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// loadAvg returns the 1-minute load average of the machine.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// sample is what the sampler saw during a run.
type sample struct {
	peakPSS   int64 // the hub's whole tree: hub, proxy, servers, kernels, builds
	peakProcs int   // processes in that tree
	// pssSamples: how many times the tree's memory was measured.
	pssSamples int
	loadStart  float64 // 1-minute load average when the run started
	loadMax    float64
	loadEnd    float64
	// atPeak is the tree's memory at its peak by command name (the
	// executable's base name), largest first.
	atPeak []usage
	// goplsPeak is gopls's own peak (the sample where its processes held
	// the most), which need not be the tree's.
	goplsPeak usage
}

// usage is the memory of the processes of one command.
type usage struct {
	command string
	procs   int
	pss     int64
}

// commandOf names a process by its executable's base name, or by its
// script's for an interpreter (python3 -m X is X).
func commandOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return "?"
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	name := filepath.Base(args[0])
	if strings.HasPrefix(name, "python") || name == "node" || name == "sh" {
		for i := 1; i < len(args); i++ {
			if args[i] == "-m" && i+1 < len(args) {
				return args[i+1]
			}
			if !strings.HasPrefix(args[i], "-") {
				return filepath.Base(args[i])
			}
		}
	}
	return name
}

// sampleTree samples the hub's tree every interval until stop is closed,
// recording every process in seen and the load average, and the tree's
// memory (PSS) every pssEvery, and returns the peaks. PSS is dear: the
// kernel walks every page a process maps to count it (about 25 ms of
// system time a GiB), so a class of 60 holding 6-12 GiB cost 0.15-0.3 s of
// CPU a sample, taken from the class it measures; the memory grows slowly
// (logins, then each student's gopls), so a coarser sample finds its peak.
func sampleTree(root int, seen *procSet, interval, pssEvery time.Duration, stop <-chan struct{}) sample {
	s := sample{loadStart: loadAvg()}
	s.loadMax = s.loadStart
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var lastPSS time.Time
	for {
		procs := tree(root)
		seen.add(procs)
		s.peakProcs = max(s.peakProcs, len(procs))
		s.loadMax = max(s.loadMax, loadAvg())
		if time.Since(lastPSS) >= pssEvery {
			lastPSS = time.Now()
			s.addPSS(procs)
		}
		select {
		case <-stop:
			s.loadEnd = loadAvg()
			return s
		case <-tick.C:
		}
	}
}

// addPSS measures the memory of procs and keeps it if it is a new peak.
func (s *sample) addPSS(procs []proc) {
	s.pssSamples++
	var total int64
	byCmd := map[string]*usage{}
	for _, p := range procs {
		m := pss(p.pid)
		total += m
		c := commandOf(p.pid)
		if byCmd[c] == nil {
			byCmd[c] = &usage{command: c}
		}
		byCmd[c].procs++
		byCmd[c].pss += m
	}
	var g usage
	for c, u := range byCmd {
		if strings.HasPrefix(c, "gopls") {
			g.procs += u.procs
			g.pss += u.pss
		}
	}
	if g.pss > s.goplsPeak.pss {
		s.goplsPeak = usage{command: "gopls", procs: g.procs, pss: g.pss}
	}
	if total > s.peakPSS {
		s.atPeak = s.atPeak[:0]
		for _, u := range byCmd {
			s.atPeak = append(s.atPeak, *u)
		}
		slices.SortFunc(s.atPeak, func(a, b usage) int { return cmp.Compare(b.pss, a.pss) })
		s.peakPSS = total
	}
}

func (s *procSet) add(procs []proc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[proc]bool{}
	}
	for _, p := range procs {
		s.seen[p] = true
	}
}

// killLeft ends with SIGKILL, by process id, every process seen that still
// runs (same id, same start time), and returns how many.
func (s *procSet) killLeft() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p := range s.seen {
		if _, start, ok := statOf(p.pid); ok && start == p.start {
			if syscall.Kill(p.pid, syscall.SIGKILL) == nil {
				n++
			}
		}
	}
	return n
}
