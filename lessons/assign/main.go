// Command assign generates and grades the course assignments in lessons/.
//
// Each assignment is a folder lessons/NAME holding source.ipynb, the
// instructor's single source: solution code sits between the lines
// "// BEGIN SOLUTION" and "// END SOLUTION", instructor-only tests in %test
// cells between "// BEGIN HIDDEN TESTS" and "// END HIDDEN TESTS", and each
// test function carries its points in its doc comment ("// points: 2",
// default 1).
//
// Usage:
//
//	go run ./lessons/assign generate [-hidden] [-execute=false] [-check] [DIR...]
//	go run ./lessons/assign grade [flags] SUBMISSION.ipynb|FOLDER
//	go run ./lessons/assign gradescope -assignment NAME [-o FILE.zip]
//
// generate writes DIR/student.ipynb (solutions replaced by
// panic("not implemented"), hidden tests removed, outputs cleared) and
// DIR/solution.ipynb (solutions in place, hidden tests removed unless
// -hidden), then executes the solution with the gonb kernel (unless
// -execute=false). With -check it writes nothing and fails if the committed
// notebooks are out of date with their source. Without DIR it does every
// lessons/*/source.ipynb.
//
// grade extracts the submission's code (its code cells that are not %test
// cells, without GoNB commands and %% main bodies) and checks it against
// the assignment's rules (an import allow-list; no init functions,
// package-level calls, compiler directives or shadowed predeclared names;
// no denied identifiers such as the reference learners): a submission
// that breaks them is rejected with the cell, line and rule. Otherwise it
// takes the given code (source cells without an exercise) and the visible
// and hidden tests from the assignment's source notebook, compiles them
// offline (-mod=readonly, GOPROXY=off) with a generated harness, and runs
// each test in its own sandboxed process (-sandbox: bubblewrap by default)
// with a time limit (-timeout) and a limit on the resident memory of its
// process tree (-memory). A test's score comes only from the harness's
// verdict, authenticated with a per-process key over a file descriptor the
// student's code cannot reach, never from what it prints. It writes a
// readable report and a Gradescope results.json in which hidden tests show
// only pass/fail and their author's message. A function whose body does
// not compile is replaced by a panic naming the compiler's message, so it
// costs only the tests that call it. A folder is graded in parallel
// (-workers), each submission from a private staging copy; a broken one
// gets its own 0 with the reason, and grades.csv is written at the end.
// The assignment is -assignment, else a name in the submission's path,
// else the notebook's metadata if it is exactly a known assignment's name.
//
// gradescope builds an assignment's Gradescope autograder zip.
//
// lessons/README.md is the guide for instructors and students.
package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/notebook"

	"github.com/perceptron-go/lessons/lessons/assign/sandbox"
)

const usage = `usage:
  assign generate [-hidden] [-execute=false] [-check] [DIR...]
  assign grade [-assignment NAME] [-sandbox bwrap|setpriv|none] [-workers N] [-parallel N] [-timeout 10s] [-out DIR] [-results FILE] SUBMISSION.ipynb|FOLDER
  assign gradescope -assignment NAME [-o FILE.zip]
Run "assign generate -h" or "assign grade -h" for the flags.`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "assign:", escapeControl(err.Error()))
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "generate":
		return runGenerate(args[1:], stdout, stderr)
	case "grade":
		return runGrade(args[1:], stdout, stderr)
	case "gradescope":
		return runGradescope(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// findRepo returns the folder, at or above start, whose go.mod declares
// the module github.com/perceptron-go/lessons.
func findRepo(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				fields := strings.Fields(sc.Text())
				if len(fields) == 2 && fields[0] == "module" && fields[1] == assignment.ModulePath {
					f.Close()
					return dir, nil
				}
			}
			f.Close()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of module %s at or above %s: run from the repository or give -repo", assignment.ModulePath, start)
		}
		dir = parent
	}
}

// assignmentDirs returns the folders of lessonsDir that hold a source.ipynb.
func assignmentDirs(lessonsDir string) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(lessonsDir, "*", "source.ipynb"))
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, m := range matches {
		dirs = append(dirs, filepath.Dir(m))
	}
	sort.Strings(dirs)
	return dirs, nil
}

