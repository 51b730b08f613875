// Command perfcompare measures one PLA epoch of package perceptron against
// the memory limit and against scikit-learn, in one run.
//
// Usage:
//
//	go run ./perceptron/cmd/perfcompare [-sizes 100000x100,1000000x100,100000x1000] [-rounds 6]
//
// For every size n×d it draws a dense data set (seeded Gaussian points,
// labels from a random hyperplane through the origin with a fraction -noise
// of them flipped, so that PLA keeps updating), writes it once to a
// temporary directory as two NumPy files (X.npy, n×d little-endian float64
// in row-major order, and y.npy, the n labels -1/+1), and then, -rounds
// times, interleaved (the Go timings (a), (b) and (d) take turns at going
// first in a round, so with a multiple of 3 rounds, the default 6, each goes
// first equally often; then (c)):
//
//	(a) limit:   the fastest of four vector reads of the same n·d
//	             float64, in the same row-major layout, each summing them
//	             (AVX2 where the CPU has it, with enough partial sums that
//	             the read, not the adds, sets the pace), taking turns at
//	             going first: the eight-stream read (internal/asm's
//	             ReadStreams: the array cut into eight chunks read side by
//	             side, the fastest read of memory we know on amd64, in an
//	             order no in-order epoch can follow), the read-ahead
//	             (ReadAhead: in order, with the AVX2 scans' prefetch of
//	             eight streams ahead, the fastest in-order read on Zen 3),
//	             the plain in-order read (ReadSum, the fastest read of
//	             round 9 on Zen 4) and the page-ahead read (ReadPages:
//	             in order, asking for one line of every page 256 KiB
//	             ahead, as the AVX-512 scans do, the fastest read of all
//	             on Zen 4); the limit is the fastest of the four medians,
//	             and all four are printed beside the table, with the
//	             package's ratio to the fastest read in order;
//	(b) package: perceptron.PLA with MaxEpochs 1, the InOrder order, Eta 1
//	             and TieMistake (one epoch);
//	(c) sklearn: Perceptron(shuffle=False, tol=None, eta0=1, max_iter=1)
//	             in a Python subprocess (-python, Debian's python3-sklearn),
//	             which loads X.npy and y.npy once before the first round and
//	             times only clf.fit(X, y) with time.perf_counter;
//	(d) fast:    perceptron.PLA as (b) with Sum FastSum (eight partial
//	             sums per row: faster, deterministic, not bit-identical).
//
// One warm-up round precedes the timed rounds. It prints, per size, the
// median of each, the ratios package/limit, sklearn/package, fast/limit and
// fast/package (with a line naming the sizes, if any, where the fast mode
// was slower than the exact default), and whether the learned weights are bit-identical (those of the default
// mode, (b)): every float64 of coef_ and
// intercept_ against w and b of the package, compared bit for bit. When
// Python or scikit-learn is missing it says so and still measures (a), (b)
// and (d). Beside the table it prints the machine: the CPU model, the
// bandwidth of each read on each size, and the load average (from
// /proc/loadavg) before and after each size: the machine may be shared,
// and ratios measured under load are not those of an idle machine.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "perfcompare:", err)
		os.Exit(1)
	}
}

// size is one data set shape.
type size struct{ n, d int }

func (s size) String() string { return fmt.Sprintf("%d x %d", s.n, s.d) }

