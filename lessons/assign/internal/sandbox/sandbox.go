// Package sandbox runs the student's process of a test at one isolation
// level (bwrap, setpriv or none), beside the trusted test process that
// calls it, with limits on time, memory, processes and files, and kills
// everything the test started when it ends.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Isolation levels of the test processes.
const (
	// LevelBwrap runs each test in a bubblewrap sandbox: new user, PID,
	// network, IPC, UTS and mount namespaces, uid 65534, nothing of the
	// host's file system but an empty root holding the test binary
	// (read-only), /proc, a minimal /dev and a /tmp and work folder of
	// its own (fresh folders of the grader's, their files counted while
	// it runs and removed after it), rlimits, and a memory and
	// process-count cgroup.
	LevelBwrap = "bwrap"
	// LevelSetpriv is the weaker level for machines without user
	// namespaces (Gradescope's Docker), as root: the test runs as a uid
	// of its own with no capabilities and no_new_privs (setpriv), rlimits
	// on file size, processes and open files, in a fresh folder of its
	// own that is bounded (a tmpfs with size and inode limits in a mount
	// namespace, else counted while it runs) and removed after it, and
	// every process and System V IPC object of its uid is removed after
	// it. Where root may create namespaces it also gets no network, a PID
	// namespace, and a read-only view of every file system but its own
	// folder and private /tmp; where it may not, New refuses the level
	// unless no folder or file outside the test's own is writable by
	// others (run_autograder's lockdown in a throwaway container), and
	// student processes of different tests never run at the same time.
	LevelSetpriv = "setpriv"
	// LevelAuto is the strongest level that works here: bwrap, else
	// setpriv (as root). Sandbox.Why says why the others were not used.
	LevelAuto = "auto"
	// LevelNone runs tests as the grader's user, without isolation. Only
	// for a trusted submission; every report says so.
	LevelNone = "none"
)

// nobody is the unprivileged uid and gid tests run as (bwrap).
const nobody = 65534

// At setpriv each test runs as a uid of its own (claimUID), counted from
// testUIDBase: far above any account's, mapped to no user.
const (
	testUIDBase  = 1 << 30
	testUIDCount = 1 << 20
)

// Sandbox runs test processes at one isolation level, each under a memory
// limit on the resident memory of its whole process tree.
type Sandbox struct {
	Level    string
	MemoryMB int // limit on the resident memory of a test's process tree (0: none)
	TmpMB    int // bytes a test may write in its folders, and in any one file (RLIMIT_FSIZE)
	Procs    int // processes and threads of one test's tree
	// Hide are folders the student's process must not read (the
	// repository and the lessons: hidden tests, solutions). At setpriv
	// they are covered by an empty tmpfs in its mount namespace.
	Hide []string
	// Missing names the guarantees this level cannot give here (empty
	// for bwrap): each report says so, and grade refuses the level unless
	// -accept-weaker is passed.
	Missing []string
	// Why says why an automatic choice (LevelAuto) fell on this level.
	Why string
	// MaxFiles bounds the files and folders a test may create in its
	// folder (and in each private /tmp at setpriv with namespaces).
	MaxFiles int
	cg       *cgroups
	serial   sync.Mutex     // setpriv without a network namespace: one student process at a time
	removing sync.WaitGroup // cgroups of finished tests being removed
	runRoot  string         // setpriv: a 0711 folder holding the test binaries and work folders
	unshare  []string       // setpriv: the unshare command that gives the namespaces that work here
}

// runSeq numbers the test processes of this grader process (every
// Sandbox), naming their cgroups.
var runSeq atomic.Int64

// New checks that level can run here and prepares it. It fails
// with a message saying what to do when bubblewrap cannot run.
// ErrNoBubblewrap is the error of New at the bwrap level on a machine
// without bubblewrap's bwrap command.
var ErrNoBubblewrap = errors.New("the sandbox needs bubblewrap")

// ErrSharedWritable is the error of New at the setpriv level where no mount
// namespace can be made and something outside a test's own folder is
// writable by others: whatever -accept-weaker says, such a level is
// refused, since tests could pass files to each other.
var ErrSharedWritable = errors.New("-sandbox=setpriv refused")

// newAuto returns the strongest level that runs here, saying why in Why.
func newAuto(memoryMB int) (*Sandbox, error) {
	s, err := New(LevelBwrap, memoryMB)
	if err == nil {
		s.Why = "bwrap runs here"
		return s, nil
	}
	why := "bwrap cannot run here (" + err.Error() + ")"
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("-sandbox=auto: %s, and setpriv needs root", why)
	}
	s, err2 := New(LevelSetpriv, memoryMB)
	if err2 != nil {
		return nil, fmt.Errorf("-sandbox=auto: %s, and %v", why, err2)
	}
	s.Why = why
	return s, nil
}

