package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// notebook is the part of the .ipynb (nbformat 4) JSON that the test reads.
type notebook struct {
	Cells    []cell `json:"cells"`
	Metadata struct {
		KernelSpec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`

	// unexecuted is set for the assignment notebooks committed without
	// outputs on purpose (see isUnexecuted).
	unexecuted bool
}

type cell struct {
	CellType       string          `json:"cell_type"`
	Metadata       cellMetadata    `json:"metadata"`
	Source         json.RawMessage `json:"source"` // a string or a list of strings
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []output        `json:"outputs"`
}

// cellMetadata is the part of a cell's metadata the tests read.
type cellMetadata struct {
	Jupyter struct {
		SourceHidden bool `json:"source_hidden"`
	} `json:"jupyter"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"` // stream: stdout or stderr
	Text       json.RawMessage            `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	EName      string                     `json:"ename"`
	EValue     string                     `json:"evalue"`
	Traceback  []string                   `json:"traceback"`
}

// multiline decodes nbformat's "multiline string": a string or a list of
// strings to concatenate.
func multiline(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return string(raw)
}

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: not notebook JSON: %v", path, err)
	}
	return &nb, nil
}

// outputKinds returns the kinds of output a cell shows: the MIME types of
// its rich outputs (e.g. "image/png") and "stdout" for printed text. Errors
// and stderr are left out: errors are checked on their own and stderr carries
// incidental messages (e.g. "go: downloading") that may come and go.
func outputKinds(c cell) []string {
	set := map[string]bool{}
	for _, o := range c.Outputs {
		switch o.OutputType {
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
func errorText(c cell, o output) string {
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
		if so.OutputType == "stream" && so.Name == "stderr" {
			stderr.WriteString(multiline(so.Text))
		}
	}
	if s := strings.TrimSpace(ansi.ReplaceAllString(stderr.String(), "")); s != "" {
		lines = append(lines, "stderr:")
		lines = append(lines, strings.Split(strings.TrimPrefix(tail(s, 30), "    "), "\n    ")...)
	}
	return strings.Join(lines, "\n    ")
}

// checkCommitted reports what is wrong with a notebook as committed: a
// missing setup cell, or (unless it is unexecuted on purpose) code cells that
// were never executed.
func checkCommitted(nb *notebook) []string {
	var problems []string
	if len(nb.Cells) == 0 || nb.Cells[0].CellType != "code" ||
		strings.TrimSpace(multiline(nb.Cells[0].Source)) != SetupCell {
		problems = append(problems, fmt.Sprintf("cell 0 is not the standard setup cell; every notebook starts with the code cell\n    %s", SetupCell))
	} else if !nb.Cells[0].Metadata.Jupyter.SourceHidden {
		problems = append(problems, `cell 0, the setup cell, is not collapsed: its metadata must have "jupyter": {"source_hidden": true}`)
	}
	if nb.Metadata.KernelSpec.Name != "gonb" {
		problems = append(problems, fmt.Sprintf("kernelspec name is %q, want \"gonb\"", nb.Metadata.KernelSpec.Name))
	}
	if nb.unexecuted {
		return problems
	}
	executed := false
	for i, c := range nb.Cells {
		if c.CellType != "code" || strings.TrimSpace(multiline(c.Source)) == "" {
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
func checkExecuted(committed, got *notebook) []string {
	var problems []string
	if len(got.Cells) != len(committed.Cells) {
		return []string{fmt.Sprintf("executed notebook has %d cells, committed has %d", len(got.Cells), len(committed.Cells))}
	}
	for i, c := range got.Cells {
		if c.CellType != "code" {
			continue
		}
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
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
	src := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	setup := cell{CellType: "code", Source: src(SetupCell), ExecutionCount: &one}
	setup.Metadata.Jupyter.SourceHidden = true
	shown := setup
	shown.Metadata.Jupyter.SourceHidden = false
	png := output{OutputType: "display_data", Data: map[string]json.RawMessage{"image/png": src("iVBOR")}}
	stdout := output{OutputType: "stream", Name: "stdout", Text: src("10 updates\n")}
	withCells := func(unexecuted bool, cells ...cell) *notebook {
		nb := &notebook{Cells: cells, unexecuted: unexecuted}
		nb.Metadata.KernelSpec.Name = "gonb"
		return nb
	}
	plot := cell{CellType: "code", Source: src("gonbui.DisplayPNG(png)"), ExecutionCount: &one, Outputs: []output{png, stdout}}

	committedTests := []struct {
		name string
		nb   *notebook
		want []string // substrings of the problems, in order
	}{
		{"good", withCells(false, setup, plot), nil},
		{"no setup cell", withCells(false, plot), []string{"cell 0 is not the standard setup cell"}},
		{"setup cell not collapsed", withCells(false, shown, plot), []string{"cell 0, the setup cell, is not collapsed"}},
		{"setup cell edited", withCells(false, cell{CellType: "code", Source: src(strings.Replace(SetupCell, "$GONB_DIR", "/home/me/lessons", 1)), ExecutionCount: &one}, plot),
			[]string{"cell 0 is not the standard setup cell"}},
		{"never executed", withCells(false, setup, cell{CellType: "code", Source: src("fmt.Println(1)")}),
			[]string{"cell 1: code cell was never executed", "no code cell has an output"}},
		{"student notebook cleared", withCells(true, setup, cell{CellType: "code", Source: src("fmt.Println(1)")}), nil},
		{"student notebook without setup", withCells(true, plot), []string{"cell 0 is not the standard setup cell"}},
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
		if got := isUnexecuted(tc.path); got != tc.want {
			t.Errorf("isUnexecuted(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	for _, tc := range committedTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkCommitted(tc.nb)
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

	compileErr := output{OutputType: "error", EName: "ERROR", EValue: "failed to run \"go build\"",
		Traceback: []string{"\x1b[31mcell 3, line 2: undefined: perceptron.Foo\x1b[0m"}}
	executedTests := []struct {
		name      string
		committed *notebook
		got       *notebook
		want      []string
	}{
		{"same", withCells(false, setup, plot), withCells(false, setup, plot), nil},
		{"figure lost", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{stdout}}),
			[]string{"cell 1: committed output image/png is missing after re-execution (got [stdout])"}},
		{"error", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{png, stdout, compileErr}}),
			[]string{"cell 1: error output:\n    ERROR: failed to run \"go build\"\n    cell 3, line 2: undefined: perceptron.Foo"}},
		{"panic", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{png, stdout,
				{OutputType: "stream", Name: "stderr", Text: src("panic: boom\n\ngoroutine 1 [running]:\n")},
				{OutputType: "error", EName: "ERROR", EValue: "exit status 2"}}}),
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
