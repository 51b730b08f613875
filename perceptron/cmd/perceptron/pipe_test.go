//go:build linux

package main

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// pipe returns a path to the read end of a pipe (/dev/fd/N) into which
// text is written and then closed, as a shell's <(zcat data.csv.gz) gives:
// the command can read it once; opened a second time, it is empty.
func pipe(t *testing.T, text string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	p := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no /dev/fd here: %v", err)
	}
	go func() {
		defer w.Close()
		w.WriteString(text)
	}()
	return p
}

// TestTrainReadsAPipeOnce: train and bound read a file that can be read
// only once (a pipe) whole. They read its first lines for the layout and
// then read the file again: on a pipe, the bytes of the first read (up to
// 64 KiB) were gone, so a small file was "empty input" and a large one
// was trained on without its first thousands of rows, exit 0.
func TestTrainReadsAPipeOnce(t *testing.T) {
	write := tempWriter(t)
	var big strings.Builder
	for i := range 20000 {
		x := float64(i%200) - 99.5
		fmt.Fprintf(&big, "%g,%g,%d\n", x, float64(i%7), map[bool]int{true: 1, false: -1}[x > 0])
	}
	for _, c := range []struct{ name, text string }{
		{"three rows", "1,2,1\n-1,-2,-1\n2,1,1\n"},
		{"a header", "a,b,y\n1,2,1\n-1,-2,-1\n"},
		{"20000 rows (420 KB)", big.String()},
	} {
		want := trainJSON(t, write("data.csv", c.text))
		got := trainJSON(t, pipe(t, c.text))
		if got.N != want.N || !reflect.DeepEqual(got.W, want.W) || got.B != want.B {
			t.Errorf("%s: from a pipe n = %d, w = %v, b = %v; from the file n = %d, w = %v, b = %v", c.name, got.N, got.W, got.B, want.N, want.W, want.B)
		}
		code, _, errs := call("bound", pipe(t, c.text))
		if code != 0 {
			t.Errorf("%s: bound from a pipe: exit %d: %s", c.name, code, errs)
		}
	}
	// An error in a pipe names it and the line, as in a file.
	p := pipe(t, "1,2,1\n-1,x,-1\n")
	code, _, errs := call("train", p)
	if code != 1 || !strings.Contains(errs, p) || !strings.Contains(errs, "line 2") {
		t.Errorf("a bad value in a pipe: exit %d, stderr %q; want exit 1 naming %s and line 2", code, errs, p)
	}
}
