package exercises

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
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
	packagePath:                "perceptron",
	modulePath + "/figures":    "figures",
	modulePath + "/lessondata": "lessondata",
	modulePath + "/exercises":  "exercises",
}

// perceptronContainers are the names of package perceptron that a loop
// may use: the types that the exercises' signatures mention (lessons 6
// and 7 return Hyperplanes, built as literals) and the tie policies.
var perceptronContainers = map[string]bool{
	"Dataset": true, "Hyperplane": true, "Tie": true, "TieMistake": true, "TieNegative": true,
}

// containerMethods are the methods of perceptron's types that only read
// the data they hold (a size, a row, a name), and two that are also the
// names of fields (the Hyperplane a result embeds, a pocket's Last) and
// belong to types that only refused names make (Online, VotedModel);
// computingMethods are all the others: a loop may not call them on a
// perceptron value. Together they are every exported method of
// perceptron's exported types (TestMethodListsCoverThePackage keeps them
// so).
var (
	containerMethods = map[string]bool{
		"N": true, "D": true, "Dim": true, "Len": true, "Row": true, "Rows": true,
		"String": true, "Error": true, "Unwrap": true, "Validate": true, "Class": true,
		"Hyperplane": true, "Last": true,
	}
	computingMethods = map[string]bool{
		"Binary": true, "DatasetMargin": true, "ErrorRate": true, "Errors": true,
		"Eval": true, "Expand": true, "Margin": true,
		"Mistake": true, "Norm": true, "Observe": true, "Predict": true, "PredictAll": true,
		"Score": true, "Sign": true, "SignedDistance": true, "Split": true, "Step": true,
		"Subset": true, "Theta": true, "Transform": true, "Unscale": true, "UpdatesPerEpoch": true,
	}
)

// packageCall returns what the function f computes with instead of a
// loop: the first function of a refused package ("perceptron.Pocket",
// "figures.CumulativeMistakes") or computing method of a perceptron value
// ("perceptron.Hyperplane.Predict") that f's declaration uses, directly or
// through anything of the program it reaches; "" if none. The methods
// named in allow are let through (an exercise about something else may
// predict with the hyperplanes it is given).
//
// It reads the program that GoNB compiled for the running cell: GoNB
// writes every declaration of the notebook, the student's function
// included, into main.go in the folder named by the environment variable
// GONB_TMP_DIR, and sets that variable for the program it runs. f is found
// there by the line the runtime gives for its code (a function, a method
// expression or a closure written in the check cell) or else by its name.
// Outside GoNB (GONB_TMP_DIR unset, main.go absent or unreadable, f not
// declared there) it returns "": a plain go test has no student source to
// read.
func packageCall(f any, allow ...string) string { return refusal(f, true, allow...) }

// solutionCall returns the worked solution ("the worked solution
// PocketPLASolution") that f calls, directly or through anything of the
// program it reaches, or "": for exercises that may use the package but
// must not hand the work to the solution shown below them.
func solutionCall(f any) string { return refusal(f, false) }

// refusal is packageCall (packages) or solutionCall (!packages).
func refusal(f any, packages bool, allow ...string) (call string) {
	defer func() {
		if recover() != nil { // a reading this code did not foresee: no verdict, and the cell goes on
			call = ""
		}
	}()
	dir := os.Getenv("GONB_TMP_DIR")
	v := reflect.ValueOf(f)
	if dir == "" || v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	fn := runtime.FuncForPC(v.Pointer())
	if fn == nil {
		return ""
	}
	src, line := fn.FileLine(v.Pointer())
	// A function value that is a refused package's own function (a
	// variable set to lessondata.X in init): refused by its symbol. Only
	// this package's tests compile a _test.go file into a refused package.
	if call := refusedFunc(fn.Name()); call != "" && packages && !strings.HasSuffix(src, "_test.go") {
		return call
	}
	main := filepath.Join(dir, "main.go")
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, main, nil, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	if sameFile(src, main) || trimmedMain(fn.Name(), src) {
		if root := funcAtLine(fset, file, line); root != nil {
			a := newAnalysis(file, allow...)
			a.packages = packages
			return a.check(root)
		}
	}
	return callIn(file, shortName(fn.Name()), packages, allow...)
}

