package perceptron_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
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
// output with the default build's, byte for byte. It also builds it for
// GOARCH=arm64 and runs it with qemu-aarch64 (user-mode emulation: the
// arm64 instructions, FMAs and all, executed one by one), as a student's
// Apple or Linux arm64 machine runs it; without qemu-aarch64 that build is
// skipped, except in CI (CI set), where scripts/setup.sh --with-qemu
// installed it. The builds reuse the build cache; -short skips the test.
func TestBuildsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bit check seven times")
	}
	if runtime.GOARCH != "amd64" || (runtime.GOOS != "linux" && runtime.GOOS != "windows") {
		t.Skipf("the configurations are amd64's (and 386 binaries run on amd64 Linux and Windows), not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	goBin := goCommand(t)
	dir := t.TempDir()
	configs := []struct {
		name string
		env  []string
		tags string
		// runner runs the binary (an emulator), when not empty.
		runner string
		// runEnv is added to the binary's environment.
		runEnv []string
	}{
		{name: "default"},
		{name: "GOAMD64=v1", env: []string{"GOAMD64=v1"}},
		{name: "GOAMD64=v3", env: []string{"GOAMD64=v3"}},
		// The default build on a CPU without AVX2: the assembly picks
		// its SSE2 kernels at run time (golang.org/x/sys/cpu reads
		// GODEBUG), as on an older x86-64 machine.
		{name: "GODEBUG=cpu.avx2=off", runEnv: []string{"GODEBUG=cpu.avx2=off"}},
		// On a CPU with AVX-512 the default build scans with the
		// AVX-512 kernels; this one runs the AVX2 scans, as on a CPU
		// with AVX2 alone (on other CPUs it is the default build).
		{name: "GODEBUG=cpu.avx512f=off", runEnv: []string{"GODEBUG=cpu.avx512f=off"}},
		{name: "noasm", tags: "noasm"},
		// Pure Go with FMAs where the compiler may fuse, as arm64 runs
		// it: gonum's Go twins of its amd64 assembly fuse, so the
		// package calls none of them where it computes (the norm of
		// large vectors was floats.Norm, the minimum-norm-point solver
		// behind Separable, MaxMargin and Bound used mat.Solve and
		// mat.QR: both are the package's own code now).
		{name: "noasm GOAMD64=v3", env: []string{"GOAMD64=v3"}, tags: "noasm"},
		{name: "GOARCH=386", env: []string{"GOARCH=386", "CGO_ENABLED=0"}},
		// arm64: no assembly of ours (the Go twins), none of gonum's (its
		// Go code, which fuses), the compiler's arm64 rules for fusing,
		// which fuse more forms than amd64's (TestNoFusedMultiplyAdd
		// keeps our code free of them).
		{name: "GOARCH=arm64", env: []string{"GOARCH=arm64", "CGO_ENABLED=0"}, runner: "qemu-aarch64"},
	}
	var want []byte
	for i, c := range configs {
		var runner string
		if c.runner != "" {
			p, err := exec.LookPath(c.runner)
			if err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s: no %s in CI (scripts/setup.sh --with-qemu installs it): %v", c.name, c.runner, err)
				}
				t.Logf("%s: skipped, no %s (scripts/setup.sh --with-qemu installs it)", c.name, c.runner)
				continue
			}
			runner = p
		}
		bin := filepath.Join(dir, strings.NewReplacer("=", "-", " ", "-").Replace(c.name))
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
		if runner != "" {
			run = exec.Command(runner, bin)
		}
		run.Env = append(os.Environ(), c.runEnv...)
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
			wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
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

// goCommand returns the go command of the toolchain running the test (or
// the one on PATH), and skips the test without one.
func goCommand(t *testing.T) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	return goBin
}

