package grade

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestGradescopeStudent: the student of a Gradescope submission is its
// users' IDs from submission_metadata.json (sorted and joined for a
// group), and a file without users, or without an ID, is an error that
// names the file.
func TestGradescopeStudent(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string { return repo.Write(t, filepath.Join(dir, name), s) }
	one := write("one.json", `{"id": 999, "created_at": "2026-11-20T10:00:00Z", "users": [{"email": "a@example.org", "id": 1234, "name": "A"}], "assignment": {"id": 5}}`)
	if got, err := GradescopeStudent(one); err != nil || got != "1234" {
		t.Errorf("one user: %q, %v; want 1234", got, err)
	}
	group := write("group.json", `{"users": [{"id": 77}, {"id": 1234}]}`)
	if got, err := GradescopeStudent(group); err != nil || got != "1234+77" {
		t.Errorf("group: %q, %v; want 1234+77", got, err)
	}
	for name, s := range map[string]string{"none.json": `{"users": []}`, "noid.json": `{"users": [{"email": "a@example.org"}]}`, "bad.json": `{"users": [`} {
		p := write(name, s)
		if got, err := GradescopeStudent(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %q, %v; want an error naming the file", name, got, err)
		}
	}
	if _, err := GradescopeStudent(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file: no error")
	}
}