// callerCall is packageCall for the code that called the checker (skip
// frames above callerCall's caller): the function of main.go, a GoNB
// cell's body, that passes numbers to a checker of answers worked out by
// hand. The calls of package exercises are let through there (the cell
// calls the checker, and may print the exercise's data).
func callerCall(skip int) (call string) {
	defer func() {
		if recover() != nil { // as in refusal: no verdict
			call = ""
		}
	}()
	dir := os.Getenv("GONB_TMP_DIR")
	pc, src, line, ok := runtime.Caller(skip + 2)
	fn := runtime.FuncForPC(pc)
	if dir == "" || !ok || fn == nil {
		return ""
	}
	main := filepath.Join(dir, "main.go")
	if !sameFile(src, main) && !trimmedMain(fn.Name(), src) {
		return ""
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, main, nil, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	var root ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if fset.Position(n.Pos()).Line <= line && line <= fset.Position(n.End()).Line {
				root = n // the innermost: Inspect visits it after its parents
			}
		}
		return true
	})
	if root == nil {
		return ""
	}
	a := newAnalysis(file)
	for name, pkg := range a.imports {
		if pkg == "exercises" {
			delete(a.imports, name)
		}
	}
	return a.check(root)
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

// funcAtLine returns the function declaration or literal of file that
// starts on line, the innermost if several do.
func funcAtLine(fset *token.FileSet, file *ast.File, line int) ast.Node {
	var found ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if fset.Position(n.Pos()).Line == line {
				found = n
			}
		}
		return true
	})
	return found
}

// packageCallIn is packageCall on a parsed file, for the function called
// name: a function of the file, or the method of that name (for a method
// value, name ends in "-fm").
func packageCallIn(file *ast.File, name string, allow ...string) string {
	return callIn(file, name, true, allow...)
}

// callIn is packageCallIn, refusing package calls only if packages.
func callIn(file *ast.File, name string, packages bool, allow ...string) string {
	a := newAnalysis(file, allow...)
	a.packages = packages
	if m, ok := strings.CutSuffix(name, "-fm"); ok {
		for _, d := range a.methods[m] {
			if found := a.check(d); found != "" {
				return found
			}
		}
		return ""
	}
	for _, d := range a.decls[name] {
		if fd, ok := d.(*ast.FuncDecl); ok {
			return a.check(fd)
		}
	}
	return ""
}

// An analysis holds what packageCall needs to know of the program's file.
type analysis struct {
	imports map[string]string // local name of a refused package → its name in messages
	dots    []string          // refused packages imported with "."

	decls       map[string][]ast.Node      // package-level name → its FuncDecl, ValueSpec or TypeSpec
	methods     map[string][]*ast.FuncDecl // method name → the methods of that name
	typeMethods map[string][]*ast.FuncDecl // type name → its methods
	assigns     map[string][]ast.Node      // package-level variable → the statements assigning it
	declared    map[string]bool            // every name the file declares, at any level

	// values holds the package-level names of perceptron values: a
	// variable holding one, a function returning one, a type made of one;
	// each with the perceptron type when it is known ("Hyperplane"), else "".
	values map[string]string
	fields map[string]bool // fields of the file's structs that hold perceptron values
	allow  map[string]bool // computing methods let through

	packages bool     // whether calls of the refused packages are refused (else only worked solutions)
	root     ast.Node // the declaration checked: a worked solution may call itself
}