// parseSizes parses "100000x100,1000000x100".
func parseSizes(s string) ([]size, error) {
	var out []size
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		a, b, ok := strings.Cut(f, "x")
		if !ok {
			return nil, fmt.Errorf("size %q: want NxD, e.g. 100000x100", f)
		}
		n, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || n < 2 || d < 1 {
			return nil, fmt.Errorf("size %q: want NxD with N >= 2 and D >= 1", f)
		}
		out = append(out, size{n, d})
	}
	return out, nil
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("perfcompare", flag.ContinueOnError)
	sizesFlag := fs.String("sizes", "100000x100,1000000x100,100000x1000", "data set sizes NxD, comma-separated")
	rounds := fs.Int("rounds", 6, "timed rounds (after one warm-up round) on sizes of 10^8 values or more, up to 10 times as many on smaller ones; a multiple of 3 lets the limit, the package and the fast mode go first equally often")
	seed := fs.Uint64("seed", 1, "seed of the data")
	noise := fs.Float64("noise", 0.05, "fraction of labels flipped")
	python := fs.String("python", "/usr/bin/python3", "Python with numpy and scikit-learn")
	tmp := fs.String("tmp", os.TempDir(), "directory for the .npy files (removed after use)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return err
	}
	if *rounds < 1 {
		return fmt.Errorf("-rounds must be >= 1, got %d", *rounds)
	}
	fmt.Fprintf(out, "perfcompare: %s/%s, %s, %d CPUs, GOMAXPROCS %d, %d timed rounds (medians; more on sizes under 10^8 values), seed %d, noise %g\n",
		runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0), *rounds, *seed, *noise)
	fmt.Fprintf(out, "the InOrder scans run in %s\n", asm.ScanKernels())
	if *rounds%3 != 0 {
		fmt.Fprintf(out, "note: %d rounds is not a multiple of 3: the limit, the package and the fast mode do not go first equally often (what runs first after the Python fit may run slower)\n", *rounds)
	}
	fmt.Fprintf(out, "load average at start: %s\n", loadAvg())
	fmt.Fprintln(out, "limit = the fastest of four vector reads of X (eight-stream, read-ahead, in-order, page-ahead; AVX2 where the CPU has it); package = perceptron.PLA, 1 epoch (ExactSum, the default);")
	fmt.Fprintln(out, "fast = perceptron.PLA with Sum FastSum (not bit-identical);")
	fmt.Fprintln(out, "sklearn = Perceptron(shuffle=False, tol=None, eta0=1, max_iter=1).fit, timed in Python with perf_counter, data loaded before.")
	var rows []row
	for _, s := range sizes {
		r, err := measure(s, roundsFor(s, *rounds), *seed, *noise, *python, *tmp, out)
		if err != nil {
			return err
		}
		rows = append(rows, r)
		debug.FreeOSMemory()
	}
	fmt.Fprintln(out)
	fmt.Fprint(out, table(rows))
	return nil
}

// row is the outcome for one size.
type row struct {
	size    size
	pkg, sk time.Duration             // medians; sk is 0 without scikit-learn
	fast    time.Duration             // median of the FastSum epoch
	reads   [len(reads)]time.Duration // medians of the reads
	load    string                    // load average before and after
	skNote  string                    // why sk is missing, or versions
	weights string                    // bit-identity verdict
	updates int
}

// generate draws n points in d dimensions, x_ij ~ N(0, 1), labels the sign
// of u·x for a random u ~ N(0, I) (+1 at 0) and flips each label with
// probability noise. X is row-major. It also returns u.
func generate(s size, seed uint64, noise float64) (*perceptron.Dataset, []float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(s.n)<<20^uint64(s.d)))
	u := make([]float64, s.d)
	for j := range u {
		u[j] = rng.NormFloat64()
	}
	x := make([]float64, s.n*s.d)
	y := make([]float64, s.n)
	for i := range y {
		r := x[i*s.d : (i+1)*s.d]
		var score float64
		for j := range r {
			r[j] = rng.NormFloat64()
			score += float64(u[j] * r[j]) // no FMA: the same data on every platform
		}
		y[i] = 1
		if score < 0 {
			y[i] = -1
		}
		if rng.Float64() < noise {
			y[i] = -y[i]
		}
	}
	return &perceptron.Dataset{X: mat.NewDense(s.n, s.d, x), Y: y}, u
}

// npyHeader returns the header of a version 1.0 .npy file of little-endian
// float64 in C order with the given shape, padded with spaces and a final
// newline to a multiple of 64 bytes, as NumPy writes it.
func npyHeader(shape ...int) []byte {
	dims := make([]string, len(shape))
	for i, v := range shape {
		dims[i] = strconv.Itoa(v)
	}
	sh := strings.Join(dims, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	dict := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }", sh)
	const pre = 10 // magic (6) + version (2) + header length (2)
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	h := make([]byte, 0, total)
	h = append(h, "\x93NUMPY\x01\x00"...)
	h = binary.LittleEndian.AppendUint16(h, uint16(total-pre))
	h = append(h, dict...)
	for len(h) < total-1 {
		h = append(h, ' ')
	}
	return append(h, '\n')
}

