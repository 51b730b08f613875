// Command cellbench times the cells of the lesson notebooks as a student
// meets them: warm (Go's build cache already holds the lessons' packages),
// one GoNB kernel at a time, each notebook run cell by cell through nbclient
// in its own kernel. For each lesson it prints the median, the 90th
// percentile (nearest rank) and the maximum cell time, the time of the whole
// run (Run All), and the times of the cells that show a figure (static
// figures, and live ones made by view.Explore or view.Stepper, apart), and how many cells
// showed an error (the exercise stubs panic until solved; any other error
// makes the times meaningless). It is a benchmark, not a test: it asserts
// nothing.
//
// Run it from the repository after scripts/setup.sh (it needs bin/gonb-kernel
// and bin/jupyter-python):
//
//	go run ./scripts/cellbench                        # lessons 00-10, 1 timed run each
//	go run ./scripts/cellbench -lessons 00,04 -rounds 3
//	go run ./scripts/cellbench -b-setup '%noautoget'  # A/B: the setup cell with one more line
//	go run ./scripts/cellbench -b-env GOFLAGS=-ldflags=-s
//
// With -b-setup or -b-env it times two variants, paired: A (as committed)
// and B (the notebook's setup cell with the given lines added, in memory
// only, and/or the kernel started with the given environment), alternating
// their order from round to round, so that both see the same load. The
// kernel is always this checkout's bin/gonb-kernel (through a kernel spec in
// a temporary JUPYTER_PATH), whatever kernel Jupyter has registered.
package main

import (
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/perceptron-go/lessons/internal/root"
)

//go:embed driver.py
var driver string

type cell struct {
	Index   int     `json:"index"`
	Seconds float64 `json:"seconds"`
	Figure  bool    `json:"figure"`
	Live    bool    `json:"live"`
	Error   bool    `json:"error"`
}

type run struct {
	Cells   []cell  `json:"cells"`
	Error   string  `json:"error"`
	Seconds float64 `json:"seconds"`
}

type variant struct {
	name  string
	setup string   // lines added to cell 0
	env   []string // extra environment of the kernel
}

func main() {
	if err := mainErr(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cellbench:", err)
		os.Exit(1)
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func mainErr(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("cellbench", flag.ContinueOnError)
	lessons := fs.String("lessons", "00,01,02,03,04,05,06,07,08,09,10", "comma-separated lesson numbers (the notebooks' name prefixes)")
	rounds := fs.Int("rounds", 1, "timed runs of each lesson (per variant); a cell's time is its median over the rounds")
	warm := fs.Bool("warmup", true, "run each lesson once untimed first (fills the build cache)")
	timeout := fs.Int("timeout", 300, "seconds a cell may take")
	bSetup := fs.String("b-setup", "", "variant B: lines added to the setup cell (cell 0), e.g. %noautoget")
	var bEnv multiFlag
	fs.Var(&bEnv, "b-env", "variant B: KEY=VALUE in the kernel's environment (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rounds < 1 {
		return fmt.Errorf("-rounds %d: want at least 1", *rounds)
	}
	for _, kv := range bEnv {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("-b-env %q: want KEY=VALUE", kv)
		}
	}
	root, err := root.Find(".")
	if err != nil {
		return fmt.Errorf("%w: run cellbench inside the lessons repository", err)
	}
	python := filepath.Join(root, "bin", "jupyter-python")
	kernel := filepath.Join(root, "bin", "gonb-kernel")
	for _, p := range []string{python, kernel} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%v: run scripts/setup.sh first", err)
		}
	}
	tmp, err := os.MkdirTemp("", "cellbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := writeKernelSpec(tmp, kernel); err != nil {
		return err
	}
	driverPath := filepath.Join(tmp, "driver.py")
	if err := os.WriteFile(driverPath, []byte(driver), 0o644); err != nil {
		return err
	}
	jupyterPath := filepath.Join(tmp, "jupyter")
	if p := os.Getenv("JUPYTER_PATH"); p != "" {
		jupyterPath += string(os.PathListSeparator) + p
	}
	baseEnv := append(os.Environ(), "JUPYTER_PATH="+jupyterPath, "PYDEVD_DISABLE_FILE_VALIDATION=1")

	variants := []variant{{name: "A"}}
	if *bSetup != "" || len(bEnv) > 0 {
		variants = append(variants, variant{name: "B", setup: *bSetup, env: bEnv})
	}
	var paths []string
	for _, l := range strings.Split(*lessons, ",") {
		m, _ := filepath.Glob(filepath.Join(root, "notebooks", strings.TrimSpace(l)+"_*.ipynb"))
		if len(m) != 1 {
			return fmt.Errorf("lesson %q: want one notebooks/%s_*.ipynb, found %d", l, l, len(m))
		}
		paths = append(paths, m[0])
	}

	fmt.Fprintf(out, "cellbench %s UTC, %d CPUs, load average %s\n", time.Now().UTC().Format("2006-01-02 15:04"), runtime.NumCPU(), loadavg())
	fmt.Fprintf(out, "kernel %s, warm-up %v, %d timed round(s) per lesson\n", kernel, *warm, *rounds)
	for _, v := range variants[1:] {
		fmt.Fprintf(out, "variant B: setup cell + %q, env %q (paired with A, order alternating)\n", v.setup, []string(v.env))
	}
	exec1 := func(path string, v variant) (run, error) {
		cmd := exec.Command(python, driverPath, path, fmt.Sprint(*timeout), v.setup)
		cmd.Env = append(slices.Clone(baseEnv), v.env...)
		cmd.Stderr = io.Discard
		b, err := cmd.Output()
		if err != nil {
			return run{}, fmt.Errorf("%s: nbclient: %v", filepath.Base(path), err)
		}
		var r run
		if err := json.Unmarshal(b, &r); err != nil {
			return run{}, fmt.Errorf("%s: driver report: %v: %q", filepath.Base(path), err, b)
		}
		if r.Error != "" {
			return run{}, fmt.Errorf("%s: %s", filepath.Base(path), r.Error)
		}
		return r, nil
	}

	all := make([][]cell, len(variants))
	results := make([][]result, len(variants))
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
		fmt.Fprintf(os.Stderr, "%s ...", name)
		if *warm {
			for _, v := range variants {
				if _, err := exec1(path, v); err != nil {
					return err
				}
			}
		}
		runs := make([][]run, len(variants))
		for r := range *rounds {
			for k := range variants {
				i := k
				if r%2 == 1 {
					i = len(variants) - 1 - k
				}
				res, err := exec1(path, variants[i])
				if err != nil {
					return err
				}
				runs[i] = append(runs[i], res)
			}
		}
		for i := range variants {
			res := summarize(name, runs[i])
			results[i] = append(results[i], res)
			all[i] = append(all[i], res.cells...)
		}
		fmt.Fprintln(os.Stderr, " done")
		for i, v := range variants { // progress: the table's rows so far
			r := results[i][len(results[i])-1]
			fmt.Fprintf(os.Stderr, "%s %s\n", v.name, row(r.name, r.cells, fmt.Sprintf("%.1f", r.runAll)))
		}
	}
	for i, v := range variants {
		if len(variants) > 1 {
			fmt.Fprintf(out, "\nvariant %s\n", v.name)
		}
		printTable(out, results[i], all[i])
	}
	fmt.Fprintf(out, "\nload average at the end: %s\n", loadavg())
	return nil
}

