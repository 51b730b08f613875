package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

// The notebooks are read with internal/notebook (notebook.Read). The
// assignment notebooks committed without outputs on purpose
// (repo.IsUnexecuted) are only checked for the setup cell.

// outputKinds returns the kinds of output a cell shows: the MIME types of
// its rich outputs (e.g. "image/png") and "stdout" for printed text. Errors
// and stderr are left out: errors are checked on their own and stderr carries
// incidental messages (e.g. "go: downloading") that may come and go.
func outputKinds(c *notebook.Cell) []string {
	set := map[string]bool{}
	for _, o := range c.Outputs {
		switch o.Type {
		case "stream":
			if o.Name == "stdout" {
				set["stdout"] = true
			}
		case "display_data", "execute_result":
			for mime := range o.Data {
				set[mime] = true
			}
		}
	}
	kinds := make([]string, 0, len(set))
	for k := range set {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// errorText is a readable, plain-text form of an error output of cell c,
// followed by what the cell wrote to stderr (where a panic's message goes),
// every line indented.
func errorText(c *notebook.Cell, o notebook.Output) string {
	var lines []string
	lines = append(lines, strings.Split(strings.TrimSpace(o.EName+": "+o.EValue), "\n")...)
	for _, tb := range o.Traceback {
		tb = strings.TrimRight(ansi.ReplaceAllString(tb, ""), "\n")
		if tb != "" && !strings.Contains(o.EValue, tb) {
			lines = append(lines, strings.Split(tb, "\n")...)
		}
	}
	var stderr strings.Builder
	for _, so := range c.Outputs {
		if so.Type == "stream" && so.Name == "stderr" {
			stderr.WriteString(so.Text)
		}
	}
	if s := strings.TrimSpace(ansi.ReplaceAllString(stderr.String(), "")); s != "" {
		lines = append(lines, "stderr:")
		lines = append(lines, strings.Split(strings.TrimPrefix(repo.Tail(s, 30), "    "), "\n    ")...)
	}
	return strings.Join(lines, "\n    ")
}

// checkCommitted reports what is wrong with a notebook as committed: a
// missing setup cell, or (unless it is unexecuted on purpose, see
// repo.IsUnexecuted) code cells that were never executed.
func checkCommitted(nb *notebook.Notebook, unexecuted bool) []string {
	var problems []string
	if len(nb.Cells) == 0 || nb.Cells[0].Type != "code" ||
		strings.TrimSpace(nb.Cells[0].Source) != notebook.SetupCell {
		problems = append(problems, fmt.Sprintf("cell 0 is not the standard setup cell; every notebook starts with the code cell\n    %s", notebook.SetupCell))
	} else if !nb.Cells[0].SourceHidden() {
		problems = append(problems, `cell 0, the setup cell, is not collapsed: its metadata must have "jupyter": {"source_hidden": true}`)
	}
	if nb.KernelName() != "gonb" {
		problems = append(problems, fmt.Sprintf("kernelspec name is %q, want \"gonb\"", nb.KernelName()))
	}
	if unexecuted {
		return problems
	}
	executed := false
	for i, c := range nb.Cells {
		if c.Type != "code" || strings.TrimSpace(c.Source) == "" {
			continue
		}
		if c.ExecutionCount == nil {
			problems = append(problems, fmt.Sprintf("cell %d: code cell was never executed (no execution count): commit the notebook executed, with its outputs", i))
		}
		if len(c.Outputs) > 0 {
			executed = true
		}
	}
	if !executed {
		problems = append(problems, "no code cell has an output: commit the notebook executed, with its outputs")
	}
	return problems
}

// checkExecuted compares the re-executed notebook with the committed one:
// no cell may show an error, and no cell may lose a kind of output it had.
func checkExecuted(committed, got *notebook.Notebook) []string {
	var problems []string
	if len(got.Cells) != len(committed.Cells) {
		return []string{fmt.Sprintf("executed notebook has %d cells, committed has %d", len(got.Cells), len(committed.Cells))}
	}
	for i, c := range got.Cells {
		if c.Type != "code" {
			continue
		}
		for _, o := range c.Outputs {
			if o.Type == "error" {
				problems = append(problems, fmt.Sprintf("cell %d: error output:\n    %s", i, errorText(c, o)))
			}
		}
		have := outputKinds(c)
		for _, kind := range outputKinds(committed.Cells[i]) {
			if !slices.Contains(have, kind) {
				problems = append(problems, fmt.Sprintf("cell %d: committed output %s is missing after re-execution (got %v)", i, kind, have))
			}
		}
	}
	return problems
}

// TestNotebookChecks shows that the checks catch what they are meant to
// catch, on small notebooks built in memory.
func TestNotebookChecks(t *testing.T) {
	one := 1
	code := func(src string, outputs ...notebook.Output) *notebook.Cell {
		return &notebook.Cell{Type: "code", Metadata: map[string]any{}, Source: src, ExecutionCount: &one, Outputs: outputs}
	}
	setup := code(notebook.SetupCell)
	setup.Metadata["jupyter"] = map[string]any{"source_hidden": true}
	shown := code(notebook.SetupCell)
	png := notebook.Output{Type: "display_data", Data: map[string]json.RawMessage{"image/png": json.RawMessage(`"iVBOR"`)}}
	stdout := notebook.Output{Type: "stream", Name: "stdout", Text: "10 updates\n"}
	withCells := func(cells ...*notebook.Cell) *notebook.Notebook {
		return &notebook.Notebook{Cells: cells, Metadata: map[string]any{"kernelspec": map[string]any{"name": "gonb"}}}
	}
	plot := code("gonbui.DisplayPNG(png)", png, stdout)
	neverRun := &notebook.Cell{Type: "code", Metadata: map[string]any{}, Source: "fmt.Println(1)"}

	committedTests := []struct {
		name       string
		nb         *notebook.Notebook
		unexecuted bool     // committed without outputs on purpose
		want       []string // substrings of the problems, in order
	}{
		{"good", withCells(setup, plot), false, nil},
		{"no setup cell", withCells(plot), false, []string{"cell 0 is not the standard setup cell"}},
		{"setup cell not collapsed", withCells(shown, plot), false, []string{"cell 0, the setup cell, is not collapsed"}},
		{"setup cell edited", withCells(code(strings.Replace(notebook.SetupCell, "$GONB_DIR", "/home/me/lessons", 1)), plot), false,
			[]string{"cell 0 is not the standard setup cell"}},
		{"never executed", withCells(setup, neverRun), false,
			[]string{"cell 1: code cell was never executed", "no code cell has an output"}},
		{"student notebook cleared", withCells(setup, neverRun), true, nil},
		{"student notebook without setup", withCells(plot), true, []string{"cell 0 is not the standard setup cell"}},
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"lessons/hw1_hyperplanes/source.ipynb", true},
		{"lessons/hw1_hyperplanes/student.ipynb", true},
		{"lessons/hw1_hyperplanes/hw1_student.ipynb", true},
		{"lessons/hw1_hyperplanes/solution.ipynb", false},
		{"notebooks/source.ipynb", false},
		{"notebooks/01_hyperplanes.ipynb", false},
	} {
		if got := repo.IsUnexecuted(tc.path); got != tc.want {
			t.Errorf("repo.IsUnexecuted(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	for _, tc := range committedTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkCommitted(tc.nb, tc.unexecuted)
			if len(got) != len(tc.want) {
				t.Fatalf("problems = %q, want %d matching %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], tc.want[i])
				}
			}
		})
	}

	compileErr := notebook.Output{Type: "error", EName: "ERROR", EValue: "failed to run \"go build\"",
		Traceback: []string{"\x1b[31mcell 3, line 2: undefined: perceptron.Foo\x1b[0m"}}
	executedTests := []struct {
		name      string
		committed *notebook.Notebook
		got       *notebook.Notebook
		want      []string
	}{
		{"same", withCells(setup, plot), withCells(setup, plot), nil},
		{"figure lost", withCells(setup, plot), withCells(setup, code("", stdout)),
			[]string{"cell 1: committed output image/png is missing after re-execution (got [stdout])"}},
		{"error", withCells(setup, plot), withCells(setup, code("", png, stdout, compileErr)),
			[]string{"cell 1: error output:\n    ERROR: failed to run \"go build\"\n    cell 3, line 2: undefined: perceptron.Foo"}},
		{"panic", withCells(setup, plot),
			withCells(setup, code("", png, stdout,
				notebook.Output{Type: "stream", Name: "stderr", Text: "panic: boom\n\ngoroutine 1 [running]:\n"},
				notebook.Output{Type: "error", EName: "ERROR", EValue: "exit status 2"})),
			[]string{"cell 1: error output:\n    ERROR: exit status 2\n    stderr:\n    panic: boom\n    \n    goroutine 1 [running]:"}},
	}
	for _, tc := range executedTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkExecuted(tc.committed, tc.got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems = %q, want %q", got, tc.want)
			}
		})
	}
}