// OtherWritable returns up to max paths (folders, files, sockets, pipes)
// under root that a process of a uid owning no file and in no group could
// write: mode o+w, reached through folders with o+x. It walks every file
// system but the kernel's (proc, sysfs, cgroup, devpts...); devices are
// left out (/dev/null is writable by all, and holds nothing).
func OtherWritable(root string, max int) []string {
	skip := map[string]bool{}
	if b, err := os.ReadFile("/proc/self/mounts"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) < 3 {
				continue
			}
			// A POSIX message queue lives on mqueue: it stays.
			if kernelFS[f[2]] && f[2] != "mqueue" {
				skip[unescapeMount(f[1])] = true
			}
		}
	}
	var found []string
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if len(found) >= max {
				return
			}
			p := filepath.Join(dir, e.Name())
			if skip[p] {
				continue
			}
			t := e.Type()
			if t&(os.ModeSymlink|os.ModeDevice|os.ModeCharDevice) != 0 {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			if fi.Mode().Perm()&0o002 != 0 {
				found = append(found, p)
			}
			if t.IsDir() && fi.Mode().Perm()&0o001 != 0 {
				walk(p)
			}
		}
	}
	if fi, err := os.Stat(root); err == nil && fi.Mode().Perm()&0o002 != 0 {
		found = append(found, root)
	}
	walk(root)
	return found
}

// unescapeMount undoes the octal escapes of /proc/self/mounts (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func New(level string, memoryMB int) (*Sandbox, error) {
	if level == LevelAuto {
		return newAuto(memoryMB)
	}
	s := &Sandbox{Level: level, MemoryMB: memoryMB, TmpMB: 64, Procs: 256, MaxFiles: 4096}
	if level != LevelNone && !sandboxSupported {
		return nil, fmt.Errorf("-sandbox=%s needs Linux (namespaces, setpriv, cgroups); here only -sandbox=none runs, which is no sandbox: grade only code you trust", level)
	}
	switch level {
	case LevelBwrap:
		if _, err := exec.LookPath("bwrap"); err != nil {
			return nil, fmt.Errorf("%w: apt-get install bubblewrap (or, where user namespaces are blocked, -sandbox=setpriv; see lessons/README.md)", ErrNoBubblewrap)
		}
		out, err := exec.Command("bwrap", "--unshare-all", "--die-with-parent", "--uid", strconv.Itoa(nobody), "--gid", strconv.Itoa(nobody),
			"--ro-bind", "/", "/", "true").CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("bubblewrap cannot run here (%v: %s); user namespaces may be blocked. Use -sandbox=setpriv for the weaker level, as root (see lessons/README.md)",
				err, strings.TrimSpace(string(out)))
		}
	case LevelSetpriv:
		if os.Geteuid() != 0 {
			return nil, errors.New("-sandbox=setpriv drops to uid 65534 and needs root")
		}
		for _, tool := range []string{"setpriv", "prlimit"} {
			if _, err := exec.LookPath(tool); err != nil {
				return nil, fmt.Errorf("-sandbox=setpriv needs %s (util-linux)", tool)
			}
		}
		// The binaries and work folders live outside /tmp, which each
		// test gets a private copy of.
		parent := "/run"
		if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
			parent = ""
		}
		dir, err := os.MkdirTemp(parent, "assign-run-")
		if err != nil {
			return nil, err
		}
		if err := os.Chmod(dir, 0o711); err != nil {
			return nil, err
		}
		s.runRoot = dir
	case LevelNone:
	default:
		return nil, fmt.Errorf("unknown -sandbox %q: want bwrap, setpriv or none", level)
	}
	if level != LevelNone {
		s.cg = findCgroups()
	}
	switch level {
	case LevelSetpriv:
		// Namespaces as root, where the container allows them: no
		// network, a PID namespace (a daemon dies with its test), a
		// mount namespace (every file system read-only but the test's
		// own folder and private /tmp, the instructor's folders hidden).
		tries := [][]string{
			{"unshare", "--net", "--pid", "--mount", "--ipc", "--fork", "--kill-child", "--propagation", "private"},
			{"unshare", "--net", "--pid", "--fork", "--kill-child"},
			{"unshare", "--net"},
		}
		if os.Getenv("ASSIGN_SANDBOX_NO_NAMESPACES") == "1" {
			// For testing the level as a container without namespaces
			// (Gradescope's Docker) has it.
			tries = nil
		}
		for _, try := range tries {
			if exec.Command(try[0], append(try[1:], "--", "true")...).Run() == nil {
				s.unshare = try
				break
			}
		}
		has := func(flag string) bool { return slices.Contains(s.unshare, flag) }
		if !has("--net") {
			s.Missing = append(s.Missing, "no network namespace (unshare --net fails here): the test's process shares the machine's network (no two tests' processes run at the same time)")
		}
		if !has("--mount") {
			// Nothing outside the test's own folder may be writable by
			// its uid: else a hidden test's process could leave files
			// that a visible test's process reads back.
			// The usual shared folders first: a whole walk takes long.
			var w []string
			for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock"} {
				if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o002 != 0 {
					w = append(w, d)
				}
			}
			if len(w) == 0 {
				w = OtherWritable("/", 8)
			}
			if len(w) > 0 {
				s.Close()
				return nil, fmt.Errorf("%w: no mount namespace here (unshare --mount fails), and others may write in %s: a hidden test's process could leave files there for a visible test to read. Use -sandbox=bwrap, run where root may create namespaces, or, in a throwaway container only, remove others' write permission (Gradescope's run_autograder does: chmod o-w)",
					ErrSharedWritable, strings.Join(w, ", "))
			}
			s.Missing = append(s.Missing, "no mount namespace: the test's process can read what is world-readable (keep the sources go-rwx)")
		}
	case LevelNone:
		s.Missing = []string{"no sandbox at all: the student's code runs as your user, with your files, network and processes"}
	}
	return s, nil
}

