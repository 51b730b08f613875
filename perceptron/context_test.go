package perceptron_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perceptron-go/lessons/perceptron"
	"gonum.org/v1/gonum/mat"
)

// longTrace is a trace of n updates in one dimension through the origin,
// θ_t = t, that keeps both steps of the proof with θ* = 1, γ = 1, η = 1
// and R = 1e4 (growth: t² ≤ (t−1)² + R² while 2t − 1 ≤ 1e8), which
// CheckProof walks in about a quarter of a second per million updates.
func longTrace(n int) []perceptron.Update {
	tr := make([]perceptron.Update, n)
	ws := make([]float64, n)
	for t := range tr {
		ws[t] = float64(t + 1)
		tr[t] = perceptron.Update{Row: 0, X: []float64{1}, Y: 1, W: ws[t : t+1]}
	}
	return tr
}

// CheckProof stops with its Context (doc.go: the theory functions "all
// stop with the Context"): a Context cancelled before the call, or past
// its deadline during a long walk, gives no verdict and an error of
// ErrStopped that matches the context's error. It walked all of a trace of
// millions of updates without looking at the Context.
func TestCheckProofStopsWithContext(t *testing.T) {
	tr := longTrace(2_000_000)
	target := perceptron.Hyperplane{W: []float64{1}}
	opt := perceptron.Options{NoBias: true}
	if v, err := perceptron.CheckProof(tr[:1000], target, 1, 1e4, opt); v != nil || err != nil {
		t.Fatalf("a correct trace: violation %+v, error %v", v, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Control.Context = ctx
	v, err := perceptron.CheckProof(tr, target, 1, 1e4, opt)
	if v != nil || !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the call: violation %+v, error %v; want no verdict and ErrStopped, context.Canceled", v, err)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Millisecond)
	defer cancel()
	opt.Control.Context = ctx
	v, err = perceptron.CheckProof(tr, target, 1, 1e4, opt)
	if v != nil || !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%d updates, a 2 ms deadline: violation %+v, error %v; want no verdict and ErrStopped, context.DeadlineExceeded", len(tr), v, err)
	}
}

// noisyRows is n rows of d Gaussian features with random labels: not
// separable, so that a run makes an update at about every other row.
func noisyRows(t *testing.T, n, d int) *perceptron.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()
		}
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	ds, err := perceptron.NewDataset(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// Where one step of a run scores all n rows (a pocket count after an
// update; a pick of the RandomMistake order in Dual), the Context is
// checked after each such step, as Control promises ("every few thousand
// rows"): an Observer that cancels at the first update stops the run
// within the next two. Pocket made 506 more updates, each counting the
// errors of 5000 rows, and Dual 1022 more picks of 5000 scores each, before
// they looked; Dual with an Observer also recovers w after every update.
func TestFullScanStepsCheckTheContext(t *testing.T) {
	ds := noisyRows(t, 5000, 20)
	for _, c := range []struct {
		name  string
		order perceptron.Order
		run   func(perceptron.Options) (int, error)
	}{
		{"Pocket", perceptron.InOrder, func(o perceptron.Options) (int, error) { r, err := perceptron.Pocket(ds, o); return r.Updates, err }},
		{"Pocket", perceptron.RandomCycle, func(o perceptron.Options) (int, error) { r, err := perceptron.Pocket(ds, o); return r.Updates, err }},
		{"Pocket", perceptron.RandomMistake, func(o perceptron.Options) (int, error) { r, err := perceptron.Pocket(ds, o); return r.Updates, err }},
		{"Dual", perceptron.RandomMistake, func(o perceptron.Options) (int, error) { r, err := perceptron.Dual(ds, o); return r.Updates, err }},
		// With an Observer, Dual recovers w = Σ α η y x at every update,
		// O(n·d): it made 1023 more updates in the InOrder order.
		{"Dual", perceptron.InOrder, func(o perceptron.Options) (int, error) { r, err := perceptron.Dual(ds, o); return r.Updates, err }},
		{"Dual", perceptron.Shuffle, func(o perceptron.Options) (int, error) { r, err := perceptron.Dual(ds, o); return r.Updates, err }},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		opt := perceptron.Options{Order: c.order, Control: perceptron.Control{Context: ctx, Observer: func(perceptron.Update) { cancel() }}}
		u, err := c.run(opt)
		if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) || u > 3 {
			t.Errorf("%s, %v: cancelled at the first update: %d updates, error %v; want at most 3 and ErrStopped, context.Canceled", c.name, c.order, u, err)
		}
		cancel()
	}
}

