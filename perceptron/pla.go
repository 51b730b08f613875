package perceptron

import (
	"math/rand/v2"
)

// PLA runs the perceptron learning algorithm on d: it visits the rows in
// opt.Order and, on every mistake, updates w ← w + η y x and b ← b + η y
// (b stays 0 with NoBias). It stops after the first epoch without a mistake
// (Converged), after opt.MaxEpochs epochs, or after opt.MaxUpdates updates.
// w and b start at 0.
//
// With the Cyclic order, Eta 1 and TieMistake, the weights after k epochs are
// bit-identical to scikit-learn's Perceptron(shuffle=False, tol=None,
// eta0=1, max_iter=k), which counts epochs the same way.
//
// Bad data (see Dataset.Validate) gives Validate's error. Without an
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
	lazy := opt.Observer == nil && opt.Order != RandomMistake && quickValid(d)
	if !lazy {
		if err := d.Validate(); err != nil {
			return nil, err
		}
	}
	r := newRun(d, opt)
	r.unchecked = lazy
	for r.epoch = 0; r.epoch < opt.MaxEpochs && !r.stopped(); r.epoch++ {
		if r.pass() == 0 {
			r.res.Converged = true
			r.epoch++
			break
		}
	}
	if lazy && (r.bad || r.seen < d.N()) {
		if err := checkRows(d); err != nil {
			return nil, err
		}
	}
	r.res.Epochs = r.epoch
	r.res.Hyperplane = Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}
	return &r.res, nil
}

// run is the state that PLA and the learners built on it share: the data,
// the options, the weights, the visiting order and the result so far.
type run struct {
	d     *Dataset
	opt   Options
	w     []float64
	b     float64
	rng   *rand.Rand
	perm  []int
	epoch int
	res   Result
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
}

func newRun(d *Dataset, opt Options) *run {
	n := d.N()
	r := &run{d: d, opt: opt, w: make([]float64, d.D()),
		rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))}
	r.res.LastMistakeRow = -1
	raw := d.X.RawMatrix()
	r.x, r.stride, r.cols = raw.Data, raw.Stride, raw.Cols
	r.perm = make([]int, n)
	for i := range r.perm {
		r.perm[i] = i
	}
	if opt.Order == Cycle {
		r.shuffle()
	}
	return r
}

func (r *run) shuffle() {
	r.rng.Shuffle(len(r.perm), func(i, j int) { r.perm[i], r.perm[j] = r.perm[j], r.perm[i] })
}

// stopped reports whether MaxUpdates has been reached.
func (r *run) stopped() bool {
	return r.opt.MaxUpdates > 0 && r.res.Updates >= r.opt.MaxUpdates || r.bad
}

// pass makes one epoch and returns its number of updates.
func (r *run) pass() int {
	r.res.UpdatesPerEpoch = append(r.res.UpdatesPerEpoch, 0)
	if r.opt.Order == RandomMistake {
		return r.mistakePass()
	}
	if r.opt.Order == Shuffle {
		r.shuffle()
	}
	r.sweep()
	return r.res.UpdatesPerEpoch[r.epoch]
}

// mistakePass makes n picks of a uniformly random misclassified row; it
// stops early, with no update, when no row is misclassified.
func (r *run) mistakePass() int {
	n := r.d.N()
	wrong := make([]int, 0, n)
	for k := 0; k < n && !r.stopped(); k++ {
		wrong = wrong[:0]
		for i := 0; i < n; i++ {
			if r.opt.Tie.Mistake(r.d.Y[i], dot(r.w, r.d.Row(i))+r.b) {
				wrong = append(wrong, i)
			}
		}
		if len(wrong) == 0 {
			break
		}
		r.visit(wrong[r.rng.IntN(len(wrong))])
	}
	return r.res.UpdatesPerEpoch[r.epoch]
}

// visit scores row i and updates on a mistake.
func (r *run) visit(i int) {
	x := r.row(i)
	r.step(i, x, dot(r.w, x)+r.b)
}
