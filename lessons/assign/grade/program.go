package grade

import (
	"fmt"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// The graded program: the submission's declarations, the source's given
// code and tests, as Go files.

// unit is one declaration placed in the graded program.
type unit struct {
	file string // name in positions: "cell7" (submission) or "source_cell12" (tests)
	d    assignment.Decl
	test bool // from a %test cell of the source
}

// assembly is the graded program of a submission, before rendering.
type assembly struct {
	imports map[string][]assignment.ImportSpec // by file: main.go (submission), given.go, graded_test.go
	units   []unit
	notes   []string                 // cells skipped
	cells   []*assignment.ParsedCell // the submission's parsed code cells
	tests   []assignment.TestFunc
}

// fileOf is the Go file a unit goes in: the submission's code in main.go,
// the source's given code in given.go, its tests in graded_test.go. Imports
// are per file, so the submission's code sees only its own imports.
func (u unit) fileOf() string {
	switch {
	case u.test:
		return "graded_test.go"
	case strings.HasPrefix(u.file, "cell"):
		return "main.go"
	}
	return "given.go"
}

// program assembles the Go files for a submission: the submission's
// declarations (later cells replace earlier declarations of the same name,
// as in GoNB), then the declarations of the source's code cells that hold
// no exercise, then those of the source's %test cells, visible and hidden;
// a later declaration replaces an earlier one of the same name.
func program(sub *notebook.Notebook, a *assignment.Assignment) *assembly {
	imports := map[string][]assignment.ImportSpec{}
	var units []unit
	var notes []string
	var cells []*assignment.ParsedCell
	index := map[string]int{}
	add := func(u unit) {
		if u.d.Key != "" {
			if i, ok := index[u.d.Key]; ok {
				units[i].d.Text = "" // replaced by a later declaration
			}
			index[u.d.Key] = len(units)
		}
		units = append(units, u)
	}
	for i := range assignment.CodeCells(sub) { // the tests that count are the source's
		pc, err := assignment.ParseCell(i, sub.Cells[i].Source)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%v (cell skipped, as GoNB would not have kept it)", err))
			continue
		}
		cells = append(cells, pc)
		imports["main.go"] = append(imports["main.go"], pc.Imports...)
		for _, d := range pc.Decls {
			add(unit{file: fmt.Sprintf("cell%d", i), d: d})
		}
	}
	// The declarations of the source's other code cells (data, helpers:
	// everything but the exercises) are the instructor's: they replace the
	// submission's copies, so the tests run on the data they were written
	// for even if the student changed or deleted those cells.
	for _, pc := range a.CodeCells {
		imports["given.go"] = append(imports["given.go"], pc.Imports...)
		// The %test cells rely on the source's imports cell too.
		imports["graded_test.go"] = append(imports["graded_test.go"], pc.Imports...)
		if pc.Exercise {
			continue
		}
		for _, d := range pc.Decls {
			if i, ok := index[d.Key]; ok && d.Key != "" && strings.HasPrefix(units[i].file, "cell") && !sameTokens(units[i].d.Text, d.Text) {
				// The student changed a declaration of the given code (a
				// type's fields, a helper): say so by name, since their
				// code may lean on their version and fail to compile.
				notes = append(notes, fmt.Sprintf("%s is declared by the assignment; your cell %s redeclares it differently. The grader uses the assignment's declaration: code of yours written for your version may not compile (see below).",
					d.Key, strings.TrimPrefix(units[i].file, "cell")))
			}
			add(unit{file: fmt.Sprintf("source_cell%d", pc.Index), d: d})
		}
	}
	for _, pc := range a.TestCells {
		imports["graded_test.go"] = append(imports["graded_test.go"], pc.Imports...)
		for _, d := range pc.Decls {
			add(unit{file: fmt.Sprintf("source_cell%d", pc.Index), d: d, test: true})
		}
	}
	return &assembly{imports: imports, units: units, notes: notes, cells: cells, tests: a.Tests}
}

