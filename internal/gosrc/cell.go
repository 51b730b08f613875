package gosrc

import "strings"

// GoNB reads a code cell line by line (GoNB v0.11.4, its packages
// specialcmd and goexec): after an optional "//gonb:" prefix, a line of
// two or more characters that starts with '%' (a GoNB command) or '!' (a
// shell command) is not Go, and neither are the lines that follow it while
// the command so far ends in '\'. A "%%" line (alone, or followed by a
// space or a tab and arguments) or a "%main" line starts func main: the Go
// lines after it are its body. ("%exec F" writes a whole func main that
// calls F: the lines after it stay declarations.) A cell whose first line is
// a cell magic (%%writefile, %%script, %%bash, %%sh, %%gx) is not Go at
// all. Commands count only at the very start of a line: "  %test" is Go
// (and a syntax error), as in GoNB.

// gonbCommentPrefix lets a GoNB command be written as a Go comment.
const gonbCommentPrefix = "//gonb:"

// cellMagics are GoNB's cell commands: on a cell's first line, the whole
// cell is theirs.
var cellMagics = []string{"%%writefile", "%%script", "%%bash", "%%sh", "%%gx"}

// Cell is a GoNB code cell split into lines as GoNB reads them.
type Cell struct {
	Lines   []string
	Special []bool // Special[i]: line i is a GoNB or shell command, or continues one
	MainAt  int    // the line that starts func main's body (%% or %main), -1 if none
	Test    bool   // a %test cell: its declarations are tests
	Magic   string // the cell magic of the first line, "" if none (then every line is Special)
}

// ReadCell splits a code cell's source into lines and marks them as GoNB
// reads them.
func ReadCell(src string) Cell {
	c := Cell{Lines: strings.Split(src, "\n"), MainAt: -1}
	c.Special = make([]bool, len(c.Lines))
	if first := firstField(strings.TrimPrefix(c.Lines[0], gonbCommentPrefix)); first != "" {
		for _, m := range cellMagics {
			if first == m {
				c.Magic = m
				for i := range c.Special {
					c.Special[i] = true
				}
				return c
			}
		}
	}
	for i := 0; i < len(c.Lines); i++ {
		line := strings.TrimPrefix(c.Lines[i], gonbCommentPrefix)
		if len(line) < 2 || (line[0] != '%' && line[0] != '!') {
			continue
		}
		cmd := strings.Fields(line)[0]
		switch {
		case c.MainAt < 0 && (cmd == "%%" || strings.HasPrefix(cmd, "%main")):
			c.MainAt = i
		case line[0] == '%' && firstField(line[1:]) == "test": // "%test" or "% test"
			c.Test = true
		}
		c.Special[i] = true
		for strings.HasSuffix(line, `\`) && i+1 < len(c.Lines) {
			i++
			c.Special[i] = true
			line = strings.TrimPrefix(c.Lines[i], gonbCommentPrefix)
		}
	}
	return c
}

// firstField is s's first word, "" if none.
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// GoSource returns the cell's Go declarations as a file of package main
// whose line L+1 is line L of the cell (counting from 1): commands,
// package clauses and everything from the line that starts func main on
// are blank lines.
func (c Cell) GoSource() string {
	var b strings.Builder
	b.WriteString("package main\n")
	for i, line := range c.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if c.Special[i] || (c.MainAt >= 0 && i >= c.MainAt) || strings.HasPrefix(line, "package") {
			continue // GoNB also drops package clauses: every cell is package main
		}
		b.WriteString(line)
	}
	b.WriteByte('\n')
	return b.String()
}

// Decls and Body return the cell's Go lines before the line that starts
// func main and after it, with the commands left out (so their line numbers
// are not the cell's; GoSource keeps them).
func (c Cell) Decls() []string { return c.goLines(0, c.end()) }

// Body: see Decls. A cell without %% or %main has none.
func (c Cell) Body() []string {
	if c.MainAt < 0 {
		return nil
	}
	return c.goLines(c.MainAt+1, len(c.Lines))
}

func (c Cell) end() int {
	if c.MainAt >= 0 {
		return c.MainAt
	}
	return len(c.Lines)
}

func (c Cell) goLines(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		if !c.Special[i] {
			out = append(out, c.Lines[i])
		}
	}
	return out
}
