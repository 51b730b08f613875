// Package notebook is the repository's one reader (and writer) of Jupyter
// notebooks, .ipynb files in nbformat 4: the grader, the tests and the tools
// read notebooks with it. A notebook written back holds every field it was
// read with. Malformed input is an error naming the cell (and output) and
// the field: a source that is neither a string nor a list of strings, an
// nbformat other than 4, JSON that is not a notebook.
package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// SetupCell is the first cell of every notebook, word for word. It makes the
// repository's module importable from the notebook at the versions go.mod
// pins: GoNB's per-kernel module requires github.com/perceptron-go/lessons and
// replaces it by the folder holding the go.mod found from the notebook's own
// folder ($GONB_DIR), so it works at any folder depth with no absolute path.
// A notebook outside the lessons' folder (go env GOMOD is /dev/null there, or
// another module's go.mod) gets a message saying where it is and how to fix
// it instead. It also copies the repository's go.sum into the kernel's
// module and turns GoNB's per-cell `go get` off (%noautoget): that go get
// asks the module proxy about every import before every cell, which made a
// cell wait 0.4 to 0.8 s (docs/performance.md); the kernel's GOFLAGS hold
// -mod=mod, so a build still adds a module the lessons do not require. The
// cell is collapsed (cell metadata "jupyter": {"source_hidden":
// true}, which e2e's checkCommitted checks) behind its first line,
// the comment that says what it does: JupyterLab 4 and Notebook 7 show a
// collapsed cell's first line and "..." (@jupyterlab/cells' InputPlaceholder,
// text: the source's first line).
const SetupCell = "// Setup: lets this notebook import the lessons' Go packages, from the go.mod above its folder.\n" +
	`!*mod="$(cd "$GONB_DIR" && go env GOMOD)"; if ! grep -qsx 'module github.com/perceptron-go/lessons' "$mod"; then echo "This notebook is in $GONB_DIR, outside the perceptron lessons' folder, so it cannot import the lessons' Go packages. Open it from the lessons' folder instead: the repository you cloned, or on a class server your own copy, ~/perceptron-lessons (the command perceptron-lessons-init, run in a terminal, makes or updates that copy)." >&2; exit 1; fi; go mod edit -require=github.com/perceptron-go/lessons@v0.0.0 -replace=github.com/perceptron-go/lessons="$(dirname "$mod")" && cp "$(dirname "$mod")/go.sum" .` + "\n" +
	"%noautoget"

// Notebook is a Jupyter notebook (nbformat 4). Fields the tool does not
// interpret are kept as decoded JSON so that a notebook written back holds
// everything it was read with.
type Notebook struct {
	Cells         []*Cell
	Metadata      map[string]any
	NBFormat      json.Number
	NBFormatMinor json.Number
}

// Cell is one notebook cell. Source is the cell's text as one string.
type Cell struct {
	Type           string // "code", "markdown" or "raw"
	ID             string // nbformat 4.5 cell id, "" if absent
	Metadata       map[string]any
	Source         string
	ExecutionCount any      // code cells: nil or a number
	Outputs        []Output // code cells
	Attachments    any      // markdown cells, nil if absent
}

// Output is one output of a code cell: the fields the repository reads,
// decoded, and the whole output as read, which Marshal writes back.
type Output struct {
	Type string // output_type: "stream", "display_data", "execute_result" or "error"
	Name string // stream: "stdout" or "stderr"
	Text string // stream: the text
	// Data is a rich output's data by MIME type ("image/png", "text/plain"),
	// each value as its JSON; Multiline decodes the text ones.
	Data      map[string]json.RawMessage
	EName     string   // error: the exception's name
	EValue    string   // error: its message
	Traceback []string // error

	raw json.RawMessage // the output as read; nil for one made in memory
}

// SourceHidden reports whether the cell's source is collapsed in
// JupyterLab and Notebook 7 (metadata "jupyter": {"source_hidden": true}).
func (c *Cell) SourceHidden() bool {
	j, _ := c.Metadata["jupyter"].(map[string]any)
	h, _ := j["source_hidden"].(bool)
	return h
}

// CodeSources returns the source of every cell, "" for a cell that is not
// code: element i is cell i, as error messages number cells.
func (nb *Notebook) CodeSources() []string {
	srcs := make([]string, len(nb.Cells))
	for i, c := range nb.Cells {
		if c.Type == "code" {
			srcs[i] = c.Source
		}
	}
	return srcs
}

// KernelName returns the name of the notebook's kernel
// (metadata.kernelspec.name), or "".
func (nb *Notebook) KernelName() string {
	k, _ := nb.Metadata["kernelspec"].(map[string]any)
	n, _ := k["name"].(string)
	return n
}

// Read reads the notebook at path.
func Read(path string) (*Notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return nb, nil
}

