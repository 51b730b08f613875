package exercises

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// perceptronPath is the import path of the package the lessons' exercises
// must not call to do their computation.
const perceptronPath = "github.com/perceptron-go/lessons/perceptron"

// programSource returns the Go program that GoNB compiled for the cell
// that is running: GoNB writes every declaration of the notebook so far
// into main.go in its temporary folder, whose path it passes to the
// program in GONB_TMP_DIR. ok is false outside GoNB (plain go test), where
// there is no student source to read. Tests replace it.
var programSource = func() (src []byte, ok bool, err error) {
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return nil, false, nil
	}
	src, err = os.ReadFile(filepath.Join(dir, "main.go"))
	return src, err == nil, err
}

// packageUses returns the names X, in order of first appearance, of every
// perceptron.X that the notebook's function fn uses, directly or through
// the notebook's other functions, methods and package-level variables it
// refers to, apart from the names in allowed (types of the exercise's
// signature, such as Hyperplane). ok is false when there is no program to
// read (outside GoNB) or fn is not declared in it.
func packageUses(src []byte, fn string, allowed ...string) (uses []string, ok bool, err error) {
	uses, _, ok, err = packageUsesCalls(src, fn, allowed...)
	return uses, ok, err
}

// packageUsesCalls is packageUses, and also returns which of the uses are
// calls (perceptron.X(...)), in the same order.
func packageUsesCalls(src []byte, fn string, allowed ...string) (uses, calls []string, ok bool, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, false, fmt.Errorf("reading the notebook's program: %w", err)
	}
	pkgNames := map[string]bool{}
	dotImport := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == perceptronPath {
			switch {
			case imp.Name == nil:
				pkgNames["perceptron"] = true
			case imp.Name.Name == ".":
				dotImport = true
			default:
				pkgNames[imp.Name.Name] = true
			}
		}
	}
	funcs, methods, vars := map[string]ast.Node{}, map[string][]ast.Node{}, map[string]ast.Node{}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				funcs[d.Name.Name] = d
			} else {
				methods[d.Name.Name] = append(methods[d.Name.Name], d)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if vs, isValue := spec.(*ast.ValueSpec); isValue {
					for _, name := range vs.Names {
						vars[name.Name] = vs
					}
				}
			}
		}
	}
	start, found := funcs[fn]
	if !found {
		return nil, nil, false, nil
	}
	if dotImport {
		return []string{"(imported with a dot)"}, nil, true, nil
	}
	seen := map[ast.Node]bool{start: true}
	queue := []ast.Node{start}
	visit := func(n ast.Node) {
		if n != nil && !seen[n] {
			seen[n] = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		ast.Inspect(node, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if sel, isSel := x.Fun.(*ast.SelectorExpr); isSel {
					if id, isIdent := sel.X.(*ast.Ident); isIdent && pkgNames[id.Name] && !slices.Contains(calls, sel.Sel.Name) {
						calls = append(calls, sel.Sel.Name)
					}
				}
			case *ast.SelectorExpr:
				if id, isIdent := x.X.(*ast.Ident); isIdent && pkgNames[id.Name] {
					if !slices.Contains(allowed, x.Sel.Name) && !slices.Contains(uses, x.Sel.Name) {
						uses = append(uses, x.Sel.Name)
					}
					return false
				}
				for _, m := range methods[x.Sel.Name] {
					visit(m)
				}
			case *ast.Ident:
				if d, isFunc := funcs[x.Name]; isFunc {
					visit(d)
				}
				if d, isVar := vars[x.Name]; isVar {
					visit(d)
				}
			}
			return true
		})
	}
	return uses, calls, true, nil
}

// noPackage reports, as a failed case, that the student's function fn does
// its work with the package (perceptron.X) instead of writing it, and
// returns whether it does not. Outside GoNB (no program to read) it passes
// silently. A program that cannot be read is reported and does not pass.
// fn names the exercise's function; if f is a function declared with
// another name (a worked solution such as PocketPLASolution), that
// declaration is read instead.
func (c *checker) noPackage(f any, fn string, allowed ...string) bool {
	fn = declName(f, fn)
	src, ok, err := programSource()
	if err != nil {
		c.report(false, "reading your "+fn, "the notebook's program", err)
		return false
	}
	if !ok {
		return true
	}
	uses, calls, ok, err := packageUsesCalls(src, fn, allowed...)
	if err != nil {
		c.report(false, "reading your "+fn, "the notebook's program", err)
		return false
	}
	if !ok || len(uses) == 0 {
		return true
	}
	names := make([]string, len(uses))
	for i, u := range uses {
		names[i] = "perceptron." + u
	}
	// Name the call that does the work: the first one that is not a
	// constructor (NewDataset only wraps the data the student was given).
	not := names[0]
	if len(calls) > 0 {
		not = "perceptron." + calls[0]
	}
	for _, call := range calls {
		if !strings.HasPrefix(call, "New") {
			not = "perceptron." + call
			break
		}
	}
	c.cases++
	c.failed++
	fmt.Fprintf(Out, "FAILED: %s: your %s uses %s: write it with a loop, not %s\n",
		c.name, fn, strings.Join(names, ", "), not)
	return false
}

// Passes runs check with its printing discarded and returns its verdict:
// a later cell of a lesson calls it to decide whether to draw a figure
// from the student's function or from the package's reference.
func Passes(check func() bool) bool {
	saved := Out
	Out = io.Discard
	defer func() { Out = saved }()
	return check()
}

// declName returns the name under which the function f was declared
// (PocketPLASolution for main.PocketPLASolution), or fallback for a
// function literal or a value that is not a function.
func declName(f any, fallback string) string {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return fallback
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return fallback
	}
	name := rf.Name()
	name = name[strings.LastIndex(name, ".")+1:]
	if !token.IsIdentifier(name) || strings.HasPrefix(name, "func") {
		return fallback
	}
	return name
}
