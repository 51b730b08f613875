package collect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func put(t *testing.T, path, text string, mod time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// TestCollect collects from three homes: a notebook (kept with its time),
// a symbolic link to another student's notebook (refused: outside the
// home) and none (reported).
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	uid := os.Getuid()
	when := time.Date(2026, 12, 1, 21, 30, 0, 0, time.UTC)
	nb := func(home string) string {
		return filepath.Join(dir, home, "perceptron-lessons/lessons/hw2_pla/student.ipynb")
	}
	put(t, nb("ann"), `{"ann": 1}`, when)
	if err := os.MkdirAll(filepath.Dir(nb("bob")), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nb("ann"), nb("bob")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "cid"), 0o755)
	students := []Student{
		{Login: "ann", ID: "5001", Home: filepath.Join(dir, "ann"), UID: uid},
		{Login: "bob", Home: filepath.Join(dir, "bob"), UID: uid},
		{Login: "cid", Home: filepath.Join(dir, "cid"), UID: uid},
	}
	out := filepath.Join(dir, "out")
	var log bytes.Buffer
	n, err := Collect(students, "hw2_pla", "perceptron-lessons", out, &log)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("collected %d, want 1 (ann's)", n)
	}
	got := filepath.Join(out, "ann_5001_0_student.ipynb")
	if b, err := os.ReadFile(got); err != nil || string(b) != `{"ann": 1}` {
		t.Errorf("ann's copy: %q, %v", b, err)
	}
	if fi, err := os.Stat(got); err != nil || !fi.ModTime().Equal(when) {
		t.Errorf("ann's copy's time: %v, want %v", fi.ModTime(), when)
	}
	if _, err := os.Stat(filepath.Join(out, "bob.ipynb")); err == nil {
		t.Errorf("bob's link to ann's notebook was collected as bob's")
	}
	for _, want := range []string{"bob: collect: refused: ", "outside the student's home", "cid: no "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	times, err := Times(out)
	if err != nil || len(times) != 1 || !times["ann_5001_0_student.ipynb"].Equal(when) {
		t.Errorf("Times: %v, %v; want ann's at %v", times, err, when)
	}
	// A file of another owner is refused.
	if _, _, err := readOwned(nb("ann"), filepath.Join(dir, "ann"), uid+1); err == nil || !strings.Contains(err.Error(), "not the student's own file") {
		t.Errorf("another owner's file: %v, want a refusal", err)
	}
}