// Close removes what New made.
func (s *Sandbox) Close() {
	s.removing.Wait()
	if s.runRoot != "" {
		os.RemoveAll(s.runRoot)
	}
}

// Describe says in one line what the level does, for every report.
func (s *Sandbox) Describe() string {
	mem := "no memory limit"
	if s.MemoryMB > 0 {
		how := "resident memory of the process tree, polled every 50 ms (no writable cgroup here)"
		if s.cg != nil {
			how = "resident memory of the process tree, polled every 50 ms, and a cgroup " + s.cg.version + " limit 25% above it"
		}
		mem = fmt.Sprintf("%d MiB on the %s", s.MemoryMB, how)
	}
	why := ""
	if s.Why != "" {
		why = " [chosen by -sandbox=auto: " + s.Why + "]"
	}
	switch s.Level {
	case LevelBwrap:
		return "bwrap sandbox (no network, uid 65534, only the student's program visible, its own /work and /tmp (at most " + strconv.Itoa(s.MaxFiles) + " files and " + strconv.Itoa(s.TmpMB) + " MiB, counted) removed after it; memory: " + mem + ")" + why
	case LevelSetpriv:
		d := "setpriv (a uid of its own per test, no capabilities, rlimits, own process group"
		if slices.Contains(s.unshare, "--net") {
			d += ", no network"
		}
		if slices.Contains(s.unshare, "--pid") {
			d += ", a PID namespace"
		}
		if slices.Contains(s.unshare, "--mount") {
			d += ", the sources hidden, every file system read-only but its own folder and private /tmp (tmpfs of " + strconv.Itoa(s.TmpMB) + " MiB and " + strconv.Itoa(s.MaxFiles) + " files each)"
		} else {
			d += ", nothing writable by others but its own folder (at most " + strconv.Itoa(s.MaxFiles) + " files and " + strconv.Itoa(s.TmpMB) + " MiB, counted), one test at a time"
		}
		d += ", its processes, IPC objects and files removed after it; memory: " + mem + ")"
		if len(s.Missing) > 0 {
			d += "; MISSING: " + strings.Join(s.Missing, "; ")
		}
		return d + why
	}
	return "NO ISOLATION (-sandbox=none): the submission's code ran as the grader's user"
}

// Result is one test run by Run.
type Result struct {
	Output   string  // what both processes printed, cut at 64 KiB
	Verdict  []byte  // what the trusted process wrote on its verdict channel
	TimedOut bool    // killed at the time limit: the CPU time of the student's processes, or the wall-time bound (WallLimit)
	Stalled  bool    // killed at the wall-time bound, having used less CPU time than the limit: it waited and did not end
	CPU      float64 // CPU time of the student's processes, in seconds, as last polled
	OOM      bool    // the student's process tree went over the memory limit
	Err      error   // the grader could not run the test
	Seconds  float64 // wall time
}

// Prepare returns the path of a copy of the test binary that the sandbox
// can execute; cleanup removes it.
func (s *Sandbox) Prepare(bin string) (string, func(), error) {
	if s.Level == LevelBwrap {
		// Execute-only, bound into the sandbox: the test can run it but
		// not read it. Inside, uid 65534 is the grader's uid (root)
		// mapped, so the file must belong to another uid (nobody's, which
		// the namespace does not map).
		if err := os.Chown(bin, nobody, nobody); err != nil {
			return "", nil, err
		}
		return bin, func() {}, os.Chmod(bin, 0o111)
	}
	if s.Level != LevelSetpriv {
		return bin, func() {}, nil
	}
	dir, err := os.MkdirTemp(s.runRoot, "sub-")
	if err != nil {
		return "", nil, err
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return "", nil, err
	}
	dst := filepath.Join(dir, "graded.test")
	b, err := os.ReadFile(bin)
	if err != nil {
		return "", nil, err
	}
	// Execute-only: the test can run it but not read it.
	if err := os.WriteFile(dst, b, 0o111); err != nil {
		return "", nil, err
	}
	return dst, func() { os.RemoveAll(dir) }, nil
}

