// Package cellfmt formats a GoNB cell as gofmt formats a Go file.
//
// A GoNB cell is not a Go file: lines that start with % are magics and
// lines that start with ! are shell commands (a line that ends in \ goes
// on to the next), and the lines after a %% (or %main) line are the body
// of func main, as package gosrc reads them (GoNB's own rules); a cell
// magic's cell (%%writefile...) is not Go and stays as it is. Format keeps the magic and shell lines as they are, formats
// the lines before %% as the declarations of a file and the lines after it
// as the body of a function, and puts the cell back together. Code that
// does not parse is an error that names the cell's line; the cell is then
// not changed.
package cellfmt

import (
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
)

// ErrSyntax is the kind of the error Format returns for code that does not
// parse.
var ErrSyntax = errors.New("the cell's Go code does not parse")

// ErrUnformattable is the kind of the error Format returns for a cell that
// parses but whose magic or shell lines sit where gofmt cannot keep them.
var ErrUnformattable = errors.New("the cell cannot be formatted")

// keepMark replaces a magic or shell line while the rest is formatted: a
// comment alone on its line, which gofmt keeps on its own line (with a
// space after //, as gofmt moves a directive such as //go:embed to the end
// of a doc comment).
const keepMark = "// gonb cell line kept: "

// Format returns cell formatted as gofmt would format it, with its magic and
// shell lines as they are. On an error (errors.Is ErrSyntax) the cell is
// unchanged and the error names the cell's line (1 is the first).
func Format(cell string) (string, error) {
	c := gosrc.ReadCell(strings.ReplaceAll(cell, "\r\n", "\n"))
	if c.Magic != "" {
		return cell, nil // a cell magic's cell (%%writefile, %%sh...) is not Go
	}
	lines, mainAt := c.Lines, c.MainAt
	var kept []string // kept[i] is the line that keepMark+i stands for
	src := make([]string, len(lines))
	for i, line := range lines {
		if !c.Special[i] {
			src[i] = line
			continue
		}
		src[i] = fmt.Sprintf("%s%d", keepMark, len(kept))
		kept = append(kept, line)
	}
	var out []string
	if mainAt < 0 {
		decls, err := formatDecls(src, 0)
		if err != nil {
			return cell, err
		}
		out = decls
	} else {
		decls, err := formatDecls(src[:mainAt], 0)
		if err != nil {
			return cell, err
		}
		body, err := formatBody(src[mainAt+1:], mainAt+1)
		if err != nil {
			return cell, err
		}
		if len(decls) > 0 && mainAt > 0 && strings.TrimSpace(lines[mainAt-1]) == "" {
			decls = append(decls, "") // one blank line before %%, as there was
		}
		out = append(append(decls, src[mainAt]), body...)
	}
	restored := 0
	for i, line := range out {
		t := strings.TrimSpace(line)
		if n, ok := strings.CutPrefix(t, keepMark); ok {
			var k int
			if _, err := fmt.Sscan(n, &k); err == nil && k == restored {
				out[i] = kept[k]
				restored++
			}
		}
	}
	if restored != len(kept) {
		// gofmt moved a magic or shell line's place holder (one inside
		// a statement): the cell is not changed rather than mangled.
		return cell, fmt.Errorf("%w: line %d: a magic or shell line inside a Go statement", ErrUnformattable, lineOf(lines, kept[restored])+1)
	}
	return strings.Join(out, "\n"), nil
}

// formatDecls formats lines as the declarations of a file; first is the
// index of lines[0] in the cell.
func formatDecls(lines []string, first int) ([]string, error) {
	if blank(lines) {
		return nil, nil
	}
	hasPackage := false
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			hasPackage = strings.HasPrefix(t, "package ")
			break
		}
	}
	head := []string{"package main", ""}
	if hasPackage {
		head = nil
	}
	res, err := gofmt(head, lines, nil, first)
	if err != nil {
		return nil, err
	}
	if !hasPackage {
		res = res[1:] // the package clause
	}
	return trimBlank(res), nil
}

