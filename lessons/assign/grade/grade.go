package grade

import (
	"errors"
	"os"
	"sync"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"

	"github.com/perceptron-go/lessons/lessons/assign/internal/sandbox"
)

// Status is how one graded test ended; its text is what the reports show.
type Status string

// The statuses of a graded test.
const (
	StatusPassed  Status = "passed"
	StatusFailed  Status = "failed"
	StatusPanic   Status = "panicked"
	StatusTimeout Status = "timed out"
	StatusCompile Status = "did not compile"
	StatusMissing Status = "not run"
	StatusReject  Status = "rejected"
	StatusOOM     Status = "out of memory"
)

// TestResult is the outcome of one test of one submission.
type TestResult struct {
	Name     string
	Hidden   bool
	Message  string // for a hidden test, what its author tells the student
	Status   Status
	Score    float64
	MaxScore float64
	Output   string // what the test printed, or why it failed
	Seconds  float64
}

// Report is the grade of one submission.
type Report struct {
	Submission   string // path of the submitted notebook
	Assignment   string
	Score        float64
	MaxScore     float64
	Tests        []TestResult
	CompileError string      // compiler output when the code did not build, even with Stubs
	Stubs        []Stub      // functions replaced by a panic because they did not compile
	Notes        []string    // cells skipped and other remarks for the student
	Rejected     []Violation // rules the code broke: nothing was built or run, every test scores 0
	Isolation    string      // how the tests ran (the sandbox level)
	Variant      string      // the hidden tests' data: a fingerprint of the student's variant, or "public"
	ShowHidden   bool        // results.json shows hidden tests at once, not after the due date
	// ReleaseHidden shows the hidden tests' output (what they expected and
	// got) in the student's report and results.json: after the due date,
	// when the instructor chooses to.
	ReleaseHidden bool
	Seconds       float64
}

// Stub is a function of the submission that did not compile: the grader
// replaced its body by a panic naming the compiler's messages, so that only
// the tests that call it lose their points.
//
// An exercise the submission does not declare with the source's signature
// is a Stub too (Undefined): the tests call a function that panics with
// "NAME is not defined with this signature: want func(...)".
type Stub struct {
	Func      string // "Dot", or "T.Method" for a method
	Cell      int    // the submission's cell that declares it (-1: none)
	Line      int    // its first line in that cell (1-based)
	Error     string // the compiler's messages inside it, located in the cells; for Undefined, the panic's message
	Undefined bool   // an exercise missing or declared with another signature
}

// panicMessage is the message of the panic that replaces the body.
func (s Stub) panicMessage() string {
	if s.Undefined {
		return s.Error
	}
	return s.Func + " does not compile: " + s.Error
}

// Grader grades submissions against the source notebooks of lessons.
type Grader struct {
	Repo         string        // repository root (holds go.mod of github.com/perceptron-go/lessons)
	Timeout      time.Duration // per-test time limit
	BuildTimeout time.Duration // time limit for compiling a submission
	// BuildMemoryMB limits the resident memory of a submission's build
	// (the go command, compiler and linker; 0: none), MaxBinaryMB the
	// size of the program it writes (0: none): a compile bomb is that
	// submission's zero.
	BuildMemoryMB int
	MaxBinaryMB   int
	Parallel      int              // tests run at the same time
	Sandbox       *sandbox.Sandbox // runs each test process (level, memory limit)
	Keep          bool             // keep the temporary module (for debugging)
	ShowHidden    bool             // hidden tests visible in results.json at once (default: after the due date)
	ReleaseHidden bool             // the student's report and results.json show the hidden tests' output
	// Secret is the instructor's secret the hidden tests' data are drawn
	// from, per student (see variant.go); nil: the public data.
	Secret []byte
	// Student, if set, is the student of every submission this Grader
	// grades (for the variant), instead of the one its file name gives.
	Student string
	Log     func(format string, args ...any)
	// SkipStaticCheck grades without checking the assignment's rules
	// (imports, denied identifiers, init functions...), so that the
	// sandbox alone must hold an attack: the red-team tests set it.
	SkipStaticCheck bool

	semOnce sync.Once
	sem     chan struct{} // test processes running, shared by all submissions

	trustedMu  sync.Mutex
	trusted    map[string]string // trusted test binaries by content hash
	trustedDir string
}

// Grade grades the submitted notebook sub against assignment a, in four
// stages: check (the assignment's rules on the submission's code: a
// submission that breaks them is rejected, nothing is built, and every
// test scores 0), build (the trusted test binary and the student's
// program), run (each test, a pair of processes) and report (the score).
func (g *Grader) Grade(subPath string, sub *notebook.Notebook, a *assignment.Assignment) (*Report, error) {
	start := time.Now()
	rep := g.newReport(subPath, a)
	defer func() {
		// Messages cite the student's own cell numbers, not the source's.
		rep.relocate(cellNames(sub, a))
		rep.Seconds = time.Since(start).Seconds()
	}()
	prog := program(sub, a)
	rep.Notes = prog.notes
	if vs := g.check(prog, a); len(vs) > 0 {
		rep.reject(vs)
		return rep, nil
	}
	if g.Sandbox == nil {
		return nil, errors.New("grader: no sandbox")
	}
	dir, err := os.MkdirTemp("", "assign-grade-")
	if err != nil {
		return nil, err
	}
	if g.Keep {
		g.logf("grade: %s: keeping %s", subPath, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	b, err := g.build(subPath, dir, prog, a)
	switch {
	case err != nil:
		return nil, err
	case len(b.rejected) > 0:
		rep.reject(b.rejected)
		return rep, nil
	case b.compileError != "":
		rep.compileFailed(b.compileError)
		return rep, nil
	}
	rep.Stubs = b.stubs
	variant := g.variantOf(subPath, a.Name)
	rep.Variant = variantLabel(variant)
	if err := g.run(b, rep, variant); err != nil {
		return nil, err
	}
	rep.total()
	return rep, nil
}
