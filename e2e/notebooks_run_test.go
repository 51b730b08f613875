//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/internal/notebook"
	"github.com/perceptron-go/lessons/internal/repo"
)

var (
	cellTimeout = flag.Duration("notebook.cell_timeout", 5*time.Minute,
		"time limit for one notebook cell (the first cell to compile gonum/plot on a cold machine takes ~30 s)")
	notebookParallel = flag.Int("notebook.parallel", 2, "notebooks executed at the same time")
)

// notebookSetupHint is the fix for a missing piece of the runtime.
const notebookSetupHint = "run scripts/setup.sh (README.md, Quick start) to install Jupyter and register the gonb kernel"

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
func newJupyterRuntime(t *testing.T) *jupyterRuntime { return newJupyterRuntimeRaw(t, true) }

// newJupyterRuntimeRaw is newJupyterRuntime, with GoNB's --raw_error only
// if rawError: without it GoNB shows compile errors as the student sees
// them (HTML, by cell and line).
func newJupyterRuntimeRaw(t *testing.T, rawError bool) *jupyterRuntime {
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
	spec["argv"] = append(ciArgv, fmt.Sprintf("-raw_error=%t", rawError), "-logtostderr=false", "-alsologtostderr=false",
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
    report.update(failed_cell=index, failure="the kernel died (%s); is go on the PATH it starts with? see docs/student.md, Troubleshooting" % e)
except Exception as e:
    failure = "%s: %s" % (type(e).__name__, e)
    if index < 0:
        failure = "the kernel did not start (%s); is go on the PATH it starts with? see docs/student.md, Troubleshooting" % failure
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
func (rt *jupyterRuntime) execute(t *testing.T, path string) (*notebook.Notebook, executorReport) {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	timeout := int(cellTimeout.Seconds())
	cmd := exec.Command(rt.python, "-c", executor, path, dst, fmt.Sprint(timeout))
	cmd.Env = rt.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: executing with nbclient: %v\n%s", path, err, repo.Tail(stderr.String(), 40))
	}
	var rep executorReport
	if err := json.Unmarshal(lastLine(stdout.Bytes()), &rep); err != nil {
		t.Fatalf("%s: executor report: %v: %q\n%s", path, err, stdout.String(), repo.Tail(stderr.String(), 40))
	}
	if rep.FailedCell >= 0 || rep.Failure != "" {
		where := fmt.Sprintf("cell %d", rep.FailedCell)
		if rep.FailedCell < 0 {
			where = "kernel"
		}
		t.Errorf("%s: %s: %s\nexecutor stderr:\n%s\nGoNB log (%s):\n%s", path, where, rep.Failure,
			repo.Tail(ansi.ReplaceAllString(stderr.String(), ""), 40), rt.logs, repo.Tail(ansi.ReplaceAllString(repo.ReadFile(rt.logs), ""), 40))
	}
	got := repo.ReadNotebook(t, dst)
	return got, rep
}

func lastLine(b []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	return lines[len(lines)-1]
}

// TestNotebooks executes every notebook under notebooks/ and lessons/ with
// the gonb kernel, two at a time, one subtest per notebook named by its path
// (go test -run 'TestNotebooks/notebooks/00_start_here.ipynb'). A notebook
// fails when it lacks the setup cell, was committed unexecuted, shows an
// error in any cell, or loses a kind of output (such as a figure) that the
// committed notebook has. Each notebook's wall time is logged.
func TestNotebooks(t *testing.T) {
	paths := repo.FindNotebooks(t)
	if len(paths) == 0 {
		t.Fatalf("no notebooks found under %v", repo.NotebookDirs)
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
			committed := repo.ReadNotebook(t, path)
			unexecuted := repo.IsUnexecuted(path)
			problems := checkCommitted(committed, unexecuted)
			for _, p := range problems {
				t.Errorf("%s: %s", path, p)
			}
			if unexecuted {
				t.Logf("%s: assignment source or student notebook: checked for the setup cell, not executed here", path)
				return
			}
			if len(problems) > 0 {
				return
			}
			var got *notebook.Notebook
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
