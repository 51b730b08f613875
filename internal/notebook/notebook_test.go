package notebook

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoundTrip reads every committed notebook of the repository and
// writes it back: the bytes are those of the file (the committed notebooks
// are written by nbformat, which Marshal follows).
func TestRoundTrip(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../../notebooks/*.ipynb", "../../lessons/*/*.ipynb"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 20 {
		t.Fatalf("found %d notebooks, want the lessons' and the assignments'", len(paths))
	}
	for _, path := range paths {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := Parse(want)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := nb.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: written back differs from the file", path)
		}
	}
}

// TestParse checks the fields read and the errors for malformed notebooks,
// each naming the cell, the output and the field.
func TestParse(t *testing.T) {
	nb, err := Parse([]byte(`{"cells": [
	 {"cell_type": "code", "execution_count": 3, "metadata": {"jupyter": {"source_hidden": true}},
	  "outputs": [{"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]},
	   {"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": ["<Fig", "ure>"]}, "metadata": {}},
	   {"output_type": "error", "ename": "ERROR", "evalue": "exit status 2", "traceback": ["x"]}],
	  "source": ["x := 1\n", "_ = x"]},
	 {"cell_type": "markdown", "metadata": {}, "source": "# Title"}],
	 "metadata": {"kernelspec": {"name": "gonb"}}, "nbformat": 4, "nbformat_minor": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	c := nb.Cells[0]
	if c.Source != "x := 1\n_ = x" || !c.SourceHidden() || nb.Cells[1].SourceHidden() || nb.Cells[1].Source != "# Title" {
		t.Errorf("cells = %+v, %+v", c, nb.Cells[1])
	}
	if got := nb.CodeSources(); len(got) != 2 || got[0] != c.Source || got[1] != "" {
		t.Errorf("CodeSources = %q, want the code cell's source and \"\" for the markdown cell", got)
	}
	if nb.KernelName() != "gonb" {
		t.Errorf("KernelName = %q, want gonb", nb.KernelName())
	}
	if len(c.Outputs) != 3 || c.Outputs[0].Type != "stream" || c.Outputs[0].Name != "stdout" || c.Outputs[0].Text != "a\nb\n" ||
		c.Outputs[2].EName != "ERROR" || c.Outputs[2].EValue != "exit status 2" {
		t.Errorf("outputs = %+v", c.Outputs)
	}
	if s, err := Multiline(c.Outputs[1].Data["text/plain"]); err != nil || s != "<Figure>" {
		t.Errorf("text/plain = %q, %v", s, err)
	}
	for _, tc := range []struct{ name, json, want string }{
		{"not JSON", `{"cells": [`, "not notebook JSON"},
		{"nbformat 3", `{"cells": [], "nbformat": 3}`, `nbformat "3", want 4`},
		{"source a number", `{"cells": [{"cell_type": "code", "source": 7}], "nbformat": 4}`,
			"cell 0: source: want a string or a list of strings, got 7"},
		{"stream text a number", `{"cells": [{"cell_type": "markdown", "source": ""}, {"cell_type": "code", "source": "", "outputs": [{"output_type": "stream", "text": {"a": 1}}]}], "nbformat": 4}`,
			`cell 1, output 0: text: want a string or a list of strings, got {"a": 1}`},
		{"output not an object", `{"cells": [{"cell_type": "code", "source": "", "outputs": [3]}], "nbformat": 4}`,
			"cell 0, output 0: not an output"},
	} {
		_, err := Parse([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestMarshalMadeInMemory checks that outputs made in memory are written
// as nbformat names their fields, and read back the same.
func TestMarshalMadeInMemory(t *testing.T) {
	nb := &Notebook{NBFormat: "4", NBFormatMinor: "5", Metadata: map[string]any{}, Cells: []*Cell{{
		Type: "code", Metadata: map[string]any{}, Source: "fmt.Println(1)\n", ExecutionCount: 1,
		Outputs: []Output{{Type: "stream", Name: "stdout", Text: "1\n"}, {Type: "error", EName: "E", EValue: "v"}},
	}}}
	b, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	o := back.Cells[0].Outputs
	if len(o) != 2 || o[0].Text != "1\n" || o[0].Name != "stdout" || o[1].EName != "E" || o[1].Traceback == nil {
		t.Errorf("read back %+v from %s", o, b)
	}
}

// TestMultiline: nbformat's multiline string is a string or a list of
// strings joined as they are; absent or null is ""; anything else is an
// error (scripts/site reads its notebooks with this reader).
func TestMultiline(t *testing.T) {
	for _, raw := range []string{`"a\nb"`, `["a\n", "b"]`} {
		if s, err := Multiline(json.RawMessage(raw)); err != nil || s != "a\nb" {
			t.Errorf("%s: %q, %v", raw, s, err)
		}
	}
	for _, raw := range []string{``, `null`} {
		if s, err := Multiline(json.RawMessage(raw)); err != nil || s != "" {
			t.Errorf("%q: %q, %v; want \"\"", raw, s, err)
		}
	}
	for _, raw := range []string{`3`, `["a", 3]`, `{"a": "b"}`} {
		if s, err := Multiline(json.RawMessage(raw)); err == nil {
			t.Errorf("%s: %q, want an error", raw, s)
		}
	}
}
