package grade

import (
	"errors"
	"os"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

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
