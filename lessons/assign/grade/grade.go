package grade

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"

	"github.com/perceptron-go/lessons/lessons/assign/sandbox"
)

// Status of one graded test.
const (
	statusPassed  = "passed"
	statusFailed  = "failed"
	statusPanic   = "panicked"
	statusTimeout = "timed out"
	statusCompile = "did not compile"
	statusMissing = "not run"
	statusReject  = "rejected"
	statusOOM     = "out of memory"
)

// TestResult is the outcome of one test of one submission.
type TestResult struct {
	Name     string
	Hidden   bool
	Message  string // for a hidden test, what its author tells the student
	Status   string
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
	ShowHidden   bool        // results.json shows hidden tests at once, not after the due date
	Seconds      float64
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
	Log           func(format string, args ...any)
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

// unit is one declaration placed in the graded program.
type unit struct {
	file string // name in positions: "cell7" (submission) or "source_cell12" (tests)
	d    assignment.Decl
	test bool // from a %test cell of the source
}

// assembly is the graded program of a submission, before rendering.
type assembly struct {
	imports map[string][]assignment.ImportSpec // by file: main.go (submission), given.go, graded_test.go
	units   []unit
	notes   []string                 // cells skipped
	cells   []*assignment.ParsedCell // the submission's parsed code cells
	tests   []assignment.TestFunc
}

// fileOf is the Go file a unit goes in: the submission's code in main.go,
// the source's given code in given.go, its tests in graded_test.go. Imports
// are per file, so the submission's code sees only its own imports.
func (u unit) fileOf() string {
	switch {
	case u.test:
		return "graded_test.go"
	case strings.HasPrefix(u.file, "cell"):
		return "main.go"
	}
	return "given.go"
}

// program assembles the Go files for a submission: the submission's
// declarations (later cells replace earlier declarations of the same name,
// as in GoNB), then the declarations of the source's code cells that hold
// no exercise, then those of the source's %test cells, visible and hidden;
// a later declaration replaces an earlier one of the same name.
func program(sub *notebook.Notebook, a *assignment.Assignment) *assembly {
	imports := map[string][]assignment.ImportSpec{}
	var units []unit
	var notes []string
	var cells []*assignment.ParsedCell
	index := map[string]int{}
	add := func(u unit) {
		if u.d.Key != "" {
			if i, ok := index[u.d.Key]; ok {
				units[i].d.Text = "" // replaced by a later declaration
			}
			index[u.d.Key] = len(units)
		}
		units = append(units, u)
	}
	for i, c := range sub.Cells {
		if c.Type != "code" {
			continue
		}
		cl := assignment.ReadCellLines(c.Source)
		if cl.Test {
			continue // the tests that count are the source's
		}
		pc, err := assignment.ParseCell(i, c.Source)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%v (cell skipped, as GoNB would not have kept it)", err))
			continue
		}
		cells = append(cells, pc)
		imports["main.go"] = append(imports["main.go"], pc.Imports...)
		for _, d := range pc.Decls {
			add(unit{file: fmt.Sprintf("cell%d", i), d: d})
		}
	}
	// The declarations of the source's other code cells (data, helpers:
	// everything but the exercises) are the instructor's: they replace the
	// submission's copies, so the tests run on the data they were written
	// for even if the student changed or deleted those cells.
	for _, pc := range a.CodeCells {
		imports["given.go"] = append(imports["given.go"], pc.Imports...)
		// The %test cells rely on the source's imports cell too.
		imports["graded_test.go"] = append(imports["graded_test.go"], pc.Imports...)
		if pc.Exercise {
			continue
		}
		for _, d := range pc.Decls {
			if i, ok := index[d.Key]; ok && d.Key != "" && strings.HasPrefix(units[i].file, "cell") && !sameTokens(units[i].d.Text, d.Text) {
				// The student changed a declaration of the given code (a
				// type's fields, a helper): say so by name, since their
				// code may lean on their version and fail to compile.
				notes = append(notes, fmt.Sprintf("%s is declared by the assignment; your cell %s redeclares it differently. The grader uses the assignment's declaration: code of yours written for your version may not compile (see below).",
					d.Key, strings.TrimPrefix(units[i].file, "cell")))
			}
			add(unit{file: fmt.Sprintf("source_cell%d", pc.Index), d: d})
		}
	}
	for _, pc := range a.TestCells {
		imports["graded_test.go"] = append(imports["graded_test.go"], pc.Imports...)
		for _, d := range pc.Decls {
			add(unit{file: fmt.Sprintf("source_cell%d", pc.Index), d: d, test: true})
		}
	}
	return &assembly{imports: imports, units: units, notes: notes, cells: cells, tests: a.Tests}
}

