package repo

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
)

// This file type-checks, without Jupyter, every notebook's Go code
// against the repository's packages (NotebookCodeErrors, used by
// TestNotebookCode in notebooks/nb): a renamed or removed function shows in
// seconds, with the notebook, cell and line, instead of in a notebook run.
//
// The cells are read as GoNB reads them:
//   - lines starting with '!' (shell) or '%' (GoNB commands), with their '\'
//     continuations, and a cell magic's whole cell are not Go
//     (gosrc.ReadCell has GoNB's exact rules);
//   - a "%%" (or "%main") line starts the cell's main body: the rest of the
//     cell runs as the body of func main;
//   - what comes before it is top-level declarations, kept for the later
//     cells: imports accumulate, and a declaration replaces an earlier one
//     of the same name (a function, a method of a type, a type, variables
//     and constants by their names);
//   - a %test cell's declarations are tests, compiled with the testing
//     package as `go test` does.
//
// Each cell is then type-checked (go/types, the compiler's export data from
// `go list -export`) as the program GoNB would build when it runs: the
// declarations so far and its own main body. GoNB runs goimports on that
// program, which drops unused imports, so an import a cell does not use is
// no error here either.

// goCell is one code cell of a notebook, split as GoNB reads it.
type goCell struct {
	index int      // the cell's index in the notebook
	lines []string // the cell's lines, with those that are not Go blanked
	main  int      // index of the first line of the main body, -1 if none
	test  bool     // a %test cell
}

// splitGoCell reads a code cell as GoNB does (gosrc.ReadCell): shell and
// GoNB commands are blanked (so line numbers stay those of the cell).
func splitGoCell(index int, src string) goCell {
	g := gosrc.ReadCell(src)
	c := goCell{index: index, lines: g.Lines, main: -1, test: g.Test}
	if g.MainAt >= 0 {
		c.main = g.MainAt + 1
	}
	for i, special := range g.Special {
		if special {
			c.lines[i] = ""
		}
	}
	return c
}

// cellDecl is one top-level declaration of a cell, with the line directive
// that maps it back to the cell.
type cellDecl struct {
	key  string // what a later declaration with the same key replaces; "" never replaced
	text string
}

// goProgram is what GoNB has compiled so far in one notebook: its imports and
// declarations, in order.
type goProgram struct {
	imports map[string]string // import path -> "name path" spec text
	order   []string          // import paths in first-seen order
	decls   []cellDecl
}

// lineDirective maps the following line to line (1-based) of a cell.
func lineDirective(where string, line int) string {
	return fmt.Sprintf("//line %s:%d:1\n", where, line)
}

// add parses the declarations of a cell (the lines before its main body)
// into the program; where names the cell in errors.
func (p *goProgram) add(fset *token.FileSet, where string, c goCell) error {
	end := len(c.lines)
	if c.main >= 0 {
		end = c.main - 1
	}
	src := "package main\n" + strings.Join(c.lines[:end], "\n") + "\n"
	// Line L+1 of the source is line L of the cell (the package clause
	// comes first).
	f, err := parser.ParseFile(fset, where, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			e := list[0]
			return fmt.Errorf("%s:%d:%d: %s", where, e.Pos.Line-1, e.Pos.Column, e.Msg)
		}
		return err
	}
	tf := fset.File(f.Pos())
	text := func(n ast.Node, doc *ast.CommentGroup) (string, int) {
		start := n.Pos()
		if doc != nil {
			start = doc.Pos()
		}
		return src[tf.Offset(start):tf.Offset(n.End())], fset.Position(start).Line - 1
	}
	for _, d := range f.Decls {
		var key string
		var body string
		var line int
		switch d := d.(type) {
		case *ast.GenDecl:
			body, line = text(d, d.Doc)
			if d.Tok == token.IMPORT {
				for _, s := range d.Specs {
					is := s.(*ast.ImportSpec)
					path, _ := strconv.Unquote(is.Path.Value)
					spec := is.Path.Value
					if is.Name != nil {
						spec = is.Name.Name + " " + spec
					}
					if _, ok := p.imports[path]; !ok {
						p.order = append(p.order, path)
					}
					p.imports[path] = spec
				}
				continue
			}
			names := gosrc.TopNames(d)
			if !slices.Contains(names, "_") {
				key = d.Tok.String() + " " + strings.Join(names, ",")
			}
		case *ast.FuncDecl:
			body, line = text(d, d.Doc)
			key = "func " + d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := d.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if idx, ok := recv.(*ast.IndexExpr); ok {
					recv = idx.X
				} else if idx, ok := recv.(*ast.IndexListExpr); ok {
					recv = idx.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					key = "method " + id.Name + "." + d.Name.Name
				}
			}
			if d.Name.Name == "init" && d.Recv == nil {
				key = ""
			}
		}
		decl := cellDecl{key: key, text: lineDirective(where, line) + body + "\n"}
		if i := slices.IndexFunc(p.decls, func(o cellDecl) bool { return key != "" && o.key == key }); i >= 0 {
			p.decls[i] = decl
		} else {
			p.decls = append(p.decls, decl)
		}
	}
	return nil
}