func newAnalysis(file *ast.File, allow ...string) *analysis {
	a := &analysis{allow: map[string]bool{}, packages: true,
		imports: map[string]string{}, decls: map[string][]ast.Node{},
		methods: map[string][]*ast.FuncDecl{}, typeMethods: map[string][]*ast.FuncDecl{},
		assigns: map[string][]ast.Node{}, declared: map[string]bool{},
		values: map[string]string{}, fields: map[string]bool{},
	}
	for _, m := range allow {
		a.allow[m] = true
	}
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		pkg, refused := refusedPackages[p]
		if err != nil || !refused {
			continue
		}
		switch {
		case imp.Name == nil:
			a.imports[pkg] = pkg
		case imp.Name.Name == ".":
			a.dots = append(a.dots, pkg)
		case imp.Name.Name != "_":
			a.imports[imp.Name.Name] = pkg
		}
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				a.decls[d.Name.Name] = append(a.decls[d.Name.Name], d)
				continue
			}
			a.methods[d.Name.Name] = append(a.methods[d.Name.Name], d)
			if t := receiverType(d); t != "" {
				a.typeMethods[t] = append(a.typeMethods[t], d)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.Name != "_" { // the blank name names nothing to reach
							a.decls[id.Name] = append(a.decls[id.Name], s)
						}
					}
				case *ast.TypeSpec:
					a.decls[s.Name.Name] = append(a.decls[s.Name.Name], s)
				}
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				a.declared[id.Name] = true
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				a.declared[id.Name] = true
			}
		case *ast.TypeSpec:
			a.declared[n.Name.Name] = true
		case *ast.FuncDecl:
			a.declared[n.Name.Name] = true
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && n.Tok == token.DEFINE {
					a.declared[id.Name] = true
				} else if id := rootIdent(lhs); id != nil && a.isVar(id.Name) {
					// v = …, v.f = …, v[k] = …, *v = …: each changes what v holds
					a.assigns[id.Name] = append(a.assigns[id.Name], n)
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					a.declared[id.Name] = true
				}
			}
		case *ast.LabeledStmt:
			a.declared[n.Label.Name] = true
		}
		return true
	})
	a.findValues(file)
	return a
}

// rootIdent is the variable that an assignment's left side writes into:
// v for v, v.f, v[k], *v, (v).f[k] and so on; nil if there is none.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// isVar says whether name is a package-level variable of the file.
func (a *analysis) isVar(name string) bool {
	for _, d := range a.decls[name] {
		if _, ok := d.(*ast.ValueSpec); ok {
			return true
		}
	}
	return false
}

// receiverType is the name of the type a method is declared on.
func receiverType(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	for {
		switch e := t.(type) {
		case *ast.StarExpr:
			t = e.X
		case *ast.ParenExpr:
			t = e.X
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// findValues fills a.values and a.fields, to a fixed point: a type, a
// variable or a function result can be made of others.
func (a *analysis) findValues(file *ast.File) {
	for changed := true; changed; {
		changed = false
		mark := func(name, typ string) {
			if _, ok := a.values[name]; !ok && name != "_" {
				a.values[name] = typ
				changed = true
			}
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Type.Results != nil {
					if ok, t := a.perceptronType(d.Type.Results); ok {
						mark(d.Name.Name, t)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if ok, t := a.perceptronType(s.Type); ok {
							if _, isStruct := s.Type.(*ast.StructType); isStruct {
								t = "" // a struct holding one: its own methods are not perceptron's
							}
							mark(s.Name.Name, t)
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								if ok, _ := a.perceptronType(f.Type); ok {
									for _, id := range f.Names {
										if !a.fields[id.Name] {
											a.fields[id.Name], changed = true, true
										}
									}
								}
							}
						}
					case *ast.ValueSpec:
						for name, t := range a.specValues(s, nil) {
							mark(name, t)
						}
					}
				}
			}
		}
	}
}

// specValues returns the names that a var or const spec binds to
// perceptron values, with their type when known.
func (a *analysis) specValues(s *ast.ValueSpec, local map[string]string) map[string]string {
	out := map[string]string{}
	if s.Type != nil {
		if ok, t := a.perceptronType(s.Type); ok {
			for _, id := range s.Names {
				out[id.Name] = t
			}
			return out
		}
	}
	for i, id := range s.Names {
		var v ast.Expr
		switch {
		case len(s.Values) == len(s.Names):
			v = s.Values[i]
		case len(s.Values) == 1:
			v = s.Values[0]
		default:
			continue
		}
		if ok, t := a.perceptronValue(v, local); ok {
			out[id.Name] = t
		}
	}
	return out
}

// perceptronType says whether the type expression t is, or is made of, a
// type of package perceptron (or one of the file's types that is), with
// the perceptron type's name when t names one.
func (a *analysis) perceptronType(t ast.Node) (found bool, typ string) {
	ast.Inspect(t, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && a.imports[id.Name] == "perceptron" {
				found, typ = true, n.Sel.Name
				return false
			}
		case *ast.Ident:
			if t, ok := a.values[n.Name]; ok && a.isType(n.Name) {
				found, typ = true, t
				return false
			}
			if a.dotPerceptron(n.Name) {
				found, typ = true, n.Name
				return false
			}
		}
		return !found
	})
	return found, typ
}

