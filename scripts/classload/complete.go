package main

import (
	"go/scanner"
	"go/token"
	mrand "math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/perceptron-go/lessons/internal/gosrc"
)

// ask is one completion a student asks for before a cell: the cell's code
// with the cursor right after a selector's dot (IDENT. where the cell goes
// on with a name, as after typing `perceptron.` and Tab), and a contextual
// help request on the name after it (the inspect_request JupyterLab sends
// while the Contextual Help panel is open, or on Shift+Tab). Positions are
// in Unicode code points, as the Jupyter messaging protocol counts them
// (5.2 and later).
type ask struct {
	code       string
	completeAt int // cursor_pos of the complete_request: just after the dot
	inspectAt  int // cursor_pos of the inspect_request: inside the name after the dot
	selector   string
}

// selectors returns the places in a cell's code where a student could ask
// for completion: each IDENT.NAME of its Go code (a package's member, such
// as perceptron.PLA, or a field or method, such as res.Updates), outside
// comments and string literals and outside GoNB's special lines (`%...`
// and `!...` commands, gosrc.ReadCell).
func selectors(code string) []ask {
	// GoNB's special lines (as GoNB reads them) are not Go: blank them,
	// keeping every offset.
	cell := gosrc.ReadCell(code)
	var b strings.Builder
	for i, l := range cell.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if cell.Special[i] {
			l = strings.Repeat(" ", len(l))
		}
		b.WriteString(l)
	}
	src := []byte(b.String())
	fset := token.NewFileSet()
	file := fset.AddFile("cell", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, 0) // comments skipped
	type tok struct {
		off int
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue // an inserted semicolon: not in the code
		}
		toks = append(toks, tok{file.Offset(pos), t, lit})
	}
	var out []ask
	for i := 0; i+2 < len(toks); i++ {
		a, dot, name := toks[i], toks[i+1], toks[i+2]
		if a.tok != token.IDENT || dot.tok != token.PERIOD || name.tok != token.IDENT ||
			dot.off != a.off+len(a.lit) || name.off != dot.off+1 {
			continue
		}
		out = append(out, ask{
			code:       code,
			completeAt: utf8.RuneCountInString(code[:dot.off+1]),
			inspectAt:  utf8.RuneCountInString(code[:name.off]) + utf8.RuneCountInString(name.lit)/2,
			selector:   a.lit + "." + name.lit,
		})
	}
	return out
}

// chooseAsks decides, for one lesson's code cells in order, before which
// cells the student asks for completion (and help), and where: the first
// cell that has a selector always (a student tries completion early), each
// later one with probability fraction; a fraction of 0 asks nothing. The
// place in the cell is drawn uniformly among its selectors. The result has
// one entry per cell, nil where nothing is asked.
func chooseAsks(cells []string, fraction float64, r *mrand.Rand) []*ask {
	out := make([]*ask, len(cells))
	if fraction <= 0 {
		return out
	}
	first := true
	for i, c := range cells {
		sel := selectors(c)
		if len(sel) == 0 {
			continue
		}
		// Draw for every eligible cell, asked or not, so that one cell's
		// choice does not shift the others'.
		p, which := r.Float64(), r.IntN(len(sel))
		if first || p < fraction {
			out[i] = &sel[which]
		}
		first = false
	}
	return out
}
