// Command classload measures how many students one server holds: for each
// class size N it starts the shared install's JupyterHub (scripts/setup.sh
// --system) on 127.0.0.1, and N simulated students each log in through the
// hub's REST API, start their server, open a lesson and run its cells over
// the kernel's websocket (execute_request, as JupyterLab does), pausing a
// think time drawn from a uniform distribution before each cell; as they
// write some cells, they ask the kernel for completion and contextual help
// (-complete). It prints, for each N, the p50 and p95 cell latency, the
// failures, the peak memory of the hub's whole process tree, the machine's
// load average, and the completions' and help requests' latencies.
//
// It is a benchmark, not a test. It talks only to 127.0.0.1, each run is
// bounded in time (-duration) and in requests (-max-requests), and it stops
// the hub, the servers and the kernels it started before it exits.
//
// Run it as root from the repository's root (see docs/instructor.md, "A measured class"):
//
//	go run -C scripts/classload . -n 10,20,40,60
//	go run -C scripts/classload . -n 2,5 -think 2s-5s -ramp 10s -duration 5m
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const kernelSpec = "/usr/local/share/jupyter/kernels/gonb/kernel.json"

func main() {
	sizes := flag.String("n", "10,20,40,60", "class sizes to measure, one run each, in order")
	lessons := flag.String("lessons", "00_start_here.ipynb", "lessons each student opens and runs, in order (comma-separated, in notebooks/)")
	thinkFlag := flag.String("think", "10s-40s", "think time before each cell: uniform between LO-HI")
	ramp := flag.Duration("ramp", 60*time.Second, "students arrive evenly over this time (a class logging in)")
	duration := flag.Duration("duration", 15*time.Minute, "time limit of one run (one N), from the hub's start to its stop")
	maxRequests := flag.Int64("max-requests", 50000, "limit of one run's HTTP requests and cell executions, all students together")
	cellTimeout := flag.Duration("cell-timeout", 2*time.Minute, "a cell that takes longer is a failure")
	spawnTimeout := flag.Duration("spawn-timeout", 3*time.Minute, "a server not ready after this is a failure")
	prefix := flag.String("prefix", envOr("LESSONS_PREFIX", "/usr/local/lib/perceptron-lessons"), "the shared install (scripts/setup.sh --system)")
	tmp := flag.String("tmp", os.TempDir(), "folder for each run's hub and students' homes (removed afterwards)")
	keep := flag.Bool("keep", false, "keep each run's folder (hub log, students' homes); without it, all are removed after the last run")
	seed := flag.Uint64("seed", 1, "seed of the think times and of the completions asked")
	complete := flag.Float64("complete", 0.25, "completion asked: before the first cell of a lesson that has a selector (IDENT.NAME), and before each later one with this probability, a student sends a complete_request after the dot and an inspect_request on the name (0: none)")
	sampleEvery := flag.Duration("sample", 2*time.Second, "how often the hub's processes and the load average are sampled")
	pssEvery := flag.Duration("pss-every", 20*time.Second, "how often the memory of the hub's processes (PSS) is measured: it costs the machine about 25 ms of CPU a GiB each time")
	var extra configLines
	flag.Var(&extra, "config", "a line of Python appended to the hub's configuration (repeatable), to try a setting, such as -config 'c.Spawner.environment = {\"GOGC\": \"50\"}'")
	flag.Parse()

	th, err := parseThink(*thinkFlag)
	if err != nil {
		die("-think: %v", err)
	}
	ns, err := parseSizes(*sizes)
	if err != nil {
		die("-n: %v", err)
	}
	if *sampleEvery <= 0 || *pssEvery <= 0 {
		die("-sample %v, -pss-every %v: want positive durations", *sampleEvery, *pssEvery)
	}
	if *complete < 0 || *complete > 1 {
		die("-complete %v: want a probability from 0 to 1", *complete)
	}
	lessonList := strings.Split(*lessons, ",")
	if err := checkInstall(*prefix, lessonList); err != nil {
		die("%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Println(clientsFirst())
	defer restoreShare()
	fmt.Printf("classload: lessons %s, think time uniform %v-%v before each cell, completion asked before the first cell with a selector and then %v of the cells, arrivals over %v, %d cores, run limits %v and %d requests\n",
		*lessons, th.lo, th.hi, *complete, *ramp, runtime.NumCPU(), *duration, *maxRequests)
	fmt.Println("| N | cells | failures | p50 cell (s) | p95 cell (s) | max cell (s) | server start p50/p95/max (s) | peak memory (GiB) | per student (MiB) | CPU s (tree) | kernel CPU s per cell | load avg start/max/end | wall (s) | completions (no match) | completion p50/p95/max (s) | inspects (not found) | inspect p50/p95/max (s) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	// Each run's folder (its students' homes) is removed after the last
	// run, not between runs: on ext4 the removal of a class's homes made
	// the next minutes' file creation (each login's links to the shared
	// caches) up to ten times dearer in system time, which slowed the next
	// run's logins (docs/instructor.md, "The logins' slow mode").
	var dirs []string
	removeDirs := func() {
		for _, d := range dirs {
			if err := os.RemoveAll(d); err != nil {
				fmt.Fprintf(os.Stderr, "classload: removing %s: %v\n", d, err)
			}
		}
	}
	for _, n := range ns {
		if ctx.Err() != nil {
			break
		}
		r, err := runClass(ctx, n, runOpts{
			prefix: *prefix, tmp: *tmp, keep: *keep, lessons: lessonList, think: th, ramp: *ramp, duration: *duration,
			maxRequests: *maxRequests, cellTimeout: *cellTimeout, spawnTimeout: *spawnTimeout, seed: *seed, complete: *complete,
			sampleEvery: *sampleEvery, pssEvery: *pssEvery, config: extra,
		})
		if r != nil && !*keep {
			dirs = append(dirs, r.dir)
		}
		if err != nil {
			removeDirs()
			die("N=%d: %v", n, err)
		}
		r.print()
	}
	removeDirs()
}

type runOpts struct {
	prefix, tmp               string
	keep                      bool
	lessons                   []string
	think                     think
	ramp, duration            time.Duration
	maxRequests               int64
	cellTimeout, spawnTimeout time.Duration
	seed                      uint64
	complete                  float64
	sampleEvery, pssEvery     time.Duration
	config                    []string
}

// configLines collects the repeated -config flag.
type configLines []string

func (c *configLines) String() string     { return strings.Join(*c, "; ") }
func (c *configLines) Set(s string) error { *c = append(*c, s); return nil }

// classResult is one run's summary.
type classResult struct {
	n     int
	cells []time.Duration
	// byCell: the cells' times by their index in the lesson (each
	// kernel's first cells build and link the most).
	byCell map[int][]time.Duration
	dir    string // the run's folder
	// completions and inspects: latencies of the answered requests;
	// noMatch and notFound: replies without a match or a documentation.
	completions, inspects []time.Duration
	noMatch, notFound     int
	starts                []time.Duration
	failures              []string
	base                  int64 // the hub's tree before the students came
	s                     sample
	wall                  time.Duration
	cpu                   time.Duration // CPU time of the hub's whole tree
	kcpu                  time.Duration // CPU time of the students' kernels
	// selfUser and selfSys: classload's own CPU time during the run (the
	// students' stand-ins and the sampler), which a real class does not
	// put on its server.
	selfUser, selfSys time.Duration
	log               string
}

// runClass measures one class of n students on a hub of its own.
func runClass(parent context.Context, n int, o runOpts) (*classResult, error) {
	ctx, cancel := context.WithTimeout(parent, o.duration)
	defer cancel()
	began := time.Now()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("student%03d", i+1)
	}
	h, err := startHub(ctx, o.prefix, o.tmp, names, o.config)
	if err != nil {
		return nil, err
	}
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	seen := &procSet{}
	stopSampling := make(chan struct{})
	sampled := make(chan sample)
	base := int64(0)
	for _, p := range tree(h.cmd.Process.Pid) {
		base += pss(p.pid)
	}
	go func() { sampled <- sampleTree(h.cmd.Process.Pid, seen, o.sampleEvery, o.pssEvery, stopSampling) }()

	var budget atomic.Int64
	budget.Store(o.maxRequests)
	results := make([]*result, n)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n > 1 {
				select {
				case <-ctx.Done():
					results[i] = &result{name: name, failures: []string{name + ": never arrived: " + ctx.Err().Error()}}
					return
				case <-time.After(o.ramp * time.Duration(i) / time.Duration(n)):
				}
			}
			results[i] = student(ctx, h, name, o.lessons, o.think, o.complete, o.cellTimeout, o.spawnTimeout, &budget, o.seed+uint64(i))
		}()
	}
	wg.Wait()
	close(stopSampling)
	s := <-sampled
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	h.stop(seen)
	r := &classResult{n: n, base: base, s: s, wall: time.Since(began), log: h.log, dir: h.dir, byCell: map[int][]time.Duration{},
		selfUser: time.Duration(ru1.Utime.Nano() - ru0.Utime.Nano()), selfSys: time.Duration(ru1.Stime.Nano() - ru0.Stime.Nano())}
	// The hub's rusage counts its children's that it waited for, and theirs:
	// the servers, their kernels, the builds and the cells' programs.
	if ps := h.cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
	}
	for _, res := range results {
		r.cells = append(r.cells, res.cells...)
		for i, d := range res.byCell {
			r.byCell[i] = append(r.byCell[i], d...)
		}
		r.completions = append(r.completions, res.completions...)
		r.inspects = append(r.inspects, res.inspects...)
		r.noMatch += res.noMatch
		r.notFound += res.notFound
		r.failures = append(r.failures, res.failures...)
		r.kcpu += res.kernelCPU
		if res.started {
			r.starts = append(r.starts, res.startTime)
		}
	}
	if errors.Is(parent.Err(), context.Canceled) {
		r.failures = append(r.failures, "interrupted")
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "classload: N=%d: kept %s (hub log %s)\n", n, h.dir, h.log)
	}
	return r, nil
}