// sameTokens reports whether two declarations are the same Go tokens,
// comments and layout aside.
func sameTokens(a, b string) bool {
	toks := func(src string) []string {
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
		var out []string
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				return out
			}
			out = append(out, tok.String()+" "+lit)
		}
	}
	return slices.Equal(toks(a), toks(b))
}

// files renders main.go, given.go, graded_test.go and the harness, with
// the body of each unit in stubs (by index) replaced by a panic with its
// message. For the student's process (server), it renders only main.go
// and given.go, without a main function (the generated server has one).
func (p *assembly) files(stubs map[int]Stub, server bool) map[string]string {
	units := p.units
	render := func(file string) string {
		var body strings.Builder
		used := map[string]bool{}
		for i, u := range units {
			if u.fileOf() != file || u.d.Text == "" {
				continue
			}
			text, uses := u.d.Text, u.d.Uses
			if st, ok := stubs[i]; ok {
				text = text[:u.d.Body] + "{ panic(" + strconv.Quote(st.panicMessage()) + ") }"
				uses = u.d.SigUses
			}
			fmt.Fprintf(&body, "//line %s:%d\n%s\n\n", u.file, u.d.Line, text)
			for _, n := range uses {
				used[n] = true
			}
		}
		if file == "given.go" && !server {
			body.WriteString("//line graded_main:1\nfunc main() {}\n")
		}
		var b strings.Builder
		b.WriteString("// Code generated by lessons/assign for grading. DO NOT EDIT.\n\npackage main\n\n")
		seen := map[assignment.ImportSpec]bool{}
		var specs []string
		for _, is := range p.imports[file] {
			n := assignment.ImportName(is)
			if seen[is] || (n != "_" && n != "." && !used[n]) {
				continue
			}
			seen[is] = true
			if is.Name != "" {
				specs = append(specs, fmt.Sprintf("\t%s %q\n", is.Name, is.Path))
			} else {
				specs = append(specs, fmt.Sprintf("\t%q\n", is.Path))
			}
		}
		sort.Strings(specs)
		if len(specs) > 0 {
			b.WriteString("import (\n" + strings.Join(specs, "") + ")\n\n")
		}
		b.WriteString(body.String())
		return b.String()
	}
	if server {
		return map[string]string{"main.go": render("main.go"), "given.go": render("given.go")}
	}
	return map[string]string{"main.go": render("main.go"), "given.go": render("given.go"),
		"graded_test.go": render("graded_test.go"), "graded_harness_test.go": harnessFile(p.tests)}
}

// isolate finds the submission's functions the compiler errors point into
// and returns them, with their messages, as stubs to add to stubs (keyed
// by unit index). It returns nil if an error lies elsewhere (given code,
// tests, a type or variable declaration, a function's signature) or in a
// function already stubbed: then stubbing cannot make the code compile.
func (p *assembly) isolate(errs []compileError, stubs map[int]Stub) map[int]Stub {
	found := map[int]Stub{}
	for _, e := range errs {
		at := -1
		for i, u := range p.units {
			if u.test || u.d.Text == "" || u.file != e.file || !strings.HasPrefix(u.file, "cell") {
				continue
			}
			if e.line >= u.d.Line && e.line <= u.d.Line+strings.Count(u.d.Text, "\n") {
				at = i
				break
			}
		}
		if at < 0 {
			return nil
		}
		d := p.units[at].d
		if _, done := stubs[at]; done || d.Body < 0 || e.line < d.Line+strings.Count(d.Text[:d.Body], "\n") {
			return nil
		}
		st := found[at]
		if st.Func == "" {
			cell, _ := strconv.Atoi(strings.TrimPrefix(e.file, "cell"))
			st = Stub{Func: d.Name, Cell: cell, Line: d.Line}
		} else {
			st.Error += "\n"
		}
		st.Error += e.text
		found[at] = st
	}
	if len(found) == 0 {
		return nil
	}
	return found
}

