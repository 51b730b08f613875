package perceptron

import (
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
)

// This file is the epoch of PLA and of the learners built on it: the
// passes (pass, mistakePass) and the sweeps over the rows (sweep,
// sweepPLA), which call the update (run.step, in run.go) and the kernels
// of internal/asm. In the InOrder order with AVX2, ExactSum scans the rows
// one at a time with certified decisions (asm.ScanCert); otherwise it
// scores eight rows at a time (asm.ScanExact, asm.Dot8Exact), each sum bit
// for bit dot's. FastSum scans the rows in assembly (asm.ScanFast). Why it
// is shaped this way, and what it costs, is in docs/performance.md ("How
// the exact epoch is made fast").

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

// updatesLeft is what remains of the MaxUpdates budget (math.MaxInt
// without one), for an assembly scan's maxu.
func (r *run) updatesLeft() int {
	if r.opt.MaxUpdates > 0 {
		return r.opt.MaxUpdates - r.res.Updates
	}
	return math.MaxInt
}

// afterScan records the outcome of an assembly scan (asm.ScanExact or
// asm.ScanFast) that started at row k: it consumed m rows and made u clear
// updates, the last at row k+last, which left the bias nb; with need, row
// k+m needs step, with the score sc. It returns the next row, the bias, and
// whether anything changed (then r.stopped() may now be true).
func (r *run) afterScan(k, m int, need bool, sc, nb float64, u, last int) (next int, b float64, changed bool) {
	if u > 0 {
		r.b = nb
		r.res.Updates += u
		r.cur += u
		r.lastEpoch = r.epoch
		r.res.LastMistakeRow = k + last
	}
	k += m
	if need {
		o := k * r.stride
		r.step(k, r.x[o:o+r.cols:o+r.cols], sc)
		k++
	}
	return k, r.b, u > 0 || need
}

// sweepPLA is sweep for PLA without an Observer: only a score that may be
// a mistake (y·score ≤ 0, NaN or ±Inf) goes to step, and the Context is
// checked about every r.checkRows rows.
//
// In the ExactSum mode and the InOrder order with AVX2, one assembly loop
// (asm.ScanCert) scores each row with a fast sum and a bound on its
// rounding, takes the decision from it where the bound proves it the
// left-to-right score's, and makes the clear updates, returning here only
// for step's decisions (a tie, a non-finite score), the MaxUpdates budget
// and the Context (the rows the bound does not decide it scores left to
// right itself). Otherwise it scores the rows eight at a time, all with
// the current w and b (eight independent left-to-right sums in flight),
// and consumes the scores in order. After an update the block's later
// scores are stale, so the next block starts at the row after it (those
// rows are still in cache). In the InOrder order (without AVX2)
// asm.ScanExact does this and the clear updates; in the other orders this
// loop does it around asm.Dot8Exact. The last rows, fewer than eight, are
// scored one at a time. In the FastSum
// mode the InOrder scan is asm.ScanFast; in the other orders every row is
// scored alone (asm.DotFast, whose eight partial sums are short chains).
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
	check := r.checkRows
	short := block*c*8 <= prefetchMax
	bias := !r.opt.NoBias
	if perm == nil && (fast || asm.CertScans()) {
		// The InOrder order: asm.ScanFast (FastSum), or with AVX2
		// asm.ScanCert (ExactSum: certified decisions, each the
		// left-to-right score's), scores the rows one at a time and makes
		// the clear updates (t < 0, finite), up to the next row that needs
		// step (a tie or a non-finite score), at most r.checkRows rows a call.
		scan := asm.ScanCert
		if fast {
			scan = asm.ScanFast
		}
		for k < n {
			end := min(n, k+r.checkRows)
			m, need, sc, nb, u, last := scan(w, xs[k*st:], c, st, y[k:end], b, r.opt.Eta, bias, r.updatesLeft())
			var changed bool
			k, b, changed = r.afterScan(k, m, need, sc, nb, u, last)
			if changed && r.stopped() || k == end && r.watch && r.checkStopped() {
				r.endSweep(k)
				return
			}
		}
	}
	for !fast && perm == nil && k+block <= n {
		// The InOrder order without AVX2: asm.ScanExact scores the rows eight at a time and
		// makes the clear updates (t < 0, finite), up to the next row that
		// needs step (a tie or a non-finite score), about r.checkRows rows a
		// call; it leaves the last rows, fewer than eight, to the loop below.
		m, need, sc, nb, u, last := asm.ScanExact(w, xs[k*st:], c, st, y[k:], b, r.opt.Eta, bias, r.updatesLeft(), r.checkRows, short)
		var changed bool
		k, b, changed = r.afterScan(k, m, need, sc, nb, u, last)
		if changed && r.stopped() {
			r.endSweep(k)
			return
		}
		if r.watch && k >= check {
			check = k + r.checkRows
			if r.checkStop(); r.halt {
				r.endSweep(k)
				return
			}
		}
	}
	for !fast && k+block <= n {
		for q := range o {
			i := k + q
			if perm != nil {
				i = perm[i]
			}
			o[q] = i * st
		}
		pf := -1 // long rows: no prefetch (see prefetchMax)
		if short {
			pf = (k + block) * st // the next rows in the InOrder order
			if perm != nil && k+2*block <= n {
				pf = perm[k+block] * st // the first of them in this order
			}
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
			check = k + r.checkRows
			if r.checkStop(); r.halt {
				r.endSweep(k)
				return
			}
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
			check = k + r.checkRows
			if r.checkStop(); r.halt {
				k++
				break
			}
		}
	}
	r.endSweep(k)
}

// prefetchMax is the largest block of rows (bytes) whose successor the
// exact sweep prefetches (Dot8Exact's pf, ScanExact's pf): 16 KiB, rows of
// up to 256 features. Longer rows stream well with the CPU's own prefetcher, and
// 8·8·d bytes more a call would push the block's own rows out of L1. On
// the machine of docs/performance.md, one epoch of 100k × 1000 took
// 58-61 ms without the prefetch and 62-63 ms with it (limit 42-45 ms);
// 100k × 100 took 5.7-5.9 ms with it and 10.0-10.4 ms without.
const prefetchMax = 16 << 10

// quickValid reports whether d passes the O(n) checks of checkTrain: rows
// and labels present and consistent, labels -1 or +1. Only the finiteness of
// X, an O(n·d) scan, is left out.
func quickValid(d *Dataset) bool {
	return d != nil && d.X != nil && !d.X.IsEmpty() && len(d.Y) == d.N() && checkLabels(d.Y) == nil
}

// epochs makes the epochs of the run, each a pass of the primal
// perceptron (pass).
func (r *run) epochs(early bool) { r.epochsOf(early, r.pass) }

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
	// Every pick scores all n rows (stoppedEach).
	for k := 0; k < n && !r.stoppedEach(); k++ {
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
			if !isFinite(score) {
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