// Run runs one test: the trusted test binary with args, outside the
// sandbox (it holds no student code), and the student's process server in
// the sandbox, connected by two pipes (the trusted process's fd 5 reads
// the replies, its fd 6 writes the calls; the server's fd 3 reads the
// calls, its fd 4 writes the replies), both within timeout: the CPU time
// of the student's processes (polled every 50 ms), and WallLimit(timeout)
// of wall time for a test that waits. It hands the
// trusted process a fresh random key on fd 3 and collects what it writes
// on fd 4 (the verdict channel); what both processes print, on one pipe
// in the order they print it, is kept up to 64 KiB.
func (s *Sandbox) Run(trusted string, args []string, server string, key []byte, timeout time.Duration) Result {
	var r Result
	n := runSeq.Add(1)
	var argv []string
	var workDir string
	var counted []string // folders the test may write in, counted while it runs
	limits := []string{"prlimit", fmt.Sprintf("--fsize=%d", s.TmpMB<<20), "--core=0", "--nofile=256"}
	switch s.Level {
	case LevelBwrap:
		// Its /work and /tmp are folders of its own on this machine,
		// counted while it runs (bwrap's tmpfs bounds bytes, not files)
		// and removed after it.
		base, err := os.MkdirTemp("", "assign-bwrap-")
		if err != nil {
			r.Err = err
			return r
		}
		defer os.RemoveAll(base)
		work, tmp := filepath.Join(base, "work"), filepath.Join(base, "tmp")
		for _, d := range []string{work, tmp} {
			if err := os.Mkdir(d, 0o700); err != nil {
				r.Err = err
				return r
			}
		}
		counted = []string{work, tmp}
		argv = append(limits, "--", "bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
			"--uid", strconv.Itoa(nobody), "--gid", strconv.Itoa(nobody),
			"--proc", "/proc", "--dev", "/dev",
			"--bind", tmp, "/tmp",
			"--bind", work, "/work",
			"--ro-bind", server, "/work/graded.server",
			"--remount-ro", "/",
			"--chdir", "/work", "--clearenv", "--setenv", "HOME", "/work", "--setenv", "TMPDIR", "/tmp",
			"/work/graded.server")
	case LevelSetpriv:
		if !slices.Contains(s.unshare, "--net") {
			// Sharing the network, two tests' processes alive at once
			// could talk (loopback, abstract sockets): one at a time.
			s.serial.Lock()
			defer s.serial.Unlock()
		}
		dir, err := os.MkdirTemp(s.runRoot, "work-")
		if err != nil {
			r.Err = err
			return r
		}
		defer os.RemoveAll(dir)
		// A uid of its own, among every grader process's tests running
		// now: no test can signal, trace or read another's processes,
		// and RLIMIT_NPROC counts this test's alone.
		uidN, release, err := claimUID()
		if err != nil {
			r.Err = err
			return r
		}
		defer release() // after removeUID below: deferred calls run last first
		uid := strconv.Itoa(uidN)
		if err := os.Chown(dir, uidN, uidN); err != nil {
			r.Err = err
			return r
		}
		os.Chmod(dir, 0o700)
		// After the test, nothing of its uid is left: no process (a
		// setsid daemon), no System V IPC object (a shared memory
		// segment outlives its process), no file (its folder goes).
		defer removeUID(uidN)
		workDir = dir
		argv = append(limits, fmt.Sprintf("--nproc=%d", s.Procs), "--", "setpriv",
			"--reuid", uid, "--regid", uid, "--clear-groups",
			"--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", server)
		if len(s.unshare) > 0 {
			wrap := append(slices.Clone(s.unshare), "--")
			if slices.Contains(s.unshare, "--mount") {
				// Every file system read-only, the instructor's folders
				// covered, then the test's own bounded tmpfs: its
				// folder and private /tmp, /var/tmp, /dev/shm,
				// /run/lock. They vanish with the namespace.
				tmpfs := fmt.Sprintf("size=%dm,nr_inodes=%d", s.TmpMB, s.MaxFiles)
				wrap = append(wrap, "/bin/sh", "-c", `IFS='
'; for m in $RO_MOUNTS; do mount -o remount,bind,ro "$m" || exit 126; done; for d in $HIDE_DIRS; do [ -d "$d" ] || continue; mount -t tmpfs -o ro,size=1m,nr_inodes=16,mode=0755 tmpfs "$d" || exit 126; done; for d in /tmp /var/tmp /dev/shm /run/lock; do [ -d "$d" ] && { mount -t tmpfs -o `+tmpfs+`,mode=1777 tmpfs "$d" || exit 126; }; done; mount -t tmpfs -o `+tmpfs+`,mode=0700,uid=`+uid+`,gid=`+uid+` tmpfs "$WORK" && cd "$WORK" || exit 126; unset HIDE_DIRS RO_MOUNTS WORK; exec "$@"`, "sh")
			}
			argv = append(wrap, argv...)
		}
	default:
		dir, err := os.MkdirTemp("", "assign-test-")
		if err != nil {
			r.Err = err
			return r
		}
		defer os.RemoveAll(dir)
		workDir = dir
		argv = []string{server}
	}
	// Join the cgroup first (the shell writes its own pid, then becomes
	// the sandbox), so that every process of the tree is counted.
	var cg *cgroup
	if s.cg != nil {
		var err error
		// The cgroup is the hard limit, a little above the one the
		// watchdog below enforces: near its limit the kernel reclaims the
		// binary's own pages over and over before it kills, which can
		// take seconds.
		hard := 0
		if s.MemoryMB > 0 {
			hard = s.MemoryMB + max(64, s.MemoryMB/4)
		}
		if cg, err = s.cg.create(fmt.Sprintf("t%d-%d", os.Getpid(), n), hard, s.Procs); err != nil {
			r.Err = err
			return r
		}
		// The tree is killed before Run returns; removing the empty
		// groups (which the kernel may refuse for a moment) need not
		// hold up the next test.
		s.removing.Add(1)
		defer func() {
			go func() {
				defer s.removing.Done()
				cg.remove()
			}()
		}()
		argv = append([]string{"/bin/sh", "-c", `for f in $CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; unset CGROUP_PROCS; exec "$@"`, "sh"}, argv...)
	}
	// The pipes: key, verdict, calls, replies, output.
	var pipes [5][2]*os.File
	closeAll := func() {
		for _, p := range pipes {
			for _, f := range p {
				if f != nil {
					f.Close()
				}
			}
		}
	}
	for i := range pipes {
		pr, pw, err := os.Pipe()
		if err != nil {
			closeAll()
			r.Err = err
			return r
		}
		pipes[i] = [2]*os.File{pr, pw}
	}
	keyP, verP, callP, replyP, outP := pipes[0], pipes[1], pipes[2], pipes[3], pipes[4]
	defer closeAll()

	student := exec.Command(argv[0], argv[1:]...)
	student.Dir = workDir
	student.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + workDir, "TMPDIR=/tmp"}
	if s.Level == LevelSetpriv && slices.Contains(s.unshare, "--mount") {
		student.Env = append(student.Env, "HIDE_DIRS="+strings.Join(s.Hide, "\n"),
			"RO_MOUNTS="+strings.Join(writableMounts(), "\n"), "WORK="+workDir)
	} else if s.Level == LevelSetpriv {
		// No private /tmp here: its own folder is its only writable one.
		student.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + workDir, "TMPDIR=" + workDir}
	}
	if cg != nil {
		student.Env = append(student.Env, "CGROUP_PROCS="+strings.Join(cg.procs, " "))
	}
	student.ExtraFiles = []*os.File{callP[0], replyP[1]}
	student.Stdout, student.Stderr = outP[1], outP[1]
	student.SysProcAttr = SysProcAttr()
	tdir, err := os.MkdirTemp("", "assign-trusted-run-")
	if err != nil {
		r.Err = err
		return r
	}
	defer os.RemoveAll(tdir)
	test := exec.Command(trusted, args...)
	test.Dir = tdir
	test.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + tdir, "TMPDIR=" + tdir}
	test.ExtraFiles = []*os.File{keyP[0], verP[1], replyP[0], callP[1]}
	test.Stdout, test.Stderr = outP[1], outP[1]
	test.SysProcAttr = SysProcAttr()

	out := &LimitedBuffer{Max: 64 << 10}
	start := time.Now()
	if err := student.Start(); err != nil {
		r.Err = err
		return r
	}
	killTree := func() {
		KillGroup(student.Process.Pid)
		student.Process.Kill()
		if cg != nil {
			cg.killAll()
		}
	}
	studentDone := make(chan error, 1)
	go func() { studentDone <- student.Wait() }()
	if err := test.Start(); err != nil {
		killTree()
		<-studentDone
		r.Err = err
		return r
	}
	// Only the children hold the ends they use now: a process that ends
	// closes its ends, and the other side reads EOF.
	for _, f := range []*os.File{keyP[0], verP[1], callP[0], callP[1], replyP[0], replyP[1], outP[1]} {
		f.Close()
	}
	keyP[1].Write(key)
	keyP[1].Close()
	var verdict bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			n, err := verP[0].Read(buf)
			if verdict.Len() < 64<<10 {
				verdict.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := outP[0].Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	testDone := make(chan error, 1)
	go func() { testDone <- test.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), WallLimit(timeout))
	defer cancel()
	var memExceeded, filesExceeded, cpuExceeded atomic.Bool
	var cpuUsed atomic.Int64 // time.Duration
	if s.Level == LevelSetpriv && !slices.Contains(s.unshare, "--mount") {
		// No tmpfs to bound it: its folder is counted while it runs.
		counted = []string{workDir}
	}
	if len(counted) > 0 {
		go watchDirs(ctx, counted, s.MaxFiles, int64(s.TmpMB)<<20, func() { filesExceeded.Store(true); killTree() })
	}
	// One pass over /proc every 50 ms measures both trees. The student's:
	// its memory, and its CPU time, which is the time limit (a test that
	// waits for a core behind other work uses none, so the verdict does
	// not depend on the machine's load). The trusted process's memory:
	// it holds what the student's replies decode to (64 MiB a message at
	// most, but as many as it sends), so it gets the same limit.
	memLimit := int64(s.MemoryMB) << 20
	var trustedOver atomic.Bool
	go watch(ctx, func() {
		if !trustedOver.Load() {
			killTree()
		}
		if cpuExceeded.Load() || trustedOver.Load() {
			KillGroup(test.Process.Pid)
			test.Process.Kill()
		}
	}, func() bool {
		u := treeUsage(student.Process.Pid, test.Process.Pid)
		cpuUsed.Store(int64(u[0].cpu))
		switch {
		case s.MemoryMB > 0 && u[0].rss > memLimit:
			memExceeded.Store(true)
		case s.MemoryMB > 0 && u[1].rss > memLimit:
			memExceeded.Store(true)
			trustedOver.Store(true)
		case u[0].cpu > timeout:
			cpuExceeded.Store(true)
		default:
			return false
		}
		return true
	})
	select {
	case err = <-testDone:
	case <-ctx.Done():
		r.TimedOut, r.Stalled = true, true
		KillGroup(test.Process.Pid)
		test.Process.Kill()
		err = <-testDone
	}
	if cpuExceeded.Load() {
		r.TimedOut, r.Stalled = true, false
	}
	r.CPU = time.Duration(cpuUsed.Load()).Seconds()
	// Whatever is left of the student's tree (a daemon, a child) dies
	// with the test.
	killTree()
	<-studentDone
	// A process that escaped the kill may hold the output pipe: stop
	// reading after a grace period.
	verP[0].SetReadDeadline(time.Now().Add(2 * time.Second))
	outP[0].SetReadDeadline(time.Now().Add(2 * time.Second))
	wg.Wait()
	r.Seconds = time.Since(start).Seconds()
	r.Output = out.String()
	if filesExceeded.Load() {
		r.Output += fmt.Sprintf("\nkilled: its process made more than %d files or %d MiB in its folder\n", s.MaxFiles, s.TmpMB)
	}
	r.Verdict = verdict.Bytes()
	r.OOM = memExceeded.Load() || (cg != nil && cg.oomKilled())
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			r.Err = err
		}
	}
	return r
}

