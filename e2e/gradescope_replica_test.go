//go:build e2e

package e2e

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/repo"
)

// TestGradescopeReplica runs the hw2 autograder zip as Gradescope runs it,
// in a replica of Gradescope's container, following their "Autograder
// Specifications" (https://gradescope-autograders.readthedocs.io/en/latest/specs/)
// and the Dockerfile of their manual_docker sample:
//
//  1. the base: Gradescope's default base image is Ubuntu 22.04 (their
//     docs' "Base Images" page), so the replica is debootstrap
//     --variant=minbase jammy from archive.ubuntu.com when that archive
//     answers, else Debian 12 (bookworm) from this machine's apt mirror,
//     which is close enough for what setup.sh and run_autograder use: bash,
//     root, apt-get, the same util-linux and bubblewrap commands and a
//     glibc-free Go. It is made once and cached as a tarball in the user
//     cache folder (remove it to rebuild);
//  2. the container: the root runs under bwrap as Docker runs a container
//     by default: its own PID, IPC and UTS namespaces, root with only
//     Docker's default capabilities (no CAP_SYS_ADMIN), Docker's default
//     seccomp rule that namespaces and mounts need CAP_SYS_ADMIN (unshare,
//     setns, mount, namespace flags to clone: EPERM; clone3: ENOSYS), /sys
//     and its cgroups read-only, /.dockerenv present; it shares this
//     machine's network (setup.sh needs the package registries);
//  3. the zip is unpacked in /autograder/source, run_autograder copied to
//     /autograder/run_autograder, and `apt-get update && bash
//     /autograder/source/setup.sh` runs from / as root, as Gradescope's
//     image build does;
//  4. for each submission (the hw2 solution, nothing at all, and an attack
//     that leaves files for later tests), /autograder/submission and
//     /autograder/results are made afresh and /autograder/run_autograder
//     runs from /autograder with its output in /autograder/results/stdout.
//     Gradescope starts a fresh container for each; here they share the
//     root, so each run also checks that no file or process of a test's
//     uid is left over.
//
// results.json is checked field by field against the specification.
// It needs root, debootstrap and bwrap (CI runs as root; scripts/setup.sh
// --with-buildah installs debootstrap, --with-chromium bubblewrap).
func TestGradescopeReplica(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: debootstrap, and bwrap running a root file system as root")
	}
	for _, tool := range []string{"debootstrap", "bwrap"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	work := t.TempDir()

	// 1. The base, cached.
	base, suite := replicaBase(t, ctx)
	rootfs := filepath.Join(work, "rootfs")
	if err := os.MkdirAll(rootfs, 0o755); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	runLogged(t, ctx, "tar", "-C", rootfs, "--numeric-owner", "-xf", base)
	t.Logf("base: %s, unpacked in %.0f s", suite, time.Since(t0).Seconds())
	t.Cleanup(func() {
		// Files of test uids are owned by uids with no account: plain removal.
		os.RemoveAll(rootfs)
	})
	if err := copyLocalCAs("/usr/local/share/ca-certificates", filepath.Join(rootfs, "usr/local/share/ca-certificates")); err != nil {
		t.Fatal(err)
	}
	// Docker gives a container the host's resolver and marks it with /.dockerenv.
	if b, err := os.ReadFile("/etc/resolv.conf"); err == nil {
		os.Remove(filepath.Join(rootfs, "etc/resolv.conf"))
		os.WriteFile(filepath.Join(rootfs, "etc/resolv.conf"), b, 0o644)
	}
	if err := os.WriteFile(filepath.Join(rootfs, ".dockerenv"), nil, 0o755); err != nil {
		t.Fatal(err)
	}

	// 2. The zip, unpacked where Gradescope unpacks it.
	zipPath := filepath.Join(work, "hw2_pla_autograder.zip")
	// With an instructor's secret, as a course keeps its hidden data out of
	// every repository: the zip carries it, and run_autograder draws each
	// student's hidden data from it and their Gradescope ID.
	secretFile := filepath.Join(work, "course-secret")
	if err := os.WriteFile(secretFile, []byte("replica-secret-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runLogged(t, ctx, "go", "run", "./lessons/assign", "gradescope", "-assignment", "hw2_pla", "-secret", secretFile, "-o", zipPath)
	ag := filepath.Join(rootfs, "autograder")
	if err := os.MkdirAll(filepath.Join(ag, "source"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unzipTo(zipPath, filepath.Join(ag, "source")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(ag, "source", "run_autograder"))
	if err != nil {
		t.Fatalf("the zip has no run_autograder at its root: %v", err)
	}
	if err := os.WriteFile(filepath.Join(ag, "run_autograder"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ag, "source", "setup.sh")); err != nil {
		t.Fatalf("the zip has no setup.sh at its root: %v", err)
	}

	// 3. setup.sh, once, as Gradescope's image build runs it.
	t0 = time.Now()
	out, err := inContainer(ctx, rootfs, "/", "apt-get update -q && bash /autograder/source/setup.sh")
	t.Logf("setup.sh: %.0f s", time.Since(t0).Seconds())
	if err != nil {
		t.Fatalf("setup.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"installing Go 1.26.11 in /autograder/go", "throwaway container", "making /autograder/source root's alone"} {
		if !strings.Contains(out, want) {
			t.Errorf("setup.sh does not say %q:\n%s", want, out)
		}
	}
	if fi, err := os.Stat(filepath.Join(ag, "source", "repo", "lessons-secret")); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("the secret in the zip: %v, %v; want a file only its owner reads", fi, err)
	}
	if _, err := os.Stat(filepath.Join(rootfs, "usr/local/go")); err == nil {
		t.Errorf("setup.sh made or left /usr/local/go: it installs Go in /autograder/go only")
	}

	// 4. The submissions.
	solution, err := os.ReadFile(filepath.Join(repo, "lessons/hw2_pla/solution.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	attack, err := os.ReadFile(filepath.Join(repo, "lessons/assign/testdata/redteam/shared_files_hw2.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		notebook []byte // nil: nothing handed in
		score    float64
	}{
		{"honest", solution, 14},
		{"empty", nil, 0},
		{"attack", attack, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range []string{"submission", "results"} {
				os.RemoveAll(filepath.Join(ag, d))
				if err := os.MkdirAll(filepath.Join(ag, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tc.notebook != nil {
				if err := os.WriteFile(filepath.Join(ag, "submission", "hw2_pla.ipynb"), tc.notebook, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// Gradescope's submission_metadata.json (its users' IDs give
			// the student of the hidden data).
			meta := `{"id": 123456, "created_at": "2026-11-26T10:00:00.000000-08:00", "users": [{"email": "student@example.org", "id": 4242, "name": "A Student"}], "assignment": {"id": 77, "title": "hw2_pla"}}`
			if err := os.WriteFile(filepath.Join(ag, "submission_metadata.json"), []byte(meta), 0o644); err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			out, err := inContainer(ctx, rootfs, "/autograder", "/autograder/run_autograder >/autograder/results/stdout 2>&1")
			stdout, _ := os.ReadFile(filepath.Join(ag, "results", "stdout"))
			t.Logf("run_autograder: %.1f s; its stdout:\n%s", time.Since(t0).Seconds(), stdout)
			if err != nil {
				t.Fatalf("run_autograder: %v\n%s", err, out)
			}
			js, err := os.ReadFile(filepath.Join(ag, "results", "results.json"))
			if err != nil {
				t.Fatalf("no /autograder/results/results.json: %v", err)
			}
			checkResults(t, js, tc.score, tc.notebook == nil)
			if tc.notebook != nil && !strings.Contains(string(stdout), "Isolation: setpriv") {
				t.Errorf("stdout does not say the level that ran (setpriv: the replica blocks namespaces as Docker does)")
			}
			if strings.Contains(string(js), "FOUND-LEAK") || strings.Contains(string(stdout), "FOUND-LEAK") {
				t.Errorf("a test's process read what another test's process left:\n%s", js)
			}
			// Nothing of a test's uid (2^30 and up) is left.
			left, _ := exec.Command("find", rootfs, "-xdev", "-uid", "+1073741823", "-print").Output()
			if len(left) > 0 {
				t.Errorf("files of the tests' uids were left:\n%s", left)
			}
		})
	}
}

// checkResults checks results.json against Gradescope's specification: a
// number score, execution_time in seconds, output a string, visibility one
// of theirs; each test a score, max_score, name, visibility and output.
func checkResults(t *testing.T, js []byte, score float64, empty bool) {
	t.Helper()
	var res map[string]any
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatalf("results.json is not JSON: %v\n%s", err, js)
	}
	visibilities := map[string]bool{"hidden": true, "after_due_date": true, "after_published": true, "visible": true}
	if s, ok := res["score"].(float64); !ok || s != score {
		t.Errorf("score %v, want %v", res["score"], score)
	}
	out, ok := res["output"].(string)
	if !ok {
		t.Errorf("output %v: want a string", res["output"])
	}
	tests, _ := res["tests"].([]any)
	if empty {
		if want := "The grader could not grade this submission: assign: no .ipynb under /autograder/submission"; !strings.HasPrefix(out, want) {
			t.Errorf("nothing handed in: output %q, want it to start with %q", out, want)
		}
		if len(tests) != 0 {
			t.Errorf("nothing handed in: %d tests", len(tests))
		}
		return
	}
	if e, ok := res["execution_time"].(float64); !ok || e < 0 || e > 600 {
		t.Errorf("execution_time %v: want seconds", res["execution_time"])
	}
	if v, ok := res["visibility"]; ok && !visibilities[fmt.Sprint(v)] {
		t.Errorf("visibility %v: not one of Gradescope's", v)
	}
	if !strings.Contains(out, "Isolation: setpriv") {
		t.Errorf("output does not say which isolation ran: %q", out)
	}
	if len(tests) != 10 {
		t.Fatalf("%d tests, want hw2_pla's 10", len(tests))
	}
	sum, hidden := 0.0, 0
	for i, x := range tests {
		tc, _ := x.(map[string]any)
		s, ok1 := tc["score"].(float64)
		m, ok2 := tc["max_score"].(float64)
		name, ok3 := tc["name"].(string)
		vis, ok4 := tc["visibility"].(string)
		_, ok5 := tc["output"].(string)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !visibilities[vis] || s < 0 || s > m || name == "" {
			t.Errorf("tests[%d] = %v: want score <= max_score (numbers), a name, a visibility of Gradescope's and an output", i, tc)
			continue
		}
		sum += s
		if vis != "visible" {
			hidden++
		}
	}
	if sum != score {
		t.Errorf("the tests' scores add up to %v, the score is %v", sum, score)
	}
	if hidden == 0 {
		t.Errorf("no test is hidden until the due date: hw2_pla has hidden tests")
	}
}

// replicaBase returns the cached tarball of the replica's base root file
// system, debootstrapping it first if need be, and which system it is.
func replicaBase(t *testing.T, ctx context.Context) (string, string) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	suite, mirror := "jammy", "http://archive.ubuntu.com/ubuntu"
	hc := http.Client{Timeout: 10 * time.Second}
	if resp, err := hc.Get(mirror + "/dists/jammy/Release"); err != nil || resp.StatusCode != 200 {
		if err == nil {
			resp.Body.Close()
		}
		if suite, mirror = "bookworm", ""; true {
			if mirror, err = repo.AptMirror("/etc/apt", "bookworm"); err != nil {
				t.Fatal(err)
			}
		}
	} else {
		resp.Body.Close()
	}
	tarball := filepath.Join(cache, "perceptron-lessons", "gradescope-base-"+suite+".tar")
	if _, err := os.Stat(tarball); err == nil {
		return tarball, suite + " (cached " + tarball + ")"
	}
	dir, err := os.MkdirTemp("", "gradescope-base-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	args := []string{"--variant=minbase"}
	if suite == "jammy" {
		if _, err := os.Stat("/usr/share/keyrings/ubuntu-archive-keyring.gpg"); err == nil {
			args = append(args, "--keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg")
		} else {
			// Debian's apt has no Ubuntu keyring here: debootstrap
			// cannot check the Release signature itself. The root's own
			// apt (ubuntu-keyring is in it) checks every later download.
			args = append(args, "--no-check-gpg")
		}
	}
	t0 := time.Now()
	runLogged(t, ctx, "debootstrap", append(args, suite, filepath.Join(dir, "root"), mirror)...)
	if err := os.MkdirAll(filepath.Dir(tarball), 0o755); err != nil {
		t.Fatal(err)
	}
	runLogged(t, ctx, "tar", "-C", filepath.Join(dir, "root"), "--numeric-owner", "-cf", tarball+".part", ".")
	if err := os.Rename(tarball+".part", tarball); err != nil {
		t.Fatal(err)
	}
	t.Logf("base: debootstrap %s from %s: %.0f s", suite, mirror, time.Since(t0).Seconds())
	return tarball, suite + " (debootstrapped now)"
}

// dockerCaps are the capabilities Docker gives a container's root by default.
var dockerCaps = []string{"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW",
	"CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"}

// inContainer runs script with bash in rootfs, from dir, as root in a
// container like Docker's default one (see TestGradescopeReplica).
func inContainer(ctx context.Context, rootfs, dir, script string) (string, error) {
	filter, err := os.CreateTemp("", "seccomp-")
	if err != nil {
		return "", err
	}
	defer os.Remove(filter.Name())
	defer filter.Close()
	if _, err := filter.Write(dockerSeccomp()); err != nil {
		return "", err
	}
	if _, err := filter.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	// The container's /dev is the root's own device nodes (as Docker gives
	// a container its own), not bwrap's --dev, which binds the host's: a
	// chmod in the container (apt's scripts, a lockdown) must not reach the
	// machine's /dev/null.
	if err := ownDevices(filepath.Join(rootfs, "dev")); err != nil {
		return "", err
	}
	args := []string{"--dev-bind", rootfs, "/", "--proc", "/proc", "--ro-bind", "/sys", "/sys",
		"--tmpfs", "/dev/shm", "--chmod", "1777", "/dev/shm",
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "gradescope-replica",
		"--die-with-parent", "--cap-drop", "ALL"}
	for _, c := range dockerCaps {
		args = append(args, "--cap-add", c)
	}
	args = append(args, "--seccomp", "3", "--chdir", dir, "--clearenv",
		"--setenv", "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"--setenv", "HOME", "/root", "--setenv", "LANG", "C.UTF-8",
		"/bin/bash", "-c", script)
	cmd := exec.CommandContext(ctx, "bwrap", args...)
	cmd.ExtraFiles = []*os.File{filter}
	out, err := cmd.CombinedOutput()
	// bwrap's --dev binds the host's own device nodes: whatever the
	// container does to their modes (a lockdown's chmod o-w) is done to
	// the host's. Say so loudly rather than leave the machine without a
	// /dev/null others can write.
	for _, d := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"} {
		if fi, serr := os.Stat(d); serr == nil && fi.Mode().Perm() != 0o666 {
			return string(out), fmt.Errorf("the container changed the host's %s to %v (it must stay 0666): %v", d, fi.Mode().Perm(), err)
		}
	}
	return string(out), err
}

// ownDevices makes the character devices a container needs in dir, nodes
// of the root's own (mode 0666, as Docker's), replacing whatever stands
// there.
func ownDevices(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range []struct {
		name         string
		major, minor uint32
	}{{"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0}} {
		p := filepath.Join(dir, d.name)
		os.Remove(p)
		dev := int(d.major<<8 | d.minor) // Linux's old encoding, exact below 256
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, dev); err != nil {
			return fmt.Errorf("mknod %s: %w", p, err)
		}
		if err := os.Chmod(p, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// dockerSeccomp is a classic BPF seccomp program for x86-64 with the part
// of Docker's default profile that decides what an autograder can isolate:
// without CAP_SYS_ADMIN, unshare, setns, mount, umount2 and pivot_root fail
// with EPERM, clone with a namespace flag too, and clone3 with ENOSYS (so
// that the C library falls back to clone). Everything else is allowed.
func dockerSeccomp() []byte {
	const (
		ldAbs   = 0x20 // BPF_LD|BPF_W|BPF_ABS
		jeq     = 0x15 // BPF_JMP|BPF_JEQ|BPF_K
		jset    = 0x45 // BPF_JMP|BPF_JSET|BPF_K
		ret     = 0x06 // BPF_RET|BPF_K
		allow   = 0x7fff0000
		errno   = 0x00050000
		eperm   = 1
		enosys  = 38
		archX86 = 0xc000003e
		// CLONE_NEWNS|CLONE_NEWCGROUP|CLONE_NEWUTS|CLONE_NEWIPC|CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNET
		newNS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
	)
	type ins struct {
		code   uint16
		jt, jf uint8
		k      uint32
	}
	// x86-64 system call numbers.
	denied := []uint32{272 /* unshare */, 308 /* setns */, 165 /* mount */, 166 /* umount2 */, 155 /* pivot_root */}
	const sysClone, sysClone3 = 56, 435
	var p []ins
	p = append(p, ins{ldAbs, 0, 0, 4}, ins{jeq, 1, 0, archX86}, ins{ret, 0, 0, allow}, ins{ldAbs, 0, 0, 0})
	// After the loads: for each denied call a jump to DENY, then clone3,
	// clone, ALLOW, the flag check, DENY, NOSYS.
	n := len(denied)
	// Index of DENY counted from each jump: layout below.
	//   base+i            : jeq denied[i] -> DENY
	//   base+n            : jeq clone3 -> NOSYS
	//   base+n+1          : jeq clone -> CHECK (next+1)
	//   base+n+2          : ret ALLOW
	//   base+n+3 (CHECK)  : ld args[0] low word
	//   base+n+4          : jset newNS -> DENY : ALLOW
	//   base+n+5          : ret ALLOW
	//   base+n+6 (DENY)   : ret ERRNO|EPERM
	//   base+n+7 (NOSYS)  : ret ERRNO|ENOSYS
	base := len(p)
	deny, nosys := base+n+6, base+n+7
	for i, nr := range denied {
		at := base + i
		p = append(p, ins{jeq, uint8(deny - at - 1), 0, nr})
	}
	p = append(p, ins{jeq, uint8(nosys - (base + n) - 1), 0, sysClone3})
	p = append(p, ins{jeq, 1, 0, sysClone})
	p = append(p, ins{ret, 0, 0, allow})
	p = append(p, ins{ldAbs, 0, 0, 16})
	p = append(p, ins{jset, uint8(deny - (base + n + 4) - 1), 0, newNS})
	p = append(p, ins{ret, 0, 0, allow})
	p = append(p, ins{ret, 0, 0, errno | eperm})
	p = append(p, ins{ret, 0, 0, errno | enosys})
	b := make([]byte, 0, 8*len(p))
	for _, x := range p {
		b = binary.LittleEndian.AppendUint16(b, x.code)
		b = append(b, x.jt, x.jf)
		b = binary.LittleEndian.AppendUint32(b, x.k)
	}
	return b
}

// unzipTo unpacks the zip at path into dst, with the modes it records, as
// Gradescope unpacks an autograder zip.
func unzipTo(path, dst string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, f := range zr.File {
		p := filepath.Join(dst, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dst+string(filepath.Separator)) {
			return fmt.Errorf("zip entry %q outside %s", f.Name, dst)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		r, err := f.Open()
		if err != nil {
			return err
		}
		w, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode())
		if err == nil {
			_, err = io.Copy(w, r)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
		}
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// runLogged runs a command and fails the test with its output if it fails.
func runLogged(t *testing.T, ctx context.Context, name string, args ...string) {
	t.Helper()
	if out, err := exec.CommandContext(ctx, name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}
