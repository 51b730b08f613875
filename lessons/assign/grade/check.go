package grade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// Rules, as the report names them.
const (
	ruleImport     = "import not allowed"
	ruleDotImport  = "dot import not allowed"
	ruleDirective  = "compiler directive not allowed"
	ruleInit       = "init function not allowed"
	ruleVarCall    = "package-level variable initialised by a call"
	rulePredecl    = "declaration shadows a predeclared identifier"
	ruleDenied     = "identifier denied by the assignment"
	ruleReserved   = "name reserved for the grader"
	ruleCgoComment = "cgo not allowed"
	ruleTestHelper = "uses the tests' code"
)

// checkSubmission checks the code cells of sub that the grader compiles
// (every code cell that is not a %test cell, as parsed in cells) against
// policy p: imports, directives, init functions, package-level variables
// initialised by calls, shadowed predeclared identifiers and denied
// identifiers. Declarations that the source's given code replaces (dropped
// from asm) are not checked: they are never compiled.
//
// An import that the policy forbids but the source's own code cells make
// (the shared imports cell imports "testing" for the %test cells) is
// tolerated as an import, but the submission's code may not use it.
//
// The test helpers are compiled into the same package: the submission may
// not use a top-level name declared in the source's %test cells (a helper
// may compute the expected answer with the reference package).
//
// added are imports the submission's code did not write but goimports
// added at build time (GoNB adds them too): the names they bind are
// checked like the submission's own, so perceptron.PLA is denied with or
// without an import of perceptron.
func checkSubmission(cells []*assignment.ParsedCell, asm *assembly, p assignment.Policy, given map[string]bool, added ...assignment.ImportSpec) []Violation {
	var vs []Violation
	testDecls := map[string]bool{}
	for _, u := range asm.units {
		if u.test && u.d.Node != nil {
			for _, n := range topNames(u.d.Node) {
				testDecls[n] = true
			}
		}
	}
	kept := map[ast.Decl]bool{}
	for _, u := range asm.units {
		if strings.HasPrefix(u.file, "cell") && u.d.Text != "" && u.d.Node != nil {
			kept[u.d.Node] = true
		}
	}
	denyPkg := map[string]bool{}
	denyMember := map[string]bool{}
	for _, d := range p.Deny {
		if strings.HasPrefix(d, ".") {
			denyMember[d[1:]] = true
		} else {
			denyPkg[d] = true
		}
	}
	// GoNB merges the imports of all cells: a name imported in one cell
	// is used in another.
	pkgs := map[string]string{}
	unusable := map[string]string{}
	for _, is := range added {
		if p.AllowsImport(is.Path) {
			pkgs[assignment.ImportName(is)] = is.Path
		}
	}
	for _, pc := range cells {
		line := func(pos token.Pos) int { return pc.Fset.Position(pos).Line - 1 }
		add := func(pos token.Pos, rule, format string, args ...any) {
			vs = append(vs, Violation{Cell: pc.Index, Line: line(pos), Rule: rule, Text: fmt.Sprintf(format, args...)})
		}
		// Comments: //go: and //line directives change what the compiler
		// does (go:linkname reaches any function, go:embed reads files).
		for _, cg := range pc.File.Comments {
			for _, c := range cg.List {
				t := c.Text
				if strings.HasPrefix(t, "//go:") || strings.HasPrefix(t, "//line ") || strings.HasPrefix(t, "/*line ") || strings.HasPrefix(t, "//export ") {
					add(c.Pos(), ruleDirective, "%s", firstLine(t))
				}
			}
		}
		// Imports, with the names they bind.
		for _, is := range pc.File.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			switch {
			case path == "C":
				add(is.Pos(), ruleCgoComment, `import "C"`)
				continue
			}
			name := assignment.ImportName(assignment.ImportSpec{Path: path})
			if is.Name != nil {
				name = is.Name.Name
			}
			if !p.AllowsImport(path) {
				if given[path] && (is.Name == nil || is.Name.Name == assignment.ImportName(assignment.ImportSpec{Path: path})) {
					unusable[name] = path
				} else {
					add(is.Pos(), ruleImport, "%q (this assignment allows %s)", path, strings.Join(p.Imports, ", "))
				}
				continue
			}
			if name == "." {
				add(is.Pos(), ruleDotImport, "import . %q", path)
				continue
			}
			pkgs[name] = path
		}
	}
	for _, pc := range cells {
		line := func(pos token.Pos) int { return pc.Fset.Position(pos).Line - 1 }
		add := func(pos token.Pos, rule, format string, args ...any) {
			vs = append(vs, Violation{Cell: pc.Index, Line: line(pos), Rule: rule, Text: fmt.Sprintf(format, args...)})
		}
		for _, d := range pc.File.Decls {
			if !kept[d] {
				continue
			}
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					add(d.Pos(), ruleInit, "func init: code that runs before the tests could forge their results")
				}
				if d.Recv == nil && (d.Name.Name == "TestMain" || strings.HasPrefix(d.Name.Name, "graded")) {
					add(d.Pos(), ruleReserved, "func %s", d.Name.Name)
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, s := range d.Specs {
						for _, v := range s.(*ast.ValueSpec).Values {
							ast.Inspect(v, func(n ast.Node) bool {
								if _, ok := n.(*ast.FuncLit); ok {
									return false // a function value, not run here
								}
								if c, ok := n.(*ast.CallExpr); ok && !isConversion(c.Fun) {
									add(c.Pos(), ruleVarCall, "%s: give it its value inside a function", exprString(pc, c.Fun)+"(...)")
									return false
								}
								return true
							})
						}
					}
				}
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && strings.HasPrefix(ts.Name.Name, "graded") {
						add(ts.Pos(), ruleReserved, "type %s", ts.Name.Name)
					}
				}
			}
			// Declarations that shadow len, append, true, float64, ...
			for _, id := range definedIdents(d) {
				if id.Name != "_" && types.Universe.Lookup(id.Name) != nil {
					add(id.Pos(), rulePredecl, "%s (rename it: the tests rely on the built-in %s)", id.Name, id.Name)
				}
			}
			// Names of the tests' code, unless declared here.
			local := map[string]bool{}
			for _, id := range definedIdents(d) {
				local[id.Name] = true
			}
			use := func(id *ast.Ident) {
				if testDecls[id.Name] && !local[id.Name] {
					add(id.Pos(), ruleTestHelper, "%s is declared by the tests, not by you", id.Name)
				}
			}
			// every identifier in n, a field name or a selector's Sel too
			useAll := func(n ast.Node) {
				ast.Inspect(n, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						use(id)
					}
					return true
				})
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					useAll(n.X)
					return false
				case *ast.KeyValueExpr:
					// A struct field name in a composite literal is not a use.
					if _, ok := n.Key.(*ast.Ident); ok {
						useAll(n.Value)
						return false
					}
				case *ast.Ident:
					use(n)
				}
				return true
			})
			// Denied identifiers: pkg.Name of a denied package-level name,
			// or x.Name of a denied method.
			ast.Inspect(d, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok {
					if path, ok := unusable[x.Name]; ok {
						add(sel.Pos(), ruleImport, "uses package %q (imported for the tests; this assignment allows %s)", path, strings.Join(p.Imports, ", "))
						return true
					}
					if path, ok := pkgs[x.Name]; ok {
						if denyPkg[path+"."+sel.Sel.Name] {
							add(sel.Pos(), ruleDenied, "%s.%s (write it yourself; the package is the reference the tests compare with)", x.Name, sel.Sel.Name)
						}
						return true
					}
				}
				if denyMember[sel.Sel.Name] {
					add(sel.Sel.Pos(), ruleDenied, ".%s (a method of the perceptron package's models; write it yourself)", sel.Sel.Name)
				}
				return true
			})
		}
	}
	slices.SortStableFunc(vs, func(a, b Violation) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Line - b.Line
	})
	return vs
}