// moduleFiles returns go.mod and go.sum for the temporary module: the
// repository's requirements (so the same versions build, from the same
// cache) plus the repository itself, replaced by its folder.
func (g *Grader) moduleFiles() (gomod, gosum []byte, err error) {
	mod, err := os.ReadFile(filepath.Join(g.Repo, "go.mod"))
	if err != nil {
		return nil, nil, err
	}
	sum, err := os.ReadFile(filepath.Join(g.Repo, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	moduleLine := regexp.MustCompile(`(?m)^module\s+\S+\s*$`)
	if !moduleLine.Match(mod) {
		return nil, nil, fmt.Errorf("%s/go.mod has no module line", g.Repo)
	}
	mod = moduleLine.ReplaceAll(mod, []byte("module graded"))
	mod = append(mod, fmt.Sprintf("\nrequire %s v0.0.0\n\nreplace %s => %s\n", assignment.ModulePath, assignment.ModulePath, g.Repo)...)
	return mod, sum, nil
}

// goCmd runs the go command in dir with a time limit and returns its
// combined output.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	out, _, err := goCmdLimited(ctx, dir, 0, args...)
	return out, err
}

// goCmdLimited is goCmd with a limit on the resident memory of the go
// command's process tree (the compiler and linker it runs), in MiB (0:
// none): over it, the tree is killed and exceeded is true.
func goCmdLimited(ctx context.Context, dir string, memoryMB int, args ...string) (string, bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = assignment.BuildEnv()
	cmd.SysProcAttr = sandbox.SysProcAttr()
	cmd.Cancel = func() error {
		sandbox.KillGroup(cmd.Process.Pid)
		return cmd.Process.Kill()
	}
	cmd.WaitDelay = 5 * time.Second
	out := &sandbox.LimitedBuffer{Max: 1 << 20}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return "", false, err
	}
	var exceeded atomic.Bool
	if memoryMB > 0 {
		go sandbox.WatchMemory(ctx, cmd.Process.Pid, int64(memoryMB)<<20, func() {
			exceeded.Store(true)
			sandbox.KillGroup(cmd.Process.Pid)
			cancel()
		})
	}
	err := cmd.Wait()
	if exceeded.Load() {
		return out.String(), true, fmt.Errorf("the build exceeded %d MiB of memory", memoryMB)
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return out.String(), false, err
}

// compilePos matches a compiler error's position in the graded code.
var compilePos = regexp.MustCompile(`^(source_)?cell(\d+):(\d+)(?::\d+)?:`)

var undefinedErr = regexp.MustCompile(`undefined: \w+`)

// compileError is one error of the compiler in the graded code.
type compileError struct {
	exercise string // the exercise whose registration failed: the submission declares it with another type
	file     string // "cell7", "source_cell12", "" if not in a cell
	line     int    // line in the cell (1-based)
	text     string // the message, located in the cells ("cell 7, line 3: ...")
}

// build compiles the student's program in dir into dir/graded.server. A
// failure to compile returns the compiler's message and its errors one by
// one.
func (g *Grader) build(dir string) (compileErr string, errs []compileError, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), g.BuildTimeout)
	defer cancel()
	// No symbol table nor DWARF (a third less link time): the runtime's
	// own tables still name the frames of a panic.
	args := []string{"build", "-ldflags=-s -w", "-o", "graded.server", "."}
	out, bomb, err := goCmdLimited(ctx, dir, g.BuildMemoryMB, args...)
	if err != nil && !bomb && ctx.Err() == nil && undefinedErr.MatchString(out) {
		// The code may lean on GoNB's goimports for a missing import.
		if fixImports(ctx, dir, "main.go") {
			out, bomb, err = goCmdLimited(ctx, dir, g.BuildMemoryMB, args...)
		}
	}
	switch {
	case bomb:
		msg := err.Error()
		return msg, []compileError{{text: msg}}, nil
	case err == nil:
		if fi, err := os.Stat(filepath.Join(dir, "graded.server")); err == nil && g.MaxBinaryMB > 0 && fi.Size() > int64(g.MaxBinaryMB)<<20 {
			msg := fmt.Sprintf("the program is %d MiB, over the limit of %d MiB", fi.Size()>>20, g.MaxBinaryMB)
			return msg, []compileError{{text: msg}}, nil
		}
		return "", nil, nil
	case ctx.Err() != nil:
		msg := fmt.Sprintf("compiling took longer than %v", g.BuildTimeout)
		return msg, []compileError{{text: msg}}, nil
	}
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "FAIL\t") {
			continue
		}
		l = strings.TrimPrefix(l, "./")
		var e compileError
		if sm := exercisePos.FindStringSubmatch(l); sm != nil {
			// The submission's function does not have the exercise's type.
			errs = append(errs, compileError{exercise: sm[1], text: sm[2]})
			keep = append(keep, sm[2])
			continue
		}
		if sm := compilePos.FindStringSubmatch(l); sm != nil {
			e.file = sm[1] + "cell" + sm[2]
			e.line, _ = strconv.Atoi(sm[3])
		}
		l = compilePos.ReplaceAllStringFunc(l, func(m string) string {
			sm := compilePos.FindStringSubmatch(m)
			if sm[1] != "" {
				return fmt.Sprintf("cell %s of the source, line %s:", sm[2], sm[3])
			}
			return fmt.Sprintf("cell %s, line %s:", sm[2], sm[3])
		})
		keep = append(keep, l)
		e.text = l
		switch {
		case strings.TrimSpace(l) == "too many errors":
			// The rest shows once the first ones are stubbed.
		case len(errs) > 0 && (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ")):
			errs[len(errs)-1].text += "\n" + l // a continuation: have/want
		default:
			errs = append(errs, e)
		}
	}
	if len(keep) == 0 {
		return "", nil, fmt.Errorf("go test -c: %v\n%s", err, out)
	}
	return strings.Join(keep, "\n"), errs, nil
}