// Parse decodes notebook JSON.
func Parse(b []byte) (*Notebook, error) {
	var raw struct {
		Cells []struct {
			CellType       string            `json:"cell_type"`
			ID             string            `json:"id"`
			Metadata       map[string]any    `json:"metadata"`
			Source         json.RawMessage   `json:"source"`
			ExecutionCount any               `json:"execution_count"`
			Outputs        []json.RawMessage `json:"outputs"`
			Attachments    any               `json:"attachments"`
		} `json:"cells"`
		Metadata      map[string]any `json:"metadata"`
		NBFormat      json.Number    `json:"nbformat"`
		NBFormatMinor json.Number    `json:"nbformat_minor"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not notebook JSON: %v", err)
	}
	if raw.NBFormat != "4" {
		return nil, fmt.Errorf("nbformat %q, want 4", raw.NBFormat.String())
	}
	nb := &Notebook{Metadata: raw.Metadata, NBFormat: raw.NBFormat, NBFormatMinor: raw.NBFormatMinor}
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	for i, rc := range raw.Cells {
		src, err := Multiline(rc.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d: source: %v", i, err)
		}
		c := &Cell{Type: rc.CellType, ID: rc.ID, Metadata: rc.Metadata, Source: src,
			ExecutionCount: rc.ExecutionCount, Attachments: rc.Attachments}
		for j, ro := range rc.Outputs {
			o, err := parseOutput(ro)
			if err != nil {
				return nil, fmt.Errorf("cell %d, output %d: %v", i, j, err)
			}
			c.Outputs = append(c.Outputs, o)
		}
		if c.Metadata == nil {
			c.Metadata = map[string]any{}
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// parseOutput decodes one output of a code cell.
func parseOutput(raw json.RawMessage) (Output, error) {
	var ro struct {
		OutputType string                     `json:"output_type"`
		Name       string                     `json:"name"`
		Text       json.RawMessage            `json:"text"`
		Data       map[string]json.RawMessage `json:"data"`
		EName      string                     `json:"ename"`
		EValue     string                     `json:"evalue"`
		Traceback  []string                   `json:"traceback"`
	}
	if err := json.Unmarshal(raw, &ro); err != nil {
		return Output{}, fmt.Errorf("not an output: %v", err)
	}
	text, err := Multiline(ro.Text)
	if err != nil {
		return Output{}, fmt.Errorf("text: %v", err)
	}
	return Output{Type: ro.OutputType, Name: ro.Name, Text: text, Data: ro.Data,
		EName: ro.EName, EValue: ro.EValue, Traceback: ro.Traceback, raw: raw}, nil
}

// Multiline decodes nbformat's multiline string: a string or a list of
// strings to concatenate (an absent or null value is ""). Anything else is
// an error saying what it is.
func Multiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("want a string or a list of strings, got %.40s", raw)
	}
	return strings.Join(parts, ""), nil
}

// marshal returns the output as JSON: as it was read, or for an output made
// in memory, its fields as nbformat names them.
func (o Output) marshal() any {
	if o.raw != nil {
		return o.raw
	}
	m := map[string]any{"output_type": o.Type}
	switch o.Type {
	case "stream":
		m["name"], m["text"] = o.Name, splitSource(o.Text)
	case "error":
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["ename"], m["evalue"], m["traceback"] = o.EName, o.EValue, tb
	default:
		data := o.Data
		if data == nil {
			data = map[string]json.RawMessage{}
		}
		m["data"], m["metadata"] = data, map[string]any{}
	}
	return m
}

// splitSource splits s into lines that keep their "\n", as nbformat stores
// a cell's source.
func splitSource(s string) []string {
	lines := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// Marshal encodes nb as nbformat writes it: keys sorted, one-space indent,
// non-ASCII and HTML characters unescaped, a final newline.
func (nb *Notebook) Marshal() ([]byte, error) {
	cells := make([]any, len(nb.Cells))
	for i, c := range nb.Cells {
		m := map[string]any{
			"cell_type": c.Type,
			"metadata":  c.Metadata,
			"source":    splitSource(c.Source),
		}
		if c.ID != "" {
			m["id"] = c.ID
		}
		switch c.Type {
		case "code":
			m["execution_count"] = c.ExecutionCount
			outputs := make([]any, len(c.Outputs))
			for j, o := range c.Outputs {
				outputs[j] = o.marshal()
			}
			m["outputs"] = outputs
		default:
			if c.Attachments != nil {
				m["attachments"] = c.Attachments
			}
		}
		cells[i] = m
	}
	doc := map[string]any{
		"cells":          cells,
		"metadata":       nb.Metadata,
		"nbformat":       nb.NBFormat,
		"nbformat_minor": nb.NBFormatMinor,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFile writes nb to path.
func (nb *Notebook) WriteFile(path string) error {
	b, err := nb.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// LessonsMeta returns the notebook's metadata.lessons object, creating it.
func (nb *Notebook) LessonsMeta() map[string]any {
	m, ok := nb.Metadata["lessons"].(map[string]any)
	if !ok {
		m = map[string]any{}
		nb.Metadata["lessons"] = m
	}
	return m
}

// Assignment returns metadata.lessons.assignment, or "".
// AssignmentMeta returns the metadata lessons.assignment ("" if absent)
// and whether it is absent or a string.
func (nb *Notebook) AssignmentMeta() (string, bool) {
	l, ok := nb.Metadata["lessons"]
	if !ok || l == nil {
		return "", true
	}
	m, ok := l.(map[string]any)
	if !ok {
		return "", false
	}
	a, ok := m["assignment"]
	if !ok || a == nil {
		return "", true
	}
	s, ok := a.(string)
	return s, ok
}

func (nb *Notebook) Assignment() string {
	m, _ := nb.Metadata["lessons"].(map[string]any)
	s, _ := m["assignment"].(string)
	return s
}
