// Package gosrc is the one reader of Go source that the lessons' tools
// share: the names a declaration declares and uses, which the grader reads
// from a submission's cells (lessons/assign), and the refusal analysis
// with which the lesson checkers (package exercises) find what a
// student's function computes with. It works on go/ast trees; the callers
// parse, and its analysis returns what it found or an error saying what
// it could not read, never a silent nothing.
package gosrc

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// TopNames are the names a top-level declaration declares (a method
// declares none at the top level).
func TopNames(d ast.Decl) []string {
	var names []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names = append(names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return names
}

// DefinedIdents returns the identifiers that declaration d declares, at
// any depth: names of functions, types, type parameters, variables,
// constants, parameters and results, := and range variables.
func DefinedIdents(d ast.Decl) []*ast.Ident {
	var ids []*ast.Ident
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			ids = append(ids, f.Names...)
		}
	}
	if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
		ids = append(ids, fd.Name) // a method's name shadows nothing
	}
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fields(n.Recv)
		case *ast.FuncType:
			fields(n.TypeParams)
			fields(n.Params)
			fields(n.Results)
		case *ast.TypeSpec:
			ids = append(ids, n.Name)
			fields(n.TypeParams)
		case *ast.ValueSpec:
			ids = append(ids, n.Names...)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		}
		return true
	})
	return ids
}

// ReceiverType is the name of the type in a method's receiver type
// expression (T, *T, T[P], *T[P, Q]), or "" if it names none.
func ReceiverType(e ast.Expr) string {
	if id := innerIdent(e, false); id != nil {
		return id.Name
	}
	return ""
}

// MethodReceiver is ReceiverType of a method declaration's receiver; ""
// for a function.
func MethodReceiver(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	return ReceiverType(d.Recv.List[0].Type)
}

// RootIdent is the variable that an assignment's left side writes into:
// v for v, v.f, v[k], *v, (v).f[k] and so on; nil if there is none.
func RootIdent(e ast.Expr) *ast.Ident { return innerIdent(e, true) }

// innerIdent is the identifier inside e under pointers, parentheses and
// indexes (type arguments), and, if selectors, under the X of X.f; nil if
// there is none.
func innerIdent(e ast.Expr, selectors bool) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			if !selectors {
				return nil
			}
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

// SelectorNames returns the identifiers X of the selectors X.Sel in n:
// the package names n may use.
func SelectorNames(n ast.Node) []string {
	set := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				set[id.Name] = true
			}
		}
		return true
	})
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	return names
}

// ImportName is the name an import of path binds: name if it is given,
// else the last element of path without a major-version suffix
// ("math/rand/v2" -> "rand", "gopkg.in/yaml.v3" -> "yaml").
func ImportName(path, name string) string {
	if name != "" {
		return name
	}
	parts := strings.Split(path, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && isDigits(last[1:]) {
		last = parts[len(parts)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 && isDigits(last[i+2:]) {
		last = last[:i]
	}
	last = strings.TrimPrefix(last, "go-")
	last = strings.TrimSuffix(last, "-go")
	return strings.ReplaceAll(last, "-", "_")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ReferencedFuncs returns the names of the top-level functions of known
// that fn calls or mentions, directly or through other functions of known.
func ReferencedFuncs(fn *ast.FuncDecl, known map[string]*ast.FuncDecl) map[string]bool {
	seen := map[string]bool{}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if f, ok := known[id.Name]; ok && !seen[id.Name] {
				seen[id.Name] = true
				visit(f)
			}
			return true
		})
	}
	visit(fn.Body)
	return seen
}

// Import is the path of an import spec, unquoted, and the name it is
// given ("" if none).
func Import(is *ast.ImportSpec) (path, name string) {
	path, _ = strconv.Unquote(is.Path.Value) // the parser checked the literal
	if is.Name != nil {
		name = is.Name.Name
	}
	return path, name
}