var importBlock = regexp.MustCompile(`(?s)\npackage main\n\n(import \(\n.*?\n\)\n\n)?`)

// fixImports runs goimports on each file, as GoNB does on every cell, and
// keeps only the import block it writes: goimports would also move the
// //line directives that map positions back to the cells. It reports
// whether any file changed.
func fixImports(ctx context.Context, dir string, files ...string) bool {
	changed := false
	for _, name := range files {
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		cmd := exec.CommandContext(ctx, "go", "tool", "goimports", name)
		cmd.Dir = dir
		cmd.Env = assignment.BuildEnv()
		cmd.WaitDelay = 5 * time.Second
		fixed, err := cmd.Output()
		if err != nil {
			return false
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, fixed, parser.ImportsOnly)
		if err != nil {
			return false
		}
		var specs []string
		for _, is := range f.Imports {
			if is.Name != nil {
				specs = append(specs, fmt.Sprintf("\t%s %s\n", is.Name.Name, is.Path.Value))
			} else {
				specs = append(specs, fmt.Sprintf("\t%s\n", is.Path.Value))
			}
		}
		block := "\npackage main\n\n"
		if len(specs) > 0 {
			block += "import (\n" + strings.Join(specs, "") + ")\n\n"
		}
		out := importBlock.ReplaceAllLiteralString(string(src), block)
		if out != string(src) {
			changed = true
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				return false
			}
		}
	}
	return changed
}

