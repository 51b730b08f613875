package assignment

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"iter"
	"regexp"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/internal/notebook"
)

// CodeCells yields the index and the lines of each code cell of nb that is
// not a %test cell: the cells whose code a student writes or is given.
func CodeCells(nb *notebook.Notebook) iter.Seq2[int, gosrc.Cell] {
	return func(yield func(int, gosrc.Cell) bool) {
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			if cl := gosrc.ReadCell(c.Source); !cl.Test && !yield(i, cl) {
				return
			}
		}
	}
}

// ImportSpec is one import of a cell.
type ImportSpec struct {
	Name string // explicit name ("" if none, "_" or "." possible)
	Path string
}

// Decl is one top-level declaration of a cell.
type Decl struct {
	Key  string // what a later declaration with the same key replaces ("" never replaced)
	Text string // source text, doc comment included
	Line int    // 1-based line in the cell where text starts
	Uses []string
	// Name and body describe a function or method: its Name ("Dot",
	// "T.M"), and the offset in text of the '{' of its body (-1 for a
	// declaration without a body); sigUses are the package names its
	// signature uses.
	Name    string
	Body    int
	SigUses []string
	Node    ast.Decl // the declaration in its cell's syntax tree
}

// TestFunc is a test function of a %test cell.
type TestFunc struct {
	Name   string
	Points float64
	Cell   int  // index of the cell in the source notebook
	Line   int  // 1-based line in the cell
	Hidden bool // declared between the hidden-tests markers
	// Message is what the student is told about a hidden test: its doc
	// comment, without the points line.
	Message string
}

// ParsedCell is a code cell parsed as Go declarations.
type ParsedCell struct {
	Index   int
	Lines   gosrc.Cell
	Imports []ImportSpec
	Decls   []Decl
	Tests   []TestFunc
	// Exercise marks a cell that holds a solution block.
	Exercise bool
	Funcs    map[string]*ast.FuncDecl // top-level functions (no methods) by name
	Fset     *token.FileSet
	File     *ast.File
}

var pointsLine = regexp.MustCompile(`(?m)^\s*points:\s*(\S*)\s*$`)

// ParseCell parses code cell index of a notebook as GoNB would compile
// it. Errors name the cell and the line.
func ParseCell(index int, src string) (*ParsedCell, error) {
	pc := &ParsedCell{Index: index, Lines: gosrc.ReadCell(src), Fset: token.NewFileSet(), Funcs: map[string]*ast.FuncDecl{}}
	goSrc := pc.Lines.GoSource()
	// line is the 1-based line in the cell of a position.
	line := func(p token.Pos) int { return pc.Fset.Position(p).Line - 1 }
	f, err := parser.ParseFile(pc.Fset, fmt.Sprintf("cell%d", index), goSrc, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("cell %d: %v", index, cellError(err))
	}
	pc.File = f
	offset := func(p token.Pos) int { return pc.Fset.Position(p).Offset }
	for _, d := range f.Decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			if d.Tok == token.IMPORT {
				for _, s := range d.Specs {
					p, name := gosrc.Import(s.(*ast.ImportSpec))
					pc.Imports = append(pc.Imports, ImportSpec{Path: p, Name: name})
				}
				continue
			}
			key := ""
			names := gosrc.TopNames(d)
			if len(names) > 0 && !containsBlank(names) {
				key = d.Tok.String() + " " + strings.Join(names, ",")
			}
			pc.Decls = append(pc.Decls, Decl{Key: key, Text: goSrc[offset(start):offset(d.End())],
				Line: line(start), Uses: SelectorNames(d), Body: -1, Node: d})
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
			key := "func " + d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				key = "method " + recvType(d.Recv.List[0].Type) + "." + d.Name.Name
			} else {
				pc.Funcs[d.Name.Name] = d
			}
			if d.Name.Name == "init" {
				key = ""
			}
			if d.Name.Name == "main" && d.Recv == nil {
				continue // GoNB runs main bodies; the grader never does
			}
			fd := Decl{Key: key, Text: goSrc[offset(start):offset(d.End())],
				Line: line(start), Uses: SelectorNames(d), Name: d.Name.Name, Body: -1, Node: d}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				fd.Name = recvType(d.Recv.List[0].Type) + "." + d.Name.Name
				fd.SigUses = SelectorNames(d.Recv)
			}
			fd.SigUses = append(fd.SigUses, SelectorNames(d.Type)...)
			if d.Body != nil {
				fd.Body = offset(d.Body.Lbrace) - offset(start)
			}
			pc.Decls = append(pc.Decls, fd)
			if pc.Lines.Test && d.Recv == nil && strings.HasPrefix(d.Name.Name, "Test") && d.Name.Name != "TestMain" {
				tf := TestFunc{Name: d.Name.Name, Points: 1, Cell: index, Line: line(d.Pos())}
				if d.Doc != nil {
					msg := pointsLine.ReplaceAllString(d.Doc.Text(), "")
					for _, m := range []string{BeginHidden, EndHidden} {
						msg = strings.ReplaceAll(msg, strings.TrimPrefix(m, "// "), "")
					}
					tf.Message = strings.TrimSpace(msg)
					if m := pointsLine.FindAllStringSubmatch(d.Doc.Text(), -1); len(m) > 0 {
						if len(m) > 1 {
							return nil, fmt.Errorf("cell %d, line %d: %s has %d \"points:\" lines, want one", index, tf.Line, tf.Name, len(m))
						}
						p, err := strconv.ParseFloat(m[0][1], 64)
						if err != nil || p < 0 || p != p {
							return nil, fmt.Errorf("cell %d, line %d: %s: points %q is not a number >= 0", index, tf.Line, tf.Name, m[0][1])
						}
						tf.Points = p
					}
				}
				pc.Tests = append(pc.Tests, tf)
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
	if t := gosrc.ReceiverType(e); t != "" {
		return t
	}
	return "?"
}

// SelectorNames returns the identifiers X of the selectors X.Sel in n:
// the package names n may use.
func SelectorNames(n ast.Node) []string { return gosrc.SelectorNames(n) }

// ImportName is the name an import binds: its explicit name, else the last
// element of its path without a major-version suffix ("math/rand/v2" ->
// "rand", "gopkg.in/yaml.v3" -> "yaml").
func ImportName(is ImportSpec) string { return gosrc.ImportName(is.Path, is.Name) }

// ReferencedFuncs returns the names of the top-level functions of known
// that fn calls or mentions, directly or through other functions of known.
func ReferencedFuncs(fn *ast.FuncDecl, known map[string]*ast.FuncDecl) map[string]bool {
	return gosrc.ReferencedFuncs(fn, known)
}
