package grade

// The trust boundary. A submission is graded by two processes per test:
//
//   - the trusted test process: the source's given code, its tests (visible
//     and hidden) and the verdict harness, with a generated stub in place
//     of each exercise function. It holds no student code, so nothing a
//     submission does (a data race, a forged pointer) can reach a test's
//     state, a verdict or its key. It is built once per assignment.
//   - the student's process, in the sandbox: the submission's code, the
//     source's given code (which the student has too) and a generated
//     server. It holds no test, no expected value, no reference and no key:
//     only the arguments of the call it serves.
//
// Each stub sends its arguments (package rpc, gob) to the student's
// process, which calls the student's function and sends back its results
// and the arguments as the function left them. A timeout, a panic, a crash
// or a garbage reply fails the test that made the call, nothing else.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/printer"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
	"github.com/perceptron-go/lessons/lessons/assign/rpc"
)

// rpcPath is the import path of the call package both processes link.
const rpcPath = rpc.ImportPath

// exercise is a function the student writes: its signature as the source
// declares it.
type exercise struct {
	name     string
	params   []string // type of each parameter ("...T" for a variadic one)
	names    []string // name of each parameter, as the source declares it ("" if unnamed)
	modifies []bool   // per parameter: the doc comment's "modifies: NAME" lets the function change it
	results  []string
	variadic bool
	uses     []string // package names its signature uses
	cell     int      // the source cell that declares it
}

// sig is the exercise's type: "func(p0 []float64, p1 float64) (r0 bool)".
func (e exercise) sig() string {
	return "func(" + e.paramList() + ") " + e.resultList()
}

func (e exercise) paramList() string {
	ps := make([]string, len(e.params))
	for i, t := range e.params {
		ps[i] = fmt.Sprintf("p%d %s", i, t)
	}
	return strings.Join(ps, ", ")
}

func (e exercise) resultList() string {
	if len(e.results) == 0 {
		return ""
	}
	rs := make([]string, len(e.results))
	for i, t := range e.results {
		rs[i] = fmt.Sprintf("r%d %s", i, t)
	}
	return "(" + strings.Join(rs, ", ") + ")"
}

// want is the exercise's type without names, for messages:
// "func([]float64, float64) bool".
func (e exercise) want() string {
	s := "func(" + strings.Join(e.params, ", ") + ")"
	switch len(e.results) {
	case 0:
	case 1:
		s += " " + e.results[0]
	default:
		s += " (" + strings.Join(e.results, ", ") + ")"
	}
	return s
}

