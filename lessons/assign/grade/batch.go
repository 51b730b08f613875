package grade

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/ident"
	"github.com/perceptron-go/lessons/lessons/assign/sandbox"
)

// failed makes rep a zero for reason, a failure of the grader on that
// submission (not of its tests).
func failed(rep *Report, reason string) {
	rep.Score = 0
	rep.Notes = append(rep.Notes, reason)
	for i := range rep.Tests {
		rep.Tests[i].Score = 0
		if rep.Tests[i].Status == statusPassed {
			rep.Tests[i].Status = statusMissing
		}
	}
}

// writeReport writes NAME.report.txt and NAME.results.json of submission
// sub (under out, in the same sub-folders as under target, if out is set).
func writeReport(rep *Report, sub, target string, folder bool, out, results string) error {
	js, err := rep.JSON()
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(filepath.Base(sub), ".ipynb")
	dir := filepath.Dir(sub)
	if out != "" {
		rel, _ := filepath.Rel(target, filepath.Dir(sub))
		if !folder {
			rel = "."
		}
		dir = filepath.Join(out, rel)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	jsonPath := filepath.Join(dir, base+".results.json")
	if results != "" {
		jsonPath = results
	}
	if err := os.WriteFile(filepath.Join(dir, base+".report.txt"), []byte(rep.Text()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(jsonPath, js, 0o644)
}

// batch grades the submissions of one run.
type batch struct {
	g          *Grader
	name       string // -assignment, or ""
	lessonsDir string
	known      []string // assignment folders
	staging    string
	mu         sync.Mutex
	cache      map[string]*assignmentLoad
}

type assignmentLoad struct {
	once sync.Once
	a    *assignment.Assignment
	err  error
}

// assignment loads the assignment in folder dir once.
func (b *batch) assignment(dir string) (*assignment.Assignment, error) {
	b.mu.Lock()
	l, ok := b.cache[dir]
	if !ok {
		l = &assignmentLoad{}
		b.cache[dir] = l
	}
	b.mu.Unlock()
	l.once.Do(func() { l.a, l.err = assignment.LoadAssignment(dir) })
	return l.a, l.err
}

// grade grades submission i. Whatever the submission holds, it gets a
// report: a notebook that cannot be read or matched, or that the grader
// fails on, scores 0 with the reason, and the batch goes on.
func (b *batch) grade(i int, sub string) (rep *Report) {
	fail := func(assignment, format string, args ...any) *Report {
		return &Report{Submission: sub, Assignment: assignment, Isolation: b.g.Sandbox.Describe(), Notes: []string{fmt.Sprintf(format, args...)}}
	}
	defer func() {
		if e := recover(); e != nil {
			rep = fail(b.name, "the grader failed on this submission: %v", e)
		}
	}()
	// Copy the submission to a private staging folder and read it there.
	data, err := os.ReadFile(sub)
	if err != nil {
		return fail(b.name, "cannot read the submission: %v", err)
	}
	staged := filepath.Join(b.staging, fmt.Sprintf("%d", i))
	if err := os.Mkdir(staged, 0o700); err != nil {
		return fail(b.name, "staging: %v", err)
	}
	defer os.RemoveAll(staged)
	if err := os.WriteFile(filepath.Join(staged, "submission.ipynb"), data, 0o600); err != nil {
		return fail(b.name, "staging: %v", err)
	}
	nb, err := notebook.Read(filepath.Join(staged, "submission.ipynb"))
	if err != nil {
		return fail(b.name, "cannot read the submission: %v", strings.TrimPrefix(err.Error(), filepath.Join(staged, "submission.ipynb")+": "))
	}
	name := b.name
	if name == "" {
		name = assignmentFromPath(sub, b.known)
	}
	meta, metaOK := nb.AssignmentMeta()
	if name == "" && metaOK && slices.ContainsFunc(b.known, func(d string) bool { return filepath.Base(d) == meta }) {
		name = meta // a known name only: metadata is never used as a path
	}
	if name == "" {
		return fail("", "cannot tell which assignment this is: no assignment name in its path and no known lessons.assignment in its metadata; use -assignment")
	}
	if !metaOK {
		return fail(name, "the notebook's metadata lessons.assignment is not a string: %v", nb.Metadata["lessons"])
	}
	if meta != "" && meta != name {
		return fail(name, "this notebook is for %q (its metadata lessons.assignment), not %q: was the wrong notebook handed in?", meta, name)
	}
	dir := ""
	for _, d := range b.known {
		if filepath.Base(d) == name {
			dir = d
		}
	}
	a, err := b.assignment(dir)
	if err != nil {
		return fail(name, "the assignment %s cannot be loaded: %v", name, err)
	}
	rep, err = b.g.Grade(sub, nb, a)
	if err != nil {
		return fail(name, "the grader failed on this submission: %v", err)
	}
	return rep
}

// assignmentFromPath returns the assignment whose name is a folder of
// sub's path or part of its file name, or "".
func assignmentFromPath(sub string, known []string) string {
	abs, _ := filepath.Abs(sub)
	found := ""
	for _, d := range known {
		n := filepath.Base(d)
		for _, part := range strings.Split(abs, string(filepath.Separator)) {
			if part == n || strings.Contains(part, n) {
				found = n
			}
		}
	}
	return found
}

// Config is what one run of the grader is told: the flags of "assign
// grade", which Flags registers.
type Config struct {
	Assignment    string        // assignment name (a folder of Lessons); "": from each submission's path or metadata
	Repo          string        // repository root; "": found from the working folder
	Lessons       string        // folder of the assignments; "": Repo/lessons
	Timeout       time.Duration // time limit per test
	BuildTimeout  time.Duration // time limit of one submission's build
	Parallel      int           // tests running at once, over all submissions
	Workers       int           // submissions graded at once
	MemoryMB      int           // resident memory of each test's process tree, MiB (0: none)
	BuildMemoryMB int           // resident memory of one build, MiB (0: none)
	ShowHidden    bool          // results.json shows hidden tests at once
	AcceptWeaker  bool          // grade even if the sandbox level lacks a guarantee here
	Level         string        // sandbox level: sandbox.LevelBwrap, LevelSetpriv or LevelNone
	Out           string        // folder for the reports; "": next to each submission
	Results       string        // results.json of a single submission goes here
	Keep          bool          // keep each submission's temporary module

	// SkipStaticCheck grades without the static check of the
	// assignment's rules, so that the sandbox alone must hold an attack.
	// The red-team tests set it; the command has no flag for it.
	SkipStaticCheck bool
}

// Flags registers the flags of "assign grade" on fs, filling c, with
// their defaults.
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.Assignment, "assignment", "", "assignment name (a folder of -lessons); default: the assignment whose name the submission's path holds")
	fs.StringVar(&c.Repo, "repo", "", "repository root (default: found from the current folder)")
	fs.StringVar(&c.Lessons, "lessons", "", "folder of the assignments (default: REPO/lessons)")
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Second, "time limit per test")
	fs.DurationVar(&c.BuildTimeout, "build-timeout", 10*time.Minute, "time limit for compiling one submission")
	// A test is a pair of processes that mostly wait on each other and on
	// the kernel (namespaces, cgroups): two per core keep the cores busy.
	fs.IntVar(&c.Parallel, "parallel", 2*runtime.NumCPU(), "tests (each a pair of processes) run at the same time, over all submissions")
	fs.IntVar(&c.Workers, "workers", runtime.NumCPU(), "submissions graded at the same time")
	fs.IntVar(&c.MemoryMB, "memory", 2048, "limit on the resident memory of each test's process tree, MiB (0: none)")
	fs.IntVar(&c.BuildMemoryMB, "build-memory", 2048, "limit on the resident memory of a submission's build (go command, compiler, linker), MiB (0: none)")
	fs.BoolVar(&c.ShowHidden, "show-hidden", false, "results.json shows hidden tests (name, points, pass/fail) at once; by default Gradescope shows them after the due date")
	fs.BoolVar(&c.AcceptWeaker, "accept-weaker", false, "grade even if the sandbox level cannot give every guarantee here (the reports name what is missing)")
	fs.StringVar(&c.Level, "sandbox", sandbox.LevelBwrap, "isolation of the test processes: bwrap (default), setpriv (weaker, for Docker without user namespaces; root only), auto (the strongest of those two that runs here) or none (no isolation: trusted code only)")
	fs.StringVar(&c.Out, "out", "", "folder for NAME.report.txt and NAME.results.json (default: next to each submission)")
	fs.StringVar(&c.Results, "results", "", "write the results.json of a single submission (a notebook, or a folder holding one) to this file (Gradescope: /autograder/results/results.json)")
	fs.BoolVar(&c.Keep, "keep", false, "keep the temporary Go module of each submission (debugging)")
}

