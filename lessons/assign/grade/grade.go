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