// WallLimit is the wall-time bound of a test whose CPU-time limit is
// timeout: three times it, and at least 10 s more. It stops a test that
// waits for something that never comes (using no CPU), and leaves a test
// that only waited for a core behind other work time to end.
func WallLimit(timeout time.Duration) time.Duration {
	return max(3*timeout, timeout+10*time.Second)
}

// watchDirs calls kill when the folders dirs hold more than maxFiles
// entries or maxBytes bytes together. It polls every 50 ms, so a fast
// writer may overshoot by what it makes in that time (each file is bounded
// by RLIMIT_FSIZE anyway).
func watchDirs(ctx context.Context, dirs []string, maxFiles int, maxBytes int64, kill func()) {
	watch(ctx, kill, func() bool {
		files, bytes := 0, int64(0)
		for _, dir := range dirs {
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || p == dir {
					return nil
				}
				files++
				if fi, err := d.Info(); err == nil {
					bytes += fi.Size()
				}
				if files > maxFiles {
					return filepath.SkipAll
				}
				return nil
			})
		}
		return files > maxFiles || bytes > maxBytes
	})
}

// watch calls kill once over reports true, asking it every 50 ms until ctx
// ends.
func watch(ctx context.Context, kill func(), over func() bool) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if over() {
			kill()
			return
		}
	}
}