// result is one lesson's cells, each with its median time over the rounds.
type result struct {
	name   string
	cells  []cell
	runAll float64 // median over the rounds
}

func summarize(name string, runs []run) result {
	res := result{name: name}
	var totals []float64
	for _, r := range runs {
		totals = append(totals, r.Seconds)
	}
	res.runAll = quantile(totals, 0.5)
	for j, c := range runs[0].Cells {
		var ts []float64
		for _, r := range runs {
			if j < len(r.Cells) {
				ts = append(ts, r.Cells[j].Seconds)
			}
		}
		c.Seconds = quantile(ts, 0.5)
		res.cells = append(res.cells, c)
	}
	return res
}

func printTable(out io.Writer, results []result, all []cell) {
	fmt.Fprintln(out, header)
	sum := 0.0
	for _, r := range results {
		fmt.Fprintln(out, row(r.name, r.cells, fmt.Sprintf("%.1f", r.runAll)))
		sum += r.runAll
	}
	fmt.Fprintln(out, row("**all**", all, fmt.Sprintf("%.1f", sum)))
}

const header = "| lesson | cells | median s | p90 s | max s | Run All s | figure cells: n, median, max s | live figures: n, max s | cells with an error |\n|---|---|---|---|---|---|---|---|---|"

// row is one line of the table: the cells' median, p90 and maximum, the
// given Run All time, and the figure cells (static and live apart).
func row(name string, cells []cell, runAll string) string {
	var ts, fig, live []float64
	errs := 0
	for _, c := range cells {
		ts = append(ts, c.Seconds)
		if c.Error {
			errs++
		}
		switch {
		case c.Live:
			live = append(live, c.Seconds)
		case c.Figure:
			fig = append(fig, c.Seconds)
		}
	}
	figs, lives := "0", "0"
	if len(fig) > 0 {
		figs = fmt.Sprintf("%d, %.2f, %.2f", len(fig), quantile(fig, 0.5), quantile(fig, 1))
	}
	if len(live) > 0 {
		lives = fmt.Sprintf("%d, %.2f", len(live), quantile(live, 1))
	}
	return fmt.Sprintf("| %s | %d | %.2f | %.2f | %.2f | %s | %s | %s | %d |", name, len(ts),
		quantile(ts, 0.5), quantile(ts, 0.9), quantile(ts, 1), runAll, figs, lives, errs)
}

// quantile returns the nearest-rank q-quantile of ts (q = 1: the maximum).
func quantile(ts []float64, q float64) float64 {
	if len(ts) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	k := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(k, 0)]
}

func writeKernelSpec(tmp, kernel string) error {
	dir := filepath.Join(tmp, "jupyter", "kernels", "gonb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	spec := map[string]any{
		"argv":           []string{kernel, "--kernel", "{connection_file}"},
		"display_name":   "Go (gonb, cellbench)",
		"language":       "go",
		"interrupt_mode": "message",
	}
	b, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "kernel.json"), b, 0o644)
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}
