package perceptron_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestBuildsAgree: every learner computes the same bits however the
// package is built. It builds cmd/internal/bitcheck (every learner, the scaler
// and the theory on fixed data, printed as float64 bits) with GOAMD64=v1
// and v3 (v3 lets the compiler fuse a multiply and an add into an FMA
// wherever no float64 conversion forbids it), with -tags noasm (the Go
// loops in place of the assembly, also with GOAMD64=v3: pure Go that may
// fuse, as on arm64) and for GOARCH=386 (no assembly, math's
// Go code in place of its amd64 assembly), runs each and compares their
// output with the default build's, byte for byte. The builds reuse the
// build cache; -short skips the test.
func TestBuildsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bit check six times")
	}
	if runtime.GOARCH != "amd64" || (runtime.GOOS != "linux" && runtime.GOOS != "windows") {
		t.Skipf("the configurations are amd64's (and 386 binaries run on amd64 Linux and Windows), not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	dir := t.TempDir()
	configs := []struct {
		name string
		env  []string
		tags string
		// except lists the prefixes of the lines not compared.
		except []string
	}{
		{name: "default"},
		{name: "GOAMD64=v1", env: []string{"GOAMD64=v1"}},
		{name: "GOAMD64=v3", env: []string{"GOAMD64=v3"}},
		{name: "noasm", tags: "noasm"},
		// Pure Go with FMAs where the compiler may fuse, as arm64 runs
		// it: gonum's Go twins of its amd64 assembly fuse. The norm of
		// large vectors (floats.Norm) did; the minimum-norm-point solver
		// behind Separable, MaxMargin and Bound still does, through
		// gonum's BLAS and LAPACK (mat.Solve, mat.QR), and its lines are
		// left out here, not yet bit for bit.
		{name: "noasm GOAMD64=v3", env: []string{"GOAMD64=v3"}, tags: "noasm", except: []string{"Separable ", "MaxMargin ", "Bound "}},
		{name: "GOARCH=386", env: []string{"GOARCH=386", "CGO_ENABLED=0"}},
	}
	var want []byte
	for i, c := range configs {
		bin := filepath.Join(dir, strings.NewReplacer("=", "-").Replace(c.name))
		args := []string{"build", "-o", bin}
		if c.tags != "" {
			args = append(args, "-tags", c.tags)
		}
		args = append(args, "./cmd/internal/bitcheck")
		build := exec.Command(goBin, args...)
		build.Env = append(os.Environ(), c.env...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%s: go %s: %v\n%s", c.name, strings.Join(args, " "), err, out)
		}
		var stderr bytes.Buffer
		run := exec.Command(bin)
		run.Stderr = &stderr
		got, err := run.Output()
		if err != nil {
			if strings.Contains(c.name, "GOAMD64=v3") && strings.Contains(stderr.String(), "does not support") {
				t.Logf("%s: this CPU cannot run it: %s", c.name, stderr.String())
				continue
			}
			t.Fatalf("%s: %v\n%s", c.name, err, stderr.String())
		}
		if i == 0 {
			want = got
			if n := bytes.Count(got, []byte("\n")); n < 200 {
				t.Fatalf("the bit check printed %d lines, want every learner's (200 and more)", n)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			wl, gl := without(want, c.except), without(got, c.except)
			for k := range min(len(wl), len(gl)) {
				if wl[k] != gl[k] {
					name, _, _ := strings.Cut(wl[k], ":")
					t.Errorf("%s differs from the default build, first at line %d (%s)", c.name, k+1, name)
					break
				}
			}
			if len(wl) != len(gl) {
				t.Errorf("%s: %d lines, the default build %d", c.name, len(gl), len(wl))
			}
		}
	}
}

// without returns the lines of out, but those that begin with one of the
// prefixes.
func without(out []byte, prefixes []string) []string {
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(l, p) }) {
			keep = append(keep, l)
		}
	}
	return keep
}
