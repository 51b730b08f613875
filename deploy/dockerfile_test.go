package deploy_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	line int    // 1-based line where it starts
	cmd  string // upper case: FROM, RUN, ...
	args string
}

// parseDockerfile splits a Dockerfile into instructions: comments and blank
// lines dropped, lines ending in a backslash joined with the next.
func parseDockerfile(src string) ([]instruction, error) {
	var out []instruction
	var cur strings.Builder
	start := 0
	sc := bufio.NewScanner(strings.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		if cur.Len() == 0 {
			start = n
		}
		more := strings.HasSuffix(line, `\`)
		cur.WriteString(strings.TrimSuffix(line, `\`))
		if more {
			cur.WriteString(" ")
			continue
		}
		cmd, args, _ := strings.Cut(strings.TrimSpace(cur.String()), " ")
		cur.Reset()
		if !regexp.MustCompile(`^[A-Za-z]+$`).MatchString(cmd) {
			return nil, fmt.Errorf("line %d: %q is not an instruction", start, cmd)
		}
		out = append(out, instruction{line: start, cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args)})
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("line %d: continuation at the end of the file", start)
	}
	return out, sc.Err()
}

var (
	debianBase = regexp.MustCompile(`^(docker\.io/(library/)?)?debian:bookworm-slim(@sha256:[0-9a-f]{64})?$`)
	argLine    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=(\S+)$`)
	sha256Hex  = regexp.MustCompile(`^[0-9a-f]{64}$`)
	futureArg  = regexp.MustCompile(`touch [^|;&]*-d '([^']+)'`)
	goRelease  = regexp.MustCompile(`^go(\d+)\.(\d+)\.(\d+)$`)
)

// checkDockerfile returns what is wrong with the Dockerfile src, for an image
// of a module whose go.mod says "go goVersion".
func checkDockerfile(src, goVersion string) []string {
	ins, err := parseDockerfile(src)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// One stage, from Debian 12's slim image: the Debian release the lessons
	// are developed and tested on (its python3 makes the Jupyter environment).
	var froms []instruction
	args := map[string]string{}
	for _, in := range ins {
		switch in.cmd {
		case "FROM":
			froms = append(froms, in)
		case "ARG":
			if m := argLine.FindStringSubmatch(in.args); m != nil {
				args[m[1]] = m[2]
			}
		}
	}
	if len(froms) != 1 || ins[0].cmd != "FROM" {
		bad("want exactly one FROM, as the first instruction; have %d", len(froms))
	} else if !debianBase.MatchString(froms[0].args) {
		bad("line %d: base image %q: want debian:bookworm-slim (Debian 12, whose python3 the set-up makes the Jupyter environment with)", froms[0].line, froms[0].args)
	}

	// Go, pinned and checked.
	goMinor := goVersion
	if parts := strings.SplitN(goVersion, ".", 3); len(parts) >= 2 {
		goMinor = parts[0] + "." + parts[1]
	}
	if v := args["GO_VERSION"]; !regexp.MustCompile(`^` + regexp.QuoteMeta(goMinor) + `\.\d+$`).MatchString(v) {
		bad("ARG GO_VERSION=%q: want a pinned Go %s.x release, the Go of go.mod", v, goMinor)
	}
	if m, h := goRelease.FindStringSubmatch("go"+args["GO_VERSION"]), goRelease.FindStringSubmatch(runtime.Version()); m != nil && h != nil &&
		m[1] == h[1] && m[2] == h[2] && atoi(m[3]) < atoi(h[3]) {
		bad("ARG GO_VERSION=%s is older than the Go running this test (%s): pin the latest patch release", args["GO_VERSION"], runtime.Version())
	}
	if !sha256Hex.MatchString(args["GO_SHA256"]) {
		bad("ARG GO_SHA256=%q: want the 64-digit SHA-256 of the Go archive", args["GO_SHA256"])
	}
	verified := false
	for _, in := range ins {
		if in.cmd == "RUN" && strings.Contains(in.args, "${GO_VERSION}") &&
			strings.Contains(in.args, "${GO_SHA256}") && strings.Contains(in.args, "sha256sum -c") {
			verified = true
		}
	}
	if !verified {
		bad("no RUN downloads Go ${GO_VERSION} and checks it with sha256sum -c against ${GO_SHA256}")
	}

	// Users: root for the system, then the notebook user (UID 1000).
	if args["NB_UID"] != "1000" {
		bad("ARG NB_UID=%q: Binder needs the notebook user to have UID 1000", args["NB_UID"])
	}
	var users []instruction
	for _, in := range ins {
		if in.cmd == "USER" {
			users = append(users, in)
		}
	}
	nbUser := map[string]bool{"${NB_UID}": true, "$NB_UID": true, "1000": true, "${NB_USER}": true, "$NB_USER": true, "jovyan": true}
	if len(users) == 0 || !nbUser[users[len(users)-1].args] {
		bad("the last USER must be the notebook user (${NB_UID}, UID 1000)")
	}

	// The repository in $HOME, owned by the user, set up by the README's script.
	idx := func(pred func(instruction) bool) int {
		for i, in := range ins {
			if pred(in) {
				return i
			}
		}
		return -1
	}
	copyAt := idx(func(in instruction) bool {
		f := strings.Fields(in.args)
		return in.cmd == "COPY" && len(f) >= 3 && strings.HasPrefix(f[0], "--chown=${NB_UID}") &&
			f[len(f)-2] == "." && (f[len(f)-1] == "${HOME}" || f[len(f)-1] == "$HOME" || f[len(f)-1] == "${HOME}/")
	})
	if copyAt < 0 {
		bad("want COPY --chown=${NB_UID}:${NB_GID} . ${HOME}: the repository in the notebook user's home, owned by that user")
	}
	setupAt := idx(func(in instruction) bool {
		return in.cmd == "RUN" && regexp.MustCompile(`(^|\s)(bash )?scripts/setup\.sh(\s|$)`).MatchString(in.args)
	})
	if setupAt < 0 {
		bad("no RUN scripts/setup.sh: the image must install GoNB with the README's set-up script")
	}
	if setupAt >= 0 && (copyAt < 0 || setupAt < copyAt) {
		bad("scripts/setup.sh must run after the COPY of the repository")
	} else if setupAt >= 0 {
		// The user in force when set-up runs: the last USER before it.
		asUser := ""
		for _, in := range ins[:setupAt] {
			if in.cmd == "USER" {
				asUser = in.args
			}
		}
		system := regexp.MustCompile(`setup\.sh\b.*\s--system(\s|$)`).MatchString(ins[setupAt].args)
		if system && asUser != "root" {
			bad("line %d: scripts/setup.sh --system installs for every user: run it as USER root", ins[setupAt].line)
		} else if !system && !nbUser[asUser] {
			bad("line %d: scripts/setup.sh must run as the notebook user (it registers the kernel for that user), or with --system as root", ins[setupAt].line)
		}
	}
	aptAt := idx(func(in instruction) bool { return in.cmd == "RUN" && strings.Contains(in.args, "apt-get") })
	rootAt := idx(func(in instruction) bool { return in.cmd == "USER" && in.args == "root" })
	if aptAt >= 0 && (rootAt < 0 || rootAt > aptAt) {
		bad("apt-get runs before USER root")
	}

	// Warm: dependencies compiled and the first notebook run, after set-up,
	// and the warm build cache protected from Go's 5-day trim.
	warmAt := idx(func(in instruction) bool {
		return in.cmd == "RUN" && strings.Contains(in.args, "go build ./...") &&
			strings.Contains(in.args, "--execute") && strings.Contains(in.args, "notebooks/00_start_here.ipynb")
	})
	if warmAt < 0 || warmAt < setupAt {
		bad("want a RUN after set-up with go build ./... and a headless --execute of notebooks/00_start_here.ipynb (the warm-up)")
	} else {
		in := ins[warmAt]
		m := futureArg.FindStringSubmatch(in.args)
		if m == nil || !strings.Contains(in.args, "$(go env GOCACHE)") {
			bad("line %d: the warm-up must touch the entries of $(go env GOCACHE) with a future date (touch -d '...') so that Go's trim keeps them", in.line)
		} else if when, err := time.Parse("2006-01-02 15:04:05", m[1]); err != nil {
			bad("line %d: touch -d %q: want the form 2006-01-02 15:04:05", in.line, m[1])
		} else if when.Before(time.Now().AddDate(20, 0, 0)) {
			bad("line %d: touch -d %q: want a date decades ahead, so no image lives long enough to reach it", in.line, m[1])
		}
	}

	// Served as `docker run -p 8888:8888` expects, and as TestDockerImage
	// moves to 127.0.0.1 and a free port (localCommand).
	exposed, binder := false, false
	var cmds []instruction
	for _, in := range ins {
		switch in.cmd {
		case "EXPOSE":
			exposed = exposed || slices.Contains(strings.Fields(in.args), "8888")
		case "CMD":
			cmds = append(cmds, in)
		case "ENV":
			binder = binder || venvFirst.MatchString(in.args)
		}
	}
	if !binder {
		bad("want ENV PATH=/usr/local/lib/perceptron-lessons/venv/bin:...: the Jupyter environment's python3 and jupyter-lab first on PATH, which Binder runs")
	}
	if !exposed {
		bad("want EXPOSE 8888, the port the README's docker run publishes")
	}
	if len(cmds) != 1 {
		bad("want exactly one CMD; have %d", len(cmds))
	} else {
		var argv []string
		if err := json.Unmarshal([]byte(cmds[0].args), &argv); err != nil {
			bad("line %d: CMD %s: want the exec form, a JSON array: %v", cmds[0].line, cmds[0].args, err)
		} else if _, err := repo.LocalCommand(argv, 1); err != nil {
			bad("line %d: CMD %s: %v", cmds[0].line, cmds[0].args, err)
		} else if argv[0] != "jupyter-lab" {
			bad("line %d: CMD %s: want jupyter-lab, JupyterLab from the Jupyter environment", cmds[0].line, cmds[0].args)
		}
	}
	return problems
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// goDirective returns the version in go.mod's go directive.
func goDirective(t *testing.T) string {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	return string(m[1])
}

// TestDockerfile checks the Dockerfile statically (there is no Docker engine
// in CI): see checkDockerfile. CI runs its set-up script, scripts/setup.sh,
// for real through scripts/test.sh.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkDockerfile(string(b), goDirective(t)) {
		t.Errorf("Dockerfile: %s", p)
	}
	// One Go: the image installs the release go.mod's toolchain line
	// names, as the Gradescope bundle's setup.sh does.
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	tc := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindSubmatch(gomod)
	arg := regexp.MustCompile(`(?m)^ARG GO_VERSION=(\S+)$`).FindSubmatch(b)
	if tc == nil || arg == nil || string(tc[1]) != string(arg[1]) {
		t.Errorf("Dockerfile's ARG GO_VERSION (%q) must be go.mod's toolchain line's release (%q)", arg, tc)
	}

	ignore, err := os.ReadFile(".dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(ignore))
	for _, want := range []string{".git", "bin/"} {
		if !strings.Contains(" "+strings.Join(lines, " ")+" ", " "+want+" ") {
			t.Errorf(".dockerignore does not exclude %s", want)
		}
	}
}

// TestDockerfileChecks shows that checkDockerfile finds each defect it looks
// for, by breaking the real Dockerfile one way at a time.
func TestDockerfileChecks(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	goVersion := goDirective(t)
	sub := func(re, repl string) string {
		r := regexp.MustCompile(re)
		if !r.MatchString(good) {
			t.Fatalf("mutation %q does not apply to the Dockerfile", re)
		}
		return r.ReplaceAllString(good, repl)
	}
	tests := []struct {
		name string
		src  string
		want string // substring of the first problem
	}{
		{"Jupyter stacks base", sub(`debian:bookworm-slim`, "quay.io/jupyter/base-notebook:2025-03-14"), "debian:bookworm-slim"},
		{"latest Debian", sub(`debian:bookworm-slim`, "debian:latest"), "debian:bookworm-slim"},
		{"full Debian", sub(`debian:bookworm-slim`, "debian:bookworm"), "debian:bookworm-slim"},
		{"two stages", "FROM golang:1.26 AS go\n" + good, "exactly one FROM"},
		{"other Go", sub(`GO_VERSION=\S+`, "GO_VERSION=1.25.3"), "ARG GO_VERSION"},
		{"no checksum", sub(`GO_SHA256=\S+`, "GO_SHA256=TODO"), "ARG GO_SHA256"},
		{"checksum not checked", sub(`sha256sum -c`, "true"), "sha256sum -c"},
		{"other UID", sub(`NB_UID=1000`, "NB_UID=1001"), "UID 1000"},
		{"ends as root", good + "\nUSER root\n", "last USER"},
		{"repo elsewhere", sub(`\. \$\{HOME\}`, ". /srv/lessons"), "COPY --chown"},
		{"not chowned", sub(`COPY --chown=\S+`, "COPY"), "COPY --chown"},
		{"own install", sub(`bash scripts/setup\.sh`, "go build -o bin/ github.com/janpfeifer/gonb"), "scripts/setup.sh"},
		{"no warm-up", sub(`--execute`, "--clear-output"), "warm-up"},
		{"cache not protected", sub(`touch -c -m -d '[^']+'`, "touch -c -m"), "future date"},
		{"protected briefly", sub(`touch -c -m -d '[^']+'`, "touch -c -m -d '"+time.Now().AddDate(0, 1, 0).Format("2006-01-02 15:04:05")+"'"), "decades ahead"},
		{"old Go patch", sub(`GO_VERSION=\S+`, "GO_VERSION="+strings.TrimPrefix(goMinorOf(runtime.Version()), "go")+".0"), "older than the Go"},
		{"system setup as user", sub(`RUN HOME=/root bash scripts/setup\.sh --system`, "USER ${NB_UID}\nRUN HOME=/root bash scripts/setup.sh --system"), "as USER root"},
		{"user setup as root", sub(`setup\.sh --system`, "setup.sh"), "notebook user"},
		{"other port", sub(`"8888"`, `"8080"`), "--port 8888"},
		{"shell-form CMD", sub(`CMD \[.*\]`, "CMD bash scripts/lessons.sh"), "exec form"},
		{"not exposed", sub(`EXPOSE 8888`, "EXPOSE 8080"), "EXPOSE 8888"},
		{"classic command", sub(`CMD \["jupyter-lab"`, `CMD ["jupyter-notebook"`), "jupyter-lab"},
		{"Binder finds Debian's python3", sub(`PATH=/usr/local/lib/perceptron-lessons/venv/bin:`, "PATH="), "venv/bin"},
		{"bad continuation", good + "RUN true \\\n", "continuation"},
	}
	if p := checkDockerfile(good, goVersion); len(p) != 0 {
		t.Fatalf("the real Dockerfile has problems: %q", p)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := checkDockerfile(tc.src, goVersion)
			if len(p) == 0 || !strings.Contains(p[0], tc.want) {
				t.Errorf("problems = %q, want the first to contain %q", p, tc.want)
			}
		})
	}
}

