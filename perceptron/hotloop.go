package perceptron

// The epoch of PLA is a chain of dot products w·x_i, each summed left to
// right so that the weights stay bit-identical to scikit-learn's. One such
// sum is a chain of dependent adds, bound by the latency of an add (a few
// cycles a feature) rather than by the memory that feeds it. sweep works
// around that bound without changing a single bit: it scores a block of
// rows at once,
// each row with its own left-to-right sum (independent chains that the CPU
// runs side by side), all with the current w. The scores are then consumed
// in order; as long as no row is a mistake, w has not changed and each score
// is exactly the one the row-by-row loop would compute. After an update the
// remaining scores of the block are stale, so they are dropped and scoring
// starts again at the next row (which is still in cache).

// wideRows is the row length from which sweep scores four rows at a time
// instead of two. Measured on the 2-core Xeon of the README (medians of
// one epoch): on 1M × 100 (memory bound) two rows at a time are as fast as
// one and four are 5-10% slower; on 100k × 1000 four rows are 1.4 times as
// fast as one and two rows 1.25 times.
const wideRows = 256

// dot2 returns w·x0 and w·x1, each summed left to right exactly as dot sums
// it (the float64 conversions: see dot4).
func dot2(w, x0, x1 []float64) (s0, s1 float64) {
	n := len(w)
	x0, x1 = x0[:n], x1[:n]
	for j, wj := range w {
		s0 += float64(wj * x0[j])
		s1 += float64(wj * x1[j])
	}
	return
}

// dot4 returns w·x0, w·x1, w·x2 and w·x3, each summed left to right exactly
// as dot sums it. The float64 conversions forbid fusing the multiply and
// the add into an FMA, which would change the rounding.
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

// sweep visits the rows of r.perm in order, scoring them two or four
// (wideRows) at a time (see the comment at the top of this file); the
// updates, the calls of the Observer and of onStep are exactly those of
// visiting every row with visit.
func (r *run) sweep() {
	perm := r.perm
	k := 0
	if r.cols >= wideRows {
		for k+4 <= len(perm) && !r.stopped() {
			p := perm[k : k+4 : k+4]
			x0, x1, x2, x3 := r.row(p[0]), r.row(p[1]), r.row(p[2]), r.row(p[3])
			s0, s1, s2, s3 := dot4(r.w, x0, x1, x2, x3)
			k++
			if r.step(p[0], x0, s0+r.b) {
				continue
			}
			k++
			if r.step(p[1], x1, s1+r.b) {
				continue
			}
			k++
			if r.step(p[2], x2, s2+r.b) {
				continue
			}
			k++
			r.step(p[3], x3, s3+r.b)
		}
	} else {
		for k+2 <= len(perm) && !r.stopped() {
			p := perm[k : k+2 : k+2]
			x0, x1 := r.row(p[0]), r.row(p[1])
			s0, s1 := dot2(r.w, x0, x1)
			k++
			if r.step(p[0], x0, s0+r.b) {
				continue
			}
			k++
			r.step(p[1], x1, s1+r.b)
		}
	}
	for ; k < len(perm) && !r.stopped(); k++ {
		i := perm[k]
		x := r.row(i)
		r.step(i, x, dot(r.w, x)+r.b)
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
