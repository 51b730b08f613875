package assignment

import "github.com/perceptron-go/lessons/internal/notebook"

// The markers of the source notebook (nbgrader's, written as Go comments).
const (
	BeginSolution = "// BEGIN SOLUTION"
	EndSolution   = "// END SOLUTION"
	BeginHidden   = "// BEGIN HIDDEN TESTS"
	EndHidden     = "// END HIDDEN TESTS"
	StubBody      = `panic("not implemented")`
)

// The markers of a worked answer in a markdown cell (a derivation the
// instructor reads; no test grades it): the lines between them are the
// solution's, and the student's notebook has AnswerStub in their place.
const (
	BeginAnswer = "<!-- BEGIN SOLUTION -->"
	EndAnswer   = "<!-- END SOLUTION -->"
	AnswerStub  = "*Your answer here.*"
)

// SetupCell is the first cell of every notebook, the source notebooks
// included (notebook.SetupCell).
const SetupCell = notebook.SetupCell