// kernelFS are the file system types of the kernel's interfaces, which
// hold no files a test could leave for another.
var kernelFS = map[string]bool{"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "securityfs": true,
	"debugfs": true, "tracefs": true, "fusectl": true, "configfs": true, "bpf": true, "pstore": true, "binfmt_misc": true,
	"hugetlbfs": true, "autofs": true, "nsfs": true, "mqueue": true}

// writableMounts returns the mount points of this machine mounted
// read-write, but the kernel's (kernelFS): a test's mount namespace makes
// them read-only.
func writableMounts() []string {
	b, err := os.ReadFile("/proc/self/mounts")
	if err != nil {
		return nil
	}
	var ms []string
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || kernelFS[f[2]] || !slices.Contains(strings.Split(f[3], ","), "rw") {
			continue
		}
		m := unescapeMount(f[1])
		if !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	return ms
}

// removeUID kills every process of uid until none is left and removes the
// System V IPC objects (shared memory, message queues, semaphores) it
// owns: what a test's process made that outlives it without a namespace.
func removeUID(uid int) {
	u := strconv.Itoa(uid)
	for round := 0; round < 100; round++ {
		any := false
		eachProcess("status", func(pid int, status string) {
			if slices.Contains(statusUIDs(status), u) {
				killPid(pid)
				any = true
			}
		})
		if !any {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, k := range []struct{ file, flag string }{{"shm", "-m"}, {"msg", "-q"}, {"sem", "-s"}} {
		b, err := os.ReadFile("/proc/sysvipc/" + k.file)
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		head := strings.Fields(lines[0])
		idCol, uidCol := 1, slices.Index(head, "uid")
		if uidCol < 0 {
			continue
		}
		var args []string
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			if len(f) > max(idCol, uidCol) && (f[uidCol] == u || (slices.Index(head, "cuid") >= 0 && f[slices.Index(head, "cuid")] == u)) {
				args = append(args, k.flag, f[idCol])
			}
		}
		if len(args) > 0 {
			exec.Command("ipcrm", args...).Run()
		}
	}
}

// eachProcess calls fn with the pid and the content of /proc/PID/file of
// every process whose file it can read (one that ended meanwhile is passed
// over).
func eachProcess(file string, fn func(pid int, data string)) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), file))
		if err != nil {
			continue
		}
		fn(pid, string(b))
	}
}

