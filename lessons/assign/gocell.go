package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// gonbCommentPrefix lets a GoNB special command be written as a Go comment.
const gonbCommentPrefix = "//gonb:"

// cellLines describes the lines of a code cell as GoNB reads them.
type cellLines struct {
	lines   []string
	special map[int]bool // lines that are GoNB commands (%..., !...), with their continuations
	test    bool         // the cell is a %test cell
	mainAt  int          // index of the %% or %main line, -1 if none
}

// readCellLines splits a code cell into lines and marks GoNB's special
// commands: a line that starts with '%' or '!' (optionally after "//gonb:"),
// continued on the next line while it ends in '\'.
func readCellLines(src string) cellLines {
	cl := cellLines{lines: strings.Split(src, "\n"), special: map[int]bool{}, mainAt: -1}
	for i := 0; i < len(cl.lines); i++ {
		line := strings.TrimPrefix(cl.lines[i], gonbCommentPrefix)
		if len(line) == 0 || (line[0] != '%' && line[0] != '!') {
			continue
		}
		cmd := strings.TrimSpace(line)
		switch {
		case cmd == "%%" || strings.HasPrefix(cmd, "%% ") || strings.HasPrefix(cmd, "%%\t") || strings.HasPrefix(cmd, "%main"):
			if cl.mainAt < 0 {
				cl.mainAt = i
			}
		case cmd == "%test" || strings.HasPrefix(cmd, "%test "):
			cl.test = true
		case strings.HasPrefix(cmd, "%exec"):
			if cl.mainAt < 0 {
				cl.mainAt = i
			}
		}
		cl.special[i] = true
		for strings.HasSuffix(strings.TrimRight(cl.lines[i], " \t"), `\`) && i+1 < len(cl.lines) {
			i++
			cl.special[i] = true
		}
	}
	return cl
}

// goSource returns the Go declarations of the cell as a file of package
// main whose line L+1 is line L of the cell (1-based): special commands,
// package clauses and everything from a %% line on are blanked out.
func (cl cellLines) goSource() string {
	var b strings.Builder
	b.WriteString("package main\n")
	for i, line := range cl.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if cl.special[i] || (cl.mainAt >= 0 && i >= cl.mainAt) || strings.HasPrefix(line, "package") {
			continue // GoNB also drops package clauses: every cell is package main
		}
		b.WriteString(line)
	}
	b.WriteByte('\n')
	return b.String()
}

// importSpec is one import of a cell.
type importSpec struct {
	name string // explicit name ("" if none, "_" or "." possible)
	path string
}

// decl is one top-level declaration of a cell.
type decl struct {
	key  string // what a later declaration with the same key replaces ("" never replaced)
	text string // source text, doc comment included
	line int    // 1-based line in the cell where text starts
	uses []string
	// name and body describe a function or method: its name ("Dot",
	// "T.M"), and the offset in text of the '{' of its body (-1 for a
	// declaration without a body); sigUses are the package names its
	// signature uses.
	name    string
	body    int
	sigUses []string
	node    ast.Decl // the declaration in its cell's syntax tree
}

// testFunc is a test function of a %test cell.
type testFunc struct {
	name   string
	points float64
	cell   int  // index of the cell in the source notebook
	line   int  // 1-based line in the cell
	hidden bool // declared between the hidden-tests markers
	// message is what the student is told about a hidden test: its doc
	// comment, without the points line.
	message string
}

// parsedCell is a code cell parsed as Go declarations.
type parsedCell struct {
	index   int
	lines   cellLines
	imports []importSpec
	decls   []decl
	tests   []testFunc
	// exercise marks a cell that holds a solution block.
	exercise bool
	funcs    map[string]*ast.FuncDecl // top-level functions (no methods) by name
	fset     *token.FileSet
	file     *ast.File
}

var pointsLine = regexp.MustCompile(`(?m)^\s*points:\s*(\S*)\s*$`)

// parseCell parses code cell index of a notebook as GoNB would compile
// it. Errors name the cell and the line.
func parseCell(index int, src string) (*parsedCell, error) {
	pc := &parsedCell{index: index, lines: readCellLines(src), fset: token.NewFileSet(), funcs: map[string]*ast.FuncDecl{}}
	gosrc := pc.lines.goSource()
	// line is the 1-based line in the cell of a position.
	line := func(p token.Pos) int { return pc.fset.Position(p).Line - 1 }
	f, err := parser.ParseFile(pc.fset, fmt.Sprintf("cell%d", index), gosrc, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("cell %d: %v", index, cellError(err))
	}
	pc.file = f
	offset := func(p token.Pos) int { return pc.fset.Position(p).Offset }
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if d.Tok == token.IMPORT {
				for _, s := range d.Specs {
					is := s.(*ast.ImportSpec)
					p, _ := strconv.Unquote(is.Path.Value)
					spec := importSpec{path: p}
					if is.Name != nil {
						spec.name = is.Name.Name
					}
					pc.imports = append(pc.imports, spec)
				}
				continue
			}
			key := ""
			var names []string
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
			if len(names) > 0 && !containsBlank(names) {
				key = d.Tok.String() + " " + strings.Join(names, ",")
			}
			pc.decls = append(pc.decls, decl{key: key, text: gosrc[offset(start):offset(d.End())],
				line: line(start), uses: selectorNames(d), body: -1, node: d})
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			key := "func " + d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				key = "method " + recvType(d.Recv.List[0].Type) + "." + d.Name.Name
			} else {
				pc.funcs[d.Name.Name] = d
			}
			if d.Name.Name == "init" {
				key = ""
			}
			if d.Name.Name == "main" && d.Recv == nil {
				continue // GoNB runs main bodies; the grader never does
			}
			fd := decl{key: key, text: gosrc[offset(start):offset(d.End())],
				line: line(start), uses: selectorNames(d), name: d.Name.Name, body: -1, node: d}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				fd.name = recvType(d.Recv.List[0].Type) + "." + d.Name.Name
				fd.sigUses = selectorNames(d.Recv)
			}
			fd.sigUses = append(fd.sigUses, selectorNames(d.Type)...)
			if d.Body != nil {
				fd.body = offset(d.Body.Lbrace) - offset(start)
			}
			pc.decls = append(pc.decls, fd)
			if pc.lines.test && d.Recv == nil && strings.HasPrefix(d.Name.Name, "Test") && d.Name.Name != "TestMain" {
				tf := testFunc{name: d.Name.Name, points: 1, cell: index, line: line(d.Pos())}
				if d.Doc != nil {
					msg := pointsLine.ReplaceAllString(d.Doc.Text(), "")
					for _, m := range []string{beginHidden, endHidden} {
						msg = strings.ReplaceAll(msg, strings.TrimPrefix(m, "// "), "")
					}
					tf.message = strings.TrimSpace(msg)
					if m := pointsLine.FindAllStringSubmatch(d.Doc.Text(), -1); len(m) > 0 {
						if len(m) > 1 {
							return nil, fmt.Errorf("cell %d, line %d: %s has %d \"points:\" lines, want one", index, tf.line, tf.name, len(m))
						}
						p, err := strconv.ParseFloat(m[0][1], 64)
						if err != nil || p < 0 || p != p {
							return nil, fmt.Errorf("cell %d, line %d: %s: points %q is not a number >= 0", index, tf.line, tf.name, m[0][1])
						}
						tf.points = p
					}
				}
				pc.tests = append(pc.tests, tf)
			}
		}
	}
	return pc, nil
}

// cellError drops the fake file name from a parse error and counts lines
// in the cell: "cell3:5:2: msg" becomes "line 4: msg".
func cellError(err error) string {
	s := err.Error()
	if i := strings.Index(s, ":"); i >= 0 && strings.HasPrefix(s, "cell") {
		rest := s[i+1:]
		if j := strings.Index(rest, ":"); j >= 0 {
			line := rest[:j]
			if n, err := strconv.Atoi(line); err == nil {
				line = strconv.Itoa(n - 1)
			}
			rest = rest[j+1:]
			if k := strings.Index(rest, ":"); k >= 0 {
				if _, err := strconv.Atoi(rest[:k]); err == nil {
					rest = rest[k+1:]
				}
			}
			return "line " + line + ":" + rest
		}
	}
	return s
}

func containsBlank(names []string) bool {
	for _, n := range names {
		if n == "_" {
			return true
		}
	}
	return false
}

func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvType(e.X)
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	}
	return "?"
}

// selectorNames returns the identifiers X of the selectors X.Sel in n:
// the package names n may use.
func selectorNames(n ast.Node) []string {
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

// importName is the name an import binds: its explicit name, else the last
// element of its path without a major-version suffix ("math/rand/v2" ->
// "rand", "gopkg.in/yaml.v3" -> "yaml").
func importName(is importSpec) string {
	if is.name != "" {
		return is.name
	}
	parts := strings.Split(is.path, "/")
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

// referencedFuncs returns the names of the top-level functions of known
// that fn calls or mentions, directly or through other functions of known.
func referencedFuncs(fn *ast.FuncDecl, known map[string]*ast.FuncDecl) map[string]bool {
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
