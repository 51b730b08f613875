package grade

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/perceptron-go/lessons/internal/gosrc"
	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/assignment"
)

// sourceCellRef matches a reference to a cell of the source notebook in a
// message: "cell 14 of the source".
var sourceCellRef = regexp.MustCompile(`\bcell (\d+) of the source\b`)

// cellNames says a cell of the source the way the student sees it: the
// cell of the submission that carries the same cell id ("your cell 13"),
// else its number in the notebook as handed out ("cell 13 of the
// assignment as handed out"); a cell that was not handed out (a hidden
// test's) keeps the source's number, which only the instructor's report
// shows.
func cellNames(sub *notebook.Notebook, a *assignment.Assignment) func(src int) string {
	byID := map[string]int{}
	for i, c := range sub.Cells {
		if c.ID != "" {
			if _, dup := byID[c.ID]; !dup {
				byID[c.ID] = i
			}
		}
	}
	handedOut := map[int]int{} // source index -> index in the student's notebook
	n := 0
	for i, c := range a.Source.Cells {
		if c.Type == "code" && onlyHidden(c.Source) {
			continue
		}
		handedOut[i] = n
		n++
	}
	return func(src int) string {
		if src < 0 || src >= len(a.Source.Cells) {
			return fmt.Sprintf("cell %d of the source", src)
		}
		if _, ok := handedOut[src]; !ok {
			return fmt.Sprintf("cell %d of the source", src)
		}
		if id := a.Source.Cells[src].ID; id != "" {
			if i, ok := byID[id]; ok {
				return fmt.Sprintf("your cell %d", i)
			}
		}
		return fmt.Sprintf("cell %d of the assignment as handed out", handedOut[src])
	}
}

// onlyHidden reports whether a code cell of the source holds nothing but
// a hidden block (and GoNB commands): the student's notebook leaves it out.
func onlyHidden(src string) bool {
	cl := gosrc.ReadCell(src)
	in, any := false, false
	for i, l := range cl.Lines {
		switch t := strings.TrimSpace(l); {
		case t == assignment.BeginHidden:
			in, any = true, true
		case t == assignment.EndHidden:
			in = false
		case in, cl.Special[i], t == "":
		default:
			return false
		}
	}
	return any
}

// relocate rewrites every "cell N of the source" in the report's messages
// with name(N).
func (r *Report) relocate(name func(int) string) {
	fix := func(s string) string {
		return sourceCellRef.ReplaceAllStringFunc(s, func(m string) string {
			n, _ := strconv.Atoi(sourceCellRef.FindStringSubmatch(m)[1])
			return name(n)
		})
	}
	r.CompileError = fix(r.CompileError)
	for i := range r.Notes {
		r.Notes[i] = fix(r.Notes[i])
	}
	for i := range r.Stubs {
		r.Stubs[i].Error = fix(r.Stubs[i].Error)
	}
	for i := range r.Tests {
		r.Tests[i].Output = fix(r.Tests[i].Output)
	}
}