// statusUIDs are the real, effective, saved and filesystem uids of the
// Uid: line of a /proc/PID/status, or none if it has none.
func statusUIDs(status string) []string {
	for _, l := range strings.Split(status, "\n") {
		if f, ok := strings.CutPrefix(l, "Uid:"); ok {
			return strings.Fields(f)
		}
	}
	return nil
}

// WatchMemory kills the tree rooted at pid (through kill) when its
// resident memory exceeds limit bytes. It polls every 50 ms, so a fast
// allocation may overshoot by what it allocates in that time; where no
// cgroup is writable it is the only memory limit.
func WatchMemory(ctx context.Context, pid int, limit int64, kill func()) {
	watch(ctx, kill, func() bool { return treeRSS(pid) > limit })
}

// treeRSS sums the resident memory of pid and its descendants, from /proc.
func treeRSS(root int) int64 {
	return treeUsage(root)[0].rss
}

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100
// on every Linux architecture Go runs on).
const clockTick = 10 * time.Millisecond

// usage is what treeUsage sums over a process tree.
type usage struct {
	rss int64         // resident memory, bytes
	cpu time.Duration // CPU time, user and system, with that of the children each process has waited for
}

// treeUsage sums the resident memory and the CPU time of each root and its
// descendants, in one pass over /proc.
func treeUsage(roots ...int) []usage {
	type proc struct {
		ppid  int
		rss   int64
		ticks int64
	}
	procs := map[int]proc{}
	page := int64(os.Getpagesize())
	eachProcess("stat", func(pid int, s string) {
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			return
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 22 {
			return
		}
		var u proc
		u.ppid, _ = strconv.Atoi(f[1])
		pages, _ := strconv.ParseInt(f[21], 10, 64)
		u.rss = pages * page
		for _, k := range f[11:15] { // utime, stime, cutime, cstime
			t, _ := strconv.ParseInt(k, 10, 64)
			u.ticks += t
		}
		procs[pid] = u
	})
	sums := make([]usage, len(roots))
	for pid, u := range procs {
		for p, steps := pid, 0; p > 1 && steps < 64; p, steps = procs[p].ppid, steps+1 {
			if i := slices.Index(roots, p); i >= 0 {
				sums[i].rss += u.rss
				sums[i].cpu += time.Duration(u.ticks) * clockTick
				break
			}
		}
	}
	return sums
}

// cgroups is a writable cgroup hierarchy with the memory and pids
// controllers: version 2 if the unified hierarchy has them, else version 1.
type cgroups struct {
	version string // "v2" or "v1"
	mem     string // parent folder of the groups made for the memory controller
	pids    string // the same for pids (equal to mem for v2)
}

