package main

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestGradescopeBundle builds the autograder zip of hw2_pla and lays it out
// as Gradescope does (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
// unpacked in AUTOGRADER_ROOT/source, run_autograder copied to
// AUTOGRADER_ROOT/run_autograder and run from there. setup.sh needs root,
// apt and the network, so its offline steps are done by hand here (this
// machine's Go as AUTOGRADER_ROOT/go, the sources locked); the e2e test
// TestGradescopeReplica runs setup.sh itself, in a replica of Gradescope's
// container. The solution gets full marks, the cheat that calls the
// reference package gets zero, and results.json is where Gradescope reads it.
func TestGradescopeBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the grader and grades twice")
	}
	repoDir := repo.Dir(t)
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "hw2.zip")
	var stdout, stderr strings.Builder
	if err := run([]string{"gradescope", "-repo", repoDir, "-assignment", "hw2_pla", "-o", zipPath}, &stdout, &stderr); err != nil {
		t.Fatalf("gradescope: %v\n%s", err, stderr.String())
	}
	t.Log(stdout.String())
	root := filepath.Join(dir, "autograder")
	src := filepath.Join(root, "source")
	unzip(t, zipPath, src)
	for _, f := range []string{"setup.sh", "run_autograder", "assign", "repo/go.mod", "repo/go.sum",
		"repo/lessons/hw2_pla/source.ipynb", "repo/perceptron/doc.go", "repo/perceptron/data/iris.csv"} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			t.Errorf("the bundle has no %s", f)
		}
	}
	gomod, err := os.ReadFile(filepath.Join(repoDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	tc := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindSubmatch(gomod)
	if tc == nil {
		t.Fatal("go.mod has no toolchain line: the bundle installs the Go it names")
	}
	setup, _ := os.ReadFile(filepath.Join(src, "setup.sh"))
	for _, want := range []string{"GO_VERSION=" + string(tc[1]) + "\n", "sha256sum -c -", "apt-get install", "bubblewrap"} {
		if !strings.Contains(string(setup), want) {
			t.Errorf("setup.sh has no %q", want)
		}
	}
	if strings.Contains(string(setup), "rm -rf /usr/local/go") {
		t.Errorf("setup.sh removes /usr/local/go")
	}
	// Anywhere but /autograder/source (a workstation), setup.sh changes
	// nothing: it stops before its first step.
	if out, err := exec.Command("bash", filepath.Join(src, "setup.sh")).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "setup.sh: ") || strings.Contains(string(out), "installing") {
		t.Errorf("setup.sh run from %s: %v, want it to refuse before it changes anything:\n%s", src, err, out)
	}
	// setup.sh's offline steps.
	if err := os.Symlink(runtime.GOROOT(), filepath.Join(root, "go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(src, 0o700); err != nil {
		t.Fatal(err)
	}
	ra, err := os.ReadFile(filepath.Join(src, "run_autograder"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "run_autograder"), ra, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		notebook string // "": nothing uploaded
		score    float64
	}{
		{filepath.Join(repoDir, "lessons/hw2_pla/solution.ipynb"), 14},
		{"testdata/redteam/reference_package_hw2.ipynb", 0},
		{"", 0},
	} {
		sub := filepath.Join(root, "submission")
		os.RemoveAll(sub)
		os.RemoveAll(filepath.Join(root, "results"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if tc.notebook != "" {
			b, err := os.ReadFile(tc.notebook)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sub, "hw2.ipynb"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(filepath.Join(root, "run_autograder"))
		cmd.Env = append(os.Environ(), "AUTOGRADER_ROOT="+root)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run_autograder: %v\n%s", err, out)
		}
		js, err := os.ReadFile(filepath.Join(root, "results", "results.json"))
		if err != nil {
			t.Fatalf("no results.json: %v\n%s", err, out)
		}
		var res struct {
			Score  float64
			Output string
			Tests  []struct{ Name, Output string }
		}
		if err := json.Unmarshal(js, &res); err != nil {
			t.Fatalf("results.json: %v\n%s", err, js)
		}
		if res.Score != tc.score {
			t.Errorf("%s: score %v, want %v\n%s", tc.notebook, res.Score, tc.score, js)
		}
		if tc.notebook == "" {
			// The grader fails: results.json says so, with its error.
			want := "The grader could not grade this submission: assign: no .ipynb under " + sub
			if !strings.HasPrefix(res.Output, want) {
				t.Errorf("nothing uploaded: output %q, want it to start with %q", res.Output, want)
			}
			continue
		}
		if !strings.Contains(res.Output, "Isolation: ") {
			t.Errorf("%s: results.json does not say which isolation ran: %q", tc.notebook, res.Output)
		}
		// hw2_pla's test functions, visible and hidden.
		if len(res.Tests) != 10 {
			t.Errorf("%s: %d tests in results.json, want 10", tc.notebook, len(res.Tests))
		}
	}
}

func unzip(t *testing.T, path, dst string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dst+string(filepath.Separator)) {
			t.Fatalf("zip entry %q outside the tree", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
		r.Close()
		w.Close()
	}
}