// The RandomMistake order of PLA, Voted and Averaged (hotloop.go's
// mistakePass) scores all n rows at every pick and checks the Context every
// 1024 picks: cancelled at the first update, PLA made 1023 updates (5 million
// scores) before it stopped. It now checks the Context at every pick, as
// Dual's pick does.
func TestMistakePickChecksTheContext(t *testing.T) {
	ds := noisyRows(t, 5000, 20)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := perceptron.Options{Order: perceptron.RandomMistake, Control: perceptron.Control{Context: ctx, Observer: func(perceptron.Update) { cancel() }}}
	r, err := perceptron.PLA(ds, opt)
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) || r.Updates > 3 {
		t.Errorf("cancelled at the first update: %d updates, error %v; want at most 3 and ErrStopped, context.Canceled", r.Updates, err)
	}
}

// GradientDescent and SGD stop with GDOptions.Context, before the first
// step when it is done before the call and during a run of a billion steps
// when its deadline passes, returning the path so far: they had no Context,
// and each step costs O(n·d) with its recorded loss.
func TestGradientDescentStopsWithContext(t *testing.T) {
	ds := noisyRows(t, 2000, 50)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, learn := range map[string]func(*perceptron.Dataset, perceptron.GDOptions) (*perceptron.GDResult, error){
		"GradientDescent": perceptron.GradientDescent, "SGD": perceptron.SGD,
	} {
		g, err := learn(ds, perceptron.GDOptions{Steps: 1 << 30, Context: cancelled})
		if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) || g == nil || g.Steps != 0 || len(g.Path) != 1 {
			t.Errorf("%s, cancelled before the call: error %v, result %v; want ErrStopped, context.Canceled and the start alone", name, err, g)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		g, err = learn(ds, perceptron.GDOptions{Steps: 1 << 30, Context: ctx})
		cancel()
		if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.DeadlineExceeded) || g == nil || len(g.Path) != g.Steps+1 || g.Converged {
			t.Errorf("%s, a 20 ms deadline: error %v; want ErrStopped, context.DeadlineExceeded and the path so far", name, err)
		}
	}
}

// countingContext is a context that is never done and counts how often
// its Err is asked.
type countingContext struct {
	context.Context
	calls int
}

func (c *countingContext) Err() error { c.calls++; return nil }

// TestCheckProofLooksAtTheContextAsItReads: CheckProof asks its context
// at least once per 2^18 weights it reads (and an update), also in the scan of the whole
// trace for the scale of its sums that comes before the walk: that scan
// never asked, so a cancel during it (25,000 updates of 20,000 weights)
// went unseen for seconds. The trace here (4096 updates of 20,000 weights,
// one shared slice) fails its first step, so nearly all the reading is the
// scan's.
func TestCheckProofLooksAtTheContextAsItReads(t *testing.T) {
	const n, d = 4096, 20000
	w := make([]float64, d)
	for j := range w {
		w[j] = 1
	}
	tr := make([]perceptron.Update, n)
	for i := range tr {
		tr[i] = perceptron.Update{Epoch: 0, Row: i, X: w, Y: 1, Score: -1, W: w, B: 0}
	}
	target := perceptron.Hyperplane{W: append([]float64{1}, make([]float64, d-1)...)}
	ctx := &countingContext{Context: context.Background()}
	opt := perceptron.Options{NoBias: true}
	opt.Control.Context = ctx
	if _, err := perceptron.CheckProof(tr, target, 1, 1e4, opt); err != nil {
		t.Fatal(err)
	}
	// Once per 2^18 weights, counted an update at a time.
	if want := n * (d + 1) / (1<<18 + d + 1); ctx.calls < want {
		t.Errorf("CheckProof read %d weights and asked its context %d times, want at least %d (once per 2^18 and an update)", n*(d+1), ctx.calls, want)
	}
}