// sameTokens reports whether two declarations are the same Go tokens,
// comments and layout aside.
func sameTokens(a, b string) bool {
	toks := func(src string) []string {
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
		var out []string
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				return out
			}
			out = append(out, tok.String()+" "+lit)
		}
	}
	return slices.Equal(toks(a), toks(b))
}

// files renders main.go, given.go, graded_test.go and the harness, with
// the body of each unit in stubs (by index) replaced by a panic with its
// message. For the student's process (server), it renders only main.go
// and given.go, without a main function (the generated server has one).
func (p *assembly) files(stubs map[int]Stub, server bool) map[string]string {
	units := p.units
	render := func(file string) string {
		var body strings.Builder
		used := map[string]bool{}
		for i, u := range units {
			if u.fileOf() != file || u.d.Text == "" {
				continue
			}
			text, uses := u.d.Text, u.d.Uses
			if st, ok := stubs[i]; ok {
				text = text[:u.d.Body] + "{ panic(" + strconv.Quote(st.panicMessage()) + ") }"
				uses = u.d.SigUses
			}
			fmt.Fprintf(&body, "//line %s:%d\n%s\n\n", u.file, u.d.Line, text)
			for _, n := range uses {
				used[n] = true
			}
		}
		if file == "given.go" && !server {
			body.WriteString("//line graded_main:1\nfunc main() {}\n")
		}
		var b strings.Builder
		b.WriteString("// Code generated by lessons/assign for grading. DO NOT EDIT.\n\npackage main\n\n")
		seen := map[assignment.ImportSpec]bool{}
		var specs []string
		for _, is := range p.imports[file] {
			n := assignment.ImportName(is)
			if seen[is] || (n != "_" && n != "." && !used[n]) {
				continue
			}
			seen[is] = true
			if is.Name != "" {
				specs = append(specs, fmt.Sprintf("\t%s %q\n", is.Name, is.Path))
			} else {
				specs = append(specs, fmt.Sprintf("\t%q\n", is.Path))
			}
		}
		sort.Strings(specs)
		if len(specs) > 0 {
			b.WriteString("import (\n" + strings.Join(specs, "") + ")\n\n")
		}
		b.WriteString(body.String())
		return b.String()
	}
	if server {
		return map[string]string{"main.go": render("main.go"), "given.go": render("given.go")}
	}
	return map[string]string{"main.go": render("main.go"), "given.go": render("given.go"),
		"graded_test.go": render("graded_test.go"), "graded_harness_test.go": harnessFile(p.tests)}
}

// isolate finds the submission's functions the compiler errors point into
// and returns them, with their messages, as stubs to add to stubs (keyed
// by unit index). It returns nil if an error lies elsewhere (given code,
// tests, a type or variable declaration, a function's signature) or in a
// function already stubbed: then stubbing cannot make the code compile.
func (p *assembly) isolate(errs []compileError, stubs map[int]Stub) map[int]Stub {
	found := map[int]Stub{}
	for _, e := range errs {
		at := -1
		for i, u := range p.units {
			if u.test || u.d.Text == "" || u.file != e.file || !strings.HasPrefix(u.file, "cell") {
				continue
			}
			if e.line >= u.d.Line && e.line <= u.d.Line+strings.Count(u.d.Text, "\n") {
				at = i
				break
			}
		}
		if at < 0 {
			return nil
		}
		d := p.units[at].d
		if _, done := stubs[at]; done || d.Body < 0 || e.line < d.Line+strings.Count(d.Text[:d.Body], "\n") {
			return nil
		}
		st := found[at]
		if st.Func == "" {
			cell, _ := strconv.Atoi(strings.TrimPrefix(e.file, "cell"))
			st = Stub{Func: d.Name, Cell: cell, Line: d.Line}
		} else {
			st.Error += "\n"
		}
		st.Error += e.text
		found[at] = st
	}
	if len(found) == 0 {
		return nil
	}
	return found
}

// compileError is one error of the compiler in the graded code.
type compileError struct {
	exercise string // the exercise whose registration failed: the submission declares it with another type
	file     string // "cell7", "source_cell12", "" if not in a cell
	line     int    // line in the cell (1-based)
	text     string // the message, located in the cells ("cell 7, line 3: ...")
}
