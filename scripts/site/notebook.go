package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// notebook is what the site reads of an .ipynb file: its cells, as
// committed (executed).
type notebook struct {
	Path  string // as given, e.g. notebooks/04_batch_pla.ipynb
	Cells []cell `json:"cells"`
}

// cell is one notebook cell. Source and a stream's text are a string or a
// list of strings in the format; text() joins them.
type cell struct {
	Type     string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
	Metadata cellMetadata    `json:"metadata"`
	Outputs  []output        `json:"outputs"`
}

type cellMetadata struct {
	Jupyter struct {
		SourceHidden bool `json:"source_hidden"`
	} `json:"jupyter"`
	Exercise *struct {
		Name string `json:"name"`
		Role string `json:"role"`
	} `json:"lesson_exercise"`
}

type output struct {
	Type string                     `json:"output_type"`
	Data map[string]json.RawMessage `json:"data"`
}

// text joins a multiline string of the notebook format: a string, or a
// list of strings.
func text(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("not a string or a list of strings: %w", err)
	}
	return strings.Join(parts, ""), nil
}

// source is the cell's source text.
func (c cell) source() string {
	s, _ := text(c.Source) // readNotebook checked every source
	return s
}

// readNotebook reads and checks an .ipynb file.
func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb := &notebook{Path: path}
	if err := json.Unmarshal(b, nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(nb.Cells) == 0 {
		return nil, fmt.Errorf("%s: no cells", path)
	}
	for i, c := range nb.Cells {
		if _, err := text(c.Source); err != nil {
			return nil, fmt.Errorf("%s: cell %d: source: %w", path, i, err)
		}
	}
	return nb, nil
}

// name is the notebook's file name without .ipynb, e.g. 04_batch_pla.
func (nb *notebook) name() string {
	return strings.TrimSuffix(filepath.Base(nb.Path), ".ipynb")
}

// title is the text of the notebook's first heading of level 1, or its name.
func (nb *notebook) title() string {
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		for _, line := range strings.Split(c.source(), "\n") {
			if t, ok := strings.CutPrefix(line, "# "); ok {
				return strings.TrimSpace(t)
			}
		}
	}
	return nb.name()
}