// formatBody formats lines as the body of func main, and returns them
// without the function around them, one tab less indented (but for the
// lines inside a raw string, which stay as they are).
func formatBody(lines []string, first int) ([]string, error) {
	if blank(lines) {
		return nil, nil
	}
	head := []string{"package main", "func main() {"}
	res, err := gofmt(head, lines, []string{"}"}, first)
	if err != nil {
		return nil, err
	}
	inString := rawStringLines(strings.Join(res, "\n"))
	// res: package main, blank, func main() {, body..., }
	start := 0
	for start < len(res) && !strings.HasPrefix(res[start], "func main() {") {
		start++
	}
	end := len(res) - 1
	for end > start && res[end] != "}" {
		end--
	}
	var body []string
	for i := start + 1; i < end; i++ {
		l := res[i]
		if !inString[i+1] {
			l = strings.TrimPrefix(l, "\t")
		}
		body = append(body, l)
	}
	return trimBlank(body), nil
}

// gofmt formats head+lines+tail as a Go file, and maps a syntax error's
// line back to the cell.
func gofmt(head, lines, tail []string, first int) ([]string, error) {
	src := strings.Join(append(append(append([]string{}, head...), lines...), tail...), "\n") + "\n"
	res, err := format.Source([]byte(src))
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			e := list[0]
			line := e.Pos.Line - 1 - len(head) + first // 0-based in the cell
			msg := e.Msg
			if line < first {
				line = first
			}
			if last := first + len(lines) - 1; line > last || strings.HasSuffix(e.Msg, "found 'EOF'") || (line == last && strings.TrimSpace(lines[len(lines)-1]) == "") {
				// At the function's closing brace or the end, which the
				// student did not write: say so, at their last line.
				line = last
				for line > first && strings.TrimSpace(lines[line-first]) == "" {
					line--
				}
				msg = "the code ends too early (a bracket, brace or quote not closed?)"
			}
			return nil, fmt.Errorf("%w: line %d: %s", ErrSyntax, line+1, msg)
		}
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if !sameTokens(src, unsorted(src)) {
		// gofmt moved a comment (or a magic line's place holder) across
		// code, as it does with a comment after a line comment before a
		// closing parenthesis: the cell is not changed rather than mangled.
		return nil, fmt.Errorf("%w: gofmt would move a comment or a magic line between lines %d and %d across the code", ErrUnformattable, first+1, first+len(lines))
	}
	return strings.Split(strings.TrimRight(string(res), "\n"), "\n"), nil
}

// unsorted returns src printed as gofmt prints it but without sorting its
// imports (which moves tokens, on purpose): the text whose tokens are
// compared with src's.
func unsorted(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	var b strings.Builder
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, fset, f); err != nil {
		return ""
	}
	return b.String()
}

// sameTokens reports whether a and b have the same tokens, and comments
// between the same tokens, but for the commas and semicolons gofmt adds or
// removes and the case of number literals (0X1F is 0x1F). Comments count as
// one where some are, whatever their text: gofmt reformats doc comments.
func sameTokens(a, b string) bool {
	ta, tb := tokens(a), tokens(b)
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i] != tb[i] {
			return false
		}
	}
	return true
}

func tokens(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, []byte(src), nil, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return out
		case token.SEMICOLON, token.COMMA:
			continue
		case token.INT, token.FLOAT, token.IMAG:
			lit = strings.ToLower(lit)
		case token.COMMENT:
			if len(out) > 0 && out[len(out)-1] == "COMMENT" {
				continue
			}
			out = append(out, "COMMENT")
			continue
		}
		out = append(out, tok.String()+" "+lit)
	}
}

// rawStringLines returns the 1-based lines of src that are inside a raw
// string literal, after its first line.
func rawStringLines(src string) map[int]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil
	}
	in := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			from, to := fset.Position(lit.Pos()).Line, fset.Position(lit.End()).Line
			for l := from + 1; l <= to; l++ {
				in[l] = true
			}
		}
		return true
	})
	return in
}

func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineOf returns the index of the first line of lines equal to line.
func lineOf(lines []string, line string) int {
	for i, l := range lines {
		if l == line {
			return i
		}
	}
	return 0
}
