package lessons_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// SetupCell is the first cell of every notebook, word for word. It makes the
// repository's module importable from the notebook at the versions go.mod
// pins: GoNB's per-kernel module requires github.com/perceptron-go/lessons and
// replaces it by the folder holding the go.mod found from the notebook's own
// folder ($GONB_DIR), so it works at any folder depth with no absolute path.
const SetupCell = `!*go mod edit -require=github.com/perceptron-go/lessons@v0.0.0 -replace=github.com/perceptron-go/lessons="$(cd "$GONB_DIR" && dirname "$(go env GOMOD)")"`

// notebookDirs are the folders, relative to the repository root, whose
// notebooks (searched recursively) TestNotebooks executes.
var notebookDirs = []string{"notebooks", "lessons"}

var (
	cellTimeout = flag.Duration("notebook.cell_timeout", 5*time.Minute,
		"time limit for one notebook cell (the first cell to compile gonum/plot on a cold machine takes ~30 s)")
	notebookParallel = flag.Int("notebook.parallel", 2, "notebooks executed at the same time")
)

// notebookSetupHint is the fix for a missing piece of the runtime.
const notebookSetupHint = "run scripts/setup.sh (README, Quick start) to install Jupyter and register the gonb kernel"

// notebook is the part of the .ipynb (nbformat 4) JSON that the test reads.
type notebook struct {
	Cells    []cell `json:"cells"`
	Metadata struct {
		KernelSpec struct {
			Name string `json:"name"`
		} `json:"kernelspec"`
	} `json:"metadata"`

	// unexecuted is set for the assignment notebooks committed without
	// outputs on purpose (see isUnexecuted).
	unexecuted bool
}

// isUnexecuted reports whether the notebook at path is committed without
// outputs on purpose: an assignment's source notebook (solutions and hidden
// tests between markers) or the student notebook generated from it (stubs
// that panic "not implemented"), named source.ipynb and student.ipynb, or
// ending in _source.ipynb and _student.ipynb, under lessons/. They are only
// checked for the setup cell here; the generated solution notebook is
// executed like a lesson, and the assignment tests grade the others.
func isUnexecuted(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(filepath.ToSlash(path), "lessons/") &&
		(base == "source.ipynb" || base == "student.ipynb" ||
			strings.HasSuffix(base, "_source.ipynb") || strings.HasSuffix(base, "_student.ipynb"))
}

