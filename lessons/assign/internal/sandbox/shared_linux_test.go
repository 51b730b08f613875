package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// leaver is a student's process as an attacker writes it: it reports what
// an earlier test left in every folder it might share with another test,
// leaves its own marker there, fills its own folder with files, makes a
// System V shared memory segment that outlives it, and starts a daemon
// that leaves its process group.
const leaver = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if os.Getenv("LEAVER_DAEMON") == "1" {
		time.Sleep(time.Minute)
		return
	}
	dirs := []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock", ".", "..", os.TempDir()}
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, "shared-marker")); err == nil {
			fmt.Printf("FOUND %s: %s\n", d, b)
		}
	}
	wrote := 0
	for _, d := range dirs {
		if os.WriteFile(filepath.Join(d, "shared-marker"), []byte("left by an earlier test"), 0o666) == nil && d != "." {
			fmt.Printf("WROTE %s\n", d)
			wrote++
		}
	}
	if id, err := unix.SysvShmGet(0x5eed, 4096, unix.IPC_CREAT|0o666); err == nil {
		fmt.Printf("SHM %d\n", id)
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = []string{"LEAVER_DAEMON=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		fmt.Println("DAEMON")
	}
	fmt.Println("READY")
	n := 0
	for ; n < 20000; n++ {
		if os.WriteFile(fmt.Sprintf("f%05d", n), nil, 0o644) != nil {
			break
		}
	}
	fmt.Printf("MADE %d\n", n)
	time.Sleep(3 * time.Second)
}
`

// TestSharedFiles runs the leaver as two tests one after the other at every
// level that holds files apart here (bwrap; setpriv as root): the second
// must find nothing the first left, the files a test makes are bounded,
// and after each test nothing of its uid is left: no file, no process, no
// shared memory. Where setpriv has no mount namespace and something is
// writable by others (this machine's /tmp), New refuses the level.
func TestSharedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := buildProgram(t, "leaver", leaver)
	levels := []string{LevelBwrap}
	if os.Geteuid() == 0 {
		levels = append(levels, LevelSetpriv)
	}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			sb := openSandbox(t, level)
			// A bound the leaver reaches soon on a slow disk.
			sb.MaxFiles = 500
			for round := 1; round <= 2; round++ {
				b, err := os.ReadFile(bin)
				if err != nil {
					t.Fatal(err)
				}
				copyBin := filepath.Join(t.TempDir(), "leaver")
				if err := os.WriteFile(copyBin, b, 0o755); err != nil {
					t.Fatal(err)
				}
				server, cleanup, err := sb.Prepare(copyBin)
				if err != nil {
					t.Fatal(err)
				}
				r := sb.Run("/bin/sh", []string{"-c", "sleep 8"}, server, []byte("key"), 20*time.Second)
				cleanup()
				if r.Err != nil {
					t.Fatalf("round %d: %v\n%s", round, r.Err, r.Output)
				}
				t.Logf("round %d:\n%s", round, r.Output)
				if !strings.Contains(r.Output, "READY") {
					t.Fatalf("round %d: the leaver did not run to its end:\n%s", round, r.Output)
				}
				if strings.Contains(r.Output, "FOUND") {
					t.Errorf("round %d: a test's process read what an earlier test's left:\n%s", round, r.Output)
				}
				// Bounded: the tmpfs refuses more, or the test is killed.
				if !strings.Contains(r.Output, "MADE ") && !strings.Contains(r.Output, "killed: its process made more than") {
					t.Errorf("round %d: the leaver's files were neither refused nor stopped:\n%s", round, r.Output)
				}
				if i := strings.Index(r.Output, "MADE "); i >= 0 {
					n, _ := strconv.Atoi(strings.Fields(r.Output[i+5:])[0])
					if n > sb.MaxFiles {
						t.Errorf("round %d: the test made %d files, more than its bound of %d", round, n, sb.MaxFiles)
					}
				}
				if level == LevelSetpriv {
					if left := leftByTests(t, sb.runRoot); len(left) > 0 {
						t.Errorf("round %d: left by the test's uid: %v", round, left)
					}
				}
			}
		})
	}
	if os.Geteuid() == 0 && len(OtherWritable("/", 1)) > 0 {
		t.Run("setpriv without namespaces", func(t *testing.T) {
			t.Setenv("ASSIGN_SANDBOX_NO_NAMESPACES", "1")
			_, err := New(LevelSetpriv, 512)
			if !errors.Is(err, ErrSharedWritable) {
				t.Errorf("New: %v, want the level refused (%v): others may write in %v", err, ErrSharedWritable, OtherWritable("/", 4))
			}
		})
	}
}

// leftByTests returns what a test's uid (2^30 and up) left: processes,
// System V IPC objects and files in the shared folders and runRoot. A uid
// that a test holds now (another grader process's, such as the grade
// package's tests running beside these) is not done yet, so not counted.
func leftByTests(t *testing.T, runRoot string) []string {
	var left []string
	isTest := func(s string) bool {
		n, err := strconv.Atoi(s)
		return err == nil && n >= testUIDBase && !heldUID(n)
	}
	eachProcess("status", func(pid int, status string) {
		if u := statusUIDs(status); len(u) > 0 && isTest(u[0]) {
			left = append(left, "process "+strconv.Itoa(pid))
		}
	})
	if b, err := os.ReadFile("/proc/sysvipc/shm"); err == nil {
		lines := strings.Split(string(b), "\n")
		head := strings.Fields(lines[0])
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			for i, h := range head {
				if (h == "uid" || h == "cuid") && i < len(f) && isTest(f[i]) {
					left = append(left, "shared memory "+f[1])
					break
				}
			}
		}
	}
	for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock", runRoot} {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if fi, err := e.Info(); err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid >= testUIDBase {
					left = append(left, "file "+p)
				}
			}
			return nil
		})
	}
	return left
}

// heldUID reports whether a test holds uid now (claimUID's lock).
func heldUID(uid int) bool {
	f, err := os.Open(filepath.Join(uidLockDir, strconv.Itoa(uid)))
	if err != nil {
		return false // never claimed
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}

// openSandbox is New(level, 512), closed when the test ends; the test is
// skipped where bubblewrap is missing.
func openSandbox(t *testing.T, level string) *Sandbox {
	t.Helper()
	sb, err := New(level, 512)
	if errors.Is(err, ErrNoBubblewrap) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

// buildProgram builds the one-file program src, named name, in a
// temporary folder, without cgo, in the repository's module (for
// golang.org/x/sys), and returns the binary's path.
func buildProgram(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-o", bin, filepath.Join(dir, "main.go"))
	build.Dir = "../../.."
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the %s: %v\n%s", name, err, out)
	}
	return bin
}
