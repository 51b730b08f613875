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
  'sandbox': {'score': 0, 'absent': ['BEGIN SOLUTION', 'func TestDotHidden(t *testing.T)', 'module graded', 'READ-BINARY-OK', 'FOUND-GO-FILE']}},
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

write('shell_id', fx, {'rejected': ['import not allowed: "os/exec"'], 'sandbox': {'score': 0, 'absent': ['SHELL-OK']}},
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
	opt := perceptron.DefaultOptions()
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