type cell struct {
	CellType       string          `json:"cell_type"`
	Source         json.RawMessage `json:"source"` // a string or a list of strings
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []output        `json:"outputs"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"` // stream: stdout or stderr
	Text       json.RawMessage            `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	EName      string                     `json:"ename"`
	EValue     string                     `json:"evalue"`
	Traceback  []string                   `json:"traceback"`
}

// multiline decodes nbformat's "multiline string": a string or a list of
// strings to concatenate.
func multiline(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return string(raw)
}

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: not notebook JSON: %v", path, err)
	}
	return &nb, nil
}

// outputKinds returns the kinds of output a cell shows: the MIME types of
// its rich outputs (e.g. "image/png") and "stdout" for printed text. Errors
// and stderr are left out: errors are checked on their own and stderr carries
// incidental messages (e.g. "go: downloading") that may come and go.
func outputKinds(c cell) []string {
	set := map[string]bool{}
	for _, o := range c.Outputs {
		switch o.OutputType {
		case "stream":
			if o.Name == "stdout" {
				set["stdout"] = true
			}
		case "display_data", "execute_result":
			for mime := range o.Data {
				set[mime] = true
			}
		}
	}
	kinds := make([]string, 0, len(set))
	for k := range set {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// errorText is a readable, plain-text form of an error output of cell c,
// followed by what the cell wrote to stderr (where a panic's message goes),
// every line indented.
func errorText(c cell, o output) string {
	var lines []string
	lines = append(lines, strings.Split(strings.TrimSpace(o.EName+": "+o.EValue), "\n")...)
	for _, tb := range o.Traceback {
		tb = strings.TrimRight(ansi.ReplaceAllString(tb, ""), "\n")
		if tb != "" && !strings.Contains(o.EValue, tb) {
			lines = append(lines, strings.Split(tb, "\n")...)
		}
	}
	var stderr strings.Builder
	for _, so := range c.Outputs {
		if so.OutputType == "stream" && so.Name == "stderr" {
			stderr.WriteString(multiline(so.Text))
		}
	}
	if s := strings.TrimSpace(ansi.ReplaceAllString(stderr.String(), "")); s != "" {
		lines = append(lines, "stderr:")
		lines = append(lines, strings.Split(strings.TrimPrefix(tail(s, 30), "    "), "\n    ")...)
	}
	return strings.Join(lines, "\n    ")
}

// checkCommitted reports what is wrong with a notebook as committed: a
// missing setup cell, or (unless it is unexecuted on purpose) code cells that
// were never executed.
func checkCommitted(nb *notebook) []string {
	var problems []string
	if len(nb.Cells) == 0 || nb.Cells[0].CellType != "code" ||
		strings.TrimSpace(multiline(nb.Cells[0].Source)) != SetupCell {
		problems = append(problems, fmt.Sprintf("cell 0 is not the standard setup cell; every notebook starts with the code cell\n    %s", SetupCell))
	}
	if nb.Metadata.KernelSpec.Name != "gonb" {
		problems = append(problems, fmt.Sprintf("kernelspec name is %q, want \"gonb\"", nb.Metadata.KernelSpec.Name))
	}
	if nb.unexecuted {
		return problems
	}
	executed := false
	for i, c := range nb.Cells {
		if c.CellType != "code" || strings.TrimSpace(multiline(c.Source)) == "" {
			continue
		}
		if c.ExecutionCount == nil {
			problems = append(problems, fmt.Sprintf("cell %d: code cell was never executed (no execution count): commit the notebook executed, with its outputs", i))
		}
		if len(c.Outputs) > 0 {
			executed = true
		}
	}
	if !executed {
		problems = append(problems, "no code cell has an output: commit the notebook executed, with its outputs")
	}
	return problems
}

// checkExecuted compares the re-executed notebook with the committed one:
// no cell may show an error, and no cell may lose a kind of output it had.
func checkExecuted(committed, got *notebook) []string {
	var problems []string
	if len(got.Cells) != len(committed.Cells) {
		return []string{fmt.Sprintf("executed notebook has %d cells, committed has %d", len(got.Cells), len(committed.Cells))}
	}
	for i, c := range got.Cells {
		if c.CellType != "code" {
			continue
		}
		for _, o := range c.Outputs {
			if o.OutputType == "error" {
				problems = append(problems, fmt.Sprintf("cell %d: error output:\n    %s", i, errorText(c, o)))
			}
		}
		have := outputKinds(c)
		for _, kind := range outputKinds(committed.Cells[i]) {
			if !slices.Contains(have, kind) {
				problems = append(problems, fmt.Sprintf("cell %d: committed output %s is missing after re-execution (got %v)", i, kind, have))
			}
		}
	}
	return problems
}

// findNotebooks returns the notebooks under notebookDirs, relative to the
// repository root, in lexical order.
func findNotebooks(t *testing.T) []string {
	var paths []string
	for _, dir := range notebookDirs {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && path == dir {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() && (d.Name() == ".ipynb_checkpoints" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".ipynb") {
				paths = append(paths, filepath.ToSlash(path))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(paths)
	return paths
}

// jupyterRuntime is what scripts/setup.sh installed: the Python that runs
// Jupyter and a private copy of the gonb kernel spec set up for CI.
type jupyterRuntime struct {
	python string   // bin/jupyter-python
	env    []string // environment for the executor
	logs   string   // GoNB's log file for this test run
}

// newJupyterRuntime finds the runtime and writes, in a temporary Jupyter
// path that takes precedence over the user's, a copy of the registered gonb
// kernel spec with --raw_error (compile errors as plain text, not HTML) and
// GoNB's log sent to a file of its own.
func newJupyterRuntime(t *testing.T) *jupyterRuntime {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	python := filepath.Join(root, "bin", "jupyter-python")
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s not found: %s", python, notebookSetupHint)
	}
	cmd := exec.Command(python, "-c", "import nbclient, nbformat, jupyter_client.kernelspec as k, json; print(json.dumps(k.KernelSpecManager().find_kernel_specs()))")
	cmd.Env = append(os.Environ(), "PYDEVD_DISABLE_FILE_VALIDATION=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Jupyter (nbclient) is not usable by %s: %v\n%s\n%s", python, err, stderrOf(err), notebookSetupHint)
	}
	var specs map[string]string
	if err := json.Unmarshal(out, &specs); err != nil {
		t.Fatalf("listing kernel specs: %v: %q", err, out)
	}
	dir, ok := specs["gonb"]
	if !ok {
		t.Fatalf("the gonb kernel is not registered with Jupyter (kernels: %v): %s", specs, notebookSetupHint)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatalf("%s/kernel.json: %v", dir, err)
	}
	argv, _ := spec["argv"].([]any)
	if len(argv) == 0 {
		t.Fatalf("%s/kernel.json has no argv: %s", dir, notebookSetupHint)
	}
	if gonb, _ := argv[0].(string); gonb == "" {
		t.Fatalf("%s/kernel.json: bad argv[0]", dir)
	} else if _, err := os.Stat(gonb); err != nil {
		t.Fatalf("gonb kernel binary: %v: %s", err, notebookSetupHint)
	}

	tmp := t.TempDir()
	logs := filepath.Join(tmp, "gonb.log")
	var ciArgv []any
	for _, a := range argv {
		s, _ := a.(string)
		name, _, _ := strings.Cut(strings.TrimLeft(s, "-"), "=")
		switch name {
		case "raw_error", "log_file", "extra_log", "logtostderr", "alsologtostderr", "stderrthreshold":
			continue
		}
		ciArgv = append(ciArgv, a)
	}
	// See scripts/setup.sh for why GoNB needs both -log_file and -extra_log.
	spec["argv"] = append(ciArgv, "-raw_error=true", "-logtostderr=false", "-alsologtostderr=false",
		"-stderrthreshold=FATAL", "-log_file="+logs, "-extra_log="+logs)
	spec["display_name"] = "Go (gonb, test)"
	specDir := filepath.Join(tmp, "jupyter", "kernels", "gonb")
	if err := os.MkdirAll(specDir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err = json.MarshalIndent(spec, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(specDir, "kernel.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	jupyterPath := filepath.Join(tmp, "jupyter")
	if p := os.Getenv("JUPYTER_PATH"); p != "" {
		jupyterPath += string(os.PathListSeparator) + p
	}
	env := append(os.Environ(), "JUPYTER_PATH="+jupyterPath, "PYDEVD_DISABLE_FILE_VALIDATION=1")
	return &jupyterRuntime{python: python, env: env, logs: logs}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// executor runs one notebook with nbclient, in the notebook's own folder (so
// its setup cell finds go.mod), and writes the executed copy elsewhere. On a
// cell timeout or a dead kernel it still writes what was executed and prints
// the failing cell. Its report, on stdout, is JSON: the failing cell and
// why, the wall time and each code cell's time.
const executor = `
import json, os, sys, time
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

src, dst, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3])
nb = nbformat.read(src, as_version=4)
client = NotebookClient(nb, timeout=timeout, kernel_name="gonb", allow_errors=True,
                        resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}})
