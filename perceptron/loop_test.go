package perceptron

import (
	"context"
	"errors"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// irisScaled returns Iris setosa (-1) vs versicolor (+1), all four
// features, every value multiplied by scale.
func irisScaled(t testing.TB, scale float64) *Dataset {
	t.Helper()
	d, err := Iris().Binary(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	d.X.Scale(scale, d.X)
	return d
}

// TestNonFiniteIsAnError checks the overflow cases of issue 14: every
// learner ends with an error that matches ErrNonFinite and names the row
// and the epoch, never with a result. The rows and epochs are those where
// the arithmetic first leaves the floats, worked out by hand:
//   - Iris × 1e154: the first update (row 0, a mistake at w = 0) sets
//     w = -x_0 ≈ -5e154·(1, 0.7, 0.3, 0.04); the score of row 1 then
//     exceeds 1.8e308 in magnitude;
//   - Eta = 1e308: the first update multiplies x_0 (5.1 ...) by 1e308;
//   - data near 1e308: w = x_0 after row 0, and w·x_1 overflows (+Inf
//     plus -Inf terms: NaN);
//   - the RBF kernel with Eta 1e308: b = -1e308 after row 0, and the score
//     -1e308·(1 + k(x_0, x_i)) first overflows at row 4, the first row
//     with k(x_0, x_i) > 0.797 after row 0's update;
//   - Averaged with Eta 1e306 on small separable data: w stays near 1e306,
//     but the sum of w over 4000 steps (the explicit average) does not.
func TestNonFiniteIsAnError(t *testing.T) {
	huge := lrData(t, [][]float64{{1e308, 1e308}, {-1e308, 0.5e308}, {0.9e308, -1e308}}, []float64{1, -1, 1})
	small := lrData(t, [][]float64{{1, 2}, {-1, -0.5}, {2, -1}, {-2, 1}}, []float64{1, -1, 1, -1})
	eta := func(e float64) Options { o := Options{}; o.Eta = e; return o }
	scoreOverflow := "perceptron: the score w·x + b of row 1 in epoch 0 is NaN with finite weights (overflow): the data or Eta is too large; scale the data or lower Eta"
	tests := []struct {
		name string
		fit  func() (any, error)
		want string
	}{
		{"PLA, Iris × 1e154", func() (any, error) { return PLA(irisScaled(t, 1e154), Options{}) },
			"perceptron: the score w·x + b of row 1 in epoch 0 is -Inf with finite weights (overflow): the data or Eta is too large; scale the data or lower Eta"},
		{"PLA, Eta 1e308", func() (any, error) { return PLA(irisScaled(t, 1), eta(1e308)) },
			"perceptron: the weights became non-finite (w[0] = -Inf) with the update on row 0 in epoch 0: the data or Eta is too large (overflow); scale the data or lower Eta"},
		{"PLA, Eta 1e308, RandomMistake", func() (any, error) {
			o := eta(1e308)
			o.Order, o.Seed = RandomMistake, 1
			return PLA(irisScaled(t, 1), o)
		}, "perceptron: the weights became non-finite (w[0] = +Inf) with the update on row 93 in epoch 0: the data or Eta is too large (overflow); scale the data or lower Eta"},
		{"PLA, data near 1e308", func() (any, error) { return PLA(huge, Options{}) }, scoreOverflow},
		{"Pocket, data near 1e308", func() (any, error) { return Pocket(huge, Options{}) }, scoreOverflow},
		{"Voted, data near 1e308", func() (any, error) { return Voted(huge, Options{}) }, scoreOverflow},
		{"Averaged, data near 1e308", func() (any, error) { return Averaged(huge, Options{}) }, scoreOverflow},
		{"Averaged, Eta 1e306", func() (any, error) { return Averaged(small, eta(1e306)) },
			"perceptron: the explicit average: non-finite value (w[0] = +Inf) after 1000 epochs, last update on row 3 in epoch 0: the sums of the average overflowed; scale the data or lower Eta"},
		{"Pocket, Eta 1e308", func() (any, error) { return Pocket(irisScaled(t, 1), eta(1e308)) },
			"perceptron: the weights became non-finite (w[0] = -Inf) with the update on row 0 in epoch 0: the data or Eta is too large (overflow); scale the data or lower Eta"},
		{"Dual, Eta 1e308", func() (any, error) { return Dual(irisScaled(t, 1), eta(1e308)) },
			"perceptron: the score Σ_j α_j η y_j k(x_j, x_i) + b of row 1 in epoch 0 is -Inf (overflow): the data, the kernel's values or Eta are too large; scale the data or lower Eta"},
		{"KernelPerceptron rbf, Eta 1e308", func() (any, error) {
			return KernelPerceptron(irisScaled(t, 1), RBFKernel{Gamma: 1}, eta(1e308))
		}, "perceptron: the score Σ_j α_j η y_j k(x_j, x_i) + b of row 4 in epoch 0 is -Inf (overflow): the data, the kernel's values or Eta are too large; scale the data or lower Eta"},
	}
	for _, tc := range tests {
		res, err := tc.fit()
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrNonFinite) {
			t.Errorf("%s: error %v, want %q (ErrNonFinite)", tc.name, err, tc.want)
		}
		if res != nil && !isNilPointer(res) {
			t.Errorf("%s: a result %+v came with the error", tc.name, res)
		}
	}
}

func isNilPointer(v any) bool {
	switch v := v.(type) {
	case *Result:
		return v == nil
	case *PocketResult:
		return v == nil
	case *VotedModel:
		return v == nil
	case *AveragedResult:
		return v == nil
	case *DualResult:
		return v == nil
	case *KernelModel:
		return v == nil
	}
	return false
}

// TestNaNScoreIsAMistakeInLoops: a w with a NaN makes every score NaN, and the
// count of training errors must then be n, not 0 (issue 14).
func TestNaNScoreIsAMistakeInLoops(t *testing.T) {
	d := irisScaled(t, 1)
	nan := []float64{0, 0, 0, 0}
	nan[2] = nan[2] / nan[2] // NaN without importing math
	for _, tie := range []Tie{TieMistake, TieNegative} {
		if e := countMistakes(nan, 0, d, tie); e != d.N() {
			t.Errorf("%v: %d errors with a NaN weight, want all %d", tie, e, d.N())
		}
	}
}

// TestHistoryIsRunLengthEncoded checks UpdateRuns against the per-epoch
// counts an Observer sees, and its expansion against Iris's known
// [2 2 3 2 1 0].
func TestHistoryIsRunLengthEncoded(t *testing.T) {
	d, err := Iris().Binary(0, 1, 0, 2) // the golden run of TestIrisGolden
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{}
	perEpoch := []int{}
	opt.Control.Observer = func(u Update) {
		for len(perEpoch) <= u.Epoch {
			perEpoch = append(perEpoch, 0)
		}
		perEpoch[u.Epoch]++
	}
	res, err := PLA(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	perEpoch = append(perEpoch, 0) // the clean epoch
	if got := res.UpdatesPerEpoch(); !slices.Equal(got, []int{2, 2, 3, 2, 1, 0}) || !slices.Equal(got, perEpoch) ||
		!slices.Equal(res.UpdateRuns, EpochRuns{{2, 2}, {3, 1}, {2, 1}, {1, 1}, {0, 1}}) {
		t.Errorf("UpdatesPerEpoch %v, UpdateRuns %v, observed %v; want [2 2 3 2 1 0]", got, res.UpdateRuns, perEpoch)
	}
	var h EpochRuns
	for _, u := range []int{3, 3, 0, 1, 1, 1, 0} {
		h.add(u)
	}
	if want := (EpochRuns{{3, 2}, {0, 1}, {1, 3}, {0, 1}}); !slices.Equal(h, want) || h.Len() != 7 ||
		!slices.Equal(h.Expand(), []int{3, 3, 0, 1, 1, 1, 0}) {
		t.Errorf("runs %v (len %d, expanded %v), want %v", h, h.Len(), h.Expand(), want)
	}
	if e := (EpochRuns{}).Expand(); e == nil || len(e) != 0 {
		t.Errorf("empty history expands to %#v, want []int{}", e)
	}
}

// twoOpposite is the same point with both labels: PLA makes 2 updates in
// every epoch forever (w, b go 0 → x, 1 → 0, 0).
func twoOpposite(t testing.TB) *Dataset {
	return lrData(t, [][]float64{{1, 1}, {1, 1}}, []float64{1, -1})
}

// TestLongRunMemoryIsBounded: 30 million epochs of two rows (issue 14
// allocated 1.7 GB) must allocate next to nothing, and the history must
// still say 2 updates in each of the 30M epochs.
func TestLongRunMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("30M epochs: a few seconds")
	}
	d := twoOpposite(t)
	opt := Options{}
	opt.MaxEpochs = 30_000_000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := PLA(d, opt)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
		t.Errorf("30M epochs allocated %d bytes, want < 64 KiB (the history must not grow with epochs)", alloc)
	}
	if res.Epochs != 30_000_000 || res.Updates != 60_000_000 || res.Converged ||
		!slices.Equal(res.UpdateRuns, EpochRuns{{Updates: 2, Epochs: 30_000_000}}) {
		t.Errorf("epochs %d updates %d converged %v history %v; want 30M, 60M, false, [{2 30000000}]",
			res.Epochs, res.Updates, res.Converged, res.UpdateRuns)
	}
}