// exercises returns the functions that hold a solution block, with the
// signatures the source gives them, sorted by name.
func exercises(a *assignment.Assignment) []exercise {
	var es []exercise
	for _, pc := range a.CodeCells {
		for name, fd := range pc.Funcs {
			if !a.SolutionFuncs[name] {
				continue
			}
			e := exercise{name: name, cell: pc.Index, uses: assignment.SelectorNames(fd.Type)}
			typ := func(x ast.Expr) string {
				var b bytes.Buffer
				printer.Fprint(&b, pc.Fset, x)
				return b.String()
			}
			mod := modifiedParams(fd.Doc)
			for _, f := range fd.Type.Params.List {
				t := typ(f.Type)
				if _, ok := f.Type.(*ast.Ellipsis); ok {
					e.variadic = true
				}
				for k := range max(1, len(f.Names)) {
					e.params = append(e.params, t)
					name := ""
					if k < len(f.Names) && f.Names[k].Name != "_" {
						name = f.Names[k].Name
					}
					e.names = append(e.names, name)
					e.modifies = append(e.modifies, name != "" && mod[name])
				}
			}
			if fd.Type.Results != nil {
				for _, f := range fd.Type.Results.List {
					for range max(1, len(f.Names)) {
						e.results = append(e.results, typ(f.Type))
					}
				}
			}
			es = append(es, e)
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
	return es
}

// modifiedParams are the parameters a doc comment lets the function
// change, on lines "modifies: NAME, NAME". Every other argument of an
// exercise must be left alone: a change fails the test that made the call.
func modifiedParams(doc *ast.CommentGroup) map[string]bool {
	m := map[string]bool{}
	if doc == nil {
		return m
	}
	for _, l := range strings.Split(doc.Text(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "modifies:"); ok {
			for _, n := range strings.Split(rest, ",") {
				m[strings.TrimSpace(n)] = true
			}
		}
	}
	return m
}

// sigImports renders the import block for files that write the
// exercises' signatures, plus extra imports ("name path"), named with the
// grader's reserved prefix so that no declaration of the submission's
// collides with them.
func sigImports(a *assignment.Assignment, es []exercise, extra ...string) string {
	used := map[string]bool{}
	for _, e := range es {
		for _, n := range e.uses {
			used[n] = true
		}
	}
	seen := map[string]bool{}
	var specs []string
	for _, p := range extra {
		name, path, _ := strings.Cut(p, " ")
		specs = append(specs, fmt.Sprintf("\t%s %q\n", name, path))
		seen[path] = true
	}
	for _, pc := range a.CodeCells {
		for _, is := range pc.Imports {
			if seen[is.Path] || !used[assignment.ImportName(is)] {
				continue
			}
			seen[is.Path] = true
			if is.Name != "" {
				specs = append(specs, fmt.Sprintf("\t%s %q\n", is.Name, is.Path))
			} else {
				specs = append(specs, fmt.Sprintf("\t%q\n", is.Path))
			}
		}
	}
	sort.Strings(specs)
	return "import (\n" + strings.Join(specs, "") + ")\n\n"
}

// stubsFile is the trusted process's stand-in for the exercises: each
// stub calls the student's function in the student's process (fd 5 reads
// its replies, fd 6 writes the calls).
func stubsFile(a *assignment.Assignment, es []exercise) string {
	var b strings.Builder
	b.WriteString("// Code generated by lessons/assign for grading. DO NOT EDIT.\n\npackage main\n\n")
	b.WriteString(sigImports(a, es, "gradedos os", "gradedsync sync", "gradedrpc "+rpcPath))
	b.WriteString(`// gradedPeer is the connection to the process that runs the student's code.
var gradedPeer = gradedsync.OnceValue(func() *gradedrpc.Peer {
	p := gradedrpc.New(gradedos.NewFile(5, "replies"), gradedos.NewFile(6, "calls"))
	p.Start()
	return p
})
`)
	for _, e := range es {
		var args, res []string
		for i := range e.params {
			args = append(args, fmt.Sprintf("&p%d", i))
		}
		for i := range e.results {
			res = append(res, fmt.Sprintf("&r%d", i))
		}
		fmt.Fprintf(&b, "\n//line exercise_%s:1\nfunc %s(%s) %s {\n\tgradedPeer().CallFunc(gradedrpc.Func{Name: %q, Variadic: %v, Params: %#v, Modifies: %#v}, []any{%s}, []any{%s})\n\treturn\n}\n",
			e.name, e.name, e.paramList(), e.resultList(), e.name, e.variadic, e.names, e.modifies, strings.Join(args, ", "), strings.Join(res, ", "))
	}
	return b.String()
}

// notDefined is the message of an exercise the submission does not define
// with the source's signature.
func notDefined(e exercise, detail string) string {
	msg := e.name + " is not defined with this signature: want " + e.want()
	if detail != "" {
		msg += " (" + detail + ")"
	}
	return msg
}

// serverFile is the main of the student's process: it registers each
// exercise and serves calls (fd 3 reads them, fd 4 writes the replies).
// An exercise in missing, which the submission does not declare, gets a
// declaration that panics; one in mistyped, declared with another type, is
// registered as a function that panics with the message.
func serverFile(a *assignment.Assignment, es []exercise, missing map[string]bool, mistyped map[string]string) string {
	var b strings.Builder
	b.WriteString("// Code generated by lessons/assign for grading. DO NOT EDIT.\n\npackage main\n\n")
	b.WriteString(sigImports(a, es, "gradedos os", "gradedrpc "+rpcPath))
	b.WriteString("//line graded_server:1\nfunc main() {\n\tgradedServer := gradedrpc.New(gradedos.NewFile(3, \"calls\"), gradedos.NewFile(4, \"replies\"))\n")
	for _, e := range es {
		if msg, ok := mistyped[e.name]; ok {
			fmt.Fprintf(&b, "\tgradedServer.Register(%q, %s { panic(%s) })\n", e.name, e.sig(), strconv.Quote(msg))
			continue
		}
		fmt.Fprintf(&b, "//line exercise_%s:1\n\t{\n\t\tvar gradedF %s = %s\n\t\tgradedServer.Register(%q, gradedF)\n\t}\n//line graded_server:1\n", e.name, e.sig(), e.name, e.name)
	}
	b.WriteString("\tif gradedServer.Serve() != nil {\n\t\tgradedos.Exit(1)\n\t}\n}\n")
	for _, e := range es {
		if missing[e.name] {
			fmt.Fprintf(&b, "\n// %s is not in the submission.\nfunc %s(%s) %s { panic(%s) }\n", e.name, e.name, e.paramList(), e.resultList(),
				strconv.Quote(notDefined(e, "the submission does not declare it")))
		}
	}
	return b.String()
}

// declaredNames are the top-level names the submission's compiled code
// declares (functions, variables, constants, types; no methods).
func (p *assembly) declaredNames() map[string]bool {
	names := map[string]bool{}
	for _, u := range p.units {
		if u.d.Text == "" || !strings.HasPrefix(u.file, "cell") || u.d.Node == nil {
			continue
		}
		if fd, ok := u.d.Node.(*ast.FuncDecl); ok && fd.Recv != nil {
			continue
		}
		for _, n := range topNames(u.d.Node) {
			names[n] = true
		}
	}
	return names
}

// trustedBinary returns the trusted test binary of a (built once per
// Grader and content): given code, tests, harness and stubs.
func (g *Grader) trustedBinary(a *assignment.Assignment) (string, error) {
	prog := program(&notebook.Notebook{}, a)
	files := prog.files(nil, false)
	delete(files, "main.go")
	es := exercises(a)
	files["graded_stubs.go"] = stubsFile(a, es)
	gomod, gosum, err := g.moduleFiles()
	if err != nil {
		return "", err
	}
	files["go.mod"], files["go.sum"] = string(gomod), string(gosum)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00%s", n, len(files[n]), files[n])
	}
	key := hex.EncodeToString(h.Sum(nil))
	g.trustedMu.Lock()
	defer g.trustedMu.Unlock()
	if bin, ok := g.trusted[key]; ok {
		return bin, nil
	}
	// A grade command of one submission finds the binary an earlier one
	// built: the cache is the grader's own (0700), keyed by the content.
	cached := ""
	if base, err := os.UserCacheDir(); err == nil {
		cached = filepath.Join(base, "lessons-assign", "trusted", g.sourcesKey(key), "graded.test")
		if fi, err := os.Stat(cached); err == nil && fi.Mode().IsRegular() {
			if g.trusted == nil {
				g.trusted = map[string]string{}
			}
			g.trusted[key] = cached
			return cached, nil
		}
	}
	if g.trustedDir == "" {
		dir, err := os.MkdirTemp("", "assign-trusted-")
		if err != nil {
			return "", err
		}
		g.trustedDir = dir
	}
	dir := filepath.Join(g.trustedDir, key[:16])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(files[n]), 0o600); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), g.BuildTimeout)
	defer cancel()
	if out, err := goCmd(ctx, dir, "test", "-c", "-vet=off", "-o", "graded.test", "."); err != nil {
		return "", fmt.Errorf("%s: the tests do not compile against the source's own signatures (an error in the source notebook):\n%s", a.Name, out)
	}
	if g.trusted == nil {
		g.trusted = map[string]string{}
	}
	bin := filepath.Join(dir, "graded.test")
	if cached != "" && os.MkdirAll(filepath.Dir(cached), 0o700) == nil {
		if data, err := os.ReadFile(bin); err == nil {
			tmp := cached + fmt.Sprintf(".%d.tmp", os.Getpid())
			if os.WriteFile(tmp, data, 0o700) == nil && os.Rename(tmp, cached) == nil {
				bin = cached
			}
			os.Remove(tmp)
		}
	}
	g.trusted[key] = bin
	return bin, nil
}

