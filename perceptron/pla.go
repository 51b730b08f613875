package perceptron

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// Result is what PLA learned, the hyperplane (w, b), and what the run did.
type Result struct {
	// Hyperplane holds the learned w and b.
	Hyperplane
	Stats
}

var _ Model = (*Result)(nil)

// model is the learned hyperplane, or for a nil result a Model whose every
// answer is an ErrModel error (see nilModel).
func (r *Result) model() Model {
	if r == nil {
		return nilModel{"*Result", "PLA"}
	}
	return &r.Hyperplane
}

// Dim, Score, Predict, PredictAll, Errors and ErrorRate answer as the
// learned Hyperplane's methods of those names.
func (r *Result) Dim() int                                 { return r.model().Dim() }
func (r *Result) Score(x []float64) (float64, error)       { return r.model().Score(x) }
func (r *Result) Predict(x []float64) (float64, error)     { return r.model().Predict(x) }
func (r *Result) PredictAll(d *Dataset) ([]float64, error) { return r.model().PredictAll(d) }
func (r *Result) Errors(d *Dataset) (int, error)           { return r.model().Errors(d) }
func (r *Result) ErrorRate(d *Dataset) (float64, error)    { return r.model().ErrorRate(d) }

// PLA runs the perceptron learning algorithm on d: it visits the rows in
// opt.Order and, on every mistake, updates w ← w + η y x and b ← b + η y
// (b stays 0 with NoBias). It stops after the first epoch without a mistake
// (Converged), after opt.MaxEpochs epochs, or after opt.MaxUpdates updates.
// w and b start at 0.
//
// With the InOrder order, Eta 1 and TieMistake, the weights after k epochs are
// bit-identical to scikit-learn's Perceptron(shuffle=False, tol=None,
// eta0=1, max_iter=k), which counts epochs the same way.
//
// Bad data (see Dataset.Validate) gives Validate's error. A score w·x + b
// or weights that become NaN or ±Inf (overflow: data near 1e154 or beyond,
// or a huge Eta) end the run with an error that matches ErrNonFinite and
// names the row and the epoch; a non-finite value is never reported as a
// result. When opt.Control.Context is done, PLA returns the
// weights so far (Converged false) and an error matching ErrStopped.
//
// Without an
// Observer the finiteness of the points is checked during the first epoch,
// so that an epoch reads the data once; with one, before the first epoch,
// so that the Observer never sees an update of a run that then fails.
func PLA(d *Dataset, opt Options) (*Result, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	// Without an Observer nothing of the run is seen before PLA returns, so
	// the O(n·d) finiteness scan of Validate is folded into the first epoch
	// (a non-finite x_j makes w·x_j + b non-finite, which step checks): the
	// data is then read once per epoch, not twice in the first. The error
	// for bad data is the one Validate returns.
	lazy := opt.Control.Observer == nil && opt.Order != RandomMistake && quickValid(d)
	if !lazy {
		if err := checkTrain(d); err != nil {
			return nil, err
		}
	}
	r := newRun(d, opt)
	r.unchecked = lazy
	r.epochs(true)
	if lazy && (r.bad || r.seen < d.N()) {
		if err := checkRows(d); err != nil {
			return nil, err
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &Result{Hyperplane: Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}, Stats: r.res}, r.stop
}

// run is the state that PLA and the learners built on it share: the data,
// the options, the weights, the visiting order and the result so far.
type run struct {
	d   *Dataset
	opt Options
	w   []float64
	b   float64
	rng *rand.Rand
	// perm is the visiting order of the RandomCycle and Shuffle orders, nil
	// (0, 1, …, n-1) for InOrder; at(k) is its k-th row. n is the number of
	// rows.
	perm  []int
	n     int
	epoch int
	res   Stats
	// onStep, if set, is called after every visited row with whether it was
	// an update (the voted and averaged perceptrons count survivals with it).
	onStep func(row int, updated bool)
	// x, stride and cols are d.X's raw row-major data (see row).
	x            []float64
	stride, cols int
	// unchecked says that the finiteness of X has not been checked (PLA
	// without an Observer); bad is set when a row of the first epoch was
	// found not finite, and seen is the number of rows the first epoch
	// visited.
	unchecked, bad bool
	seen           int
	// cur is the number of updates of the current epoch; lastEpoch is the
	// epoch of the last update.
	cur, lastEpoch int
	// halt ends the run: bad data, a non-finite value (err) or a stop by
	// the Context (stop).
	halt      bool
	err, stop error
	// watch says that the Context must be checked, which
	// stopped does every tick calls.
	watch bool
	tick  int
}

// checkEvery is the number of calls of stopped (one per block of rows, or
// per epoch) between two checks of the Context.
const checkEvery = 1024

func newRun(d *Dataset, opt Options) *run {
	n := d.N()
	r := &run{d: d, opt: opt, w: make([]float64, d.D()),
		rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))}
	r.res.LastMistakeRow = -1
	r.watch = opt.Control.Context != nil
	r.tick = 1 // check at the first call: a done context runs no epoch
	raw := d.X.RawMatrix()
	r.x, r.stride, r.cols = raw.Data, raw.Stride, raw.Cols
	r.n = n
	if opt.Order != InOrder {
		// The InOrder order needs no permutation (nil: the identity), which
		// spares a large data set an allocation of 8 bytes a row per run.
		r.perm = make([]int, n)
		for i := range r.perm {
			r.perm[i] = i
		}
	}
	if opt.Order == RandomCycle {
		r.shuffle()
	}
	return r
}

// at returns the k-th row of the visiting order.
func (r *run) at(k int) int {
	if r.perm == nil {
		return k
	}
	return r.perm[k]
}

