package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseSizes(t *testing.T) {
	tests := []struct {
		in   string
		want []size
		err  string
	}{
		{in: "100000x100,1000000x100", want: []size{{100000, 100}, {1000000, 100}}},
		{in: " 10x3 ", want: []size{{10, 3}}},
		{in: "100", err: `size "100": want NxD, e.g. 100000x100`},
		{in: "1x5", err: `size "1x5": want NxD with N >= 2 and D >= 1`},
		{in: "10x0", err: `size "10x0": want NxD with N >= 2 and D >= 1`},
		{in: "10xa", err: `size "10xa": want NxD with N >= 2 and D >= 1`},
	}
	for _, tc := range tests {
		got, err := parseSizes(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseSizes(%q): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseSizes(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// TestNpyHeader compares the header with the bytes NumPy 1.24.2 writes for
// np.save of float64 arrays of these shapes (printed by np.save to a
// BytesIO).
func TestNpyHeader(t *testing.T) {
	pad := func(dict string) string {
		return "\x93NUMPY\x01\x00v\x00" + dict + strings.Repeat(" ", 128-10-len(dict)-1) + "\n"
	}
	tests := []struct {
		shape []int
		want  string
	}{
		{[]int{3, 2}, pad("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }")},
		{[]int{5}, pad("{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }")},
		{[]int{100000, 1000}, pad("{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 1000), }")},
	}
	for _, tc := range tests {
		if got := string(npyHeader(tc.shape...)); got != tc.want {
			t.Errorf("npyHeader(%v) =\n%q\nwant\n%q", tc.shape, got, tc.want)
		}
	}
}

// TestWriteNpy writes a small matrix and reads it back: the header, then the
// values as little-endian float64 in row-major order, bit for bit; and,
// when NumPy is there, NumPy reads the same values.
func TestWriteNpy(t *testing.T) {
	data := []float64{1.5, -2, math.Copysign(0, -1), math.SmallestNonzeroFloat64, 1e300, 0.1}
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := writeNpy(path, data, 2, 3); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := npyHeader(2, 3)
	if !bytes.HasPrefix(raw, h) || len(raw) != len(h)+8*len(data) {
		t.Fatalf("file of %d bytes does not start with the header or has the wrong size", len(raw))
	}
	for k, v := range data {
		got := binary.LittleEndian.Uint64(raw[len(h)+8*k:])
		if got != math.Float64bits(v) {
			t.Errorf("value %d: bits %016x, want %016x", k, got, math.Float64bits(v))
		}
	}
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import numpy").Run() != nil {
		t.Skip("no NumPy at " + py)
	}
	out, err := exec.Command(py, "-c", `import sys, numpy as np
a = np.load(sys.argv[1])
print(a.shape, a.dtype, a.flags.c_contiguous, " ".join(float(v).hex() for v in a.ravel()))`, path).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "(2, 3) float64 True 0x1.8000000000000p+0 -0x1.0000000000000p+1 -0x0.0p+0 0x0.0000000000001p-1022 0x1.7e43c8800759cp+996 0x1.999999999999ap-4\n"
	if string(out) != want {
		t.Errorf("NumPy read\n%s\nwant\n%s", out, want)
	}
}

// TestGenerate checks that the data is seeded and that the labels are
// sign(u·x) with the given fraction flipped.
func TestGenerate(t *testing.T) {
	s := size{20000, 10}
	d1, u := generate(s, 1, 0.05)
	d2, _ := generate(s, 1, 0.05)
	d3, _ := generate(s, 2, 0.05)
	if !reflect.DeepEqual(d1.X.RawMatrix().Data, d2.X.RawMatrix().Data) || !reflect.DeepEqual(d1.Y, d2.Y) {
		t.Fatal("the same seed gave different data")
	}
	if reflect.DeepEqual(d1.Y, d3.Y) {
		t.Fatal("seeds 1 and 2 gave the same labels")
	}
	flipped := 0
	for i := range s.n {
		var score float64
		for j, v := range d1.X.RawRowView(i) {
			score += u[j] * v
		}
		clean := 1.0
		if score < 0 {
			clean = -1
		}
		if d1.Y[i] != clean {
			flipped++
		}
	}
	// Flips are Binomial(20000, 0.05): mean 1000, standard deviation 30.8;
	// 6 standard deviations make a false alarm practically impossible.
	if flipped < 1000-185 || flipped > 1000+185 {
		t.Errorf("%d labels flipped, want about 1000", flipped)
	}
	if d0, _ := generate(s, 1, 0); d0 == nil {
		t.Fatal("no data")
	}
}

// TestReads checks the reads of the limit: each sums every float64 of x
// once (small integers, so every order of the sums is exact).
func TestReads(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 1000, 1003} {
		x := make([]float64, n)
		want := 0.0
		for i := range x {
			x[i] = float64(i%17) - 8
			want += x[i]
		}
		for _, rd := range reads {
			if got := rd.f(x); got != want {
				t.Errorf("n=%d: the %s read sums to %v, want %v", n, rd.name, got, want)
			}
		}
	}
}

func TestMedian(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{ms(5), 5 * time.Millisecond},
		{ms(9, 1, 5), 5 * time.Millisecond},
		{ms(9, 1, 5, 3), 4 * time.Millisecond},
	}
	for _, tc := range tests {
		in := append([]time.Duration(nil), tc.in...)
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(in, tc.in) {
			t.Errorf("median changed its argument")
		}
	}
}

func TestSameBits(t *testing.T) {
	hex := fmtBits
	w := []float64{1, 0.1, -3}
	f := fit{Coef: []string{hex(1), hex(0.1), hex(-3)}, Intercept: hex(2)}
	tests := []struct {
		name string
		w    []float64
		b    float64
		want string
	}{
		{"same", w, 2, "bit-identical (3 weights + b)"},
		{"last bit of w[1]", []float64{1, math.Nextafter(0.1, 1), -3}, 2,
			"DIFFERENT: 1 of 4 values, first w[1]: package 0.10000000000000002, sklearn 0.1"},
		{"b", w, 0, "DIFFERENT: 1 of 4 values, first b: package 0, sklearn 2"},
		{"length", w[:2], 2, "DIFFERENT: sklearn has 3 weights, the package 2"},
	}
	for _, tc := range tests {
		if got := sameBits(tc.w, tc.b, f); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	neg := fit{Coef: []string{hex(0)}, Intercept: hex(math.Copysign(0, -1))}
	if got := sameBits([]float64{0}, 0, neg); !strings.HasPrefix(got, "DIFFERENT: 1 of 2") {
		t.Errorf("b = 0 against intercept -0: %q", got)
	}
}

// fmtBits is the float64 bits of v as 16 hex digits, as the Python worker
// prints them.
func fmtBits(v float64) string {
	const digits = "0123456789abcdef"
	b := math.Float64bits(v)
	out := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		out[i] = digits[b&15]
		b >>= 4
	}
	return string(out)
}

func TestTable(t *testing.T) {
	ms := time.Millisecond
	rows := []row{
		{size: size{1000000, 100}, pkg: 11 * ms, sk: 22 * ms,
			fast: 12 * ms, reads: [4]time.Duration{8 * ms, 10 * ms, 16 * ms, 12 * ms}, load: "0.10 0.20 0.30 -> 0.40 0.50 0.60",
			skNote: "python 3.11.2", weights: "bit-identical (100 weights + b)", updates: 180},
		{size: size{10, 1}, pkg: 3 * ms, fast: 2 * ms, reads: [4]time.Duration{2 * ms, 4 * ms, 3 * ms / 2, ms},
			load:   "unknown -> unknown",
			skNote: "scikit-learn ABSENT: x", weights: "not checked: scikit-learn absent", updates: 1},
	}
	want := "| data (n x d) | limit ms (GB/s) | package ms | sklearn ms | fast ms | package/limit | sklearn/package | fast/limit | fast/package | updates | weights |\n" +
		"|---|---|---|---|---|---|---|---|---|---|---|\n" +
		"| 1000000 x 100 | 8.0 (100.0) | 11.0 | 22.0 | 12.0 | 1.38x | 2.00x | 1.50x | 1.09x | 180 | bit-identical (100 weights + b) |\n" +
		"| 10 x 1 | 1.0 (0.0) | 3.0 | absent | 2.0 | 3.00x | - | 2.00x | 0.67x | 1 | not checked: scikit-learn absent |\n" +
		"\nFastSum was SLOWER than ExactSum (the package) on 1000000 x 100" +
		"\nreads of X, GB/s (the limit is the fastest, *): 1000000 x 100: eight-stream 100.0* read-ahead 80.0 in-order 50.0 page-ahead 66.7; 10 x 1: eight-stream 0.0 read-ahead 0.0 in-order 0.0 page-ahead 0.0*" +
		"\nagainst the fastest of the reads in order: package 1.10x, fast 1.20x of the read-ahead read on 1000000 x 100, package 3.00x, fast 2.00x of the page-ahead read on 10 x 1" +
		"\nload average (1, 5, 15 min) before -> after each size: 1000000 x 100: 0.10 0.20 0.30 -> 0.40 0.50 0.60; 10 x 1: unknown -> unknown" +
		"\nsklearn: python 3.11.2\nsklearn: scikit-learn ABSENT: x\n"
	if got := table(rows); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	rows[0].fast = rows[0].pkg // a tie is not slower
	if got := table(rows[:1]); !strings.Contains(got, "\nFastSum was not slower than ExactSum (the package) on any size of this run\n") {
		t.Errorf("table with FastSum as fast as ExactSum:\n%s", got)
	}
}

// TestMachineNotes checks the load average and CPU model readers on this
// machine (Linux): three numbers, and a model name that is not empty.
func TestMachineNotes(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		t.Skip("no /proc/loadavg")
	}
	f := strings.Fields(loadAvg())
	if len(f) != 3 {
		t.Fatalf("loadAvg() = %q, want three numbers", loadAvg())
	}
	for _, v := range f {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			t.Errorf("loadAvg() = %q: %v", loadAvg(), err)
		}
	}
	if m := cpuModel(); m == "" {
		t.Errorf("cpuModel() is empty")
	}
}