report = {"failed_cell": -1, "failure": "", "cells": []}
start = time.monotonic()
index = -1
try:
    with client.setup_kernel():
        client.wait_for_reply(client.kc.kernel_info())
        for index, cell in enumerate(nb.cells):
            t = time.monotonic()
            client.execute_cell(cell, index)
            if cell.cell_type == "code":
                report["cells"].append([index, time.monotonic() - t])
except CellTimeoutError as e:
    report.update(failed_cell=index, failure="timed out after %d s" % timeout)
except DeadKernelError as e:
    report.update(failed_cell=index, failure="the kernel died (%s); is go on the PATH it starts with? see README, Troubleshooting" % e)
except Exception as e:
    failure = "%s: %s" % (type(e).__name__, e)
    if index < 0:
        failure = "the kernel did not start (%s); is go on the PATH it starts with? see README, Troubleshooting" % failure
    report.update(failed_cell=index, failure=failure)
report["seconds"] = time.monotonic() - start
nbformat.write(nb, dst)
print(json.dumps(report))
`

type executorReport struct {
	FailedCell int          `json:"failed_cell"`
	Failure    string       `json:"failure"`
	Seconds    float64      `json:"seconds"`
	Cells      [][2]float64 `json:"cells"` // [cell index, seconds] per code cell
}

// slowest describes the n slowest cells of the report.
func (r executorReport) slowest(n int) string {
	cells := slices.Clone(r.Cells)
	sort.SliceStable(cells, func(i, j int) bool { return cells[i][1] > cells[j][1] })
	var parts []string
	for _, c := range cells[:min(n, len(cells))] {
		parts = append(parts, fmt.Sprintf("cell %d %.1fs", int(c[0]), c[1]))
	}
	return strings.Join(parts, ", ")
}

// execute runs the notebook at path and returns the executed copy and the
// executor's report.
func (rt *jupyterRuntime) execute(t *testing.T, path string) (*notebook, executorReport) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	timeout := int(cellTimeout.Seconds())
	cmd := exec.Command(rt.python, "-c", executor, path, dst, fmt.Sprint(timeout))
	cmd.Env = rt.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: executing with nbclient: %v\n%s", path, err, tail(stderr.String(), 40))
	}
	var rep executorReport
	if err := json.Unmarshal(lastLine(stdout.Bytes()), &rep); err != nil {
		t.Fatalf("%s: executor report: %v: %q\n%s", path, err, stdout.String(), tail(stderr.String(), 40))
	}
	if rep.FailedCell >= 0 || rep.Failure != "" {
		where := fmt.Sprintf("cell %d", rep.FailedCell)
		if rep.FailedCell < 0 {
			where = "kernel"
		}
		t.Errorf("%s: %s: %s\nexecutor stderr:\n%s\nGoNB log (%s):\n%s", path, where, rep.Failure,
			tail(ansi.ReplaceAllString(stderr.String(), ""), 40), rt.logs, tail(ansi.ReplaceAllString(readFile(rt.logs), ""), 40))
	}
	got, err := readNotebook(dst)
	if err != nil {
		t.Fatal(err)
	}
	return got, rep
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return "    " + strings.Join(lines, "\n    ")
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// TestNotebooks executes every notebook under notebooks/ and lessons/ with
// the gonb kernel, two at a time, one subtest per notebook named by its path
// (go test -run 'TestNotebooks/notebooks/00_start_here.ipynb'). A notebook
// fails when it lacks the setup cell, was committed unexecuted, shows an
// error in any cell, or loses a kind of output (such as a figure) that the
// committed notebook has. Each notebook's wall time is logged.
func TestNotebooks(t *testing.T) {
	paths := findNotebooks(t)
	if len(paths) == 0 {
		t.Fatalf("no notebooks found under %v", notebookDirs)
	}
	rt := newJupyterRuntime(t)

	var mu sync.Mutex
	times := map[string]float64{}
	t.Cleanup(func() {
		var b strings.Builder
		for _, p := range paths {
			if s, ok := times[p]; ok {
				fmt.Fprintf(&b, "\n    %6.1fs  %s", s, p)
			}
		}
		t.Logf("notebook wall times (kernel start included):%s", b.String())
	})
	sem := make(chan struct{}, max(1, *notebookParallel))
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			committed, err := readNotebook(path)
			if err != nil {
				t.Fatal(err)
			}
			committed.unexecuted = isUnexecuted(path)
			problems := checkCommitted(committed)
			for _, p := range problems {
				t.Errorf("%s: %s", path, p)
			}
			if committed.unexecuted {
				t.Logf("%s: assignment source or student notebook: checked for the setup cell, not executed here", path)
				return
			}
			if len(problems) > 0 {
				return
			}
			var got *notebook
			var rep executorReport
			func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				got, rep = rt.execute(t, path)
			}()
			mu.Lock()
			times[path] = rep.Seconds
			mu.Unlock()
			t.Logf("%s: executed in %.1fs; slowest: %s", path, rep.Seconds, rep.slowest(3))
			for _, p := range checkExecuted(committed, got) {
				t.Errorf("%s: %s", path, p)
			}
		})
	}
}

// TestNotebookChecks shows that the checks catch what they are meant to
// catch, on small notebooks built in memory.
func TestNotebookChecks(t *testing.T) {
	one := 1
	src := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	setup := cell{CellType: "code", Source: src(SetupCell), ExecutionCount: &one}
	png := output{OutputType: "display_data", Data: map[string]json.RawMessage{"image/png": src("iVBOR")}}
	stdout := output{OutputType: "stream", Name: "stdout", Text: src("10 updates\n")}
	withCells := func(unexecuted bool, cells ...cell) *notebook {
		nb := &notebook{Cells: cells, unexecuted: unexecuted}
		nb.Metadata.KernelSpec.Name = "gonb"
		return nb
	}
	plot := cell{CellType: "code", Source: src("gonbui.DisplayPNG(png)"), ExecutionCount: &one, Outputs: []output{png, stdout}}

	committedTests := []struct {
		name string
		nb   *notebook
		want []string // substrings of the problems, in order
	}{
		{"good", withCells(false, setup, plot), nil},
		{"no setup cell", withCells(false, plot), []string{"cell 0 is not the standard setup cell"}},
		{"setup cell edited", withCells(false, cell{CellType: "code", Source: src(strings.Replace(SetupCell, "$GONB_DIR", "/home/me/lessons", 1)), ExecutionCount: &one}, plot),
			[]string{"cell 0 is not the standard setup cell"}},
		{"never executed", withCells(false, setup, cell{CellType: "code", Source: src("fmt.Println(1)")}),
			[]string{"cell 1: code cell was never executed", "no code cell has an output"}},
		{"student notebook cleared", withCells(true, setup, cell{CellType: "code", Source: src("fmt.Println(1)")}), nil},
		{"student notebook without setup", withCells(true, plot), []string{"cell 0 is not the standard setup cell"}},
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"lessons/hw1_hyperplanes/source.ipynb", true},
		{"lessons/hw1_hyperplanes/student.ipynb", true},
		{"lessons/hw1_hyperplanes/hw1_student.ipynb", true},
		{"lessons/hw1_hyperplanes/solution.ipynb", false},
		{"notebooks/source.ipynb", false},
		{"notebooks/01_hyperplanes.ipynb", false},
	} {
		if got := isUnexecuted(tc.path); got != tc.want {
			t.Errorf("isUnexecuted(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
	for _, tc := range committedTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkCommitted(tc.nb)
			if len(got) != len(tc.want) {
				t.Fatalf("problems = %q, want %d matching %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tc.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], tc.want[i])
				}
			}
		})
	}

	compileErr := output{OutputType: "error", EName: "ERROR", EValue: "failed to run \"go build\"",
		Traceback: []string{"\x1b[31mcell 3, line 2: undefined: perceptron.Foo\x1b[0m"}}
	executedTests := []struct {
		name      string
		committed *notebook
		got       *notebook
		want      []string
	}{
		{"same", withCells(false, setup, plot), withCells(false, setup, plot), nil},
		{"figure lost", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{stdout}}),
			[]string{"cell 1: committed output image/png is missing after re-execution (got [stdout])"}},
		{"error", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{png, stdout, compileErr}}),
			[]string{"cell 1: error output:\n    ERROR: failed to run \"go build\"\n    cell 3, line 2: undefined: perceptron.Foo"}},
		{"panic", withCells(false, setup, plot),
			withCells(false, setup, cell{CellType: "code", ExecutionCount: &one, Outputs: []output{png, stdout,
				{OutputType: "stream", Name: "stderr", Text: src("panic: boom\n\ngoroutine 1 [running]:\n")},
				{OutputType: "error", EName: "ERROR", EValue: "exit status 2"}}}),
			[]string{"cell 1: error output:\n    ERROR: exit status 2\n    stderr:\n    panic: boom\n    \n    goroutine 1 [running]:"}},
	}
	for _, tc := range executedTests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkExecuted(tc.committed, tc.got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems = %q, want %q", got, tc.want)
			}
		})
	}
}
