// Command assign generates and grades the course assignments in lessons/.
//
// Each assignment is a folder lessons/NAME holding source.ipynb, the
// instructor's single source: solution code sits between the lines
// "// BEGIN SOLUTION" and "// END SOLUTION", instructor-only tests in %test
// cells between "// BEGIN HIDDEN TESTS" and "// END HIDDEN TESTS", and each
// test function carries its points in its doc comment ("// points: 2",
// default 1). A written answer that no test grades sits in a markdown cell
// between "<!-- BEGIN SOLUTION -->" and "<!-- END SOLUTION -->".
//
// Usage:
//
//	go run ./lessons/assign generate [-hidden] [-execute=false] [-check] [DIR...]
//	go run ./lessons/assign grade [flags] SUBMISSION.ipynb|FOLDER
//	go run ./lessons/assign gradescope -assignment NAME [-o FILE.zip]
//	go run ./lessons/assign export [-format canvas] [-grades grades.csv] [-o FILE.csv] [-code DIR]
//
// generate writes DIR/student.ipynb (solutions replaced by
// panic("not implemented"), written answers by "*Your answer here.*",
// hidden tests removed, outputs cleared) and
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
// export reads the grades.csv that grade wrote (a student column from each
// file name, the total, a column per test) and writes a CSV that Canvas's
// gradebook imports (-o) and each submission's Go code as NAME.go for a
// similarity checker (-code).
//
// The work is in packages with no upward dependencies: generate, grade
// and gradescope and export over assignment, ident, notebook, rpc and
// sandbox. This command only parses flags.
//
// lessons/README.md is the guide for instructors and students.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/export"
	"github.com/perceptron-go/lessons/lessons/assign/generate"
	"github.com/perceptron-go/lessons/lessons/assign/grade"
	"github.com/perceptron-go/lessons/lessons/assign/gradescope"
)

const usage = `usage:
  assign generate [-hidden] [-execute=false] [-check] [DIR...]
  assign grade [-assignment NAME] [-sandbox bwrap|setpriv|none] [-workers N] [-parallel N] [-timeout 10s] [-out DIR] [-results FILE] SUBMISSION.ipynb|FOLDER
  assign gradescope -assignment NAME [-o FILE.zip]
  assign export [-format canvas] [-grades grades.csv] [-o FILE.csv] [-code DIR] [-title "NAME (ID)"]
                [-due TIME] [-extensions FILE.csv] [-late-penalty none|zero|P%/day] [-written written.csv]
  assign roster [-n] [-admin NAME,...] [-drop lock|delete|keep] ROSTER.csv
  assign collect -assignment NAME [-out DIR]
  assign written -assignment NAME [-out DIR] SUBMISSION.ipynb|FOLDER...
  assign similarity -assignment NAME [-threshold 0.5] [-o REPORT.md] SUBMISSION.ipynb|FILE.go|FOLDER...
Run "assign COMMAND -h" for the flags.`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "assign:", grade.EscapeControl(err.Error()))
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
	case "export":
		return runExport(args[1:], stdout, stderr)
	case "roster":
		return runRoster(args[1:], stdout, stderr)
	case "collect":
		return runCollect(args[1:], stdout, stderr)
	case "written":
		return runWritten(args[1:], stdout, stderr)
	case "similarity":
		return runSimilarity(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
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
		if repo, err = assignment.FindRepo("."); err != nil {
			return err
		}
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		var err error
		if dirs, err = assignment.Dirs(filepath.Join(repo, "lessons")); err != nil {
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
			problems := generate.Check(a)
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
		if err := generate.Write(a, *hidden, *execute, repo); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: wrote student.ipynb and solution.ipynb (%d tests, %s points) in %.1fs\n",
			dir, len(a.Tests), strconv.FormatFloat(a.MaxScore(), 'g', -1, 64), time.Since(start).Seconds())
	}
	if len(failed) > 0 {
		return fmt.Errorf("out of date: %s; run: go run ./lessons/assign generate", strings.Join(failed, ", "))
	}
	return nil
}

// runGrade parses the flags of "assign grade" and grades.
func runGrade(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("grade", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c grade.Config
	c.Flags(fs)
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
	return grade.Batch(c, fs.Arg(0), stdout, stderr)
}

// runGradescope parses the flags of "assign gradescope" and builds the zip.
func runGradescope(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gradescope", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o gradescope.Options
	o.Flags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign gradescope -assignment NAME [-o FILE.zip] [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.Assignment == "" || fs.NArg() != 0 {
		fs.Usage()
		return errors.New("gradescope takes -assignment NAME and no arguments")
	}
	return gradescope.Build(o, stdout)
}

// runExport parses the flags of "assign export" and writes the exports.
func runExport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o export.Options
	o.Flags(fs)
	adjust := exportAdjust(fs) // class.go: -written, -due, -extensions, -late-penalty
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: assign export [-format canvas] [-grades grades.csv] [-o FILE.csv] [-code DIR] [-title NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errors.New("export takes flags only")
	}
	var err error
	if o.Adjust, err = adjust(); err != nil {
		return err
	}
	return export.Run(o, stdout, stderr)
}
