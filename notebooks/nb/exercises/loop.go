package exercises

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
)

// modulePath is the module of the lessons; packagePath is the import path
// of the package a lesson exercise must not call for its computation.
const (
	modulePath  = "github.com/perceptron-go/lessons"
	packagePath = modulePath + "/perceptron"
)

// refusedPackages are the packages whose functions compute what the
// exercises ask for, by import path, with the name a message gives them:
// the perceptron package, and the lessons' own packages built on it (the
// figures, the lessons' data and their runs, and these checkers with their
// reference solutions). A lesson exercise may call none of their
// functions, and no method of a perceptron value but containerMethods.
var refusedPackages = map[string]string{
	packagePath:                             "perceptron",
	modulePath + "/figures":                 "figures",
	modulePath + "/notebooks/nb/lessondata": "lessondata",
	modulePath + "/notebooks/nb/exercises":  "exercises",
}

// perceptronContainers are the names of package perceptron that a loop
// may use: the types that the exercises' signatures mention (lessons 6
// and 7 return Hyperplanes, built as literals) and the tie policies.
var perceptronContainers = map[string]bool{
	"Dataset": true, "Hyperplane": true, "Tie": true, "TieMistake": true, "TieNegative": true,
}

// containerMethods are the methods of perceptron's types that only read
// the data they hold (a size, a row, a name, its JSON), and two that are
// also the names of fields (the Hyperplane a result embeds, a pocket's
// Last) and belong to types that only refused names make (Online,
// VotedModel);
// computingMethods are all the others: a loop may not call them on a
// perceptron value. Together they are every exported method of
// perceptron's exported types (TestMethodListsCoverThePackage keeps them
// so).
var (
	containerMethods = map[string]bool{
		"N": true, "D": true, "Dim": true, "Len": true, "Row": true, "Rows": true,
		"String": true, "Error": true, "Unwrap": true, "Validate": true, "Class": true,
		"Hyperplane": true, "Last": true, "MarshalJSON": true, "UnmarshalJSON": true,
	}
	computingMethods = map[string]bool{
		"Binary": true, "DatasetMargin": true, "ErrorRate": true, "Errors": true,
		"Eval": true, "Expand": true, "Margin": true,
		"Mistake": true, "Norm": true, "Observe": true, "Predict": true, "PredictAll": true,
		"Score": true, "Sign": true, "SignedDistance": true, "Split": true, "Step": true,
		"Subset": true, "Theta": true, "Transform": true, "Unscale": true, "UpdatesPerEpoch": true,
	}
)

// policy is what the lesson exercises refuse: with packages, the refused
// packages and the computing methods of perceptron values but those in
// allow; always, a call of a worked solution.
func policy(packages bool, allow ...string) gosrc.Policy {
	p := gosrc.Policy{Refused: refusedPackages, Values: "perceptron", Containers: perceptronContainers,
		Computing: computingMethods, Allow: map[string]bool{}, Packages: packages}
	for _, m := range allow {
		p.Allow[m] = true
	}
	return p
}

// packageCall returns what the function f computes with instead of a
// loop: the first function of a refused package ("perceptron.Pocket",
// "figures.CumulativeMistakes"), computing method of a perceptron value
// ("perceptron.Hyperplane.Predict") or worked solution that f's
// declaration uses, directly or through anything of the program it
// reaches; "" if none. The methods named in allow are let through (an
// exercise about something else may predict with the hyperplanes it is
// given). The error says what could not be read.
//
// It reads the program that GoNB compiled for the running cell: GoNB
// writes every declaration of the notebook, the student's function
// included, into main.go in the folder named by the environment variable
// GONB_TMP_DIR, and sets that variable for the program it runs. f is found
// there by the line the runtime gives for its code (a function, a method
// expression or a closure written in the check cell) or else by its name.
// Outside GoNB (GONB_TMP_DIR unset) it returns "" and no error: a plain go
// test has no student source to read.
func packageCall(f any, allow ...string) (string, error) { return refusal(f, true, allow...) }

// solutionCall returns the worked solution ("the worked solution
// PocketPLASolution") that f calls, directly or through anything of the
// program it reaches, or "": for exercises that may use the package but
// must not hand the work to the solution shown below them.
func solutionCall(f any) (string, error) { return refusal(f, false) }

// readMain parses GoNB's main.go in dir.
func readMain(dir string) (*token.FileSet, *ast.File, string, error) {
	main := filepath.Join(dir, "main.go")
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, main, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, "", fmt.Errorf("reading the notebook's program: %w", err)
	}
	return fset, file, main, nil
}