// Close removes the trusted binaries the grader built.
func (g *Grader) Close() {
	g.trustedMu.Lock()
	defer g.trustedMu.Unlock()
	if g.trustedDir != "" {
		os.RemoveAll(g.trustedDir)
		g.trustedDir, g.trusted = "", nil
	}
}

// exercisePos matches a compiler error in an exercise's registration.
var exercisePos = regexp.MustCompile(`^exercise_(\w+):\d+(?::\d+)?: (.*)$`)

// sourcesKey extends key (the generated files) with what else goes into
// the trusted binary: the repository's Go and assembly files and the
// files in its data folders (the reference package and its embedded data
// sets) and the go command, each by path, size and time.
func (g *Grader) sourcesKey(key string) string {
	h := sha256.New()
	h.Write([]byte(key))
	if gobin, err := exec.LookPath("go"); err == nil {
		if fi, err := os.Stat(gobin); err == nil {
			fmt.Fprintf(h, "go\x00%s\x00%d\x00%d\n", gobin, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	filepath.WalkDir(g.Repo, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != g.Repo && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		// Go files, and the files a package embeds (perceptron/data).
		if n := d.Name(); !d.IsDir() && (strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".s") || n == "go.mod" || n == "go.sum" ||
			filepath.Base(filepath.Dir(p)) == "data") {
			if fi, err := d.Info(); err == nil {
				fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
			}
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:32]
}
