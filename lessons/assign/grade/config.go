package grade

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

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
	ReleaseHidden bool          // the student's report and results.json show hidden tests' output
	AcceptWeaker  bool          // grade even if the sandbox level lacks a guarantee here
	Level         string        // sandbox level: sandbox.LevelBwrap, LevelSetpriv or LevelNone
	Out           string        // folder for the reports; "": next to each submission
	Results       string        // results.json of a single submission goes here
	Keep          bool          // keep each submission's temporary module
	Secret        string        // file of the instructor's secret for the hidden data; "": $LESSONS_SECRET, else none
	Student       string        // the student of a single submission, for its hidden data; "": from its file name
	StudentFrom   string        // Gradescope's submission_metadata.json: Student is its users' IDs

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
	fs.DurationVar(&c.Timeout, "timeout", 10*time.Second, "time limit per test: the CPU time of the student's processes (a test that waits, using none, is stopped after 3 times it, at least 10 s more)")
	fs.DurationVar(&c.BuildTimeout, "build-timeout", 10*time.Minute, "time limit for compiling one submission")
	// A test is a pair of processes that mostly wait on each other and on
	// the kernel (namespaces, cgroups): two per core keep the cores busy.
	fs.IntVar(&c.Parallel, "parallel", 2*runtime.NumCPU(), "tests (each a pair of processes) run at the same time, over all submissions")
	fs.IntVar(&c.Workers, "workers", runtime.NumCPU(), "submissions graded at the same time")
	fs.IntVar(&c.MemoryMB, "memory", 2048, "limit on the resident memory of each test's process tree, MiB (0: none)")
	fs.IntVar(&c.BuildMemoryMB, "build-memory", 2048, "limit on the resident memory of a submission's build (go command, compiler, linker), MiB (0: none)")
	fs.BoolVar(&c.ShowHidden, "show-hidden", false, "results.json shows hidden tests (name, points, pass/fail) at once; by default Gradescope shows them after the due date")
	fs.BoolVar(&c.ReleaseHidden, "release-hidden", false, "the student's report (NAME.student.txt) and results.json show what each hidden test expected, got and printed (after the due date); by default only its name, points and pass or fail")
	fs.BoolVar(&c.AcceptWeaker, "accept-weaker", false, "grade even if the sandbox level cannot give every guarantee here (the reports name what is missing)")
	fs.StringVar(&c.Level, "sandbox", sandbox.LevelBwrap, "isolation of the test processes: bwrap (default), setpriv (weaker, for Docker without user namespaces; root only) or none (no isolation: trusted code only)")
	fs.StringVar(&c.Out, "out", "", "folder for NAME.report.txt and NAME.results.json (default: next to each submission)")
	fs.StringVar(&c.Results, "results", "", "write the results.json of a single submission (a notebook, or a folder holding one) to this file (Gradescope: /autograder/results/results.json)")
	fs.StringVar(&c.Secret, "secret", "", "file holding the instructor's secret: the hidden tests draw their data from it and each student's ID, so the graded values are in no repository (default: $"+SecretEnv+"; none: the public data)")
	fs.StringVar(&c.Student, "student", "", "the student's ID for a single submission's hidden data (default: from the file name, as grades.csv's student_id, else its student)")
	fs.StringVar(&c.StudentFrom, "student-from", "", "Gradescope's submission_metadata.json: the student of the submission is its users' IDs (run_autograder passes it), the same at every resubmission")
	fs.BoolVar(&c.Keep, "keep", false, "keep the temporary Go module of each submission (debugging)")
}

// grader is the setup stage of a batch: the repository, the sandbox at the
// level asked (refused where it lacks a guarantee, unless AcceptWeaker)
// and the Grader. Close it when done.
func (c Config) grader(stderr io.Writer) (g *Grader, lessonsDir string, err error) {
	repo, lessonsDir, err := assignment.RepoDirs(c.Repo, c.Lessons)
	if err != nil {
		return nil, "", err
	}
	secret, err := ReadSecret(c.Secret)
	if err != nil {
		return nil, "", err
	}
	if c.StudentFrom != "" && c.Student == "" {
		if c.Student, err = GradescopeStudent(c.StudentFrom); err != nil {
			return nil, "", err
		}
	}
	sb, err := sandbox.New(c.Level, c.MemoryMB)
	if err != nil {
		return nil, "", err
	}
	if len(sb.Missing) > 0 && c.Level != sandbox.LevelNone && !c.AcceptWeaker {
		sb.Close()
		return nil, "", fmt.Errorf("-sandbox=%s cannot give here: %s; pass -accept-weaker to grade anyway (every report then names what is missing), or use -sandbox=bwrap", c.Level, strings.Join(sb.Missing, "; "))
	}
	for _, d := range []string{repo, lessonsDir} {
		if abs, err := filepath.Abs(d); err == nil {
			sb.Hide = append(sb.Hide, abs)
		}
	}
	g = &Grader{Repo: repo, Timeout: c.Timeout, BuildTimeout: c.BuildTimeout, BuildMemoryMB: c.BuildMemoryMB, MaxBinaryMB: 256,
		Parallel: c.Parallel, Sandbox: sb, Keep: c.Keep, ShowHidden: c.ShowHidden, ReleaseHidden: c.ReleaseHidden, Secret: secret, Student: c.Student, SkipStaticCheck: c.SkipStaticCheck,
		Log: func(f string, a ...any) { fmt.Fprintln(stderr, EscapeControl(fmt.Sprintf(f, a...))) }}
	if c.Level == sandbox.LevelNone {
		fmt.Fprintln(stderr, "assign: WARNING: -sandbox=none is no sandbox: submissions run as your user, with your files, network and processes; grade only code you trust")
	}
	return g, lessonsDir, nil
}

// GradescopeStudent reads Gradescope's submission_metadata.json
// (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/)
// and returns who the submission is for: its users' IDs, sorted and joined
// with "+" (a group submits once), which stay the same at every
// resubmission, so a student's hidden data do too.
func GradescopeStudent(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("-student-from: %w", err)
	}
	var m struct {
		Users []struct {
			ID json.Number `json:"id"`
		} `json:"users"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return "", fmt.Errorf("-student-from %s: %w", path, err)
	}
	var ids []string
	for i, u := range m.Users {
		if u.ID == "" {
			return "", fmt.Errorf("-student-from %s: users[%d] has no id", path, i)
		}
		ids = append(ids, u.ID.String())
	}
	if len(ids) == 0 {
		return "", fmt.Errorf("-student-from %s: no users", path)
	}
	sort.Strings(ids)
	return strings.Join(ids, "+"), nil
}
