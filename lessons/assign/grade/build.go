package grade

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// compilePos matches a compiler error's position in the graded code.
var compilePos = regexp.MustCompile(`^(source_)?cell(\d+):(\d+)(?::\d+)?:`)

var undefinedErr = regexp.MustCompile(`undefined: \w+`)

// compile compiles the student's program in dir into dir/graded.server.
// A failure to compile returns the compiler's message and its errors one
// by one.
func (g *Grader) compile(dir string) (compileErr string, errs []compileError, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), g.BuildTimeout)
	defer cancel()
	// No symbol table nor DWARF (a third less link time): the runtime's
	// own tables still name the frames of a panic.
	args := []string{"build", "-ldflags=-s -w", "-o", "graded.server", "."}
	out, bomb, err := goCmdLimited(ctx, dir, g.BuildMemoryMB, args...)
	if err != nil && !bomb && ctx.Err() == nil && undefinedErr.MatchString(out) {
		// The code may lean on GoNB's goimports for a missing import.
		changed, ferr := fixImports(ctx, dir, "main.go")
		if ferr != nil {
			return "", nil, ferr
		}
		if changed {
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
// whether any file changed; an error is the grader's (goimports missing or
// failing on a file that parses), not the submission's.
func fixImports(ctx context.Context, dir string, files ...string) (changed bool, err error) {
	for _, name := range files {
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return changed, err
		}
		cmd := exec.CommandContext(ctx, "go", "tool", "goimports", name)
		cmd.Dir = dir
		cmd.Env = assignment.BuildEnv()
		cmd.WaitDelay = 5 * time.Second
		var stderr strings.Builder
		cmd.Stderr = &stderr
		fixed, err := cmd.Output()
		if err != nil {
			if ctx.Err() != nil {
				return changed, fmt.Errorf("goimports on %s: %w", name, ctx.Err())
			}
			return changed, fmt.Errorf("goimports on %s: %v: %s", name, err, strings.TrimSpace(stderr.String()))
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, fixed, parser.ImportsOnly)
		if err != nil {
			return changed, fmt.Errorf("goimports on %s wrote a file that does not parse: %w", name, err)
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
				return changed, err
			}
		}
	}
	return changed, nil
}

// built is what the build stage gives the run stage.
type built struct {
	trusted      string      // the trusted test binary
	server       string      // the student's program, compiled in the work folder
	stubs        []Stub      // functions replaced by a panic, exercises missing or mistyped
	rejected     []Violation // goimports added an import the rules forbid: nothing runs
	compileError string      // the code does not compile even with stubs: nothing runs
}

// build is the build stage: the trusted test binary (once per assignment),
// then the student's program in dir. While the compiler's errors all lie
// inside the bodies of the submission's functions, it replaces those
// bodies by a panic that names the errors and builds again, so that only
// the tests calling them lose their points; an exercise the submission
// declares with another type is served by a function that panics saying
// so. Otherwise the result holds the compiler's message and every test
// scores 0.
// Its messages name the submission, subPath.
func (g *Grader) build(subPath, dir string, prog *assembly, a *assignment.Assignment) (*built, error) {
	gomod, gosum, err := g.moduleFiles()
	if err != nil {
		return nil, err
	}
	trusted, err := g.trustedBinary(a)
	if err != nil {
		return nil, err
	}
	b := &built{trusted: trusted, server: filepath.Join(dir, "graded.server")}
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
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
				return nil, err
			}
		}
		compileErr, errs, err := g.compile(dir)
		if err != nil {
			return nil, err
		}
		// goimports may have added an import the policy forbids.
		if vs := g.checkAddedImports(dir, prog, a.Policy, a.GivenImports()); len(vs) > 0 && !g.SkipStaticCheck {
			b.rejected = vs
			return b, nil
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
				g.logf("grade: %s: %s does not compile; its body is replaced by a panic", subPath, st.Func)
			}
			continue
		}
		// Stubbing cannot make it compile: report what the student's
		// own code gives, every test 0.
		b.compileError = firstErr
		return b, nil
	}
	for _, st := range stubs {
		b.stubs = append(b.stubs, st)
	}
	for _, e := range es {
		msg := mistyped[e.name]
		if missing[e.name] {
			msg = notDefined(e, "the submission does not declare it")
		}
		if msg != "" {
			g.logf("grade: %s: %s", subPath, msg)
			b.stubs = append(b.stubs, Stub{Func: e.name, Cell: -1, Error: msg, Undefined: true})
		}
	}
	sort.Slice(b.stubs, func(i, j int) bool {
		x, y := b.stubs[i], b.stubs[j]
		return x.Cell < y.Cell || (x.Cell == y.Cell && x.Line < y.Line) || (x.Cell == y.Cell && x.Line == y.Line && x.Func < y.Func)
	})
	return b, nil
}

// maxStubRounds bounds the builds after the first: each round stubs the
// functions the errors point into, and new errors may show only once those
// are gone (the compiler stops after 10).
const maxStubRounds = 4