// TestTheoryStopsBeforeReading: Bound, Separable and MaxMargin given a
// context done before the call return ErrStopped (with ErrUndecided and
// the context's error) right after validating the data, before their other
// passes over it (the radius, the scaling, the solver: 0.2 to 0.6 s at
// 1000 x 20,000 before they looked); data that is not valid is still an
// error of its kind, as the docs say, whatever the context.
func TestTheoryStopsBeforeReading(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt := perceptron.Options{}
	opt.Control.Context = ctx
	good := &perceptron.Dataset{X: mat.NewDense(3, 2, []float64{1, 2, -1, -2, 3, 1}), Y: []float64{1, -1, 1}}
	nan := &perceptron.Dataset{X: mat.NewDense(3, 2, []float64{1, 2, -1, -2, 3, math.NaN()}), Y: []float64{1, -1, 1}}
	for _, c := range []struct {
		d    *perceptron.Dataset
		kind error
	}{{good, perceptron.ErrStopped}, {nan, perceptron.ErrNonFinite}, {nil, perceptron.ErrEmpty}} {
		_, errB := perceptron.Bound(c.d, opt)
		_, errS := perceptron.Separable(c.d, opt)
		_, _, errM := perceptron.MaxMargin(c.d, opt)
		for name, err := range map[string]error{"Bound": errB, "Separable": errS, "MaxMargin": errM} {
			if !errors.Is(err, c.kind) || (c.kind == perceptron.ErrStopped && (!errors.Is(err, perceptron.ErrUndecided) || !errors.Is(err, context.Canceled))) {
				t.Errorf("%s with a cancelled context: %v, want %v", name, err, c.kind)
			}
		}
	}
}

// cancelKernel is the linear kernel of one feature that calls cancel at
// its first value.
type cancelKernel struct{ cancel context.CancelFunc }

func (k cancelKernel) Eval(x, z []float64) float64 { k.cancel(); return float64(x[0] * z[0]) }
func (cancelKernel) String() string                { return "cancel" }

// TestGramStopsBeforeItsRows: a Context cancelled while the first row of
// the Gram matrix is computed stops KernelPerceptron before the next row
// is allocated. The learners allocated the whole n × n matrix first (1 GiB
// at the default budget, 0.5-0.9 s to zero, the Context unwatched); they
// now keep its upper triangle in blocks of about 4 MiB allocated between
// the checks, so that this run of 4000 rows allocates one block, not 128
// MB (or the triangle's 64 MB).
func TestGramStopsBeforeItsRows(t *testing.T) {
	ds := noisyRows(t, 4000, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := perceptron.KernelPerceptron(ds, cancelKernel{cancel}, perceptron.Options{Control: perceptron.Control{Context: ctx}})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) || m.Epochs != 0 {
		t.Fatalf("%v, %d epochs; want ErrStopped in the Gram matrix, no epoch", err, m.Epochs)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("stopped in the first row of the Gram matrix, the run allocated %d bytes; want one block (4 MiB) and the model", got)
	}
}

