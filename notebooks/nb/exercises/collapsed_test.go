package exercises

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
)

// The one wording with which a lesson tells the student about a collapsed
// worked solution or worked answer; lesson 00 alone says how to open one
// (click the ⋯), once (TestLessonWords in the root package checks that).
const (
	solutionSentence = "The worked solution follows, collapsed."
	answerSentence   = "The worked answer follows, collapsed."
)

// workedTitle is the first line of a collapsed markdown cell. JupyterLab 4
// and Notebook 7 show a collapsed cell as its first line and a ⋯
// (@jupyterlab/cells' InputPlaceholder), so that line names the cell and
// gives nothing away; the answer starts on the next paragraph.
var workedTitle = regexp.MustCompile(`^\*\*Worked (answer: [^*]+|solution of Exercise [0-9]+)\.\*\*$`)

// questionCheck is a cell that checks the answer to a theory question.
var questionCheck = regexp.MustCompile(`exercises\.Check(Choice|BoundByHand)\(`)

// exerciseRole is a cell's lesson_exercise role ("stub", "check",
// "solution"), or "".
func exerciseRole(c *notebook.Cell) string {
	le, _ := c.Metadata["lesson_exercise"].(map[string]any)
	r, _ := le["role"].(string)
	return r
}

// collapseProblems returns what is wrong with how a lesson's cells hide
// their worked solutions and answers: every worked answer or solution is
// collapsed behind a first line that gives nothing away; the last open
// markdown cell above it tells the student with the one wording; every
// theory question's check is followed at once by its collapsed worked
// answer; and no other sentence talks of collapsed cells (unless free is
// set: lesson 00 explains collapsed cells in its own words). The setup
// cell, cell 0, is not looked at.
func collapseProblems(cells []*notebook.Cell, free bool) []string {
	var bad []string
	for i := 1; i < len(cells); i++ {
		c := cells[i]
		src := c.Source
		first, rest, _ := strings.Cut(src, "\n")
		hidden := c.SourceHidden()
		solution := exerciseRole(c) == "solution"
		worked := solution || c.Type == "markdown" && strings.HasPrefix(src, "**Worked")
		if worked && !hidden {
			bad = append(bad, fmt.Sprintf("cell %d: a worked solution or answer is open (want \"jupyter\": {\"source_hidden\": true})", i))
		}
		if c.Type == "code" && questionCheck.MatchString(src) {
			if i+1 >= len(cells) || cells[i+1].Type != "markdown" || !cells[i+1].SourceHidden() ||
				!strings.HasPrefix(cells[i+1].Source, "**Worked answer") {
				bad = append(bad, fmt.Sprintf("cell %d: a theory question's check is not followed by its collapsed worked answer", i))
			}
		}
		if c.Type == "markdown" && !hidden && !free {
			plain := strings.NewReplacer(solutionSentence, "", answerSentence, "").Replace(src)
			if strings.Contains(strings.ToLower(plain), "collapsed") {
				bad = append(bad, fmt.Sprintf("cell %d: speaks of a collapsed cell in other words than %q", i, solutionSentence))
			}
		}
		if !hidden {
			continue
		}
		switch {
		case c.Type == "code" && !strings.HasPrefix(first, "//"):
			bad = append(bad, fmt.Sprintf("cell %d: a collapsed code cell's first line, all its collapsed view shows, is %q; want a comment saying what the cell is", i, first))
		case c.Type == "markdown" && (!workedTitle.MatchString(first) || !strings.HasPrefix(rest, "\n")):
			bad = append(bad, fmt.Sprintf("cell %d: a collapsed text's first line, all its collapsed view shows, is %q; want a title alone, such as **Worked answer: the bound by hand.**, and a blank line", i, first))
		}
		want := solutionSentence
		if strings.HasPrefix(first, "**Worked answer") {
			want = answerSentence
		}
		j := i - 1
		for j > 0 && (cells[j].Type != "markdown" || cells[j].SourceHidden()) {
			j--
		}
		if j == 0 || !strings.Contains(cells[j].Source, want) {
			bad = append(bad, fmt.Sprintf("cell %d: collapsed, but the open text above it (cell %d) does not say %q", i, j, want))
		}
	}
	return bad
}

