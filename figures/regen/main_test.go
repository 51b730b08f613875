package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/perceptron-go/lessons/figures"
)

func TestRunWritesOneFigure(t *testing.T) {
	all := figures.All()
	if len(all) == 0 {
		t.Skip("no figures registered yet")
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"-out", dir, "-only", all[0].Name}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want, err := all[0].Make()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, all[0].Name))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("written file differs from the figure (err %v)", err)
	}
}

func TestRunUnknownFigure(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-only", "no-such.png", "-out", t.TempDir()}, &out, &errb); code != 2 {
		t.Fatalf("unknown figure: exit %d, want 2", code)
	}
	if got, want := errb.String(), "figures: no figure \"no-such.png\"\n"; got != want {
		t.Fatalf("stderr %q, want %q", got, want)
	}
}
