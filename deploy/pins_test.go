package deploy_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// The pinned Jupyter environment: scripts/requirements/jupyter.txt (pip-compile's
// lock file, installed with pip install --require-hashes) and the proxy's
// scripts/requirements/package.json.
const (
	jupyterLock   = "scripts/requirements/jupyter.txt"
	proxyPackage  = "scripts/requirements/package.json"
	pipCompileCmd = "pip-compile --allow-unsafe --generate-hashes --no-emit-find-links --no-emit-index-url --output-file=scripts/requirements/jupyter.txt --strip-extras scripts/requirements/jupyter.in"
)

var (
	lockPin  = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$`)
	lockHash = regexp.MustCompile(`^    --hash=sha256:[0-9a-f]{64}( \\)?$`)
)

// readLock returns the pins of a pip-compile lock file with hashes, by
// normalized package name, and what is wrong with it: a requirement that is
// not pinned with ==, or has no sha256 hash (pip install --require-hashes
// would refuse the file).
func readLock(src string) (map[string]string, []string) {
	pins := map[string]string{}
	var problems []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "    #") {
			continue
		}
		m := lockPin.FindStringSubmatch(line)
		if m == nil {
			problems = append(problems, fmt.Sprintf("line %d: %q: want NAME==VERSION \\ followed by its --hash lines", i+1, line))
			continue
		}
		hashes := 0
		for i+1 < len(lines) && lockHash.MatchString(lines[i+1]) {
			i++
			hashes++
		}
		if hashes == 0 {
			problems = append(problems, fmt.Sprintf("line %d: %s has no --hash=sha256", i+1, m[1]))
		}
		pins[normalizePackage(m[1])] = m[2]
	}
	return pins, problems
}

// normalizePackage is a Python package name as PyPI compares them.
func normalizePackage(name string) string {
	return strings.ToLower(regexp.MustCompile(`[-_.]+`).ReplaceAllString(name, "-"))
}

// TestJupyterPins checks the lock file (every package pinned, with hashes,
// made by the command its header and the README name), that it pins what
// the issue asks for (JupyterLab 4.6, Notebook 7, jupyter_server 2,
// JupyterHub 5.5, the series of the newest Zero to JupyterHub chart, ...), and that the README's Versions table shows the very
// versions of the lock file and of the proxy's package.json.
func TestJupyterPins(t *testing.T) {
	b, err := os.ReadFile(jupyterLock)
	if err != nil {
		t.Fatal(err)
	}
	lock := string(b)
	if !strings.Contains(lock, "#    "+pipCompileCmd+"\n") {
		t.Errorf("%s: its header does not record the command %q", jupyterLock, pipCompileCmd)
	}
	pins, problems := readLock(lock)
	for _, p := range problems {
		t.Errorf("%s: %s", jupyterLock, p)
	}
	for name, prefix := range map[string]string{"jupyterlab": "4.6.", "notebook": "7.", "jupyter-server": "2.",
		"jupyterhub": "5.5.", "nbclient": "0.", "nbconvert": "7.", "jupyterhub-idle-culler": "2.", "nbgitpuller": "1."} {
		if v, ok := pins[name]; !ok || !strings.HasPrefix(v, prefix) {
			t.Errorf("%s pins %s %q, want %s*", jupyterLock, name, v, prefix)
		}
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err = os.ReadFile(proxyPackage)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatalf("%s: %v", proxyPackage, err)
	}
	chp := pkg.Dependencies["configurable-http-proxy"]
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(chp) {
		t.Errorf("%s: configurable-http-proxy %q, want an exact version", proxyPackage, chp)
	}

	sec, ok := repo.Section(repo.MustRead(t, "docs/instructor.md"), "Versions")
	if !ok {
		t.Fatal(`docs/instructor.md has no "## Versions" section`)
	}
	if !strings.Contains(sec, pipCompileCmd[:len("pip-compile")]) {
		t.Errorf("docs/instructor.md, Versions: no pip-compile command to move the pins")
	}
	rows := regexp.MustCompile("(?m)^\\| ([a-z_-]+)(?: \\(npm[^)]*\\))? \\| ([0-9][^ |]*) \\|$").FindAllStringSubmatch(sec, -1)
	if len(rows) == 0 {
		t.Fatal("docs/instructor.md, Versions: no table of packages and versions")
	}
	for _, r := range rows {
		want, ok := pins[normalizePackage(r[1])]
		if r[1] == "configurable-http-proxy" {
			want, ok = chp, true
		}
		if !ok {
			t.Errorf("docs/instructor.md, Versions: %s is not pinned by %s", r[1], jupyterLock)
		} else if r[2] != want {
			t.Errorf("docs/instructor.md, Versions: %s %s, but the pin is %s", r[1], r[2], want)
		}
	}
}

// TestReadLock shows that readLock refuses what pip install
// --require-hashes refuses.
func TestReadLock(t *testing.T) {
	hash := "    --hash=sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		name, src string
		want      string // substring of the first problem, "" for none
	}{
		{"good", "# header\njupyterlab==4.6.6 \\\n" + hash + " \\\n" + hash + "\n    # via -r jupyter.in\n", ""},
		{"range", "jupyterlab>=4.6 \\\n" + hash + "\n", "want NAME==VERSION"},
		{"no hash", "jupyterlab==4.6.6 \\\n    # via -r jupyter.in\n", "no --hash"},
		{"short hash", "jupyterlab==4.6.6 \\\n    --hash=sha256:abc\n", "no --hash"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pins, problems := readLock(tc.src)
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems = %q, want none", problems)
			case tc.want == "" && pins["jupyterlab"] != "4.6.6":
				t.Errorf("pins = %v, want jupyterlab 4.6.6", pins)
			case tc.want != "" && (len(problems) == 0 || !strings.Contains(problems[0], tc.want)):
				t.Errorf("problems = %q, want the first to contain %q", problems, tc.want)
			}
		})
	}
}
