package exercises

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
)

// packagePath is the import path of the package a lesson exercise must not
// call for its computation.
const packagePath = "github.com/perceptron-go/lessons/perceptron"

// funcName returns the name of the function f is (the student's function
// in a notebook: "main.OnlinePerceptron" gives "OnlinePerceptron"), or ""
// for a closure or a method value.
func funcName(f any) string {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return ""
	}
	name := fn.Name()
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	if strings.Contains(name, "func") || strings.HasSuffix(name, "-fm") {
		return ""
	}
	return name
}

// packageCall returns the first perceptron.X that the function f's
// declaration calls or refers to, directly or through the other functions
// of the program it calls, as "perceptron.X"; "" if none.
//
// It reads the program that GoNB compiled for the running cell: GoNB
// writes every declaration of the notebook, the student's function
// included, into main.go in the folder named by the environment variable
// GONB_TMP_DIR, and sets that variable for the program it runs. Outside
// GoNB (GONB_TMP_DIR unset, main.go absent or unreadable, f not declared
// there) it returns "": a plain go test has no student source to read.
func packageCall(f any) string {
	name := funcName(f)
	dir := os.Getenv("GONB_TMP_DIR")
	if name == "" || dir == "" {
		return ""
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filepath.Join(dir, "main.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	return packageCallIn(file, name)
}

// packageCallIn is packageCall on a parsed file.
func packageCallIn(file *ast.File, name string) string {
	local := "" // the name under which the file imports the package
	for _, imp := range file.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == packagePath {
			local = "perceptron"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			funcs[fd.Name.Name] = fd
		}
	}
	if local == "" || local == "_" || funcs[name] == nil {
		return ""
	}
	seen := map[string]bool{}
	var visit func(fn string) string
	visit = func(fn string) string {
		fd := funcs[fn]
		if fd == nil || seen[fn] || fd.Body == nil {
			return ""
		}
		seen[fn] = true
		found := ""
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if found != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == local && ast.IsExported(n.Sel.Name) && isComputation(n.Sel.Name) {
					found = "perceptron." + n.Sel.Name
				}
			case *ast.Ident:
				if n.Name != fn && funcs[n.Name] != nil {
					found = visit(n.Name)
				}
			}
			return found == ""
		})
		return found
	}
	return visit(name)
}

// isComputation says whether perceptron.X is something that computes
// (a function, or a type whose methods do), as opposed to the names a
// loop may use: the data set and tie policies a signature can mention, and
// the Hyperplane that lessons 6 and 7's exercises return.
func isComputation(x string) bool {
	switch x {
	case "Dataset", "TieMistake", "TieCorrect", "Tie",
		"Hyperplane": // the result type of lessons 6 and 7's exercises, built as a literal
		return false
	}
	return true
}
