package grade

import (
	"sync"
	"time"

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

func (g *Grader) logf(format string, args ...any) {
	if g.Log != nil {
		g.Log(format, args...)
	}
}
