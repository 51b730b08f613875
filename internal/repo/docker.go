package deploy_test

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The parts of TestDockerImage that need no image builder: the image's
// command moved to a local port, and the Debian mirror debootstrap uses.

// localCommand turns the image's command, which serves on 0.0.0.0:8888 for
// `docker run -p 8888:8888`, into the same command on 127.0.0.1:port.
func localCommand(cmd []string, port int) ([]string, error) {
	out := slices.Clone(cmd)
	var ip, p bool
	for i := 0; i+1 < len(out); i++ {
		switch {
		case out[i] == "--ip" && out[i+1] == "0.0.0.0":
			out[i+1], ip = "127.0.0.1", true
		case out[i] == "--port" && out[i+1] == "8888":
			out[i+1], p = strconv.Itoa(port), true
		}
	}
	if !ip || !p {
		return nil, fmt.Errorf("want a command that serves on --ip 0.0.0.0 --port 8888 (the port the README's docker run publishes)")
	}
	return out, nil
}

// aptMirror returns the first Debian mirror that apt's sources under etc
// (sources.list, sources.list.d/*.list and *.sources) list for suite, or
// Debian's default mirror when there is none.
func aptMirror(etc, suite string) (string, error) {
	files := []string{filepath.Join(etc, "sources.list")}
	for _, pat := range []string{"*.list", "*.sources"} {
		m, err := filepath.Glob(filepath.Join(etc, "sources.list.d", pat))
		if err != nil {
			return "", err
		}
		slices.Sort(m)
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			return "", err
		}
		var uri string
		if strings.HasSuffix(f, ".sources") {
			uri = deb822Mirror(string(b), suite)
		} else {
			uri = oneLineMirror(string(b), suite)
		}
		if uri != "" {
			return uri, nil
		}
	}
	return "http://deb.debian.org/debian", nil
}

// oneLineMirror returns the URI of the first "deb [options] URI suite
// component..." line of a sources.list for suite.
func oneLineMirror(src, suite string) string {
	for _, line := range strings.Split(src, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "deb" {
			continue
		}
		f = f[1:]
		if len(f) > 0 && strings.HasPrefix(f[0], "[") {
			for len(f) > 0 && !strings.HasSuffix(f[0], "]") {
				f = f[1:]
			}
			if len(f) > 0 {
				f = f[1:]
			}
		}
		if len(f) >= 3 && f[1] == suite && isHTTP(f[0]) {
			return f[0]
		}
	}
	return ""
}

// deb822Mirror returns the first URI of the first enabled stanza of a
// .sources file (deb822 format) with type deb and suite among its suites.
func deb822Mirror(src, suite string) string {
	for _, stanza := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		fields := map[string]string{}
		key := ""
		sc := bufio.NewScanner(strings.NewReader(stanza))
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			if (line[0] == ' ' || line[0] == '\t') && key != "" {
				fields[key] += " " + strings.TrimSpace(line)
				continue
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			key = strings.ToLower(strings.TrimSpace(k))
			fields[key] = strings.TrimSpace(v)
		}
		if strings.EqualFold(fields["enabled"], "no") ||
			!slices.Contains(strings.Fields(fields["types"]), "deb") ||
			!slices.Contains(strings.Fields(fields["suites"]), suite) {
			continue
		}
		for _, uri := range strings.Fields(fields["uris"]) {
			if isHTTP(uri) {
				return uri
			}
		}
	}
	return ""
}

func isHTTP(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

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
			got, err := aptMirror(etc, "bookworm")
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
	got, err := localCommand(cmd, 4321)
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
		if _, err := localCommand(bad, 1); err == nil || !strings.Contains(err.Error(), "--ip 0.0.0.0 --port 8888") {
			t.Errorf("localCommand(%q) error = %v, want one asking for --ip 0.0.0.0 --port 8888", bad, err)
		}
	}
}