// TestAbsentSklearn runs the command with a Python that does not exist and
// with one whose scikit-learn import fails: it says so and still measures
// the limit and the package.
func TestAbsentSklearn(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "python")
	script := "#!/bin/sh\necho '{\"error\": \"ModuleNotFoundError: No module named '\"'\"'sklearn'\"'\"'\"}'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ python, want string }{
		{filepath.Join(dir, "missing"), "scikit-learn ABSENT: cannot run " + filepath.Join(dir, "missing")},
		{fake, "scikit-learn ABSENT: ModuleNotFoundError: No module named 'sklearn'"},
	} {
		var out bytes.Buffer
		if err := run([]string{"-sizes", "200x3", "-rounds", "1", "-python", tc.python, "-tmp", dir}, &out); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if !strings.Contains(s, "\nsklearn: "+tc.want) || !strings.Contains(s, "| 200 x 3 |") ||
			!strings.Contains(s, "| absent | ") || !strings.Contains(s, "not checked: scikit-learn absent") {
			t.Errorf("python %s: output\n%s\nwant the table and %q", tc.python, s, tc.want)
		}
	}
}

// TestAgainstSklearn runs the whole comparison on a small data set with
// Debian's scikit-learn, when it is there: its weights must be the
// package's, bit for bit.
func TestAgainstSklearn(t *testing.T) {
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import sklearn").Run() != nil {
		t.Skip("no scikit-learn at " + py)
	}
	for _, sizes := range []string{"3000x20", "500x300"} {
		var out bytes.Buffer
		if err := run([]string{"-sizes", sizes, "-rounds", "1", "-python", py, "-tmp", t.TempDir()}, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "| bit-identical (") {
			t.Errorf("%s: weights not bit-identical:\n%s", sizes, out.String())
		}
	}
}

