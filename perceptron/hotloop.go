package perceptron

// The epoch of PLA is a chain of dot products w·x_i. In the default
// ExactSum mode each is summed left to right, so that the weights stay
// bit-identical to scikit-learn's. One such sum is a chain of dependent
// adds, bound by the latency of an add (a few cycles a feature) rather than
// by the memory that feeds it, so an epoch is fast only when the CPU runs
// the chains of several rows side by side.
//
// Measured on the README's machine (an AMD EPYC, Zen 5, shared and loaded
// while it was measured), the out-of-order core does that best on its own:
// a loop that scores one row at a time, with the sum unrolled by four (the
// same order, fewer loop instructions, so that more rows fit in the core's
// window), and that keeps everything but the test of the score out of the
// loop. Scoring blocks of 2 or 4 rows as explicitly interleaved chains (the
// previous design) was faster on rows already in cache but 1.3 to 1.6
// times slower on 100 features from memory, where the interleaved loads of
// several short rows keep the hardware prefetcher from streaming, and it
// discards the block's remaining scores at every update; on 1000 features
// the two were even then, but near idle one row at a time was 3.06x the
// limit there and four interleaved rows 2.13x, so rows of wideRows
// features or more are scored four at a time (sweepWide). sweepPLA is that
// loop; sweep is the general one
// (Observer, and the learners that watch every step), which scores with the
// same sums and calls step for every row.
//
// FastSum lets each row's sum use four partial sums (a different rounding,
// so not bit-identical to scikit-learn, but deterministic): the chain is a
// quarter as long and an epoch runs at the speed of memory.

// dotExact returns Σ w_j x_j summed left to right, bit for bit the sum of
// dot, unrolled by four. The float64 conversions forbid fusing the multiply
// and the add into an FMA, which would change the rounding.
func dotExact(w, x []float64) float64 {
	n := len(x)
	w = w[:n]
	var s float64
	j := 0
	for ; j+4 <= n; j += 4 {
		xx := x[j : j+4 : j+4]
		ww := w[j : j+4 : j+4]
		s += float64(ww[0] * xx[0])
		s += float64(ww[1] * xx[1])
		s += float64(ww[2] * xx[2])
		s += float64(ww[3] * xx[3])
	}
	for ; j < n; j++ {
		s += float64(w[j] * x[j])
	}
	return s
}

// dotFast returns Σ w_j x_j with four partial sums, s_k summing the terms
// j ≡ k (mod 4) left to right, combined as (s_0 + s_1) + (s_2 + s_3), and
// the last len(x) mod 4 terms added after. Its rounding differs from dot's;
// it is the same on every run and every machine (no FMA).
func dotFast(w, x []float64) float64 {
	n := len(x)
	w = w[:n]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= n; j += 4 {
		xx := x[j : j+4 : j+4]
		ww := w[j : j+4 : j+4]
		s0 += float64(ww[0] * xx[0])
		s1 += float64(ww[1] * xx[1])
		s2 += float64(ww[2] * xx[2])
		s3 += float64(ww[3] * xx[3])
	}
	s := (s0 + s1) + (s2 + s3)
	for ; j < n; j++ {
		s += float64(w[j] * x[j])
	}
	return s
}

// dot4 returns w·x0, w·x1, w·x2 and w·x3, each summed left to right exactly
// as dot sums it (the float64 conversions: see dotExact).
func dot4(w, x0, x1, x2, x3 []float64) (s0, s1, s2, s3 float64) {
	n := len(w)
	x0, x1, x2, x3 = x0[:n], x1[:n], x2[:n], x3[:n]
	for j, wj := range w {
		s0 += float64(wj * x0[j])
		s1 += float64(wj * x1[j])
		s2 += float64(wj * x2[j])
		s3 += float64(wj * x3[j])
	}
	return
}

// row returns x_i as a view of the raw data, as Dataset.Row does, without
// going through the matrix.
func (r *run) row(i int) []float64 {
	o := i * r.stride
	return r.x[o : o+r.cols : o+r.cols]
}

// score returns w·x + b with the sums of opt.Sum.
func (r *run) score(x []float64) float64 {
	if r.opt.Sum == FastSum {
		return dotFast(r.w, x) + r.b
	}
	return dotExact(r.w, x) + r.b
}

