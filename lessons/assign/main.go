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
// with a time limit (-timeout: the CPU time of the student's processes,
// and three times it in wall time for a test that waits) and a limit on
// the resident memory of its
// process tree (-memory). A test's score comes only from the harness's
// verdict, authenticated with a per-process key over a file descriptor the
// student's code cannot reach, never from what it prints. It writes the
// instructor's report, the student's report and a Gradescope results.json,
// in which hidden tests show only pass/fail and their author's message.
// Hidden tests draw their data from the instructor's secret (-secret) and
// the student, so no repository holds the graded values. No change a
// student's function makes to its arguments reaches a test. A function whose body does
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
// and gradescope and export over assignment, internal/ident, notebook,
// rpc and sandbox. Each subcommand has one shape (command: its options
// register their flags, then run on the arguments left); this command
// only parses flags. rpc stays public: the programs the grader generates
// are a module of their own ("graded") that imports it, and Go's internal
// rule would refuse that import.
//
// lessons/README.md is the guide for instructors and students.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/perceptron-go/lessons/lessons/assign/class"
	"github.com/perceptron-go/lessons/lessons/assign/generate"
	"github.com/perceptron-go/lessons/lessons/assign/grade"
	"github.com/perceptron-go/lessons/lessons/assign/gradescope"
)

// command is the one shape of every subcommand: its options register
// their flags, then Run takes the arguments left after the flags.
type command interface {
	Flags(fs *flag.FlagSet)
	Run(args []string, stdout, stderr io.Writer) error
}

// commands are the subcommands, each with its arguments for the usage.
var commands = []struct {
	name, args string
	new        func() command
}{
	{"generate", "[-hidden] [-execute=false] [-check] [DIR...]", func() command { return new(generate.Options) }},
	{"grade", "[-assignment NAME] [-sandbox bwrap|setpriv|none] [-workers N] [-parallel N] [-timeout 10s] [-out DIR] [-results FILE] SUBMISSION.ipynb|FOLDER", func() command { return new(grade.Config) }},
	{"gradescope", "-assignment NAME [-o FILE.zip]", func() command { return new(gradescopeCommand) }},
	{"export", `[-format canvas] [-grades grades.csv] [-o FILE.csv] [-code DIR] [-title "NAME (ID)"] [-due TIME] [-extensions FILE.csv] [-late-penalty none|zero|P%/day] [-written written.csv]`, func() command { return new(class.Export) }},
	{"roster", "[-n] [-admin NAME,...] [-drop lock|delete|keep] ROSTER.csv  (Canvas's gradebook export or Moodle's participants download; as root on the class server)", func() command { return class.Roster() }},
	{"collect", "-assignment NAME [-out DIR]  (each student's notebook of the roster, with its save time; as root on the class server)", func() command { return class.Collect() }},
	{"written", "-assignment NAME [-out DIR] SUBMISSION.ipynb|FOLDER...  (DIR/NAME.html per submission, written answers first, and DIR/written.csv to fill)", func() command { return class.Written() }},
	{"similarity", "-assignment NAME [-threshold 0.5] [-o REPORT.md] SUBMISSION.ipynb|FILE.go|FOLDER...", func() command { return class.Similarity() }},
}

// gradescopeCommand gives gradescope.Build the command's shape.
type gradescopeCommand struct{ gradescope.Options }

func (c *gradescopeCommand) Run(args []string, stdout, stderr io.Writer) error {
	if c.Assignment == "" || len(args) != 0 {
		return errors.New("gradescope takes -assignment NAME and no arguments")
	}
	return gradescope.Build(c.Options, stdout)
}

func usage() string {
	s := "usage:"
	for _, c := range commands {
		s += fmt.Sprintf("\n  assign %s %s", c.name, c.args)
	}
	return s + "\nRun \"assign COMMAND -h\" for the flags."
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "assign:", grade.EscapeControl(err.Error()))
		os.Exit(1)
	}
}

// run parses the command's flags and runs it.
func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage())
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage())
		return nil
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		cmd := c.new()
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		cmd.Flags(fs)
		fs.Usage = func() {
			fmt.Fprintf(stderr, "usage: assign %s %s\n", c.name, c.args)
			fs.PrintDefaults()
		}
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if err := cmd.Run(fs.Args(), stdout, stderr); err != nil {
			return err
		}
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage())
}