func runGenerate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hidden := fs.Bool("hidden", false, "keep the hidden tests in solution.ipynb (do not hand that one out)")
	execute := fs.Bool("execute", true, "execute solution.ipynb in place with the gonb kernel (needs Jupyter, see scripts/setup.sh)")
	check := fs.Bool("check", false, "write nothing; fail if the committed student.ipynb and solution.ipynb are out of date with source.ipynb")
	repoFlag := fs.String("repo", "", "repository root (default: found from the current folder)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign generate [flags] [DIR...]\nDIR holds source.ipynb; default: every lessons/*/source.ipynb.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	repo := *repoFlag
	if repo == "" {
		var err error
		if repo, err = findRepo("."); err != nil {
			return err
		}
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		var err error
		if dirs, err = assignmentDirs(filepath.Join(repo, "lessons")); err != nil {
			return err
		}
		if len(dirs) == 0 {
			return fmt.Errorf("no %s/lessons/*/source.ipynb", repo)
		}
	}
	var failed []string
	for _, dir := range dirs {
		a, err := assignment.LoadAssignment(dir)
		if err != nil {
			return err
		}
		if *check {
			problems := a.Freshness()
			for _, p := range problems {
				fmt.Fprintln(stderr, p)
			}
			if len(problems) > 0 {
				failed = append(failed, dir)
			} else {
				fmt.Fprintf(stdout, "%s: up to date\n", dir)
			}
			continue
		}
		start := time.Now()
		if err := a.Generate(*hidden, *execute, repo); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: wrote student.ipynb and solution.ipynb (%d tests, %s points) in %.1fs\n",
			dir, len(a.Tests), num(a.MaxScore()), time.Since(start).Seconds())
	}
	if len(failed) > 0 {
		return fmt.Errorf("out of date: %s; run: go run ./lessons/assign generate", strings.Join(failed, ", "))
	}
	return nil
}