// findCgroups finds a cgroup hierarchy where the grader may make groups,
// or returns nil.
func findCgroups() *cgroups {
	probe := func(dir string, files ...string) bool {
		p := filepath.Join(dir, fmt.Sprintf("assign-probe-%d", os.Getpid()))
		if err := os.Mkdir(p, 0o755); err != nil {
			return false
		}
		defer os.Remove(p)
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(p, f)); err != nil {
				return false
			}
		}
		return true
	}
	const root = "/sys/fs/cgroup"
	if b, err := os.ReadFile(filepath.Join(root, "cgroup.controllers")); err == nil &&
		strings.Contains(string(b), "memory") && strings.Contains(string(b), "pids") {
		os.WriteFile(filepath.Join(root, "cgroup.subtree_control"), []byte("+memory +pids"), 0o644)
		if probe(root, "memory.max", "pids.max") {
			return &cgroups{version: "v2", mem: root, pids: root}
		}
	}
	if probe(filepath.Join(root, "memory"), "memory.limit_in_bytes") && probe(filepath.Join(root, "pids"), "pids.max") {
		return &cgroups{version: "v1", mem: filepath.Join(root, "memory"), pids: filepath.Join(root, "pids")}
	}
	return nil
}

// cgroup is the group of one test process tree.
type cgroup struct {
	c     *cgroups
	dirs  []string
	procs []string // the cgroup.procs files to join
	mem   string
}

func (c *cgroups) create(name string, memoryMB, procs int) (*cgroup, error) {
	g := &cgroup{c: c}
	mk := func(parent string) (string, error) {
		d := filepath.Join(parent, "assign-"+name)
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", fmt.Errorf("cgroup: %v", err)
		}
		g.dirs = append(g.dirs, d)
		g.procs = append(g.procs, filepath.Join(d, "cgroup.procs"))
		return d, nil
	}
	write := func(path, value string) error {
		if err := os.WriteFile(path, []byte(value), 0o644); err != nil {
			g.remove()
			return fmt.Errorf("cgroup: %v", err)
		}
		return nil
	}
	mem, err := mk(c.mem)
	if err != nil {
		return nil, err
	}
	g.mem = mem
	limit := strconv.FormatInt(int64(memoryMB)<<20, 10)
	if c.version == "v2" {
		if memoryMB > 0 {
			if err := write(filepath.Join(mem, "memory.max"), limit); err != nil {
				return nil, err
			}
			os.WriteFile(filepath.Join(mem, "memory.swap.max"), []byte("0"), 0o644)
		}
		return g, write(filepath.Join(mem, "pids.max"), strconv.Itoa(procs))
	}
	if memoryMB > 0 {
		if err := write(filepath.Join(mem, "memory.limit_in_bytes"), limit); err != nil {
			return nil, err
		}
		// With swap accounting, swap counts too (absent without it).
		os.WriteFile(filepath.Join(mem, "memory.memsw.limit_in_bytes"), []byte(limit), 0o644)
	}
	pids, err := mk(c.pids)
	if err != nil {
		g.remove()
		return nil, err
	}
	return g, write(filepath.Join(pids, "pids.max"), strconv.Itoa(procs))
}

// killAll kills every process in the group until it is empty.
func (g *cgroup) killAll() {
	if g.c.version == "v2" {
		os.WriteFile(filepath.Join(g.mem, "cgroup.kill"), []byte("1"), 0o644)
	}
	for round := 0; round < 100; round++ {
		any := false
		for _, p := range g.procs {
			b, _ := os.ReadFile(p)
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
					killPid(pid)
					any = true
				}
			}
		}
		if !any {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// oomKilled reports whether the kernel killed a process of the group for
// going over the memory limit.
func (g *cgroup) oomKilled() bool {
	file, key := "memory.oom_control", "oom_kill "
	if g.c.version == "v2" {
		file, key = "memory.events", "oom_kill "
	}
	b, err := os.ReadFile(filepath.Join(g.mem, file))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n > 0
		}
	}
	if g.c.version == "v1" {
		b, _ := os.ReadFile(filepath.Join(g.mem, "memory.failcnt"))
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return n > 0
	}
	return false
}

// remove kills what is left and removes the group's folders.
func (g *cgroup) remove() {
	g.killAll()
	for _, d := range g.dirs {
		for i := 0; i < 50; i++ {
			if err := os.Remove(d); err == nil || os.IsNotExist(err) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// LimitedBuffer keeps the first max bytes written to it.
type LimitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	Max int
	cut bool
}

func (b *LimitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.Max - b.buf.Len(); room < len(p) {
		b.buf.Write(p[:max(0, room)])
		b.cut = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *LimitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	if b.cut {
		s += "\n[... output cut ...]\n"
	}
	return s
}