// isType says whether name is a type declared by the file.
func (a *analysis) isType(name string) bool {
	for _, d := range a.decls[name] {
		if _, ok := d.(*ast.TypeSpec); ok {
			return true
		}
	}
	return false
}

// dotPerceptron says whether the bare name is one of perceptron's types
// or constants, from an import of perceptron with ".".
func (a *analysis) dotPerceptron(name string) bool {
	if !perceptronContainers[name] || a.declared[name] {
		return false
	}
	for _, p := range a.dots {
		if p == "perceptron" {
			return true
		}
	}
	return false
}

// perceptronValue says whether the expression e may be a value of a type
// of package perceptron, with the type's name when it is known. It errs
// towards yes: a call with a perceptron value among its arguments (nb.Must,
// a generic helper) may return one.
func (a *analysis) perceptronValue(e ast.Expr, local map[string]string) (bool, string) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return a.perceptronValue(e.X, local)
	case *ast.StarExpr:
		return a.perceptronValue(e.X, local)
	case *ast.UnaryExpr:
		return a.perceptronValue(e.X, local)
	case *ast.CompositeLit:
		if e.Type == nil {
			return false, ""
		}
		return a.perceptronType(e.Type)
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType:
		return a.perceptronType(e)
	case *ast.Ident:
		if t, ok := local[e.Name]; ok {
			return true, t
		}
		if t, ok := a.values[e.Name]; ok {
			return true, t
		}
		if a.dotPerceptron(e.Name) {
			return true, e.Name
		}
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if pkg, ok := a.imports[id.Name]; ok {
				if pkg == "perceptron" && perceptronContainers[e.Sel.Name] {
					return true, e.Sel.Name
				}
				return true, ""
			}
		}
		if ok, _ := a.perceptronValue(e.X, local); ok {
			if perceptronContainers[e.Sel.Name] { // an embedded field, named by its type
				return true, e.Sel.Name
			}
			return true, ""
		}
		if a.fields[e.Sel.Name] {
			return true, ""
		}
	case *ast.CallExpr:
		if ok, t := a.perceptronValue(e.Fun, local); ok { // a conversion, or a function returning one
			return true, t
		}
		for _, arg := range e.Args {
			if ok, _ := a.perceptronValue(arg, local); ok {
				return true, ""
			}
		}
	case *ast.IndexExpr:
		if ok, t := a.perceptronValue(e.X, local); ok {
			return true, t
		}
		return a.perceptronValue(e.Index, local)
	case *ast.IndexListExpr:
		if ok, t := a.perceptronValue(e.X, local); ok {
			return true, t
		}
		for _, x := range e.Indices {
			if ok, _ := a.perceptronValue(x, local); ok {
				return true, ""
			}
		}
	case *ast.SliceExpr:
		return a.perceptronValue(e.X, local)
	case *ast.TypeAssertExpr:
		if e.Type != nil {
			if ok, t := a.perceptronType(e.Type); ok {
				return true, t
			}
		}
		return a.perceptronValue(e.X, local)
	}
	return false, ""
}

