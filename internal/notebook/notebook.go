// Package notebook reads and writes Jupyter notebooks (nbformat 4),
// keeping every field it does not interpret.
package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

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
	ExecutionCount any   // code cells: nil or a number
	Outputs        []any // code cells
	Attachments    any   // markdown cells, nil if absent
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
			CellType       string          `json:"cell_type"`
			ID             string          `json:"id"`
			Metadata       map[string]any  `json:"metadata"`
			Source         json.RawMessage `json:"source"`
			ExecutionCount any             `json:"execution_count"`
			Outputs        []any           `json:"outputs"`
			Attachments    any             `json:"attachments"`
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
		src, err := multiline(rc.Source)
		if err != nil {
			return nil, fmt.Errorf("cell %d: source: %v", i, err)
		}
		c := &Cell{Type: rc.CellType, ID: rc.ID, Metadata: rc.Metadata, Source: src,
			ExecutionCount: rc.ExecutionCount, Outputs: rc.Outputs, Attachments: rc.Attachments}
		if c.Metadata == nil {
			c.Metadata = map[string]any{}
		}
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// multiline decodes nbformat's multiline string: a string or a list of
// strings to concatenate.
func multiline(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	return strings.Join(parts, ""), nil
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
			outputs := c.Outputs
			if outputs == nil {
				outputs = []any{}
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