// source is the program GoNB builds to run cell c: the declarations so far
// and, if the cell has one, its main body.
func (p *goProgram) source(where string, c goCell) string {
	var b strings.Builder
	b.WriteString("package main\n\n")
	for _, path := range p.order {
		fmt.Fprintf(&b, "import %s\n", p.imports[path])
	}
	for _, d := range p.decls {
		b.WriteString(d.text)
	}
	if c.main >= 0 {
		b.WriteString("\nfunc main() {\n")
		b.WriteString(lineDirective(where, c.main+1))
		b.WriteString(strings.Join(c.lines[c.main:], "\n"))
		b.WriteString("\n}\n")
	} else {
		b.WriteString("\nfunc main() {}\n")
	}
	return b.String()
}

// modulePackages are the packages of this module a cell may use without an
// import, by name, as goimports finds them (it searches the module).
var modulePackages = map[string]string{
	"perceptron": "github.com/perceptron-go/lessons/perceptron",
	"plots":      "github.com/perceptron-go/lessons/perceptron/plots",
	"nb":         "github.com/perceptron-go/lessons/notebooks/nb",
	"view":       "github.com/perceptron-go/lessons/notebooks/nb/view",
	"lessondata": "github.com/perceptron-go/lessons/notebooks/nb/lessondata",
	"figures":    "github.com/perceptron-go/lessons/figures",
	"exercises":  "github.com/perceptron-go/lessons/notebooks/nb/exercises",
}

// addMissing adds, as goimports would, the import of each package of this
// module that errs reports undefined ("undefined: nb") and reports whether
// it added one.
func (p *goProgram) addMissing(errs []string) bool {
	added := false
	for _, e := range errs {
		i := strings.LastIndex(e, "undefined: ")
		if i < 0 {
			continue
		}
		name := e[i+len("undefined: "):]
		path, ok := modulePackages[name]
		if _, have := p.imports[path]; !ok || have {
			continue
		}
		p.imports[path] = strconv.Quote(path)
		p.order = append(p.order, path)
		added = true
	}
	return added
}

// NotebookCodeErrors type-checks the Go code of the notebooks (path ->
// cells' sources, empty for a markdown cell) and returns the problems, each
// naming the notebook, the cell and the line. imp resolves imports.
func NotebookCodeErrors(notebooks map[string][]string, imp types.Importer) []string {
	var problems []string
	paths := slices.Sorted(maps.Keys(notebooks))
	for _, path := range paths {
		prog := &goProgram{imports: map[string]string{}}
		for i, src := range notebooks[path] {
			if strings.TrimSpace(src) == "" {
				continue
			}
			where := fmt.Sprintf("%s cell %d", path, i)
			c := splitGoCell(i, src)
			fset := token.NewFileSet()
			if err := prog.add(fset, where, c); err != nil {
				problems = append(problems, err.Error())
				continue
			}
			if c.main < 0 && !c.test && len(prog.decls) == 0 {
				continue // imports only
			}
			src := prog.source(where, c)
			// A file name with no folder: relative names in line directives
			// are taken from the file's own folder.
			f, err := parser.ParseFile(fset, "cell.go", src, parser.SkipObjectResolution)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			// The first error of a cell, as the cell would show it; what
			// follows from it is only counted.
			var errs []string
			conf := types.Config{Importer: imp, Error: func(err error) {
				te, ok := err.(types.Error)
				if ok && strings.HasPrefix(te.Msg, `"`) && strings.HasSuffix(te.Msg, " not used") {
					return // GoNB's goimports removes unused imports
				}
				errs = append(errs, err.Error())
			}}
			conf.Check("main", fset, []*ast.File{f}, nil)
			// GoNB runs goimports, which adds the import of a package of
			// this module that a cell names without importing it.
			if added := prog.addMissing(errs); added {
				errs = nil
				src = prog.source(where, c)
				if f, err = parser.ParseFile(fset, "cell.go", src, parser.SkipObjectResolution); err != nil {
					problems = append(problems, err.Error())
					continue
				}
				conf.Check("main", fset, []*ast.File{f}, nil)
			}
			if len(errs) > 1 {
				errs[0] += fmt.Sprintf(" (and %d more errors in this cell)", len(errs)-1)
			}
			if len(errs) > 0 {
				problems = append(problems, errs[0])
			}
		}
	}
	return problems
}

// NotebookImports returns every import path the cells name.
func NotebookImports(notebooks map[string][]string) []string {
	set := map[string]bool{"testing": true}
	for _, path := range modulePackages {
		set[path] = true
	}
	for _, cells := range notebooks {
		for i, src := range cells {
			prog := &goProgram{imports: map[string]string{}}
			if prog.add(token.NewFileSet(), "", splitGoCell(i, src)) == nil {
				for _, p := range prog.order {
					set[p] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}