// TestContextDeadlineStopsARun: a run of a billion epochs whose context's
// deadline passes (after the run has asked it 100 times: deadlineAfter, no
// clock) stops with the partial result and an error that matches
// ErrStopped and says why.
func TestContextDeadlineStopsARun(t *testing.T) {
	d := twoOpposite(t)
	for _, name := range []string{"PLA", "Pocket", "Voted", "Averaged", "Dual", "KernelPerceptron"} {
		opt := Options{}
		opt.MaxEpochs = 1_000_000_000
		opt.Control.Context = &deadlineAfter{Context: context.Background(), calls: 100}
		res, err := fitByName(name, d, opt)
		if !errors.Is(err, ErrStopped) || !errors.Is(err, context.DeadlineExceeded) ||
			!regexpMatch(`^perceptron: stopped in epoch [0-9]+ \(0-based\) after [0-9]+ updates, before convergence: context deadline exceeded$`, err.Error()) {
			t.Errorf("%s: error %v, want a deadline stop (ErrStopped)", name, err)
		}
		if res == nil || res.Epochs < 1 || res.Converged || res.Updates < 2*(res.Epochs-1) || res.UpdateRuns.Len() != res.Epochs {
			t.Errorf("%s: partial result %+v", name, res)
		}
	}
}

// TestContextStopsARun: a cancelled context stops a run (before any epoch
// when it is cancelled at the start); the error matches ErrStopped and
// context.Canceled.
func TestContextStopsARun(t *testing.T) {
	d := twoOpposite(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt := Options{}
	opt.Control.Context = ctx
	res, err := PLA(d, opt)
	want := "perceptron: stopped in epoch 0 (0-based) after 0 updates, before convergence: context canceled"
	if err == nil || err.Error() != want || !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want %q", err, want)
	}
	if res == nil || res.Epochs != 0 || res.Updates != 0 || res.Converged || len(res.W) != 2 {
		t.Errorf("cancelled context: result %+v, want the zero weights after 0 epochs", res)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	opt.Control.Context, opt.MaxEpochs = ctx, 1_000_000_000
	res, err = fitByName("Averaged", d, opt)
	if !errors.Is(err, ErrStopped) || !errors.Is(err, context.DeadlineExceeded) || res == nil || res.Epochs == 0 {
		t.Errorf("timeout: %v, %+v", err, res)
	}
	// A run that ends by itself is not stopped.
	opt.MaxEpochs = 10
	opt.Control.Context = context.Background()
	if _, err := PLA(irisScaled(t, 1), opt); err != nil {
		t.Errorf("a live context: %v", err)
	}
}

// asResult returns what get makes of a learner's result r (its hyperplane
// and Stats) as a *Result, or nil when r is nil, and err.
func asResult[R any](r *R, err error, get func(*R) Result) (*Result, error) {
	if r == nil {
		return nil, err
	}
	res := get(r)
	return &res, err
}

// fitByName runs a learner and returns its counters.
func fitByName(name string, d *Dataset, opt Options) (*Result, error) {
	switch name {
	case "PLA":
		return PLA(d, opt)
	case "Pocket":
		r, err := Pocket(d, opt)
		return asResult(r, err, func(r *PocketResult) Result { return Result{r.Hyperplane, r.Stats} })
	case "Voted":
		r, err := Voted(d, opt)
		return asResult(r, err, func(r *VotedModel) Result { return Result{r.Last(), r.Stats} })
	case "Averaged":
		r, err := Averaged(d, opt)
		return asResult(r, err, func(r *AveragedResult) Result { return Result{r.Hyperplane, r.Stats} })
	case "Dual":
		r, err := Dual(d, opt)
		return asResult(r, err, func(r *DualResult) Result { return Result{r.Hyperplane, r.Stats} })
	case "KernelPerceptron":
		m, err := KernelPerceptron(d, PolyKernel{Degree: 2, C: 1}, opt)
		return asResult(m, err, func(m *KernelModel) Result { return Result{Stats: m.Stats} })
	}
	panic("unknown learner " + name)
}

// TestGramBudget: Dual and KernelPerceptron refuse a Gram matrix above
// MaxGramBytes before allocating it, and accept it within. They keep its
// upper triangle: 8·n(n+1)/2 bytes of values and the rows' headers, in
// whole 8 KiB pages (gramBytes); GramMatrix returns the whole square.
func TestGramBudget(t *testing.T) {
	d := irisScaled(t, 1) // 100 rows: 40,400 bytes of values, 2,400 of headers
	if got := gramBytes(100); got != 56_784 {
		t.Fatalf("gramBytes(100) = %d, want 56784: 2,400 bytes of headers (1 page), 40,400 of values and a page for the one block", got)
	}
	opt := Options{}
	opt.Control.MaxGramBytes = 56_783
	want := "perceptron: the 100 × 100 Gram matrix needs 56784 bytes (its upper triangle, 8·n(n+1)/2 bytes of values, its row headers and the allocator's 8 KiB pages), more than Control.MaxGramBytes allows (56783 bytes; 0 means DefaultMaxGramBytes): raise MaxGramBytes if the memory is there, or train on fewer rows (PLA needs no Gram matrix)"
	if _, err := Dual(d, opt); err == nil || err.Error() != want {
		t.Errorf("Dual: %v, want %q", err, want)
	}
	if _, err := KernelPerceptron(d, RBFKernel{Gamma: 1}, opt); err == nil || err.Error() != want {
		t.Errorf("KernelPerceptron: %v, want %q", err, want)
	}
	opt.Control.MaxGramBytes = 56_784
	if _, err := Dual(d, opt); err != nil {
		t.Errorf("Dual within the budget: %v", err)
	}
	opt.Control.MaxGramBytes = -1
	if _, err := Dual(d, opt); err == nil || err.Error() != "perceptron: MaxGramBytes must be >= 0 (0 means DefaultMaxGramBytes), got -1" {
		t.Errorf("negative budget: %v", err)
	}
	// The default budget (1 GiB) takes 16,348 rows (on 64 bits) and
	// refuses 16,349 and 20,000 without allocating.
	if strconv.IntSize == 64 && (gramBytes(16_348) > DefaultMaxGramBytes || gramBytes(16_349) <= DefaultMaxGramBytes) {
		t.Errorf("gramBytes(16348) = %d, gramBytes(16349) = %d", gramBytes(16_348), gramBytes(16_349))
	}
	if got := gramBytes(20_000); got < 1_600_080_000 || got > 1_600_080_000*1005/1000 {
		t.Errorf("gramBytes(20000) = %d, want the values' 1,600,080,000 and less than 0.5%% more", got)
	}
	// It grows with n: a budget that takes n rows takes fewer (the exact
	// count of pages did not: 3,317 rows took fewer than 3,316, helper-57).
	for n := 1; n <= 20_000; n++ {
		if gramBytes(n) < gramBytes(n-1) {
			t.Fatalf("gramBytes(%d) = %d < gramBytes(%d) = %d", n, gramBytes(n), n-1, gramBytes(n-1))
		}
	}
	if squareBytes(100) != 80_000 || squareBytes(1<<30) != 1<<63-1 || squareBytes(1<<30-1) <= 0 {
		t.Errorf("squareBytes(100) = %d, squareBytes(2^30) = %d, squareBytes(2^30-1) = %d", squareBytes(100), squareBytes(1<<30), squareBytes(1<<30-1))
	}
	// Beyond 2^24 rows it counted the values alone, below the headers
	// that gramOf allocates as well (helper-57).
	if n := int64(1<<24 + 1); gramBytes(1<<30) != 1<<63-1 || gramBytes(1<<24+1) < 4*n*(n+1)+24*n || gramBytes(1<<24+1) < gramBytes(1<<24) {
		t.Errorf("gramBytes(2^30) = %d, gramBytes(2^24+1) = %d, gramBytes(2^24) = %d", gramBytes(1<<30), gramBytes(1<<24+1), gramBytes(1<<24))
	}
}

// TestGramBudgetIsWhatIsAllocated: what gramOf allocates is at most what
// gramBytes counts against MaxGramBytes, and within 0.4% of the values
// and two pages of it:
// a row a slice took 5-7% more than the 8·n(n+1)/2 bytes counted (the
// allocator's size classes and the headers; helper-56).
func TestGramBudgetIsWhatIsAllocated(t *testing.T) {
	for _, n := range []int{1, 2, 90, 100, 1000, 3000} {
		x := make([][]float64, n)
		y := make([]float64, n)
		for i := range x {
			x[i] = []float64{float64(i%7) - 3}
			y[i] = float64(1 - 2*(i%2))
		}
		d, err := NewDataset(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gramOf(d, LinearKernel{}, nil); err != nil { // once first: what the first call sets up is not the matrix's
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g, err := gramOf(d, LinearKernel{}, nil)
		runtime.ReadMemStats(&after)
		if err != nil || len(g) != n {
			t.Fatal(err)
		}
		got, counted := int64(after.TotalAlloc-before.TotalAlloc), gramBytes(n)
		values := 4 * int64(n) * int64(n+1)
		if got > counted || counted-got > values/250+2*pageBytes {
			t.Errorf("n = %d: gramOf allocated %d bytes, gramBytes counts %d (values %d)", n, got, counted, values)
		}
	}
}

// TestGramTriangleIsGramMatrix: the learners' Gram matrix (its upper
// triangle, row by row) holds GramMatrix's values, bit for bit, at every
// (i, j) and (j, i).
func TestGramTriangleIsGramMatrix(t *testing.T) {
	d := irisScaled(t, 1)
	for _, k := range []Kernel{LinearKernel{}, PolyKernel{Degree: 3, C: 0.5}, RBFKernel{Gamma: 0.3}} {
		want, err := GramMatrix(d, k)
		if err != nil {
			t.Fatal(err)
		}
		g, err := gramOf(d, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := d.N()
		for i := range n {
			if len(g[i]) != n-i {
				t.Fatalf("%v: row %d holds %d values, want %d", k, i, len(g[i]), n-i)
			}
			for j := range n {
				if got := g.at(i, j); math.Float64bits(got) != math.Float64bits(want.At(i, j)) {
					t.Fatalf("%v: G(%d, %d) = %v, GramMatrix %v", k, i, j, got, want.At(i, j))
				}
			}
		}
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }

// TestDeadlineInsideAnEpoch: a context's deadline stops PLA inside one long epoch
// (the loop checks it every checkEvery rows), not only between epochs.
func TestDeadlineInsideAnEpoch(t *testing.T) {
	data := benchData(t, 100_000, 50)
	opt := Options{}
	opt.MaxEpochs = 1
	past, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second)) // already passed
	defer cancel()
	opt.Control.Context = past
	res, err := PLA(data, opt)
	if !errors.Is(err, ErrStopped) || res == nil || res.Epochs != 0 {
		t.Fatalf("past deadline: %v, %+v", err, res)
	}
	// A deadline that passes during the epoch, at a known point: the
	// context's Err says nil for its first ten calls (the run asks it every
	// checkEvery rows, and the epoch has about 100 such checks), then that
	// the deadline passed. No clock is read, so the test is deterministic.
	opt.Control.Context = &deadlineAfter{Context: context.Background(), calls: 10}
	res, err = PLA(data, opt)
	if !errors.Is(err, ErrStopped) || !errors.Is(err, context.DeadlineExceeded) || res == nil || res.Epochs != 1 || res.Converged {
		t.Fatalf("deadline inside the epoch: %v, %+v", err, res)
	}
	if !regexpMatch(`^perceptron: stopped in epoch 0 \(0-based\) after [0-9]+ updates, before convergence: context deadline exceeded$`, err.Error()) {
		t.Errorf("message %q", err)
	}
	if n := res.UpdateRuns.Len(); n != 1 {
		t.Errorf("history of %d epochs, want the cut epoch only", n)
	}
}

// deadlineAfter is a context whose deadline passes after its Err has been
// asked calls times: a deadline at a known point of a run.
type deadlineAfter struct {
	context.Context
	calls int
}

func (c *deadlineAfter) Err() error {
	if c.calls > 0 {
		c.calls--
		return nil
	}
	return context.DeadlineExceeded
}