// Grade grades the submitted notebook sub against assignment a. Its code
// is checked against the assignment's Policy first: a submission that
// breaks it is rejected, nothing is built, and every test scores 0.
func (g *Grader) Grade(subPath string, sub *notebook.Notebook, a *assignment.Assignment) (*Report, error) {
	start := time.Now()
	rep := &Report{Submission: subPath, Assignment: a.Name, MaxScore: a.MaxScore(), ShowHidden: g.ShowHidden}
	if g.Sandbox != nil {
		rep.Isolation = g.Sandbox.Describe()
	}
	defer func() { rep.Seconds = time.Since(start).Seconds() }()
	for _, t := range a.Tests {
		rep.Tests = append(rep.Tests, TestResult{Name: t.Name, Hidden: t.Hidden, Message: t.Message, MaxScore: t.Points, Status: statusMissing})
	}
	prog := program(sub, a)
	rep.Notes = prog.notes
	reject := func(vs []Violation) *Report {
		rep.Rejected = vs
		for i := range rep.Tests {
			rep.Tests[i].Status = statusReject
			rep.Tests[i].Output = "not run: the code breaks the assignment's rules (see above)"
		}
		return rep
	}
	if !g.SkipStaticCheck {
		if vs := checkSubmission(prog.cells, prog, a.Policy, a.GivenImports()); len(vs) > 0 {
			return reject(vs), nil
		}
	}
	if g.Sandbox == nil {
		return nil, errors.New("grader: no sandbox")
	}
	dir, err := os.MkdirTemp("", "assign-grade-")
	if err != nil {
		return nil, err
	}
	if g.Keep {
		g.logf("grade: keeping %s", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	gomod, gosum, err := g.moduleFiles()
	if err != nil {
		return nil, err
	}
	trusted, err := g.trustedBinary(a)
	if err != nil {
		return nil, err
	}
	// Build the student's process; while the compiler's errors all lie
	// inside the bodies of the submission's functions, replace those
	// bodies by a panic that names the errors and build again, so that
	// only the tests calling them lose their points; an exercise the
	// submission declares with another type is served by a function that
	// panics saying so. Otherwise every test scores 0.
	es := exercises(a)
	declared := prog.declaredNames()
	missing := map[string]bool{}
	for _, e := range es {
		if !declared[e.name] {
			missing[e.name] = true
		}
	}
	mistyped := map[string]string{}
	stubs := map[int]Stub{}
	firstErr := ""
	for round := 0; ; round++ {
		files := prog.files(stubs, true)
		files["graded_server.go"] = serverFile(a, es, missing, mistyped)
		files["go.mod"], files["go.sum"] = string(gomod), string(gosum)
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o600); err != nil {
				return nil, err
			}
		}
		compileErr, errs, err := g.build(dir)
		if err != nil {
			return nil, err
		}
		// goimports may have added an import the policy forbids.
		if vs := g.checkAddedImports(dir, prog, a.Policy, a.GivenImports()); len(vs) > 0 && !g.SkipStaticCheck {
			return reject(vs), nil
		}
		if compileErr == "" {
			break
		}
		var rest []compileError
		typed := false
		for _, e := range errs {
			if e.exercise == "" {
				rest = append(rest, e)
				continue
			}
			for _, x := range es {
				if x.name == e.exercise && mistyped[x.name] == "" {
					mistyped[x.name] = notDefined(x, e.text)
					typed = true
				}
			}
		}
		if len(rest) == 0 && typed && round < maxStubRounds {
			continue
		}
		if firstErr == "" {
			firstErr = compileErr
		}
		if more := prog.isolate(rest, stubs); more != nil && round < maxStubRounds {
			for i, st := range more {
				stubs[i] = st
				g.logf("grade: %s does not compile; its body is replaced by a panic", st.Func)
			}
			continue
		}
		// Stubbing cannot make it compile: report what the student's
		// own code gives, every test 0.
		rep.CompileError = firstErr
		for i := range rep.Tests {
			rep.Tests[i].Status = statusCompile
			rep.Tests[i].Output = "the code did not compile:\n" + firstErr
		}
		return rep, nil
	}
	for _, st := range stubs {
		rep.Stubs = append(rep.Stubs, st)
	}
	for _, e := range es {
		msg := mistyped[e.name]
		if missing[e.name] {
			msg = notDefined(e, "the submission does not declare it")
		}
		if msg != "" {
			g.logf("grade: %s", msg)
			rep.Stubs = append(rep.Stubs, Stub{Func: e.name, Cell: -1, Error: msg, Undefined: true})
		}
	}
	sort.Slice(rep.Stubs, func(i, j int) bool {
		x, y := rep.Stubs[i], rep.Stubs[j]
		return x.Cell < y.Cell || (x.Cell == y.Cell && x.Line < y.Line) || (x.Cell == y.Cell && x.Line == y.Line && x.Func < y.Func)
	})
	bin, cleanup, err := g.Sandbox.Prepare(filepath.Join(dir, "graded.server"))
	if err != nil {
		return nil, err
	}
	defer cleanup()
	g.semOnce.Do(func() { g.sem = make(chan struct{}, max(1, g.Parallel)) })
	var wg sync.WaitGroup
	for i := range rep.Tests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.sem <- struct{}{}
			defer func() { <-g.sem }()
			g.runTest(trusted, bin, &rep.Tests[i])
			rep.Tests[i].markStubbed(rep.Stubs)
		}()
	}
	wg.Wait()
	for _, t := range rep.Tests {
		rep.Score += t.Score
	}
	return rep, nil
}

