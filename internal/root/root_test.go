package root

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind finds the repository from a nested folder, passes over a
// nested module's go.mod, and says where it looked when there is none.
func TestFind(t *testing.T) {
	tmp := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(tmp, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("repo/go.mod", "// The lessons.\nmodule "+Module+"\n\ngo 1.26.0\n")
	write("repo/e2e/go.mod", "module "+Module+"/e2e\n\nreplace "+Module+" => ../\n")
	write("repo/e2e/sub/x.go", "package sub\n")
	for _, start := range []string{"repo", "repo/e2e", "repo/e2e/sub"} {
		got, err := Find(filepath.Join(tmp, start))
		if err != nil || got != filepath.Join(tmp, "repo") {
			t.Errorf("Find(%s) = %q, %v; want %s", start, got, err, filepath.Join(tmp, "repo"))
		}
	}
	write("other/go.mod", "module example.com/mine\n")
	if got, err := Find(filepath.Join(tmp, "other")); err == nil || !strings.Contains(err.Error(), "no go.mod of module "+Module+" at or above") {
		t.Errorf("Find(other) = %q, %v; want an error naming the module", got, err)
	}
	// The repository itself, from this package's folder.
	got, err := Find(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(got, "internal", "root", "root.go")); err != nil {
		t.Errorf("Find(.) = %s, which does not hold internal/root: %v", got, err)
	}
}
