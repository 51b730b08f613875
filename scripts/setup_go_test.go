package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestSetupChecksGo: scripts/setup.sh stops at once, naming the Go it found
// and the version go.mod needs, when go is too old or missing (issue 21,
// item 6), before it installs anything.
func TestSetupChecksGo(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	want := ""
	for _, line := range strings.Split(repo.ReadFile("go.mod"), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			want = strings.TrimSpace(v)
		}
	}
	if want == "" {
		t.Fatal("go.mod has no go line")
	}
	fake := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1 $2\" = \"env GOVERSION\" ]; then echo go1.22.5; exit 0; fi\nexit 3\n"
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"old Go", fake + ":/usr/bin:/bin", []string{filepath.Join(fake, "go") + " is Go 1.22.5", "need Go " + want + " or later"}},
		{"no Go", empty + ":/usr/bin:/bin", []string{"go is not on PATH", "need Go " + want + " or later"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "no Go" {
				if _, err := os.Stat("/usr/bin/go"); err == nil {
					t.Skip("/usr/bin/go exists: cannot take Go off PATH here")
				}
			}
			cmd := exec.Command("bash", "scripts/setup.sh", "--no-apt")
			cmd.Env = append(os.Environ(), "PATH="+tc.path, "SUDO_USER=")
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("setup.sh with %s succeeded:\n%s", tc.name, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("setup.sh with %s says %q, want it to say %q", tc.name, out, w)
				}
			}
			if strings.Contains(string(out), "installing") || strings.Contains(string(out), "building") {
				t.Errorf("setup.sh went on after the Go check:\n%s", out)
			}
		})
	}
}
