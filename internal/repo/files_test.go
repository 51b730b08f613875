package repo_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestWriteRead: Write makes the missing folders, writes the file and
// returns its path; MustRead returns what was written.
func TestWriteRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "c.txt")
	if got := repo.Write(t, p, "x,y\n"); got != p {
		t.Errorf("Write returned %q, want %q", got, p)
	}
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("after Write: %v, %v; want a file", fi, err)
	}
	if got := repo.MustRead(t, p); got != "x,y\n" {
		t.Errorf("MustRead: %q, want %q", got, "x,y\n")
	}
	if got := repo.ReadCSV(t, repo.Write(t, p, "a,\"b, c\"\n1,2\n")); len(got) != 2 || got[0][1] != "b, c" || got[1][0] != "1" {
		t.Errorf("ReadCSV: %q", got)
	}
}
