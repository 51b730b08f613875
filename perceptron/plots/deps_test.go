package plots_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNotebookDeps: perceptron/plots draws and renders only; showing a
// figure in a notebook is package nb's job. Neither GoNB nor anything else
// of Jupyter's may enter its dependencies (go list -deps), so that a
// program that only saves figures builds without them. Skipped without the
// go command.
func TestNoNotebookDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed %d packages: %q", len(deps), deps)
	}
	for _, p := range deps {
		if strings.Contains(p, "janpfeifer/gonb") || strings.HasSuffix(p, "/lessons/nb") {
			t.Errorf("perceptron/plots depends on %s", p)
		}
	}
}