func (r *classResult) print() {
	slices.Sort(r.cells)
	slices.Sort(r.starts)
	slices.Sort(r.completions)
	slices.Sort(r.inspects)
	startMax := 0.0
	if len(r.starts) > 0 {
		startMax = r.starts[len(r.starts)-1].Seconds()
	}
	perStudent := float64(r.s.peakPSS-r.base) / float64(r.n) / (1 << 20)
	fmt.Printf("| %d | %d | %d | %.2f | %.2f | %.2f | %.1f/%.1f/%.1f | %.2f | %.0f | %.0f | %.2f | %.1f/%.1f/%.1f | %.0f | %d (%d) | %.2f/%.2f/%.2f | %d (%d) | %.2f/%.2f/%.2f |\n",
		r.n, len(r.cells), len(r.failures), percentile(r.cells, 50), percentile(r.cells, 95), percentile(r.cells, 100),
		percentile(r.starts, 50), percentile(r.starts, 95), startMax, float64(r.s.peakPSS)/(1<<30), perStudent,
		r.cpu.Seconds(), r.kcpu.Seconds()/float64(max(len(r.cells), 1)),
		r.s.loadStart, r.s.loadMax, r.s.loadEnd, r.wall.Seconds(),
		len(r.completions), r.noMatch, percentile(r.completions, 50), percentile(r.completions, 95), percentile(r.completions, 100),
		len(r.inspects), r.notFound, percentile(r.inspects, 50), percentile(r.inspects, 95), percentile(r.inspects, 100))
	fmt.Fprintf(os.Stderr, "classload: N=%d: its own CPU on this machine (the students' stand-ins and the sampler, which a real class does not put on its server): %.1f s user, %.1f s system; the memory measured %d times\n",
		r.n, r.selfUser.Seconds(), r.selfSys.Seconds(), r.s.pssSamples)
	var parts []string
	for i, u := range r.s.atPeak {
		// The eight largest, and gopls (completion's cost) wherever it is.
		if i < 8 || strings.HasPrefix(u.command, "gopls") {
			parts = append(parts, fmt.Sprintf("%s %d× %.0f MiB", u.command, u.procs, float64(u.pss)/(1<<20)))
		}
	}
	if r.s.goplsPeak.procs > 0 {
		fmt.Fprintf(os.Stderr, "classload: N=%d: gopls at its own peak: %d processes, %.0f MiB (PSS)\n", r.n, r.s.goplsPeak.procs, float64(r.s.goplsPeak.pss)/(1<<20))
	}
	fmt.Fprintf(os.Stderr, "classload: N=%d: memory at its peak (PSS by command): %s\n", r.n, strings.Join(parts, ", "))
	var cellParts []string
	for _, i := range slices.Sorted(maps.Keys(r.byCell)) {
		d := r.byCell[i]
		slices.Sort(d)
		cellParts = append(cellParts, fmt.Sprintf("cell %d: %d, %.2f/%.2f/%.2f", i, len(d), percentile(d, 50), percentile(d, 95), percentile(d, 100)))
	}
	fmt.Fprintf(os.Stderr, "classload: N=%d: cells by their index in the lesson (count, p50/p95/max s): %s\n", r.n, strings.Join(cellParts, "; "))
	for i, f := range r.failures {
		if i == 20 {
			fmt.Fprintf(os.Stderr, "classload: N=%d: ... and %d more failures\n", r.n, len(r.failures)-i)
			break
		}
		fmt.Fprintf(os.Stderr, "classload: N=%d: failure: %s\n", r.n, f)
	}
}