// refusal is packageCall (packages) or solutionCall (!packages).
func refusal(f any, packages bool, allow ...string) (string, error) {
	dir := os.Getenv("GONB_TMP_DIR")
	v := reflect.ValueOf(f)
	if dir == "" {
		return "", nil
	}
	if v.Kind() != reflect.Func || v.IsNil() {
		return "", fmt.Errorf("the function checked is %T(nil), not a function", f)
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return "", fmt.Errorf("the runtime does not know the function checked")
	}
	src, line := fn.FileLine(v.Pointer())
	// A function value that is a refused package's own function (a
	// variable set to lessondata.X in init): refused by its symbol. Only
	// this package's tests compile a _test.go file into a refused package.
	if call := refusedFunc(fn.Name()); call != "" && !strings.HasSuffix(src, "_test.go") {
		if packages {
			return call, nil
		}
		return "", nil
	}
	fset, file, main, err := readMain(dir)
	if err != nil {
		return "", err
	}
	a := gosrc.NewAnalysis(file, policy(packages, allow...))
	if sameFile(src, main) || trimmedMain(fn.Name(), src) {
		if root := gosrc.FuncAtLine(fset, file, line); root != nil {
			return a.Check(root), nil
		}
	}
	if !strings.HasPrefix(fn.Name(), "main.") && !strings.HasSuffix(src, "_test.go") {
		return "", nil // another package's function (math.Abs): nothing of the student's to read
	}
	call, err := a.CheckName(shortName(fn.Name()))
	if err != nil {
		return "", fmt.Errorf("finding %s in the notebook's program: %w", fn.Name(), err)
	}
	return call, nil
}

// callerCall is packageCall for the code that called the checker (skip
// frames above callerCall's caller): the function of main.go, a GoNB
// cell's body, that passes numbers to a checker of answers worked out by
// hand. The calls of package exercises are let through there (the cell
// calls the checker, and may print the exercise's data).
func callerCall(skip int) (string, error) {
	dir := os.Getenv("GONB_TMP_DIR")
	if dir == "" {
		return "", nil
	}
	pc, src, line, ok := runtime.Caller(skip + 2)
	fn := runtime.FuncForPC(pc)
	if !ok || fn == nil {
		return "", fmt.Errorf("the runtime does not know the cell that called the check")
	}
	fset, file, main, err := readMain(dir)
	if err != nil {
		return "", err
	}
	if !sameFile(src, main) && !trimmedMain(fn.Name(), src) {
		return "", fmt.Errorf("the check was called from %s, not from the notebook's program %s", src, main)
	}
	root := gosrc.EnclosingFunc(fset, file, line)
	if root == nil {
		return "", fmt.Errorf("no function of the notebook's program spans line %d", line)
	}
	a := gosrc.NewAnalysis(file, policy(true))
	a.Drop("exercises")
	return a.Check(root), nil
}

// refusedFunc returns the function of a refused package that the symbol
// name designates ("github.com/perceptron-go/lessons/perceptron.Bound"
// gives "perceptron.Bound", a method value
// ".../perceptron.(*Online).Step-fm" gives "perceptron.Online.Step"),
// or "" if name is none of theirs.
func refusedFunc(name string) string {
	for path, pkg := range refusedPackages {
		rest, ok := strings.CutPrefix(name, path+".")
		if !ok {
			continue
		}
		rest = strings.TrimSuffix(rest, "-fm")
		rest = strings.NewReplacer("(", "", ")", "", "*", "").Replace(rest)
		return pkg + "." + rest
	}
	return ""
}

// trimmedMain says whether the function symbol with the runtime's file
// name src is GoNB's main.go built with -trimpath (as the shared class
// install builds): a function of package main whose file is
// "<GoNB's module>/main.go", a module path without a version.
func trimmedMain(symbol, src string) bool {
	dir, base := filepath.Split(src)
	return strings.HasPrefix(symbol, "main.") && base == "main.go" && !filepath.IsAbs(src) &&
		dir != "" && !strings.Contains(dir, "@")
}

// sameFile says whether the runtime's file name a is the file b.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// shortName is the last element of a function's symbol name:
// "main.OnlinePerceptron" gives "OnlinePerceptron", the method value
// "main.T.run-fm" gives "run-fm", a generic "main.F[...]" gives "F".
func shortName(name string) string {
	if i := strings.Index(name, "["); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return name
}
