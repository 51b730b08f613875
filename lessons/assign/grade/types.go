package grade

import "fmt"

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

// Violation is one place where a submission breaks its assignment's
// Policy or the grader's rules for student code.
type Violation struct {
	Cell int    // the submission's cell (counted from 0, markdown included)
	Line int    // line in that cell (1-based)
	Rule string // the rule broken, e.g. "import not allowed"
	Text string // what was found there
}

func (v Violation) String() string {
	return fmt.Sprintf("cell %d, line %d: %s: %s", v.Cell, v.Line, v.Rule, v.Text)
}