// goMinorOf returns "go1.N" of a Go version "go1.N.P".
func goMinorOf(v string) string {
	if m := goRelease.FindStringSubmatch(v); m != nil {
		return "go" + m[1] + "." + m[2]
	}
	return v
}

// venvFirst matches an ENV that puts the shared install's Jupyter
// environment first on PATH.
var venvFirst = regexp.MustCompile(`(^|\s)PATH=/usr/local/lib/perceptron-lessons/venv/bin:`)

// binderLink matches the README's Binder links.
var binderLink = regexp.MustCompile(`https://mybinder\.org/v2/gh/[^)\s]+`)

// TestBinderLinks checks the instructor guide's Binder links: each opens a notebook of
// the repository in JupyterLab (labpath=PATH, which BinderHub turns into
// /doc/tree/PATH, the page TestDockerImage opens in the image started as
// Binder starts it), and none the classic Notebook's pages (urlpath=).
func TestBinderLinks(t *testing.T) {
	b, err := os.ReadFile("docs/instructor.md")
	if err != nil {
		t.Fatal(err)
	}
	links := binderLink.FindAllString(string(b), -1)
	if len(links) == 0 {
		t.Fatal("docs/instructor.md has no Binder link")
	}
	for _, link := range links {
		u, err := url.Parse(link)
		if err != nil {
			t.Errorf("Binder link %s: %v", link, err)
			continue
		}
		q := u.Query()
		if q.Has("urlpath") {
			t.Errorf("Binder link %s: urlpath= opens a page of the classic Notebook; want labpath=", link)
		}
		p := q.Get("labpath")
		if p == "" {
			t.Errorf("Binder link %s: want labpath=notebooks/...ipynb (JupyterLab)", link)
		} else if _, err := os.Stat(filepath.FromSlash(p)); err != nil || !strings.HasSuffix(p, ".ipynb") {
			t.Errorf("Binder link %s: labpath=%s is not a notebook of the repository", link, p)
		}
	}
}