// writeNpy writes data with the given shape as a .npy file.
func writeNpy(path string, data []float64, shape ...int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(npyHeader(shape...))
	var buf [8]byte
	for _, v := range data {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		w.Write(buf[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// reads are the reads of the limit, (a): each reads every float64 of x
// once and returns their sum. The limit is the fastest of them.
// inOrder marks the reads in order, the order an InOrder epoch reads its
// rows in.
var reads = [4]struct {
	name    string
	f       func([]float64) float64
	inOrder bool
}{
	{"eight-stream", asm.ReadStreams, false}, // eight chunks side by side
	{"read-ahead", asm.ReadAhead, true},      // with the AVX2 scans' prefetch
	{"in-order", asm.ReadSum, true},          // one stream, no prefetch
	{"page-ahead", asm.ReadPages, true},      // one line a page asked for 256 KiB ahead
}

// median returns the median of ts (the mean of the middle two for an even
// count).
func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// fit is one answer of the Python worker.
type fit struct {
	Seconds   float64   `json:"seconds"`
	Coef      []string  `json:"coef"`      // float64 bits, 16 hex digits
	Intercept string    `json:"intercept"` // float64 bits, 16 hex digits
	NIter     int       `json:"n_iter"`
	Classes   []float64 `json:"classes"`
}

// sameBits compares the float64 bits of w and b with those of coef_ and
// intercept_ and returns a verdict: "bit-identical", or how many differ and
// the first difference.
func sameBits(w []float64, b float64, f fit) string {
	if len(f.Coef) != len(w) {
		return fmt.Sprintf("DIFFERENT: sklearn has %d weights, the package %d", len(f.Coef), len(w))
	}
	diff, first := 0, ""
	check := func(name string, v float64, hex string) {
		bits, err := strconv.ParseUint(hex, 16, 64)
		if err == nil && bits == math.Float64bits(v) {
			return
		}
		diff++
		if first == "" {
			first = fmt.Sprintf("%s: package %v, sklearn %v", name, v, math.Float64frombits(bits))
		}
	}
	for j, v := range w {
		check(fmt.Sprintf("w[%d]", j), v, f.Coef[j])
	}
	check("b", b, f.Intercept)
	if diff == 0 {
		return fmt.Sprintf("bit-identical (%d weights + b)", len(w))
	}
	return fmt.Sprintf("DIFFERENT: %d of %d values, first %s", diff, len(w)+1, first)
}

// pyWorker is the Python script: it loads X.npy and y.npy, says it is
// ready, then answers every "fit" line with the time of one fit and the
// learned weights as float64 bits.
const pyWorker = `
import json, sys, time, warnings
try:
    import numpy as np
    import sklearn
    from sklearn.linear_model import Perceptron
except Exception as e:
    print(json.dumps({"error": "%s: %s" % (type(e).__name__, e)}), flush=True)
    sys.exit(0)
X = np.load(sys.argv[1])
y = np.load(sys.argv[2])
assert X.dtype == np.float64 and X.flags.c_contiguous
print(json.dumps({"ready": "python %s, numpy %s, scikit-learn %s" % (
    sys.version.split()[0], np.__version__, sklearn.__version__)}), flush=True)
for line in sys.stdin:
    if line.strip() != "fit":
        break
    clf = Perceptron(shuffle=False, tol=None, eta0=1, max_iter=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: max_iter=1
        t0 = time.perf_counter()
        clf.fit(X, y)
        t = time.perf_counter() - t0
    print(json.dumps({
        "seconds": t,
        "coef": ["%016x" % v for v in clf.coef_[0].view(np.uint64)],
        "intercept": "%016x" % clf.intercept_.view(np.uint64)[0],
        "n_iter": int(clf.n_iter_),
        "classes": [float(c) for c in clf.classes_],
    }), flush=True)
`

// worker is a running Python worker.
type worker struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startWorker starts the Python worker on the two files. It returns a nil
// worker and the reason when Python or scikit-learn is unusable.
func startWorker(python, xPath, yPath string) (*worker, string, error) {
	cmd := exec.Command(python, "-c", pyWorker, xPath, yPath)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Sprintf("scikit-learn ABSENT: cannot run %s: %v", python, err), nil
	}
	w := &worker{cmd: cmd, in: in, out: bufio.NewScanner(stdout)}
	w.out.Buffer(make([]byte, 1<<20), 1<<26)
	var hello struct{ Ready, Error string }
	if err := w.read(&hello); err != nil || hello.Ready == "" {
		w.close()
		if hello.Error != "" {
			return nil, "scikit-learn ABSENT: " + hello.Error, nil
		}
		return nil, fmt.Sprintf("scikit-learn ABSENT: the Python worker did not start (%v)", err), nil
	}
	return w, hello.Ready, nil
}

func (w *worker) read(v any) error {
	if !w.out.Scan() {
		if err := w.out.Err(); err != nil {
			return err
		}
		return errors.New("no answer from Python")
	}
	return json.Unmarshal(w.out.Bytes(), v)
}

func (w *worker) fit() (fit, error) {
	var f fit
	if _, err := io.WriteString(w.in, "fit\n"); err != nil {
		return f, err
	}
	err := w.read(&f)
	return f, err
}

func (w *worker) close() {
	w.in.Close()
	w.cmd.Wait()
}

// plaEpoch is (b): one epoch of the package.
func plaEpoch(d *perceptron.Dataset) (*perceptron.Result, error) {
	return plaEpochSum(d, perceptron.ExactSum)
}

// plaEpochSum is one epoch of the package with the given Summation: (b) with
// ExactSum, (d) with FastSum.
func plaEpochSum(d *perceptron.Dataset, sum perceptron.Summation) (*perceptron.Result, error) {
	opt := perceptron.Options{}
	opt.Summation = sum
	opt.MaxEpochs = 1
	opt.Order = perceptron.InOrder
	opt.Eta = 1
	opt.Tie = perceptron.TieMistake
	return perceptron.PLA(d, opt)
}

// roundsFor returns the timed rounds on size s: rounds on sizes of 10^8
// values or more, rounds·⌈10^8/(n·d)⌉ on smaller ones, at most 10·rounds.
// An epoch of 10^7 values takes 3 to 5 ms, and the medians of six rounds
// of it moved by a third from run to run (docs/performance.md, rounds 9
// and 10); more rounds of the cheap sizes steady them at little cost.
func roundsFor(s size, rounds int) int {
	v := s.n * s.d
	return rounds * min(10, (100_000_000+v-1)/v)
}

// measure generates one data set and times (a), (b), (c) on it.
func measure(s size, rounds int, seed uint64, noise float64, python, tmp string, out io.Writer) (row, error) {
	r := row{size: s}
	loadBefore := loadAvg()
	fmt.Fprintf(out, "\n%s (%d rounds): generating ...", s, rounds)
	d, _ := generate(s, seed, noise)
	dir, err := os.MkdirTemp(tmp, "perfcompare-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	xPath, yPath := filepath.Join(dir, "X.npy"), filepath.Join(dir, "y.npy")
	if err := writeNpy(xPath, d.X.RawMatrix().Data, s.n, s.d); err != nil {
		return r, err
	}
	if err := writeNpy(yPath, d.Y, s.n); err != nil {
		return r, err
	}
	fmt.Fprint(out, " written; starting Python ...")
	w, note, err := startWorker(python, xPath, yPath)
	if err != nil {
		return r, err
	}
	r.skNote = note
	if w != nil {
		defer w.close()
	}
	fmt.Fprintf(out, " %s\n", note)

	var readTimes [len(reads)][]time.Duration
	var pkgs, sks, fasts []time.Duration
	var sink float64
	var res *perceptron.Result
	var last fit
	for k := 0; k <= rounds; k++ { // round 0 is the warm-up
		// The three Go timings take turns at going first: on this kind of
		// machine (a VM) whatever runs first after the Python worker's fit,
		// or after any pause, is seen to run up to twice as slow.
		var tReads [len(reads)]time.Duration
		var tPkg, tFast time.Duration
		for j := range 3 {
			t0 := time.Now()
			switch (j + k) % 3 {
			case 0:
				// The reads take turns at going first as well.
				x := d.X.RawMatrix().Data
				for q := range reads {
					i := (q + k) % len(reads)
					t0 = time.Now()
					sink += reads[i].f(x)
					tReads[i] = time.Since(t0)
				}
			case 1:
				res, err = plaEpoch(d)
				tPkg = time.Since(t0)
			case 2:
				_, err = plaEpochSum(d, perceptron.FastSum)
				tFast = time.Since(t0)
			}
			if err != nil {
				return r, err
			}
		}

		var tSk time.Duration
		if w != nil {
			last, err = w.fit()
			if err != nil {
				return r, fmt.Errorf("Python worker: %v", err)
			}
			tSk = time.Duration(last.Seconds * 1e9)
		}
		fmt.Fprintf(out, "  round %d%s: package %v, fast %v, sklearn %v; reads:", k,
			map[bool]string{true: " (warm-up)", false: ""}[k == 0],
			tPkg.Round(time.Microsecond), tFast.Round(time.Microsecond), tSk.Round(time.Microsecond))
		for i, rd := range reads {
			fmt.Fprintf(out, " %s %v", rd.name, tReads[i].Round(time.Microsecond))
		}
		fmt.Fprintln(out)
		if k == 0 {
			continue
		}
		for i := range reads {
			readTimes[i] = append(readTimes[i], tReads[i])
		}
		pkgs, sks, fasts = append(pkgs, tPkg), append(sks, tSk), append(fasts, tFast)
	}
	if math.IsNaN(sink) {
		fmt.Fprintln(out, "  (the sum is NaN)") // keeps the read from being optimised away
	}
	for i := range reads {
		r.reads[i] = median(readTimes[i])
	}
	r.pkg, r.fast = median(pkgs), median(fasts)
	r.updates = res.Updates
	if w != nil {
		r.sk = median(sks)
		r.weights = sameBits(res.W, res.B, last)
		if !slices.Equal(last.Classes, []float64{-1, 1}) {
			r.weights += fmt.Sprintf(" (sklearn classes %v)", last.Classes)
		}
	} else {
		r.weights = "not checked: scikit-learn absent"
	}
	r.load = loadBefore + " -> " + loadAvg()
	return r, nil
}

// fastest is the index in reads of the fastest read of r (the limit), or
// with inOrder of the fastest read in order.
func (r row) fastest(inOrder bool) int {
	f := -1
	for i, t := range r.reads {
		if (reads[i].inOrder || !inOrder) && (f < 0 || t < r.reads[f]) {
			f = i
		}
	}
	return f
}

// gbps is the bandwidth, in GB/s, of reading the n·d float64 of s in t.
func (s size) gbps(t time.Duration) float64 {
	return float64(s.n) * float64(s.d) * 8 / t.Seconds() / 1e9
}

// ms formats a duration in milliseconds.
func ms(t time.Duration) string { return fmt.Sprintf("%.1f", float64(t)/1e6) }

// table formats the rows as a markdown table followed by the notes: the
// bandwidth of every read (the limit's in its column), the load average around each
// size, and the Python and scikit-learn versions.
func table(rows []row) string {
	var b strings.Builder
	b.WriteString("| data (n x d) | limit ms (GB/s) | package ms | sklearn ms | fast ms | package/limit | sklearn/package | fast/limit | fast/package | updates | weights |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	var notes, slower []string
	for _, r := range rows {
		if r.fast > r.pkg {
			slower = append(slower, r.size.String())
		}
		limit := r.reads[r.fastest(false)]
		gbs := r.size.gbps(limit)
		sk, ratio := "absent", "-"
		if r.sk > 0 {
			sk = ms(r.sk)
			ratio = fmt.Sprintf("%.2fx", float64(r.sk)/float64(r.pkg))
		}
		fmt.Fprintf(&b, "| %s | %s (%.1f) | %s | %s | %s | %.2fx | %s | %.2fx | %.2fx | %d | %s |\n",
			r.size, ms(limit), gbs, ms(r.pkg), sk, ms(r.fast), float64(r.pkg)/float64(limit), ratio,
			float64(r.fast)/float64(limit), float64(r.fast)/float64(r.pkg), r.updates, r.weights)
		if !slices.Contains(notes, r.skNote) {
			notes = append(notes, r.skNote)
		}
	}
	if len(slower) == 0 {
		b.WriteString("\nFastSum was not slower than ExactSum (the package) on any size of this run")
	} else {
		fmt.Fprintf(&b, "\nFastSum was SLOWER than ExactSum (the package) on %s", strings.Join(slower, ", "))
	}
	b.WriteString("\nreads of X, GB/s (the limit is the fastest, *):")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s:", r.size)
		for q, rd := range reads {
			star := ""
			if q == r.fastest(false) {
				star = "*"
			}
			fmt.Fprintf(&b, " %s %.1f%s", rd.name, r.size.gbps(r.reads[q]), star)
		}
	}
	b.WriteString("\nagainst the fastest of the reads in order:")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		q := r.fastest(true)
		a := float64(r.reads[q])
		fmt.Fprintf(&b, " package %.2fx, fast %.2fx of the %s read on %s", float64(r.pkg)/a, float64(r.fast)/a, reads[q].name, r.size)
	}
	b.WriteString("\nload average (1, 5, 15 min) before -> after each size:")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s: %s", r.size, r.load)
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "\nsklearn: %s", n)
	}
	b.WriteString("\n")
	return b.String()
}

// loadAvg returns the 1, 5 and 15 minute load averages of /proc/loadavg, or
// "unknown" where there is none.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// cpuModel returns the first "model name" of /proc/cpuinfo with its "cpu
// family" and "model" (a VM's model name is often just "AMD EPYC": the
// family and model tell Zen 3 from Zen 4), or "CPU unknown".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "CPU unknown"
	}
	f := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if k = strings.TrimSpace(k); ok && f[k] == "" {
			f[k] = strings.TrimSpace(v)
		}
	}
	if f["model name"] == "" {
		return "CPU unknown"
	}
	if f["cpu family"] == "" || f["model"] == "" {
		return f["model name"]
	}
	return fmt.Sprintf("%s (family %s, model %s)", f["model name"], f["cpu family"], f["model"])
}
