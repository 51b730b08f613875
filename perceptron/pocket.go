package perceptron

import "github.com/perceptron-go/lessons/perceptron/internal/asm"

// PocketResult is what Pocket learned: the pocket weights and the history of
// the pocket.
type PocketResult struct {
	// Hyperplane holds the pocket weights, the best w met.
	Hyperplane
	// Stats is what the underlying PLA did, as PLA reports it.
	Stats
	// Last holds the final PLA weights, which may be worse than the pocket.
	Last Hyperplane
	// PocketErrors is the number of training errors of the pocket
	// weights, as Errors counts them. With FastSum the run chooses the
	// pocket, and History counts, with its fast sums, which may decide
	// a row whose score is within rounding of 0 the other way.
	PocketErrors int
	// History has one entry per update, in order.
	History []PocketStep
}

var _ Model = (*PocketResult)(nil)

// model is the learned hyperplane, or for a nil result a Model whose every
// answer is an ErrModel error (see nilModel).
func (r *PocketResult) model() validModel {
	if r == nil {
		return nilModel{"*PocketResult", "Pocket"}
	}
	return &r.Hyperplane
}

// Validate is the hyperplane's Validate, and for a nil result an ErrModel
// error (as its other methods answer).
func (r *PocketResult) Validate() error { return r.model().Validate() }

// Dim is the number of features d the hyperplane expects (0 for a nil result).
func (r *PocketResult) Dim() int { return r.model().Dim() }

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *PocketResult) Score(x []float64) (float64, error) { return r.model().Score(x) }

// Predict returns the label of x (see Hyperplane.Predict).
func (r *PocketResult) Predict(x []float64) (float64, error) { return r.model().Predict(x) }

// PredictAll returns Predict of every row of d.
func (r *PocketResult) PredictAll(d *Dataset) ([]float64, error) { return r.model().PredictAll(d) }

// Errors returns the number of rows of d the learned hyperplane misclassifies.
func (r *PocketResult) Errors(d *Dataset) (int, error) { return r.model().Errors(d) }

// ErrorRate returns Errors divided by the number of rows of d.
func (r *PocketResult) ErrorRate(d *Dataset) (float64, error) { return r.model().ErrorRate(d) }

// PocketStep records one update of Pocket.
type PocketStep struct {
	// Update is the 1-based number of the update.
	Update int
	// Errors is the number of training errors of w after this update.
	Errors int
	// PocketErrors is the number of training errors of the pocket after
	// this update (after a possible replacement).
	PocketErrors int
	// Replaced reports whether this update's w went into the pocket.
	Replaced bool
}

// Pocket runs the pocket algorithm (Gallant 1990) on d: it makes exactly the
// updates PLA makes with the same options (order, Tie, MaxEpochs,
// MaxUpdates), and after every update it counts the training errors of the
// new w and puts w in the pocket if it has strictly fewer errors than the
// pocket (a NaN score counts as an error). The pocket starts as w = 0, b = 0. Like PLA it stops after a clean
// pass, after MaxEpochs epochs or after MaxUpdates updates (NTU's homework:
// MaxUpdates 50 and the RandomCycle order); on separable data the pocket then
// holds the final w with 0 errors.
//
// Cost: the errors of every w are counted exactly (History records them
// all), but not by a fresh O(n·d) scan after every update. A w is counted
// when it is replaced (or the run ends): the rows the run visited under w
// and found correct are already known to be correct, so only the others are
// scored, with the very sums the run used. A w that survives m visits thus
// costs O((n - m)·d) instead of O(n·d): nearly nothing late in a run on
// data that is almost separable, where most w survive long, and about a
// full scan early on or on very noisy data, where few do. With the
// RandomMistake order every visit is an update, so every count is a full
// scan: O(n·d) per update.
func Pocket(d *Dataset, opt Options) (*PocketResult, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := checkTrainCtx(d, opt); err != nil {
		return nil, err
	}
	r := newRun(d, opt)
	out := &PocketResult{}
	pocket := Hyperplane{W: make([]float64, d.D()), Tie: opt.Tie}
	if r.halt {
		// Stopped before it began: the rows may be unread (checkTrainCtx).
		out.PocketErrors = zeroErrors(d.Y, opt.Tie)
	} else {
		out.PocketErrors = countErrors(pocket.W, pocket.B, d, opt.Tie)
	}
	// cur is the current w (a copy), gen its number of updates plus one;
	// seen[i] == gen says that row i was visited under cur and found
	// correct.
	cur := Hyperplane{W: make([]float64, d.D())}
	gen := 1
	seen := make([]int, d.N())
	// settle counts the errors of cur and records it in History (update k).
	settle := func(k int) {
		e := 0
		var idx [block]int // rows waiting to be scored eight at a time (ExactSum)
		var o [block]int
		var sc [block]float64
		m := 0
		for i, g := range seen {
			if g == gen {
				continue
			}
			if opt.Summation == FastSum && r.res.Updates > 0 {
				if mistakeOrNaN(opt.Tie, d.Y[i], asm.DotFast(cur.W, r.row(i))+cur.B) {
					e++
				}
				continue
			}
			if idx[m] = i; m < block-1 {
				m++
				continue
			}
			m = 0
			for q, iq := range idx {
				o[q] = iq * r.stride
			}
			asm.Dot8Exact(cur.W, r.x, &o, -1, &sc)
			for q, s := range sc {
				if mistakeOrNaN(opt.Tie, d.Y[idx[q]], s+cur.B) {
					e++
				}
			}
		}
		for _, i := range idx[:m] {
			if mistakeOrNaN(opt.Tie, d.Y[i], asm.DotExact(cur.W, r.row(i))+cur.B) {
				e++
			}
		}
		replaced := e < out.PocketErrors
		if replaced {
			copy(pocket.W, cur.W)
			pocket.B = cur.B
			out.PocketErrors = e
		}
		out.History = append(out.History, PocketStep{Update: k, Errors: e,
			PocketErrors: out.PocketErrors, Replaced: replaced})
	}
	r.onStep = func(i int, updated bool) {
		if !updated {
			seen[i] = gen
			return
		}
		if k := r.res.Updates - 1; k >= 1 {
			settle(k)
			// A count scores up to n rows: the Context is checked after
			// each (r.stopped alone checks it every r.checkRows blocks of
			// rows, which may hold as many counts).
			if r.watch {
				r.checkStop()
			}
		}
		copy(cur.W, r.w)
		cur.B = r.b
		gen++
	}
	r.epochs(true)
	if err := r.finish(); err != nil {
		return nil, err
	}
	if r.res.Updates >= 1 {
		settle(r.res.Updates)
	}
	if opt.Summation == FastSum && r.res.Updates > 0 {
		// The pocket's errors as its Errors counts them (left to right):
		// the fast sums may decide a row within rounding of 0 otherwise.
		out.PocketErrors = countErrors(pocket.W, pocket.B, d, opt.Tie)
	}
	out.Stats = r.res
	out.Hyperplane = pocket
	out.Last = Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}
	return out, r.stop
}

// zeroErrors is the number of mistakes of w = 0, b = 0 on rows labelled y
// under tie, without reading the rows: every finite row scores 0, a
// mistake of the default policy and, under TieNegative (sign 0 = −1), of
// the +1 rows.
func zeroErrors(y []float64, tie Tie) int {
	if tie != TieNegative {
		return len(y)
	}
	e := 0
	for _, v := range y {
		if v > 0 {
			e++
		}
	}
	return e
}