// checkInstall says what is missing of the shared install, if anything.
func checkInstall(prefix string, lessons []string) error {
	hint := "the shared install is missing or incomplete: run `sudo bash scripts/setup.sh --system` first"
	need := []string{"venv/bin/jupyterhub", "venv/bin/jupyterhub-singleuser", "proxy/node_modules/.bin/configurable-http-proxy",
		"jupyterhub_config.py", "bin/lessons-singleuser", "bin/gonb-kernel", "gocache.stamp"}
	for _, l := range lessons {
		need = append(need, filepath.Join("lessons/notebooks", l))
	}
	for _, f := range need {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			return fmt.Errorf("%v: %s", err, hint)
		}
	}
	if _, err := os.Stat(kernelSpec); err != nil {
		return fmt.Errorf("the system-wide gonb kernel spec: %v: %s", err, hint)
	}
	return nil
}

// parseThink reads "LO-HI" (two durations) or one duration.
func parseThink(s string) (think, error) {
	lo, hi, found := strings.Cut(s, "-")
	if !found {
		hi = lo
	}
	a, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil {
		return think{}, fmt.Errorf("%q: want LO-HI, such as 10s-40s: %w", s, err)
	}
	b, err := time.ParseDuration(strings.TrimSpace(hi))
	if err != nil {
		return think{}, fmt.Errorf("%q: want LO-HI, such as 10s-40s: %w", s, err)
	}
	if a < 0 || b < a {
		return think{}, fmt.Errorf("%q: want 0 <= LO <= HI", s)
	}
	return think{a, b}, nil
}