// TestLearnersLookAtTheContextOnLongRows: on long rows the learners ask
// their Context about once per 2^18 values they read, in their check of
// the data and in their epochs (they asked it every 1024 rows: 1024 rows
// of 12,000 features, 0.1-0.2 s, helper-59), and KernelPerceptron asks it
// at least every 64 values of a kernel of the caller's (it asked once a
// row: 2000 values of a slow kernel, 0.4 s).
func TestLearnersLookAtTheContextOnLongRows(t *testing.T) {
	// 3·2^20 values a pass, 16 rows per 2^18 values (the learners score
	// eight rows at a time where they can: they look between blocks).
	const n, d = 192, 1 << 14
	ds := noisyRows(t, n, d)
	for _, c := range []struct {
		name string
		run  func(perceptron.Options) (epochs int, err error)
	}{
		{"PLA", func(o perceptron.Options) (int, error) { r, err := perceptron.PLA(ds, o); return r.Epochs, err }},
		{"PLA, FastSum", func(o perceptron.Options) (int, error) {
			o.Summation = perceptron.FastSum
			r, err := perceptron.PLA(ds, o)
			return r.Epochs, err
		}},
		{"PLA, Shuffle", func(o perceptron.Options) (int, error) {
			o.Order = perceptron.Shuffle
			r, err := perceptron.PLA(ds, o)
			return r.Epochs, err
		}},
		{"Voted", func(o perceptron.Options) (int, error) { r, err := perceptron.Voted(ds, o); return r.Epochs, err }},
		{"Averaged", func(o perceptron.Options) (int, error) { r, err := perceptron.Averaged(ds, o); return r.Epochs, err }},
	} {
		ctx := &countingContext{Context: context.Background()}
		opt := perceptron.Options{MaxEpochs: 3, Control: perceptron.Control{Context: ctx}}
		epochs, err := c.run(opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// The epochs read every row; the check of the data reads them
		// once more (not PLA without an Observer, which checks them in
		// its first epoch).
		// About one look per 2^18 values: a scan that stops between two
		// looks (at an update) starts the count again, so at least one
		// per 2^19 (once per 1024 rows, the old count, is 3 in all).
		if want := epochs * n * d >> 19; ctx.calls < want {
			t.Errorf("%s: %d epochs of %d × %d values, %d looks at the Context; want at least %d (one per 2^19 values)", c.name, epochs, n, d, ctx.calls, want)
		}
	}

	ctx := &countingContext{Context: context.Background()}
	var evals int
	k := funcKernel(func(x, z []float64) float64 { evals++; return float64(x[0] * z[0]) })
	small := noisyRows(t, 300, 1)
	if _, err := perceptron.KernelPerceptron(small, k, perceptron.Options{MaxEpochs: 1, Control: perceptron.Control{Context: ctx}}); err != nil {
		t.Fatal(err)
	}
	if want := evals / 64; ctx.calls < want {
		t.Errorf("KernelPerceptron with a kernel of the caller's: %d values, %d looks at the Context; want at least %d (one per 64 values)", evals, ctx.calls, want)
	}
}

// funcKernel is a kernel of the caller's: the function.
type funcKernel func(x, z []float64) float64

func (k funcKernel) Eval(x, z []float64) float64 { return k(x, z) }
func (funcKernel) String() string                { return "func" }

// TestLearnersStopBeforeReading: given a Context done before the call,
// every learner returns ErrStopped and its zero result before it reads a
// value of the rows, also of rows it would refuse (a NaN in the last row,
// which only a read finds); it read all n·d values first (0.1-0.4 s at
// 9000 × 12,000, helper-59). Shapes and labels, read in O(n), are still
// checked.
func TestLearnersStopBeforeReading(t *testing.T) {
	ds := noisyRows(t, 50, 3)
	ds.X.Set(49, 2, math.NaN())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt := perceptron.Options{Control: perceptron.Control{Context: ctx}}
	for name, run := range map[string]func() (epochs, updates int, err error){
		"PLA":      func() (int, int, error) { return runOf(perceptron.PLA(ds, opt)) },
		"Pocket":   func() (int, int, error) { return runOf(perceptron.Pocket(ds, opt)) },
		"Voted":    func() (int, int, error) { return runOf(perceptron.Voted(ds, opt)) },
		"Averaged": func() (int, int, error) { return runOf(perceptron.Averaged(ds, opt)) },
		"Dual":     func() (int, int, error) { return runOf(perceptron.Dual(ds, opt)) },
		"KernelPerceptron": func() (int, int, error) {
			return runOf(perceptron.KernelPerceptron(ds, perceptron.RBFKernel{Gamma: 1}, opt))
		},
	} {
		epochs, updates, err := run()
		if !errors.Is(err, perceptron.ErrStopped) || !errors.Is(err, context.Canceled) || epochs != 0 || updates != 0 {
			t.Errorf("%s with a cancelled context: %d epochs, %d updates, error %v; want a result of none and ErrStopped, context.Canceled", name, epochs, updates, err)
		}
	}
	bad := &perceptron.Dataset{X: ds.X, Y: append([]float64{2}, ds.Y[1:]...)}
	if _, err := perceptron.Voted(bad, opt); !errors.Is(err, perceptron.ErrLabel) {
		t.Errorf("a label 2 with a cancelled context: %v, want ErrLabel", err)
	}
}

// runOf returns the epochs and updates of a learner's result (its Stats),
// -1 and -1 for a nil result, with the learner's error.
func runOf[R any, P interface {
	*R
	UpdatesPerEpoch() []int
}](r P, err error) (epochs, updates int, _ error) {
	if r == nil {
		return -1, -1, err
	}
	runs := r.UpdatesPerEpoch()
	for _, u := range runs {
		updates += u
	}
	return len(runs), updates, err
}

// TestContextKeepsTheErrorOfBadData: a Context that is not done changes
// no error: data with a NaN and a label 0 is ErrNonFinite (the values are
// checked first) with or without one (it was ErrLabel with one,
// helper-64); and a GradientDescent whose Context was done before the
// call, its rows unread, names a NaN row as a NaN value, not an overflow.
func TestContextKeepsTheErrorOfBadData(t *testing.T) {
	d := &perceptron.Dataset{X: mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4}), Y: []float64{1, 0}}
	for _, ctx := range []context.Context{nil, context.Background()} {
		opt := perceptron.Options{Control: perceptron.Control{Context: ctx}}
		for name, err := range map[string]error{
			"PLA":    func() error { _, err := perceptron.PLA(d, opt); return err }(),
			"Pocket": func() error { _, err := perceptron.Pocket(d, opt); return err }(),
			"Voted":  func() error { _, err := perceptron.Voted(d, opt); return err }(),
			"Dual":   func() error { _, err := perceptron.Dual(d, opt); return err }(),
			"GD":     func() error { _, err := perceptron.GradientDescent(d, perceptron.GDOptions{Context: ctx}); return err }(),
		} {
			if !errors.Is(err, perceptron.ErrNonFinite) || errors.Is(err, perceptron.ErrLabel) {
				t.Errorf("%s, context %v: %v; want ErrNonFinite (row 0's NaN), as without a context", name, ctx, err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	nan := &perceptron.Dataset{X: mat.NewDense(2, 2, []float64{1, 2, 3, math.NaN()}), Y: []float64{1, -1}}
	_, err := perceptron.GradientDescent(nan, perceptron.GDOptions{Context: ctx})
	if !errors.Is(err, perceptron.ErrNonFinite) || !strings.Contains(err.Error(), "row 1, column 1: value is NaN") {
		t.Errorf("GradientDescent, a cancelled context, a NaN in row 1: %v; want ErrNonFinite naming the value", err)
	}
}

// doneAfter is a context that is done (Canceled) from its k+1-th Err on.
type doneAfter struct {
	context.Context
	k, calls int
}

func (c *doneAfter) Err() error {
	if c.calls++; c.calls > c.k {
		return context.Canceled
	}
	return nil
}

// TestDescentsLookAtTheContextAsTheyRead: GradientDescent and SGD ask their
// Context about once per 2^18 values they read (they asked it once a step,
// and a step read the data three times: 0.38 s a step on 20,000 × 5000); a
// Context done in the middle of a step takes the step back, so that a run
// stopped at any look ends on the last point of its path, a prefix of the
// path of the run that is not stopped, bit for bit.
func TestDescentsLookAtTheContextAsTheyRead(t *testing.T) {
	const n, d = 4096, 768 // not separable: every step updates
	ds := noisyRows(t, n, d)
	learners := map[string]func(*perceptron.Dataset, perceptron.GDOptions) (*perceptron.GDResult, error){
		"GradientDescent": perceptron.GradientDescent, "SGD": perceptron.SGD,
	}
	for name, learn := range learners {
		ctx := &countingContext{Context: context.Background()}
		g, err := learn(ds, perceptron.GDOptions{Steps: 20, Context: ctx})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Every step that moves the weights reads every row once.
		if want := g.Updates * n * d >> 19; g.Updates == 0 || ctx.calls < want {
			t.Errorf("%s: %d updates of %d × %d values, %d looks at the Context; want at least %d (one per 2^19 values)", name, g.Updates, n, d, ctx.calls, want)
		}
	}

	small := noisyRows(t, 80, 1<<12) // a look a pass
	for name, learn := range learners {
		full, err := learn(small, perceptron.GDOptions{Steps: 6})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k := 0; k < 60; k++ {
			g, err := learn(small, perceptron.GDOptions{Steps: 6, Context: &doneAfter{Context: context.Background(), k: k}})
			if err == nil {
				break // k looks are more than the run asks
			}
			last := len(g.Path) - 1
			if !errors.Is(err, perceptron.ErrStopped) || last != g.Steps || last > full.Steps ||
				!reflect.DeepEqual(g.Hyperplane, g.Path[last]) || !reflect.DeepEqual(g.Path, full.Path[:last+1]) || g.Losses[last] != full.Losses[last] {
				t.Errorf("%s stopped at look %d: %v, %d steps, %d points; want ErrStopped and the run so far, ending on its last point", name, k+1, err, g.Steps, len(g.Path))
			}
		}
	}
}