// TestSuiteOn386: the package's tests (-short) pass in a GOARCH=386 build,
// where an int has 32 bits: counts, sizes and ids that a 64-bit int never
// fills wrapped there (the tests of int32_test.go, which say where), and
// a test that did not compile there (a degree of 1 << 40) went unseen.
// 386 binaries run on amd64 Linux; -short skips this test, so the inner
// run does not start another.
func TestSuiteOn386(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the package's tests in a 386 build")
	}
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skipf("386 test binaries run on amd64 Linux, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	goBin := goCommand(t)
	cmd := exec.Command(goBin, "test", "-short", "-count=1", "./...")
	cmd.Env = append(os.Environ(), "GOARCH=386", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOARCH=386 go test -short ./...: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("ok  \tgithub.com/perceptron-go/lessons/perceptron\t")) {
		t.Fatalf("GOARCH=386 go test -short ./...: the package's own tests did not run:\n%s", out)
	}
}

// fusedOp matches the mnemonics of fused multiply-adds in the compiler's
// listing (go build -gcflags=-S) of every target below: VFMADD231SD and
// kin on amd64, FMADDD, FNMSUBD and kin on arm64, riscv64 and loong64,
// FMADD, FMSUB and XSMADDADP on ppc64, FMADD and WFMADB on s390x, and the
// vector forms (VFMLA).
var fusedOp = regexp.MustCompile(`^(VFN?M(ADD|SUB)\w*|FN?M(ADD|SUB)\w*|XSN?M(ADD|SUB)\w*|WFN?M[AS]DB|VFML[AS])$`)

// listingLine is one instruction of a -S listing: its position and its
// mnemonic.
var listingLine = regexp.MustCompile(`^\s+0x[0-9a-f]+ \d+ \(([^)]*)\)\t(\S+)`)

// TestNoFusedMultiplyAdd: no compiler fuses a multiply and an add anywhere
// in the package's Go code (the learners, the theory, the data generators,
// internal/... and the commands; perceptron/plots draws and is left out),
// so that a build for arm64 (Apple's and Linux's), ppc64le, riscv64, s390x
// or amd64 with GOAMD64=v3 computes the same bits as the default amd64
// build. TestBuildsAgree runs the builds this machine can run; this test
// reads what the compiler makes for the others. The Go spec lets a
// compiler fuse x*y + z wherever no explicit float64 conversion rounds
// x*y, also across an inlined call (a function returning a product); the
// amd64 compiler fuses only a few forms with GOAMD64=v3, arm64's and
// riscv64's many more (x − y*z, y*z − x, x − x), which no test on amd64
// would ever run. It cross-compiles the package once per target with
// -gcflags=-S and fails on any fused instruction in the listing, naming the
// function and the line.
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the package for five targets")
	}
	goBin := goCommand(t)
	const mod = "github.com/perceptron-go/lessons/perceptron"
	args := []string{"build", "-o", os.DevNull}
	pkgs := []string{".", "./internal/...", "./cmd/..."}
	for _, p := range []string{mod, mod + "/internal/...", mod + "/cmd/..."} {
		args = append(args, "-gcflags="+p+"=-S")
	}
	args = append(args, pkgs...)
	for _, target := range [][]string{
		{"GOARCH=amd64", "GOAMD64=v3"},
		{"GOARCH=arm64"},
		{"GOARCH=ppc64le"},
		{"GOARCH=riscv64"},
		{"GOARCH=s390x"},
	} {
		name := strings.Join(target, " ")
		build := exec.Command(goBin, args...)
		build.Env = append(os.Environ(), append([]string{"CGO_ENABLED=0", "GOOS=linux"}, target...)...)
		// The listing goes to stderr; the go command replays it from its
		// cache when nothing changed.
		out, err := build.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: go %s: %v\n%.2000s", name, strings.Join(args, " "), err, out)
		}
		fn, instructions, fused := "", 0, 0
		for _, l := range strings.Split(string(out), "\n") {
			if f, _, ok := strings.Cut(l, " STEXT"); ok && !strings.HasPrefix(l, "\t") {
				fn = f
				continue
			}
			m := listingLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			instructions++
			if fusedOp.MatchString(m[2]) {
				fused++
				t.Errorf("%s: %s in %s at %s", name, m[2], fn, m[1])
			}
		}
		// A listing that is not there (a changed format, a cached build
		// that printed nothing) would pass with no instruction read.
		if instructions < 10000 {
			t.Fatalf("%s: read %d instructions from the listing, want the whole package's", name, instructions)
		}
		t.Logf("%s: %d instructions, %d fused", name, instructions, fused)
	}
}