// parseSizes reads a comma-separated list of positive class sizes.
func parseSizes(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 999 {
			return nil, fmt.Errorf("%q: want class sizes from 1 to 999, comma-separated", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "classload: "+format+"\n", args...)
	restoreShare()
	os.Exit(1)
}

// restoreShare gives the session back the CPU share it had before
// clientsFirst (set by it): the share is the session's, not classload's,
// and outlives it, so a shell that ran classload would otherwise run
// everything after it at nice -20 among sessions (a test suite run from
// it then starved the sandboxed tests, which run in sessions of their
// own, at nice 0).
var restoreShare = func() {}

// clientsFirst gives classload's session the largest CPU share among
// sessions (autogroup nice -20): its goroutines stand for the students'
// browsers, which run on machines of their own, so they must not wait for
// the CPU behind the server's processes, or every time measured would hold
// their wait too. (They still take the CPU they use from the server.)
// Returns a line for the output: what was done.
func clientsFirst() string {
	const path = "/proc/self/autogroup"
	if _, err := os.Stat(path); err != nil {
		return "classload: no autogroups (" + path + "): the students' stand-ins run at this process's priority"
	}
	before, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("classload: the students' stand-ins keep this session's CPU share (%v): their own waits for the CPU are in the times", err)
	}
	// "/autogroup-N nice K"
	nice := "0"
	if f := strings.Fields(string(before)); len(f) == 3 && f[1] == "nice" {
		nice = f[2]
	}
	if err := os.WriteFile(path, []byte("-20"), 0); err != nil {
		return fmt.Sprintf("classload: the students' stand-ins keep this session's CPU share (%v): their own waits for the CPU are in the times", err)
	}
	restoreShare = func() {
		if err := os.WriteFile(path, []byte(nice), 0); err != nil {
			fmt.Fprintf(os.Stderr, "classload: this session's CPU share stays at nice -20 (%v): write %s to %s\n", err, nice, path)
		}
	}
	return "classload: the students' stand-ins run in a session with the largest CPU share (autogroup nice -20, nice " + nice + " again at the end), the hub in one of its own"
}
