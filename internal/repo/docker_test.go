package repo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAptMirror checks that the Debian mirror for debootstrap is read from
// both formats of apt's sources, skipping what does not serve the suite.
func TestAptMirror(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // path under etc/apt -> content
		want  string
	}{
		{"none", nil, "http://deb.debian.org/debian"},
		{"one-line", map[string]string{"sources.list": "# deb http://old.example/debian bookworm main\n" +
			"deb-src http://src.example/debian bookworm main\n" +
			"deb http://security.example/debian-security bookworm-security main\n" +
			"deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main contrib\n"}, "http://mirror.example/debian"},
		{"deb822", map[string]string{"sources.list.d/debian.sources": "Types: deb\n# http://snapshot.debian.org/archive/debian/20250520T000000Z\n" +
			"URIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n" +
			"Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n"}, "http://deb.debian.org/debian"},
		{"deb822 disabled and src", map[string]string{"sources.list.d/a.sources": "Enabled: no\nTypes: deb\nURIs: http://off.example/debian\nSuites: bookworm\n\n" +
			"Types: deb-src\nURIs: http://src.example/debian\nSuites: bookworm\n\n" +
			"Types: deb deb-src\nURIs: cdrom:/media file:/srv/debian\n https://on.example/debian\nSuites: bookworm\n"}, "https://on.example/debian"},
		{"sources.list first", map[string]string{"sources.list": "deb http://one.example/debian bookworm main\n",
			"sources.list.d/b.sources": "Types: deb\nURIs: http://two.example/debian\nSuites: bookworm\n"}, "http://one.example/debian"},
		{"other release only", map[string]string{"sources.list": "deb http://one.example/debian trixie main\n"}, "http://deb.debian.org/debian"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			etc := t.TempDir()
			for p, content := range tc.files {
				p = filepath.Join(etc, p)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := AptMirror(etc, "bookworm")
			if err != nil || got != tc.want {
				t.Errorf("aptMirror = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestLocalCommand checks how the image's command is moved to 127.0.0.1
// and a free port, and that a command serving elsewhere is refused.
func TestLocalCommand(t *testing.T) {
	cmd := []string{"bash", "scripts/lessons.sh", "--ip", "0.0.0.0", "--port", "8888", "--no-browser"}
	got, err := LocalCommand(cmd, 4321)
	want := []string{"bash", "scripts/lessons.sh", "--ip", "127.0.0.1", "--port", "4321", "--no-browser"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("localCommand = %q, %v; want %q", got, err, want)
	}
	if cmd[3] != "0.0.0.0" {
		t.Error("localCommand changed its argument")
	}
	for _, bad := range [][]string{
		{"bash", "scripts/lessons.sh", "--port", "8888"},
		{"bash", "scripts/lessons.sh", "--ip", "0.0.0.0", "--port", "9999"},
		{"jupyter", "notebook", "--ip=0.0.0.0", "--port=8888"},
	} {
		if _, err := LocalCommand(bad, 1); err == nil || !strings.Contains(err.Error(), "--ip 0.0.0.0 --port 8888") {
			t.Errorf("localCommand(%q) error = %v, want one asking for --ip 0.0.0.0 --port 8888", bad, err)
		}
	}
}
