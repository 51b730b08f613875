package grade

import (
	"fmt"
	"slices"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/lessons/assign/generate"
	"github.com/perceptron-go/lessons/lessons/assign/internal/assigntest"
)

// TestCellNames checks that a message citing a cell of the source cites
// the student's own cell: by cell id in the submission (which may have
// cells added or deleted), else by its number as handed out; a hidden
// test's cell, which no student has, keeps the source's number.
func TestCellNames(t *testing.T) {
	a := assigntest.Load(t, "../../hw2_pla")
	student, _ := generate.Notebooks(a, false)
	name := cellNames(student, a)
	visible, hidden := -1, -1
	for i, c := range a.Source.Cells {
		if c.Type != "code" {
			continue
		}
		switch {
		case hidden < 0 && onlyHidden(c.Source):
			hidden = i
		case visible < 0 && hidden >= 0 && !onlyHidden(c.Source) && c.ID != "":
			visible = i // a cell after a dropped one: its number differs
		}
	}
	if visible < 0 || hidden < 0 {
		t.Fatal("hw2 has no hidden cell followed by a visible one")
	}
	at := slices.IndexFunc(student.Cells, func(c *notebook.Cell) bool { return c.ID == a.Source.Cells[visible].ID })
	if at < 0 || at == visible {
		t.Fatalf("source cell %d is the student's cell %d: want another number", visible, at)
	}
	if got, want := name(visible), fmt.Sprintf("your cell %d", at); got != want {
		t.Errorf("source cell %d: %q, want %q", visible, got, want)
	}
	if got, want := name(hidden), fmt.Sprintf("cell %d of the source", hidden); got != want {
		t.Errorf("hidden source cell %d: %q, want %q", hidden, got, want)
	}
	// The student added a cell at the top: the id still finds it.
	moved := &notebook.Notebook{Cells: append([]*notebook.Cell{{Type: "markdown", ID: "mine"}}, student.Cells...)}
	if got, want := cellNames(moved, a)(visible), fmt.Sprintf("your cell %d", at+1); got != want {
		t.Errorf("after an added cell: %q, want %q", got, want)
	}
	// No ids (an old Jupyter): the number as handed out.
	bare := &notebook.Notebook{}
	for _, c := range student.Cells {
		bare.Cells = append(bare.Cells, &notebook.Cell{Type: c.Type, Source: c.Source})
	}
	if got, want := cellNames(bare, a)(visible), fmt.Sprintf("cell %d of the assignment as handed out", at); got != want {
		t.Errorf("without cell ids: %q, want %q", got, want)
	}
	rep := &Report{Tests: []TestResult{{Output: fmt.Sprintf("TestEpoch (cell %d of the source, line 3)", visible)}}}
	rep.relocate(name)
	if want := fmt.Sprintf("TestEpoch (your cell %d, line 3)", at); rep.Tests[0].Output != want {
		t.Errorf("relocated: %q, want %q", rep.Tests[0].Output, want)
	}
}