// localValues returns the names that the declaration n binds to
// perceptron values (parameters, results, variables, range variables),
// with their type when known. It ignores scopes: a name bound to one
// anywhere in n counts everywhere in n.
func (a *analysis) localValues(n ast.Node) map[string]string {
	local := map[string]string{}
	for changed := true; changed; {
		changed = false
		mark := func(e ast.Expr, t string) {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				if _, seen := local[id.Name]; !seen {
					local[id.Name] = t
					changed = true
				}
			}
		}
		ast.Inspect(n, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.Field:
				if ok, t := a.perceptronType(x.Type); ok {
					for _, id := range x.Names {
						mark(id, t)
					}
				}
			case *ast.ValueSpec:
				for name, t := range a.specValues(x, local) {
					mark(ast.NewIdent(name), t)
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					rhs := x.Rhs[0]
					if len(x.Rhs) == len(x.Lhs) {
						rhs = x.Rhs[i]
					}
					if ok, t := a.perceptronValue(rhs, local); ok {
						mark(lhs, t)
					}
				}
			case *ast.RangeStmt:
				if ok, t := a.perceptronValue(x.X, local); ok {
					if x.Key != nil {
						mark(x.Key, t)
					}
					if x.Value != nil {
						mark(x.Value, t)
					}
				}
			}
			return true
		})
	}
	return local
}

// check walks from the declaration root through everything of the file
// it names (functions, variables with their initialisers and the
// statements that assign them, types with their methods, methods by name)
// and returns the first refused use it finds there, or "".
func (a *analysis) check(root ast.Node) string {
	seen := map[ast.Node]bool{}
	queue := []ast.Node{root}
	enqueue := func(n ast.Node) {
		if !seen[n] {
			seen[n] = true
			queue = append(queue, n)
		}
	}
	seen[root] = true
	a.root = root
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if found := a.checkNode(n, enqueue); found != "" {
			return found
		}
	}
	return ""
}

// checkNode returns the first refused use in the declaration n, and
// passes every declaration of the file that n names to enqueue.
func (a *analysis) checkNode(n ast.Node, enqueue func(ast.Node)) string {
	local := a.localValues(n)
	found := ""
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		if found != "" {
			return false
		}
		switch x := x.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && a.packages {
				if pkg, ok := a.imports[id.Name]; ok {
					if pkg != "perceptron" || !perceptronContainers[x.Sel.Name] {
						found = pkg + "." + x.Sel.Name
					}
					return false
				}
			}
			name := x.Sel.Name
			for _, m := range a.methods[name] {
				enqueue(m)
			}
			if computingMethods[name] && !a.allow[name] && a.packages {
				if ok, t := a.perceptronValue(x.X, local); ok && (t != "" || len(a.methods[name]) == 0) {
					if t != "" {
						found = "perceptron." + t + "." + name
					} else {
						found = "perceptron's " + name + " method"
					}
					return false
				}
			}
			ast.Inspect(x.X, visit) // not x.Sel: a field or method name is no package-level name
			return false
		case *ast.KeyValueExpr:
			if _, ok := x.Key.(*ast.Ident); ok { // a struct field's name, or a map key
				ast.Inspect(x.Key, func(k ast.Node) bool {
					if id, ok := k.(*ast.Ident); ok {
						a.reach(id.Name, enqueue)
					}
					return true
				})
				ast.Inspect(x.Value, visit)
				return false
			}
		case *ast.Ident:
			if sol := a.solution(x.Name); sol != "" {
				found = sol
				return false
			}
			a.reach(x.Name, enqueue)
			if a.packages && len(a.dots) > 0 && ast.IsExported(x.Name) && !a.declared[x.Name] &&
				types.Universe.Lookup(x.Name) == nil && !a.dotPerceptron(x.Name) {
				found = a.dots[0] + "." + x.Name
				return false
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return found
}

// solution returns "the worked solution N" if name is a function of the
// file named N = "…Solution" other than the declaration checked, else "".
func (a *analysis) solution(name string) string {
	if !strings.HasSuffix(name, "Solution") || name == "Solution" {
		return ""
	}
	for _, d := range a.decls[name] {
		if fd, ok := d.(*ast.FuncDecl); ok && ast.Node(fd) != a.root {
			return "the worked solution " + name
		}
	}
	return ""
}

// reach passes to enqueue the file's declarations of name: a function, a
// variable or constant with the statements that assign it, a type with
// its methods.
func (a *analysis) reach(name string, enqueue func(ast.Node)) {
	for _, d := range a.decls[name] {
		enqueue(d)
	}
	for _, s := range a.assigns[name] {
		enqueue(s)
	}
	for _, m := range a.typeMethods[name] {
		enqueue(m)
	}
}
