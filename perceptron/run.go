package perceptron

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

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
	// checkRows is the number of rows (and of calls of stopped) between
	// two looks at the Context: checkEvery, or fewer on long rows, so that
	// about ctxCheckValues values are read in between (1024 rows of
	// 12,000 features took 0.1-0.2 s, helper-59).
	checkRows int
}

// checkEvery is the largest number of calls of stopped (one per block of
// rows, or per update) or of rows between two checks of the Context.
const checkEvery = 1024

// rowsPerCheck is run.checkRows for rows of c values: ctxCheckValues/c,
// from 1 to checkEvery.
func rowsPerCheck(c int) int {
	return min(checkEvery, max(1, ctxCheckValues/max(c, 1)))
}

func newRun(d *Dataset, opt Options) *run {
	n := d.N()
	r := &run{d: d, opt: opt, w: make([]float64, d.D()),
		rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))}
	r.res.LastMistakeRow = -1
	r.watch = opt.Control.Context != nil
	r.checkRows = rowsPerCheck(d.D())
	r.tick = r.checkRows
	if r.watch {
		// A Context done before the call (or during checkTrainCtx, which
		// then left rows unread) halts the run before it reads a row.
		r.checkStop()
	}
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
			r.tick = r.checkRows
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
		if err := stepsFit(r.epoch, r.d.N()); err != nil {
			r.err = err
			last = -1
			break
		}
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

// stepsFit refuses epoch (0-based) of a run over n rows when the steps of
// the epochs up to it could pass the largest int. An epoch makes at most n
// steps, and the counts (Updates, a voted vector's survival count) are
// ints: on a 32-bit platform (386) they wrapped past 2^31 − 1 steps, in
// the 22nd epoch of 100 million rows, and counted backwards.
func stepsFit(epoch, n int) error {
	if epoch+1 > math.MaxInt/max(n, 1) { // (epoch+1)·n > MaxInt, without overflow
		return kindErrorf(ErrOption, "epoch %d (0-based) of %d rows could make the run's step count pass %d, the largest int on this platform: lower MaxEpochs (a 64-bit build counts to 2^63 − 1)", epoch, n, int64(math.MaxInt))
	}
	return nil
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

// counted makes one epoch with epoch, records its number of updates in
// UpdateRuns and returns it.
func (r *run) counted(epoch func()) int {
	r.cur = 0
	epoch()
	r.res.UpdateRuns.add(r.cur)
	return r.cur
}

// visit scores row i and updates on a mistake.
func (r *run) visit(i int) {
	x := r.row(i)
	r.step(i, x, r.score(x))
}

// row returns x_i as a view of the raw data, as Dataset.Row does, without
// going through the matrix.
func (r *run) row(i int) []float64 {
	o := i * r.stride
	return r.x[o : o+r.cols : o+r.cols]
}

// score returns w·x + b with the sums of opt.Summation.
func (r *run) score(x []float64) float64 {
	if r.opt.Summation == FastSum {
		return asm.DotFast(r.w, x) + r.b
	}
	return asm.DotExact(r.w, x) + r.b
}

// checkStopped calls checkStop and reports whether the run must halt.
func (r *run) checkStopped() bool {
	r.checkStop()
	return r.halt
}

// stoppedEach is stopped for steps that each cost O(n) or more (a random
// mistake's pick scores every row): the Context is checked at each, where
// stopped alone checks it every r.checkRows steps.
func (r *run) stoppedEach() bool {
	return r.stopped() || r.watch && r.checkStopped()
}

// endSweep records, in the first epoch, the number k of rows visited.
func (r *run) endSweep(k int) {
	if r.epoch == 0 {
		r.seen = k
	}
}

// step handles row i, x = x_i, with score = w·x + b: on a mistake it updates
// w and b and reports true. A score that is not finite (NaN or ±Inf) halts
// the run (see nonFinite) and also reports true, so that no stale score of
// the block is used.
func (r *run) step(i int, x []float64, score float64) bool {
	if !isFinite(score) { // NaN or ±Inf
		r.nonFinite(i, x, score)
		return true
	}
	y := r.d.Y[i]
	updated := r.opt.Tie.Mistake(y, score)
	if updated {
		step := float64(r.opt.Eta * y) // no FMA with b below
		asm.Axpy(step, x, r.w)
		if !r.opt.NoBias {
			r.b += step
		}
		r.res.Updates++
		r.cur++
		r.lastEpoch = r.epoch
		r.res.LastMistakeRow = i
		if r.opt.Control.Observer != nil {
			r.notify(i, x, y, score)
		}
	}
	if r.onStep != nil {
		r.onStep(i, updated)
	}
	return updated
}

// nonFinite halts the run on the non-finite score of row i, x = x_i. If the
// data is not yet known to be finite and x is not, it sets r.bad (PLA then
// returns Validate's error). Otherwise it sets r.err, an ErrNonFinite error
// naming the cause: weights made non-finite by the last update (any
// non-finite w_j or b makes every score non-finite), or a score that
// overflowed with finite weights.
//
//go:noinline
func (r *run) nonFinite(i int, x []float64, score float64) {
	r.halt = true
	if r.unchecked && checkFinite(x, i) != nil {
		r.bad = true
		return
	}
	if err := checkWeights("the weights", r.w, r.b, r.res.LastMistakeRow, r.lastEpoch); err != nil {
		r.err = err
		return
	}
	r.err = nonFiniteError("the score w·x + b of row %d in epoch %d is %v with finite weights (overflow): the data or Eta is too large; scale the data or lower Eta",
		i, r.epoch, score)
}

// notify calls the Observer with the update just made. It is kept out of
// step (noinline), whose loop then stays lean when there is no Observer.
//
//go:noinline
func (r *run) notify(i int, x []float64, y, score float64) {
	r.opt.Control.Observer(Update{Epoch: r.epoch, Row: i, X: x, Y: y, Score: score, W: r.w, B: r.b})
}