// TestRunPrintsMachine runs a tiny comparison and checks that the table
// is followed by the streaming bandwidth and the load average of the size,
// and that the header names the scans' kernels.
func TestRunPrintsMachine(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		t.Skip("no /proc/loadavg")
	}
	var out bytes.Buffer
	if err := run([]string{"-sizes", "300x4", "-rounds", "1", "-python", "/nonexistent/python", "-tmp", t.TempDir()}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, re := range []string{
		`(?m)^load average at start: [0-9.]+ [0-9.]+ [0-9.]+$`,
		`(?m)^the InOrder scans run in (AVX-512|AVX2|SSE2|Go) `,
		`(?m)^reads of X, GB/s \(the limit is the fastest, \*\): 300 x 4: eight-stream [0-9.]+\*? read-ahead [0-9.]+\*? in-order [0-9.]+\*? page-ahead [0-9.]+\*?$`,
		`(?m)^against the fastest of the reads in order: package [0-9.]+x, fast [0-9.]+x of the (read-ahead|in-order|page-ahead) read on 300 x 4$`,
		`(?m)^load average \(1, 5, 15 min\) before -> after each size: 300 x 4: [0-9.]+ [0-9.]+ [0-9.]+ -> [0-9.]+ [0-9.]+ [0-9.]+$`,
		`(?m)^\| 300 x 4 \| [0-9.]+ \([0-9.]+\) \| [0-9.]+ \| absent \| [0-9.]+ \| [0-9.]+x \| - \| [0-9.]+x \| [0-9.]+x \| [0-9]+ \| not checked: scikit-learn absent \|$`,
		`(?m)^FastSum was (not slower than ExactSum \(the package\) on any size of this run|SLOWER than ExactSum \(the package\) on 300 x 4)$`,
	} {
		if !regexp.MustCompile(re).MatchString(s) {
			t.Errorf("output lacks %s:\n%s", re, s)
		}
	}
}

// TestRoundsFor: sizes of 10^8 values or more get the rounds asked for,
// smaller ones ⌈10^8/(n·d)⌉ times as many, at most ten times.
func TestRoundsFor(t *testing.T) {
	for _, c := range []struct{ n, d, rounds, want int }{
		{1000000, 100, 6, 6},
		{100000, 1000, 6, 6},
		{30000000, 4, 3, 3},
		{50000000, 1, 6, 12},
		{40000000, 1, 6, 18},
		{100000, 100, 6, 60},
		{300, 4, 1, 10},
	} {
		if got := roundsFor(size{c.n, c.d}, c.rounds); got != c.want {
			t.Errorf("roundsFor(%d x %d, %d) = %d, want %d", c.n, c.d, c.rounds, got, c.want)
		}
	}
}