// Batch grades target, a notebook or a folder of notebooks: it writes each
// submission's report.txt and results.json as it finishes, prints a line
// per submission (a single one: its whole report), and, for a folder,
// grades.csv at the end, whatever fails on any one submission.
func Batch(c Config, target string, stdout, stderr io.Writer) error {
	repo, lessonsDir, err := assignment.RepoDirs(c.Repo, c.Lessons)
	if err != nil {
		return err
	}
	sb, err := sandbox.New(c.Level, c.MemoryMB)
	if err != nil {
		return err
	}
	defer sb.Close()
	if len(sb.Missing) > 0 && c.Level != sandbox.LevelNone && !c.AcceptWeaker {
		return fmt.Errorf("-sandbox=%s cannot give here: %s; pass -accept-weaker to grade anyway (every report then names what is missing), or use -sandbox=bwrap", c.Level, strings.Join(sb.Missing, "; "))
	}
	for _, d := range []string{repo, lessonsDir} {
		if abs, err := filepath.Abs(d); err == nil {
			sb.Hide = append(sb.Hide, abs)
		}
	}
	g := &Grader{Repo: repo, Timeout: c.Timeout, BuildTimeout: c.BuildTimeout, BuildMemoryMB: c.BuildMemoryMB, MaxBinaryMB: 256,
		Parallel: c.Parallel, Sandbox: sb, Keep: c.Keep,
		Log: func(f string, a ...any) { fmt.Fprintln(stderr, EscapeControl(fmt.Sprintf(f, a...))) }}
	defer g.Close()
	g.ShowHidden = c.ShowHidden
	g.SkipStaticCheck = c.SkipStaticCheck
	if c.Level == sandbox.LevelNone {
		fmt.Fprintln(stderr, "assign: WARNING: -sandbox=none is no sandbox: submissions run as your user, with your files, network and processes; grade only code you trust")
	}

	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	var subs []string
	if info.IsDir() {
		err := filepath.WalkDir(target, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".ipynb_checkpoints" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".ipynb") {
				subs = append(subs, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(subs) == 0 {
			return fmt.Errorf("no .ipynb under %s", target)
		}
		if c.Results != "" && len(subs) > 1 {
			return fmt.Errorf("-results is for a single submission, and %s holds %d notebooks; use -out", target, len(subs))
		}
	} else {
		subs = []string{target}
	}
	known, err := assignment.Dirs(lessonsDir)
	if err != nil {
		return err
	}
	if c.Assignment != "" && !slices.ContainsFunc(known, func(d string) bool { return filepath.Base(d) == c.Assignment }) {
		return fmt.Errorf("no assignment %q in %s", c.Assignment, lessonsDir)
	}
	staging, err := os.MkdirTemp("", "assign-staging-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	b := &batch{g: g, name: c.Assignment, lessonsDir: lessonsDir, known: known, staging: staging, cache: map[string]*assignmentLoad{}}

	// Grade in parallel; write each submission's files as it finishes.
	reports := make([]*Report, len(subs))
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, c.Workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				sub := subs[i]
				rep := b.grade(i, sub)
				reports[i] = rep
				err := writeReport(rep, sub, target, info.IsDir(), c.Out, c.Results)
				if err != nil && info.IsDir() {
					// That submission's zero, with the reason, under a
					// name the file system takes; the batch goes on.
					failed(rep, fmt.Sprintf("the grader could not write this submission's report: %v", err))
					err = writeReport(rep, filepath.Join(target, fmt.Sprintf("submission-%04d.ipynb", i)), target, true, c.Out, "")
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if len(subs) == 1 {
					fmt.Fprint(stdout, rep.Text())
				} else {
					fmt.Fprintf(stdout, "%s: %s: %s / %s (%.1fs)\n", EscapeControl(sub), rep.Assignment, num(rep.Score), num(rep.MaxScore), rep.Seconds)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range subs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil && !info.IsDir() {
		return firstErr
	}
	if info.IsDir() {
		dir := target
		if c.Out != "" {
			dir = c.Out
		}
		var buf strings.Builder
		writeGrades(&buf, subs, reports)
		// Written once, after every test process is gone, by the grader only.
		p := filepath.Join(dir, "grades.csv")
		if err := os.WriteFile(p+".tmp", []byte(buf.String()), 0o644); err != nil {
			return err
		}
		if err := os.Rename(p+".tmp", p); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	return firstErr
}

// gradesHeader is the start of grades.csv's header; a column per test
// follows.
var gradesHeader = []string{"student", "student_id", "submission", "assignment", "score", "max_score"}

// writeGrades writes grades.csv: a row per submission with the student
// (ident.Of its path: the name and the gradebook's ID the file name
// carries), the submission, the assignment, the total and the maximum,
// then a column per test, named after it (ASSIGNMENT:TEST when the batch
// holds several assignments), empty where a submission's assignment has
// no such test.
func writeGrades(out io.Writer, subs []string, reports []*Report) {
	assignments := map[string]bool{}
	for _, rep := range reports {
		if rep.Assignment != "" && len(rep.Tests) > 0 {
			assignments[rep.Assignment] = true
		}
	}
	column := func(rep *Report, test string) string {
		if len(assignments) > 1 {
			return rep.Assignment + ":" + test
		}
		return test
	}
	var tests []string
	seen := map[string]bool{}
	for _, rep := range reports {
		for _, tr := range rep.Tests {
			if c := column(rep, tr.Name); !seen[c] {
				seen[c] = true
				tests = append(tests, c)
			}
		}
	}
	w := csv.NewWriter(out)
	w.Write(append(slices.Clone(gradesHeader), tests...))
	for i, rep := range reports {
		st := ident.Of(subs[i])
		row := []string{ident.SpreadsheetSafe(st.Name), st.ID, subs[i], rep.Assignment, num(rep.Score), num(rep.MaxScore)}
		scores := map[string]string{}
		for _, tr := range rep.Tests {
			scores[column(rep, tr.Name)] = num(tr.Score)
		}
		for _, c := range tests {
			row = append(row, scores[c])
		}
		w.Write(row)
	}
	w.Flush()
}