func runGrade(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("assignment", "", "assignment name (a folder of -lessons); default: the assignment whose name the submission's path holds")
	repoFlag := fs.String("repo", "", "repository root (default: found from the current folder)")
	lessonsFlag := fs.String("lessons", "", "folder of the assignments (default: REPO/lessons)")
	timeout := fs.Duration("timeout", 10*time.Second, "time limit per test")
	buildTimeout := fs.Duration("build-timeout", 10*time.Minute, "time limit for compiling one submission")
	// A test is a pair of processes that mostly wait on each other and on
	// the kernel (namespaces, cgroups): two per core keep the cores busy.
	parallel := fs.Int("parallel", 2*runtime.NumCPU(), "tests (each a pair of processes) run at the same time, over all submissions")
	workers := fs.Int("workers", runtime.NumCPU(), "submissions graded at the same time")
	memory := fs.Int("memory", 2048, "limit on the resident memory of each test's process tree, MiB (0: none)")
	buildMemory := fs.Int("build-memory", 2048, "limit on the resident memory of a submission's build (go command, compiler, linker), MiB (0: none)")
	showHidden := fs.Bool("show-hidden", false, "results.json shows hidden tests (name, points, pass/fail) at once; by default Gradescope shows them after the due date")
	acceptWeaker := fs.Bool("accept-weaker", false, "grade even if the sandbox level cannot give every guarantee here (the reports name what is missing)")
	level := fs.String("sandbox", sandbox.LevelBwrap, "isolation of the test processes: bwrap (default), setpriv (weaker, for Docker without user namespaces; root only) or none (no isolation: trusted code only)")
	out := fs.String("out", "", "folder for NAME.report.txt and NAME.results.json (default: next to each submission)")
	results := fs.String("results", "", "write the results.json of a single submission (a notebook, or a folder holding one) to this file (Gradescope: /autograder/results/results.json)")
	keep := fs.Bool("keep", false, "keep the temporary Go module of each submission (debugging)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign grade [flags] SUBMISSION.ipynb|FOLDER")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("grade takes one notebook or folder")
	}
	repo, lessonsDir, err := repoDirs(*repoFlag, *lessonsFlag)
	if err != nil {
		return err
	}
	sb, err := sandbox.New(*level, *memory)
	if err != nil {
		return err
	}
	defer sb.Close()
	if len(sb.Missing) > 0 && *level != sandbox.LevelNone && !*acceptWeaker {
		return fmt.Errorf("-sandbox=%s cannot give here: %s; pass -accept-weaker to grade anyway (every report then names what is missing), or use -sandbox=bwrap", *level, strings.Join(sb.Missing, "; "))
	}
	for _, d := range []string{repo, lessonsDir} {
		if abs, err := filepath.Abs(d); err == nil {
			sb.Hide = append(sb.Hide, abs)
		}
	}
	g := &Grader{Repo: repo, Timeout: *timeout, BuildTimeout: *buildTimeout, BuildMemoryMB: *buildMemory, MaxBinaryMB: 256,
		Parallel: *parallel, Sandbox: sb, Keep: *keep,
		Log: func(f string, a ...any) { fmt.Fprintln(stderr, escapeControl(fmt.Sprintf(f, a...))) }}
	defer g.Close()
	g.ShowHidden = *showHidden
	g.noStaticCheck = testNoStaticCheck
	if *level == sandbox.LevelNone {
		fmt.Fprintln(stderr, "assign: WARNING: -sandbox=none is no sandbox: submissions run as your user, with your files, network and processes; grade only code you trust")
	}

	target := fs.Arg(0)
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
		if *results != "" && len(subs) > 1 {
			return fmt.Errorf("-results is for a single submission, and %s holds %d notebooks; use -out", target, len(subs))
		}
	} else {
		subs = []string{target}
	}
	known, err := assignmentDirs(lessonsDir)
	if err != nil {
		return err
	}
	if *name != "" && !slices.ContainsFunc(known, func(d string) bool { return filepath.Base(d) == *name }) {
		return fmt.Errorf("no assignment %q in %s", *name, lessonsDir)
	}
	staging, err := os.MkdirTemp("", "assign-staging-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(staging)
	b := &batch{g: g, name: *name, lessonsDir: lessonsDir, known: known, staging: staging, cache: map[string]*assignmentLoad{}}

	// Grade in parallel; write each submission's files as it finishes.
	reports := make([]*Report, len(subs))
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				sub := subs[i]
				rep := b.grade(i, sub)
				reports[i] = rep
				err := writeReport(rep, sub, target, info.IsDir(), *out, *results)
				if err != nil && info.IsDir() {
					// That submission's zero, with the reason, under a
					// name the file system takes; the batch goes on.
					failed(rep, fmt.Sprintf("the grader could not write this submission's report: %v", err))
					err = writeReport(rep, filepath.Join(target, fmt.Sprintf("submission-%04d.ipynb", i)), target, true, *out, "")
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if len(subs) == 1 {
					fmt.Fprint(stdout, rep.Text())
				} else {
					fmt.Fprintf(stdout, "%s: %s: %s / %s (%.1fs)\n", escapeControl(sub), rep.Assignment, num(rep.Score), num(rep.MaxScore), rep.Seconds)
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
		if *out != "" {
			dir = *out
		}
		var buf strings.Builder
		w := csv.NewWriter(&buf)
		w.Write([]string{"submission", "assignment", "score", "max_score"})
		for i, rep := range reports {
			w.Write([]string{subs[i], rep.Assignment, num(rep.Score), num(rep.MaxScore)})
		}
		w.Flush()
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

// testNoStaticCheck switches the static check off in runGrade: only the
// red-team tests set it, to show the sandbox alone holding an attack.
var testNoStaticCheck bool

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

// repoDirs returns the repository (the -repo flag, or the one found from
// the working folder) as an absolute path, and the folder of the
// assignments (the -lessons flag, or <repo>/lessons).
func repoDirs(repoFlag, lessonsFlag string) (repo, lessons string, err error) {
	repo = repoFlag
	if repo == "" {
		if repo, err = findRepo("."); err != nil {
			return "", "", err
		}
	}
	repo, _ = filepath.Abs(repo)
	lessons = lessonsFlag
	if lessons == "" {
		lessons = filepath.Join(repo, "lessons")
	}
	return repo, lessons, nil
}
