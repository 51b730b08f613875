package perceptron

import (
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// This file is the epoch of PLA and of the learners built on it: the
// sweeps over the rows (sweep, sweepPLA), the update (step) and the
// kernels of internal/asm they call. ExactSum scores eight rows at a time
// (asm.Dot8Exact), each sum bit for bit dot's; FastSum scans the rows in
// assembly (asm.ScanFast). Why it is shaped this way, and what it costs,
// is in docs/performance.md ("How the exact epoch is made fast").

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

// sweep visits the rows of r.perm in order and calls step for each (the
// updates, the calls of the Observer and of onStep are those of visit).
// Without an Observer or onStep, sweepPLA does the same faster.
func (r *run) sweep() {
	if r.opt.Control.Observer == nil && r.onStep == nil {
		r.sweepPLA()
		return
	}
	k := 0
	for ; k < r.n && !r.stopped(); k++ {
		i := r.at(k)
		x := r.row(i)
		r.step(i, x, r.score(x))
	}
	if r.epoch == 0 {
		r.seen = k
	}
}

// block is the number of rows that sweepPLA scores at a time (asm.Dot8Exact or
// dot8Fast).
const block = 8

// sweepPLA is sweep for PLA without an Observer: only a score that may be
// a mistake (y·score ≤ 0, NaN or ±Inf) goes to step, and the Context is
// checked about every checkEvery rows.
//
// In the ExactSum mode it scores the rows eight at a time, all with the
// current w and b (asm.Dot8Exact: eight independent left-to-right sums in
// flight), and consumes the scores in order. After an update the block's
// later scores are stale, so the next block starts at the row after it
// (those rows are still in cache). The last rows, fewer than eight, are
// scored one at a time. In the FastSum mode every row is scored alone
// (asm.DotFast, whose eight partial sums are short chains).
func (r *run) sweepPLA() {
	w, y, xs, st, c, perm, n := r.w, r.d.Y, r.x, r.stride, r.cols, r.perm, r.n
	y = y[:n]
	if perm != nil {
		perm = perm[:n]
	}
	fast := r.opt.Summation == FastSum
	b := r.b
	var o [block]int
	var s [block]float64
	k := 0
	check := checkEvery
	for !fast && k+block <= n {
		for q := range o {
			i := k + q
			if perm != nil {
				i = perm[i]
			}
			o[q] = i * st
		}
		pf := (k + block) * st // the next rows in the InOrder order
		if perm != nil && k+2*block <= n {
			pf = perm[k+block] * st // the first of them in this order
		}
		asm.Dot8Exact(w, xs, &o, pf, &s)
		q := 0
		for ; q < block; q++ {
			i := k + q
			if perm != nil {
				i = perm[i]
			}
			sc := s[q] + b
			if t := y[i] * sc; !(t > 0) || t > math.MaxFloat64 {
				if r.step(i, xs[o[q]:o[q]+c:o[q]+c], sc) {
					break
				}
			}
		}
		if q < block {
			k += q + 1
			b = r.b
			if r.stopped() {
				r.endSweep(k)
				return
			}
		} else {
			k += block
		}
		if r.watch && k >= check {
			check = k + checkEvery
			if r.checkStop(); r.halt {
				r.endSweep(k)
				return
			}
		}
	}
	bias := !r.opt.NoBias
	for fast && perm == nil && k < n {
		// The InOrder order: asm.ScanFast scores the rows, and makes the clear
		// updates (t < 0, finite), up to the next row that needs step (a
		// tie or a non-finite score), at most checkEvery rows a call.
		maxu := math.MaxInt
		if r.opt.MaxUpdates > 0 {
			maxu = r.opt.MaxUpdates - r.res.Updates
		}
		end := min(n, k+checkEvery)
		m, need, sc, nb, u, last := asm.ScanFast(w, xs[k*st:], c, st, y[k:end], b, r.opt.Eta, bias, maxu)
		if u > 0 {
			b, r.b = nb, nb
			r.res.Updates += u
			r.cur += u
			r.lastEpoch = r.epoch
			r.res.LastMistakeRow = k + last
		}
		k += m
		if need {
			o := k * st
			r.step(k, xs[o:o+c:o+c], sc)
			b = r.b
			k++
		}
		if (u > 0 || need) && r.stopped() || k == end && r.watch && r.checkStopped() {
			r.endSweep(k)
			return
		}
	}
	for ; k < n; k++ {
		i := k
		if perm != nil {
			i = perm[k]
		}
		o := i * st
		x := xs[o : o+c : o+c]
		var sc float64
		if fast {
			sc = asm.DotFast(w, x) + b
		} else {
			sc = asm.DotExact(w, x) + b
		}
		if t := y[i] * sc; !(t > 0) || t > math.MaxFloat64 {
			r.step(i, x, sc)
			b = r.b
			if r.stopped() {
				k++
				break
			}
		} else if r.watch && k >= check {
			check = k + checkEvery
			if r.checkStop(); r.halt {
				k++
				break
			}
		}
	}
	r.endSweep(k)
}

// checkStopped calls checkStop and reports whether the run must halt.
func (r *run) checkStopped() bool {
	r.checkStop()
	return r.halt
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
	if !finite(score) { // NaN or ±Inf
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

// quickValid reports whether d passes the O(n) checks of checkTrain: rows
// and labels present and consistent, labels -1 or +1. Only the finiteness of
// X, an O(n·d) scan, is left out.
func quickValid(d *Dataset) bool {
	return d != nil && d.X != nil && !d.X.IsEmpty() && len(d.Y) == d.N() && checkLabels(d.Y) == nil
}

// wrong is tie.Mistake(y, score) with a NaN score counted as a mistake.
func wrong(tie Tie, y, score float64) bool {
	return tie.Mistake(y, score) || math.IsNaN(score)
}

// countMistakes is countErrors (a NaN score counts as a mistake) with the
// rows scored eight at a time by asm.Dot8Exact: the same scores, bit for bit,
// hence the same count, at the throughput of the CPU rather than the
// latency of one chain of adds.
func countMistakes(w []float64, b float64, d *Dataset, tie Tie) int {
	raw := d.X.RawMatrix()
	n, c, st, x := raw.Rows, raw.Cols, raw.Stride, raw.Data
	y := d.Y[:n]
	w = w[:c]
	e, i := 0, 0
	var o [block]int
	var s [block]float64
	for ; c > 0 && i+block <= n; i += block {
		for q := range o {
			o[q] = (i + q) * st
		}
		asm.Dot8Exact(w, x, &o, (i+block)*st, &s)
		for q, sq := range s {
			if wrong(tie, y[i+q], sq+b) {
				e++
			}
		}
	}
	for ; i < n; i++ {
		if wrong(tie, y[i], dot(w, x[i*st:i*st+c])+b) {
			e++
		}
	}
	return e
}