// sweep visits the rows of r.perm in order and calls step for each (the
// updates, the calls of the Observer and of onStep are those of visit).
// Without an Observer or onStep, sweepPLA does the same faster.
func (r *run) sweep() {
	if r.opt.Observer == nil && r.onStep == nil {
		if r.opt.Sum == FastSum {
			r.sweepPLA(dotFast)
		} else {
			r.sweepPLA(dotExact)
		}
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

// wideRows is the row length from which sweepPLA scores four rows at a time
// (sweepWide) in the ExactSum mode: a chain of a thousand dependent adds is
// longer than the core's window, so one row at a time leaves the core
// waiting, while four interleaved chains keep it busy; on short rows the
// core overlaps the rows on its own (see the top of this file).
const wideRows = 256

// sweepWide scores the rows four at a time with dot4 (each with its own
// left-to-right sum, bit for bit dot's), all with the current w, and
// consumes the scores in order; after an update the remaining scores of the
// block are stale, so scoring starts again at the next row (still in
// cache). It returns the number of rows visited (the rest, fewer than
// four, is left to the caller) and whether the run must stop.
func (r *run) sweepWide() (int, bool) {
	perm, n, y := r.perm, r.n, r.d.Y
	k := 0
	var p [4]int
	for k+4 <= n {
		for q := range p {
			p[q] = k + q
			if perm != nil {
				p[q] = perm[k+q]
			}
		}
		x0, x1, x2, x3 := r.row(p[0]), r.row(p[1]), r.row(p[2]), r.row(p[3])
		s0, s1, s2, s3 := dot4(r.w, x0, x1, x2, x3)
		b := r.b
		for q, s := range [4]float64{s0, s1, s2, s3} {
			k++
			s += b
			if t := y[p[q]] * s; !(t > 0) || t > maxFloat {
				r.step(p[q], [4][]float64{x0, x1, x2, x3}[q], s)
				if r.stopped() {
					return k, true
				}
				break
			}
		}
		if r.watch && k&(checkEvery-1) < 4 {
			if r.checkStop(); r.halt {
				return k, true
			}
		}
	}
	return k, false
}

// sweepPLA is sweep for PLA without an Observer: only a score that may be
// a mistake (y·score ≤ 0, NaN or ±Inf) goes to step; the Context and the
// Deadline are checked every checkEvery rows. dot is dotExact or dotFast
// (an indirect call per row, which the branch predictor makes as cheap as a
// direct one).
func (r *run) sweepPLA(dot func(w, x []float64) float64) {
	w, y, xs, st, c, perm, n := r.w, r.d.Y, r.x, r.stride, r.cols, r.perm, r.n
	y = y[:n]
	b := r.b
	k := 0
	if c >= wideRows && r.opt.Sum == ExactSum {
		var stop bool
		if k, stop = r.sweepWide(); stop {
			if r.epoch == 0 {
				r.seen = k
			}
			return
		}
		b = r.b
	}
	for ; k < n; k++ {
		i := k
		if perm != nil {
			i = perm[k]
		}
		o := i * st
		x := xs[o : o+c : o+c]
		s := dot(w, x) + b
		if t := y[i] * s; !(t > 0) || t > maxFloat {
			r.step(i, x, s)
			b = r.b
			if r.stopped() {
				k++
				break
			}
		} else if r.watch && k&(checkEvery-1) == checkEvery-1 {
			if r.checkStop(); r.halt {
				k++
				break
			}
		}
	}
	if r.epoch == 0 {
		r.seen = k
	}
}

// step handles row i, x = x_i, with score = w·x + b: on a mistake it updates
// w and b and reports true. A score that is not finite (NaN or ±Inf) halts
// the run (see nonFinite) and also reports true, so that no stale score of
// the block is used.
func (r *run) step(i int, x []float64, score float64) bool {
	if score-score != 0 { // NaN or ±Inf
		r.nonFinite(i, x, score)
		return true
	}
	y := r.d.Y[i]
	updated := r.opt.Tie.Mistake(y, score)
	if updated {
		step := r.opt.Eta * y
		w := r.w[:len(x)]
		for j, v := range x {
			w[j] += float64(v * step)
		}
		if !r.opt.NoBias {
			r.b += step
		}
		r.res.Updates++
		r.cur++
		r.lastEpoch = r.epoch
		r.res.LastMistakeRow = i
		if r.opt.Observer != nil {
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
	r.opt.Observer(Update{Epoch: r.epoch, Row: i, X: x, Y: y, Score: score, W: r.w, B: r.b})
}

// quickValid reports whether d passes the O(n) checks of Validate: rows and
// labels present and consistent, labels -1 or +1, both classes. Only the
// finiteness of X, an O(n·d) scan, is left out.
func quickValid(d *Dataset) bool {
	if d == nil || d.X == nil || d.X.IsEmpty() || len(d.Y) != d.N() || checkLabels(d.Y) != nil {
		return false
	}
	pos := 0
	for _, v := range d.Y {
		if v > 0 {
			pos++
		}
	}
	return pos > 0 && pos < len(d.Y)
}

// wrong is tie.Mistake(y, score) with a NaN score counted as a mistake.
func wrong(tie Tie, y, score float64) bool {
	return tie.Mistake(y, score) || score != score
}

// countMistakes is countErrors (a NaN score counts as a mistake) with the rows scored four at a time by
// dot4: the same scores, bit for bit, hence the same count, at the
// throughput of the CPU rather than the latency of one chain of adds.
func countMistakes(w []float64, b float64, d *Dataset, tie Tie) int {
	raw := d.X.RawMatrix()
	n, c, st, x := raw.Rows, raw.Cols, raw.Stride, raw.Data
	y := d.Y[:n]
	w = w[:c]
	e, i := 0, 0
	for ; i+4 <= n; i += 4 {
		o := i * st
		s0, s1, s2, s3 := dot4(w, x[o:o+c], x[o+st:o+st+c], x[o+2*st:o+2*st+c], x[o+3*st:o+3*st+c])
		if wrong(tie, y[i], s0+b) {
			e++
		}
		if wrong(tie, y[i+1], s1+b) {
			e++
		}
		if wrong(tie, y[i+2], s2+b) {
			e++
		}
		if wrong(tie, y[i+3], s3+b) {
			e++
		}
	}
	for ; i < n; i++ {
		if wrong(tie, y[i], dot(w, x[i*st:i*st+c])+b) {
			e++
		}
	}
	return e
}
