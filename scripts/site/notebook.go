package main

import (
	"fmt"
	"path/filepath"
	"strings"

	nbformat "github.com/perceptron-go/lessons/internal/notebook"
)

// notebook is what the site reads of an .ipynb file: its cells, as
// committed (executed), read by the repository's one notebook reader.
type notebook struct {
	Path string // as given, e.g. notebooks/04_batch_pla.ipynb
	*nbformat.Notebook
}

// readNotebook reads and checks an .ipynb file.
func readNotebook(path string) (*notebook, error) {
	nb, err := nbformat.Read(path)
	if err != nil {
		return nil, err
	}
	if len(nb.Cells) == 0 {
		return nil, fmt.Errorf("%s: no cells", path)
	}
	return &notebook{Path: path, Notebook: nb}, nil
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
		for _, line := range strings.Split(c.Source, "\n") {
			if t, ok := strings.CutPrefix(line, "# "); ok {
				return strings.TrimSpace(t)
			}
		}
	}
	return nb.name()
}