func (r *run) shuffle() {
	r.rng.Shuffle(len(r.perm), func(i, j int) { r.perm[i], r.perm[j] = r.perm[j], r.perm[i] })
}

// stopped reports whether the run must end before the next row: MaxUpdates
// reached, bad data or a non-finite value met, or (checked every
// checkEvery calls) the Context done.
func (r *run) stopped() bool {
	if r.halt || r.opt.MaxUpdates > 0 && r.res.Updates >= r.opt.MaxUpdates {
		return true
	}
	if r.watch {
		if r.tick--; r.tick <= 0 {
			r.tick = checkEvery
			r.checkStop()
		}
	}
	return r.halt
}

// checkStop halts the run, with r.stop set, when the Context is done.
//
//go:noinline
func (r *run) checkStop() {
	var why error
	if ctx := r.opt.Control.Context; ctx != nil && ctx.Err() != nil {
		why = ctx.Err()
		if c := context.Cause(ctx); c != nil && c != why {
			why = fmt.Errorf("%w: %w", why, c)
		}
	}
	if why == nil {
		return
	}
	r.halt = true
	r.stop = causeErrorf([]error{ErrStopped, why}, "stopped in epoch %d (0-based) after %d updates, before convergence: %v",
		r.epoch, r.res.Updates, why)
}

// epochs makes the epochs of the run, each a pass of the primal
// perceptron (pass).
func (r *run) epochs(early bool) { r.epochsOf(early, r.pass) }

// epochsOf makes the epochs of the run, each a call of pass, which makes
// one epoch and returns its number of updates: at most MaxEpochs, fewer
// when stopped says so or, if early, after the first clean epoch
// (Converged). It sets Epochs; without the early stop (Voted, Averaged)
// Converged says whether the last epoch was clean. An epoch cut short
// counts as an epoch, and is never clean. The learners built on run pass
// their own epoch here (the dual perceptron of dual.go, for one), so that
// run knows nothing of them.
func (r *run) epochsOf(early bool, pass func() int) {
	last := -1
	for r.epoch = 0; r.epoch < r.opt.MaxEpochs && !r.stopped(); r.epoch++ {
		last = pass()
		if r.halt {
			last = -1
		}
		if last == 0 && early {
			r.epoch++
			break
		}
	}
	r.res.Epochs = r.epoch
	r.res.Converged = last == 0
}

// finish returns the error that ends the run, if it is not a stop: a
// non-finite value met on the way, or final weights that are not finite.
func (r *run) finish() error {
	if r.err != nil {
		return r.err
	}
	if r.res.Updates > 0 {
		return checkWeights("the weights", r.w, r.b, r.res.LastMistakeRow, r.lastEpoch)
	}
	return nil
}

// pass makes one epoch of the primal perceptron and returns its number
// of updates.
func (r *run) pass() int {
	return r.counted(func() {
		if r.opt.Order == RandomMistake {
			r.mistakePass()
			return
		}
		if r.opt.Order == Shuffle {
			r.shuffle()
		}
		r.sweep()
	})
}

// counted makes one epoch with epoch, records its number of updates in
// UpdateRuns and returns it.
func (r *run) counted(epoch func()) int {
	r.cur = 0
	epoch()
	r.res.UpdateRuns.add(r.cur)
	return r.cur
}

// mistakePass makes n picks of a uniformly random misclassified row; it
// stops early, with no update, when no row is misclassified.
//
// Cost: every pick scores all n rows (to know which are misclassified and
// draw among them with the seeded generator), so an epoch costs O(n²·d)
// (see BenchmarkRandomMistakeEpoch and docs/performance.md).
// The rows are scored eight at a time (asm.Dot8Exact: the scores of dot, bit
// for bit). An
// exact run cannot do with less: after an update every score changes, and
// a score updated by the difference would round differently from the
// left-to-right sum, so the set of mistakes could differ.
func (r *run) mistakePass() {
	n := r.d.N()
	wrong := make([]int, 0, n)
	for k := 0; k < n && !r.stopped(); k++ {
		var ok bool
		wrong, ok = r.misclassified(wrong[:0])
		if !ok || len(wrong) == 0 {
			break
		}
		r.visit(wrong[r.rng.IntN(len(wrong))])
	}
}

// misclassified appends to dst the rows that w, b misclassifies, in
// order. A non-finite score halts the run (see nonFinite) and returns false.
func (r *run) misclassified(dst []int) ([]int, bool) {
	n, y, w, b, tie := r.d.N(), r.d.Y, r.w, r.b, r.opt.Tie
	var s [block]float64
	var o [block]int
	for i := 0; i < n; i += block {
		m := min(block, n-i)
		if m == block && r.opt.Summation == ExactSum {
			for q := range o {
				o[q] = (i + q) * r.stride
			}
			asm.Dot8Exact(w, r.x, &o, (i+block)*r.stride, &s)
		} else {
			for k := range m {
				if r.opt.Summation == FastSum {
					s[k] = asm.DotFast(w, r.row(i+k))
				} else {
					s[k] = asm.DotExact(w, r.row(i+k))
				}
			}
		}
		for k := range m {
			score := s[k] + b
			if !finite(score) {
				r.nonFinite(i+k, r.row(i+k), score)
				return dst, false
			}
			if tie.Mistake(y[i+k], score) {
				dst = append(dst, i+k)
			}
		}
	}
	return dst, true
}

// visit scores row i and updates on a mistake.
func (r *run) visit(i int) {
	x := r.row(i)
	r.step(i, x, r.score(x))
}