// TestLessonsCollapseWorkedAnswers checks the committed lessons: issue 22
// wants every worked solution and answer collapsed, with one wording that
// says so and how to open it.
func TestLessonsCollapseWorkedAnswers(t *testing.T) {
	paths, err := filepath.Glob("../../[0-9][0-9]_*.ipynb")
	if err != nil || len(paths) < 11 {
		t.Fatalf("lessons: %v, %v", paths, err)
	}
	worked := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := notebook.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, p := range collapseProblems(nb.Cells, strings.HasPrefix(filepath.Base(path), "00_")) {
			t.Errorf("%s: %s", filepath.Base(path), p)
		}
		for _, c := range nb.Cells[1:] {
			if c.SourceHidden() {
				worked++
			}
		}
	}
	// 8 algorithm solutions (lesson 8's SGD and lesson 9's kernel
	// perceptron among them), 3 more in Go (lessons 1, 2 and 5, so that
	// every lesson with exercises shows a passing check), 4 worked answers,
	// 4 worked solutions in text (lesson 8's gradient among them) and
	// lesson 3's formula in Go, and lesson 7's check of its worked solution.
	if worked != 21 {
		t.Errorf("%d collapsed cells besides the setup cells; want 21", worked)
	}
}

func TestCollapseProblems(t *testing.T) {
	md := func(src string, hidden bool) *notebook.Cell {
		return &notebook.Cell{Type: "markdown", Source: src,
			Metadata: map[string]any{"jupyter": map[string]any{"source_hidden": hidden}}}
	}
	code := func(src string, hidden bool) *notebook.Cell {
		c := md(src, hidden)
		c.Type = "code"
		return c
	}
	setup := code("// Setup\n!true", true)
	question := md("### Question\n\nPick one. "+answerSentence, false)
	check := code("%%\nexercises.CheckChoice(\"03-strict\", \"\")", false)
	answer := md("**Worked answer: ≤ against <.**\n\nThe answer is (c).", true)
	exercise := md("### Exercise 1\n\nWrite it. "+solutionSentence, false)
	stub := code("func F() { panic(\"not implemented\") }", false)
	solution := code("// FSolution is a worked solution of Exercise 1.\nfunc FSolution() {}", true)
	for _, c := range []struct {
		name  string
		cells []*notebook.Cell
		want  string // part of a problem expected, or "" for none
	}{
		{"right", []*notebook.Cell{setup, question, check, answer, exercise, stub, code("%%\nexercises.CheckF(F)", false), solution}, ""},
		{"answer open", []*notebook.Cell{setup, question, check, md("**Worked answer: ≤ against <.**\n\n(c)", false)}, "is open"},
		{"answer missing", []*notebook.Cell{setup, question, check, md("## Next", false)}, "not followed by its collapsed worked answer"},
		{"answer in the first line", []*notebook.Cell{setup, question, check, md("**Worked answer: (c).** Because.", true)}, "first line"},
		{"no blank line after the title", []*notebook.Cell{setup, question, check, md("**Worked answer: ≤ against <.**\nThe answer is (c).", true)}, "first line"},
		{"code without a comment first", []*notebook.Cell{setup, exercise, stub, code("func FSolution() {}", true)}, "want a comment"},
		{"not announced", []*notebook.Cell{setup, md("### Exercise 1\n\nWrite it.", false), stub, solution}, "does not say"},
		{"announced as an answer", []*notebook.Cell{setup, md("### Exercise 1\n\nWrite it. "+answerSentence, false), stub, solution}, "does not say"},
		{"another wording", []*notebook.Cell{setup, md("A worked solution sits, collapsed, below. "+solutionSentence, false), stub, solution}, "other words"},
	} {
		got := collapseProblems(c.cells, false)
		found := false
		for _, p := range got {
			found = found || strings.Contains(p, c.want)
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: problems %q, want none", c.name, got)
		case c.want != "" && !found:
			t.Errorf("%s: problems %q, want one about %q", c.name, got, c.want)
		}
	}
	if got := collapseProblems([]*notebook.Cell{setup, md("A collapsed cell shows its first line.", false)}, true); len(got) > 0 {
		t.Errorf("lesson 00's own words: problems %q, want none", got)
	}
}