// checkAddedImports checks the imports of main.go as built (goimports may
// have added some for the submission) against the policy, locating each
// forbidden one at its first use in the submission, and checks the
// submission's code again with the added imports' names bound, so that a
// denied identifier is found whoever wrote the import.
func (g *Grader) checkAddedImports(dir string, prog *assembly, p assignment.Policy, given map[string]bool) []Violation {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "main.go"), nil, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var vs []Violation
	written := map[string]bool{}
	for _, pc := range prog.cells {
		for _, is := range pc.Imports {
			written[is.Path] = true
		}
	}
	var added []assignment.ImportSpec
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		if !written[path] {
			added = append(added, assignment.ImportSpec{Path: path})
		}
		if p.AllowsImport(path) {
			continue
		}
		v := Violation{Cell: -1, Rule: ruleImport, Text: fmt.Sprintf("%q, used without an import (goimports would add it; this assignment allows %s)", path, strings.Join(p.Imports, ", "))}
		name := assignment.ImportName(assignment.ImportSpec{Path: path})
	find:
		for _, pc := range prog.cells {
			var found ast.Node
			ast.Inspect(pc.File, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && found == nil {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
						found = sel
					}
				}
				return found == nil
			})
			if found != nil {
				v.Cell, v.Line = pc.Index, pc.Fset.Position(found.Pos()).Line-1
				break find
			}
		}
		vs = append(vs, v)
	}
	if len(vs) == 0 && len(added) > 0 {
		vs = checkSubmission(prog.cells, prog, p, given, added...)
	}
	return vs
}

// maxStubRounds bounds the builds after the first: each round stubs the
// functions the errors point into, and new errors may show only once those
// are gone (the compiler stops after 10).
const maxStubRounds = 4

// markStubbed marks a test that panicked (or failed, if it recovered the
// panic) in a stubbed function: it scores 0 because that function did not
// compile.
func (r *TestResult) markStubbed(stubs []Stub) {
	if r.Status != statusPanic && r.Status != statusFailed {
		return
	}
	for _, st := range stubs {
		prefix := st.Func + " does not compile: "
		if st.Undefined {
			prefix = st.Func + " is not defined with this signature"
		}
		if strings.Contains(r.Output, prefix) {
			r.Status = statusCompile
			return
		}
	}
}

// runTest runs one test in its own sandboxed process, within the time
// limit. The score comes only from the verdict channel (see harness.go):
// what the test prints, and its exit code, only explain a failure.
func (g *Grader) runTest(trusted, server string, r *TestResult) {
	key := newKey()
	args := []string{"-test.run=^" + harnessName(r.Name) + "$", "-test.v", "-test.count=1",
		"-test.timeout=" + (g.Timeout + 30*time.Second).String()}
	run := g.Sandbox.Run(trusted, args, server, key, g.Timeout)
	r.Seconds = run.Seconds
	text := run.Output
	if passed(run.Verdict, key, r.Name) && !run.TimedOut && !run.OOM {
		r.Status, r.Score = statusPassed, r.MaxScore
		r.Output = cleanOutput(text, r.Name)
		return
	}
	switch {
	case run.Err != nil:
		r.Status = statusFailed
		r.Output = "the grader could not run the test: " + run.Err.Error()
	case run.TimedOut:
		r.Status = statusTimeout
		r.Output = fmt.Sprintf("stopped after the time limit of %v: an endless loop, or far too slow", g.Timeout)
		if s := cleanOutput(text, r.Name); s != "" {
			r.Output += "\noutput before it was stopped:\n" + s
		}
	case run.OOM || strings.Contains(text, "fatal error: out of memory") || strings.Contains(text, "runtime: out of memory"):
		r.Status = statusOOM
		r.Output = cleanOutput(text, r.Name)
		if i := fatalError.FindStringIndex(text); i != nil {
			r.Output = cleanOutput(text[:i[0]], r.Name)
		}
		if r.Output != "" {
			r.Output += "\n"
		}
		r.Output += fmt.Sprintf("killed: its processes used more than the memory limit of %d MiB", g.Sandbox.MemoryMB)
	case fatalError.MatchString(text):
		r.Status = statusPanic
		r.Output = cleanOutput(text[:fatalError.FindStringIndex(text)[0]], r.Name)
		if r.Output != "" {
			r.Output += "\n"
		}
		r.Output += fatalError.FindString(text)
	case strings.Contains(text, "\npanic: ") || strings.HasPrefix(text, "panic: "):
		r.Status = statusPanic
		r.Output = panicOutput(text, r.Name)
	default:
		r.Status = statusFailed
		r.Output = cleanOutput(text, r.Name)
		if r.Output == "" {
			r.Output = "no verdict: the test process ended without reporting one"
		}
	}
}

