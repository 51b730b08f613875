package gosrc

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// FuncAtLine returns the function declaration or literal of file that
// starts on line, the innermost if several do.
func FuncAtLine(fset *token.FileSet, file *ast.File, line int) ast.Node {
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

// CheckName is Check for the function of the file called name, or the
// methods of that name if name ends in "-fm" (a method value, as the
// runtime names it); an error if the file declares none.
func (a *Analysis) CheckName(name string) (string, error) {
	if m, ok := strings.CutSuffix(name, "-fm"); ok {
		if len(a.methods[m]) == 0 {
			return "", fmt.Errorf("no method %s declared", m)
		}
		for _, d := range a.methods[m] {
			if found := a.Check(d); found != "" {
				return found, nil
			}
		}
		return "", nil
	}
	for _, d := range a.decls[name] {
		if fd, ok := d.(*ast.FuncDecl); ok {
			return a.Check(fd), nil
		}
	}
	return "", fmt.Errorf("no function %s declared", name)
}

// A Policy says what an Analysis refuses.
type Policy struct {
	// Refused are the packages whose use is refused, by import path, with
	// the name messages give them.
	Refused map[string]string
	// Values is the messages' name of the refused package whose values'
	// methods are looked at ("perceptron"); Containers are its names that
	// may be used (types and constants that only hold data), and
	// Computing its methods that may not be called on its values, except
	// those in Allow.
	Values     string
	Containers map[string]bool
	Computing  map[string]bool
	Allow      map[string]bool
	// Packages says whether uses of the refused packages are refused at
	// all; calls of worked solutions (functions named …Solution other
	// than the one checked) always are.
	Packages bool
}

// An Analysis finds, in one file, what a function computes with: the
// first use of a refused package, of a computing method of one of its
// values or of a worked solution, in the function or anything of the
// file it reaches.
type Analysis struct {
	p Policy

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

	root ast.Node // the declaration checked: a worked solution may call itself
}

// NewAnalysis reads file's declarations for p.
func NewAnalysis(file *ast.File, p Policy) *Analysis {
	a := &Analysis{p: p,
		imports: map[string]string{}, decls: map[string][]ast.Node{},
		methods: map[string][]*ast.FuncDecl{}, typeMethods: map[string][]*ast.FuncDecl{},
		assigns: map[string][]ast.Node{}, declared: map[string]bool{},
		values: map[string]string{}, fields: map[string]bool{},
	}
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		pkg, refused := a.p.Refused[p]
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
			if t := MethodReceiver(d); t != "" {
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
				} else if id := RootIdent(lhs); id != nil && a.isVar(id.Name) {
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

// isVar says whether name is a package-level variable of the file.
func (a *Analysis) isVar(name string) bool {
	for _, d := range a.decls[name] {
		if _, ok := d.(*ast.ValueSpec); ok {
			return true
		}
	}
	return false
}

// findValues fills a.values and a.fields, to a fixed point: a type, a
// variable or a function result can be made of others.
func (a *Analysis) findValues(file *ast.File) {
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
func (a *Analysis) specValues(s *ast.ValueSpec, local map[string]string) map[string]string {
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
func (a *Analysis) perceptronType(t ast.Node) (found bool, typ string) {
	ast.Inspect(t, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && a.imports[id.Name] == a.p.Values {
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
func (a *Analysis) isType(name string) bool {
	for _, d := range a.decls[name] {
		if _, ok := d.(*ast.TypeSpec); ok {
			return true
		}
	}
	return false
}

// dotPerceptron says whether the bare name is one of perceptron's types
// or constants, from an import of perceptron with ".".
func (a *Analysis) dotPerceptron(name string) bool {
	if !a.p.Containers[name] || a.declared[name] {
		return false
	}
	for _, p := range a.dots {
		if p == a.p.Values {
			return true
		}
	}
	return false
}

// perceptronValue says whether the expression e may be a value of a type
// of package perceptron, with the type's name when it is known. It errs
// towards yes: a call with a perceptron value among its arguments (nb.Must,
// a generic helper) may return one.
func (a *Analysis) perceptronValue(e ast.Expr, local map[string]string) (bool, string) {
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
				if pkg == a.p.Values && a.p.Containers[e.Sel.Name] {
					return true, e.Sel.Name
				}
				return true, ""
			}
		}
		if ok, _ := a.perceptronValue(e.X, local); ok {
			if a.p.Containers[e.Sel.Name] { // an embedded field, named by its type
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
func (a *Analysis) localValues(n ast.Node) map[string]string {
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

// Check walks from the declaration root through everything of the file
// it names (functions, variables with their initialisers and the
// statements that assign them, types with their methods, methods by name)
// and returns the first refused use it finds there, or "".
func (a *Analysis) Check(root ast.Node) string {
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
func (a *Analysis) checkNode(n ast.Node, enqueue func(ast.Node)) string {
	local := a.localValues(n)
	found := ""
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		if found != "" {
			return false
		}
		switch x := x.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && a.p.Packages {
				if pkg, ok := a.imports[id.Name]; ok {
					if pkg != a.p.Values || !a.p.Containers[x.Sel.Name] {
						found = pkg + "." + x.Sel.Name
					}
					return false
				}
			}
			name := x.Sel.Name
			for _, m := range a.methods[name] {
				enqueue(m)
			}
			if a.p.Computing[name] && !a.p.Allow[name] && a.p.Packages {
				if ok, t := a.perceptronValue(x.X, local); ok && (t != "" || len(a.methods[name]) == 0) {
					if t != "" {
						found = a.p.Values + "." + t + "." + name
					} else {
						found = a.p.Values + "'s " + name + " method"
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
			if a.p.Packages && len(a.dots) > 0 && ast.IsExported(x.Name) && !a.declared[x.Name] &&
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
func (a *Analysis) solution(name string) string {
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
func (a *Analysis) reach(name string, enqueue func(ast.Node)) {
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

// EnclosingFunc returns the innermost function declaration or literal of
// file whose text spans line, or nil.
func EnclosingFunc(fset *token.FileSet, file *ast.File, line int) ast.Node {
	var found ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if fset.Position(n.Pos()).Line <= line && line <= fset.Position(n.End()).Line {
				found = n // the innermost: Inspect visits it after its parents
			}
		}
		return true
	})
	return found
}

// Drop stops refusing the refused package named name (as messages name
// it): a check cell may call the checkers' own package.
func (a *Analysis) Drop(name string) {
	for local, pkg := range a.imports {
		if pkg == name {
			delete(a.imports, local)
		}
	}
}