// topNames are the names a top-level declaration declares.
func topNames(d ast.Decl) []string { return gosrc.TopNames(d) }

// isConversion reports whether a call of fun is certainly a conversion to a
// predeclared or composite type (float64(x), []byte(s)), the only calls a
// package-level variable may hold.
func isConversion(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.ParenExpr:
		return isConversion(f.X)
	case *ast.Ident:
		_, ok := types.Universe.Lookup(f.Name).(*types.TypeName)
		return ok
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true
	}
	return false
}

// definedIdents returns the identifiers that declaration d declares, at
// any depth (gosrc.DefinedIdents).
func definedIdents(d ast.Decl) []*ast.Ident { return gosrc.DefinedIdents(d) }

func exprString(pc *assignment.ParsedCell, e ast.Expr) string {
	start, end := pc.Fset.Position(e.Pos()).Offset, pc.Fset.Position(e.End()).Offset
	src := pc.Lines.GoSource()
	if start >= 0 && end <= len(src) && start <= end {
		return src[start:end]
	}
	return "a call"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// check is the check stage: the assignment's rules on the submission's
// code, before anything is built (none with SkipStaticCheck).
func (g *Grader) check(prog *assembly, a *assignment.Assignment) []Violation {
	if g.SkipStaticCheck {
		return nil
	}
	return checkSubmission(prog.cells, prog, a.Policy, a.GivenImports())
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