// fatalError matches the runtime's unrecoverable errors, such as running
// out of memory or a stack overflow.
var fatalError = regexp.MustCompile(`(?m)^fatal error: .*$`)

// framePos matches a stack frame's position in the graded code.
var framePos = regexp.MustCompile(`^(source_)?cell(\d+):(\d+)`)

// testLocation matches the file:line prefix go test puts on t.Errorf output.
var testLocation = regexp.MustCompile(`^\s*(source_)?cell\d+:\d+: `)

// cleanOutput keeps what the test printed, without go test's own lines.
func cleanOutput(text, name string) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "", t == "PASS", t == "FAIL", strings.HasPrefix(t, "=== "),
			strings.HasPrefix(t, "--- PASS: "+name), strings.HasPrefix(t, "--- FAIL: "+name),
			strings.HasPrefix(t, "--- PASS: "+harnessName(name)), strings.HasPrefix(t, "--- FAIL: "+harnessName(name)),
			strings.HasPrefix(t, "ok  "), strings.HasPrefix(t, "exit status "):
			continue
		}
		keep = append(keep, testLocation.ReplaceAllString(strings.TrimRight(l, " \t\r"), ""))
	}
	return strings.Join(keep, "\n")
}

// panicOutput keeps the panic message, what the test printed before it, and
// the stack frames in the graded code (cellN:LINE positions).
func panicOutput(text, name string) string {
	i := strings.Index(text, "panic: ")
	before := cleanOutput(text[:i], name)
	rest := text[i:]
	lines := strings.Split(rest, "\n")
	out := []string{}
	if before != "" {
		out = append(out, before)
	}
	msg := []string{}
	j := 0
	for ; j < len(lines) && !strings.HasPrefix(lines[j], "goroutine "); j++ {
		if strings.TrimSpace(lines[j]) != "" {
			l := strings.TrimRight(lines[j], " \t")
			if len(msg) > 0 {
				l = strings.TrimPrefix(l, "\t") // the runtime indents a message's next lines
			}
			msg = append(msg, l)
		}
	}
	// Go's testing marks the panic " [recovered, repanicked]", after the
	// last line of a message of several lines.
	for i := len(msg) - 1; i >= 0; i-- {
		if k := strings.LastIndex(msg[i], " [recovered"); k > 0 {
			msg[i] = msg[i][:k]
			break
		}
	}
	out = append(out, msg...)
	var frames []string
	for ; j+1 < len(lines); j++ {
		fn, pos := strings.TrimSpace(lines[j]), strings.TrimSpace(lines[j+1])
		if m := framePos.FindStringSubmatch(pos); strings.HasPrefix(fn, "graded.") && m != nil {
			if k := strings.Index(fn, "("); k > 0 {
				fn = fn[:k]
			}
			where := "your cell " + m[2]
			if m[1] != "" {
				where = "cell " + m[2] + " of the source"
			}
			frames = append(frames, fmt.Sprintf("    %s (%s, line %s)", strings.TrimPrefix(fn, "graded."), where, m[3]))
			j++
		}
	}
	if len(frames) > 0 {
		if slices.Contains(msg, "in:") {
			// The student's process named the frames of its code: these
			// are the test's.
			out = append(out, "called from:")
		} else {
			out = append(out, "in:")
		}
		out = append(out, frames...)
	}
	return strings.Join(out, "\n")
}

func (g *Grader) logf(format string, args ...any) {
	if g.Log != nil {
		g.Log(format, args...)
	}
}
