package perceptron

import (
	"slices"
)

// DualResult is what the dual perceptron learned: the mistake count α_i of
// every row and the weights recovered from α. The Gram matrix it used is
// not kept (it is n × n): GramMatrix computes it again.
type DualResult struct {
	// Hyperplane holds w = Σ_i α_i η y_i x_i and b.
	Hyperplane
	// Alpha[i] is the number of updates made on row i.
	Alpha []int
	// Stats is what the run did.
	Stats
}

var _ Model = (*DualResult)(nil)

// model is the learned hyperplane, or for a nil result a Model whose every
// answer is an ErrModel error (see nilModel).
func (r *DualResult) model() validModel {
	if r == nil {
		return nilModel{"*DualResult", "Dual"}
	}
	return &r.Hyperplane
}

// Validate is the hyperplane's Validate, and for a nil result an ErrModel
// error (as its other methods answer).
func (r *DualResult) Validate() error { return r.model().Validate() }

// Dim is the number of features d the hyperplane expects (0 for a nil result).
func (r *DualResult) Dim() int { return r.model().Dim() }

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *DualResult) Score(x []float64) (float64, error) { return r.model().Score(x) }

// Predict returns the label of x (see Hyperplane.Predict).
func (r *DualResult) Predict(x []float64) (float64, error) { return r.model().Predict(x) }

// PredictAll returns Predict of every row of d.
func (r *DualResult) PredictAll(d *Dataset) ([]float64, error) { return r.model().PredictAll(d) }

// Errors returns the number of rows of d the learned hyperplane misclassifies.
func (r *DualResult) Errors(d *Dataset) (int, error) { return r.model().Errors(d) }

// ErrorRate returns Errors divided by the number of rows of d.
func (r *DualResult) ErrorRate(d *Dataset) (float64, error) { return r.model().ErrorRate(d) }

// Dual runs the dual form of the perceptron on d. It never forms w while
// learning: the Gram matrix G_ij = x_i·x_j is computed once, the score of
// row i is
//
//	Σ_j α_j η y_j G_ij + b,
//
// and a mistake on row i adds 1 to α_i (and η y_i to b unless NoBias). The
// visiting order, the tie policy, the epochs and the stopping rules are
// those of PLA with the same Options, so Dual makes the same updates in the
// same order; the final w = Σ_i α_i η y_i x_i equals PLA's exactly when the
// arithmetic is exact (integer data and η) and up to rounding otherwise.
// The Observer sees, after every update, the w recovered from α (which
// costs O(n·d): the Context is checked after each). The n × n Gram
// matrix is kept as its upper triangle, 8·n(n+1)/2 bytes of values and
// the rows' headers: above opt.Control.MaxGramBytes (by default
// DefaultMaxGramBytes, 1 GiB, 16,348 rows) Dual refuses the data with an
// error before allocating it.
//
// Non-finite scores or weights end the run with an ErrNonFinite error that
// names the row and the epoch; opt.Control.Context stops it with
// the partial result and an ErrStopped error, as in PLA, and is checked
// before the Gram matrix is built and as it is (every 2^18 values read),
// and a Context done before the call returns at once, with α = 0 and no
// epoch, before the rows are read.
func Dual(d *Dataset, opt Options) (*DualResult, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := checkTrainCtx(d, opt); err != nil {
		return nil, err
	}
	var recover func(alpha []int) []float64
	if opt.Control.Observer != nil {
		recover = func(alpha []int) []float64 { return dualWeights(d, alpha, opt.Eta) }
	}
	k, err := runKernel(d, LinearKernel{}, opt, recover)
	if err != nil {
		return nil, err
	}
	if err := k.finish(); err != nil {
		return nil, err
	}
	res := &DualResult{Stats: k.res, Alpha: k.alpha}
	res.Hyperplane = Hyperplane{W: dualWeights(d, k.alpha, opt.Eta), B: k.b, Tie: opt.Tie}
	if err := checkWeights("the weights Σ_i α_i η y_i x_i", res.W, res.B, k.res.LastMistakeRow, k.lastEpoch); err != nil {
		return nil, err
	}
	return res, k.stop
}

// dualWeights returns w = Σ_i α_i η y_i x_i, summed over the rows in order.
func dualWeights(d *Dataset, alpha []int, eta float64) []float64 {
	w := make([]float64, d.D())
	for i, a := range alpha {
		if a == 0 {
			continue
		}
		c := float64(a) * eta * d.Y[i]
		for j, v := range d.Row(i) {
			w[j] += float64(c * v) // no FMA: the same bits on every platform
		}
	}
	return w
}

// kernelRun is the state of a dual (kernel) perceptron run.
type kernelRun struct {
	*run
	gram  gram
	alpha []int
	// active lists the rows with α > 0 in increasing order: the scores sum
	// over them in the order KernelModel.Score sums, so that a model that
	// converged classifies its training rows as the run did, bit for bit.
	active []int
	// recover, if not nil, gives the w shown to the Observer.
	recover func([]int) []float64
}

// runKernel runs the dual perceptron with the Gram matrix of kern under
// the PLA semantics of opt; recover, if not nil, gives the w shown to the
// Observer. The Gram matrix is refused above opt.Control.MaxGramBytes
// (the error returned). The Context is checked before the matrix is
// built and at every row of it: a run stopped there has made no epoch,
// its α are 0 and r.stop says why.
func runKernel(d *Dataset, kern Kernel, opt Options, recover func([]int) []float64) (*kernelRun, error) {
	k := &kernelRun{run: newRun(d, opt), alpha: make([]int, d.N()), recover: recover}
	// A row's score reads up to n values of the Gram matrix (one per row
	// with α > 0), not d: the Context is looked at every
	// rowsPerCheck(n) rows.
	k.checkRows = rowsPerCheck(d.N())
	k.tick = k.checkRows
	if err := checkGramBytes(d.N(), opt.Control.MaxGramBytes, gramBytes(d.N()), "its upper triangle, 8·n(n+1)/2 bytes of values, its row headers and the allocator's 8 KiB pages"); err != nil {
		return nil, err
	}
	if k.stopped() { // a Context done before the call: no Gram matrix
		return k, nil
	}
	gram, err := gramOf(d, kern, k.checkStopped)
	if err != nil {
		return nil, err
	}
	if gram == nil { // stopped while the matrix was built
		return k, nil
	}
	k.gram = gram
	k.epochsOf(true, func() int { return k.counted(k.pass) })
	return k, nil
}

// score returns Σ_j α_j η y_j G_ij + b. The float64 conversion forbids
// fusing the multiply and the add into an FMA (GOAMD64=v3 would), which
// would change the rounding: the scores are the same bits on every
// platform.
func (k *kernelRun) score(i int) float64 {
	var s float64
	for _, j := range k.active {
		s += float64(float64(k.alpha[j]) * k.opt.Eta * k.d.Y[j] * k.gram.at(i, j))
	}
	return s + k.b
}

// pass makes one epoch, in the order PLA would.
func (k *kernelRun) pass() {
	r := k.run
	if r.opt.Order == RandomMistake {
		n := r.d.N()
		wrong := make([]int, 0, n)
		// Every pick scores all n rows (stoppedEach).
		for s := 0; s < n && !r.stoppedEach(); s++ {
			wrong = wrong[:0]
			for i := 0; i < n; i++ {
				score := k.score(i)
				if !isFinite(score) {
					k.nonFinite(i, score)
					return
				}
				if r.opt.Tie.Mistake(r.d.Y[i], score) {
					wrong = append(wrong, i)
				}
			}
			if len(wrong) == 0 {
				break
			}
			k.visit(wrong[r.rng.IntN(len(wrong))])
		}
		return
	}
	if r.opt.Order == Shuffle {
		r.shuffle()
	}
	for j := 0; j < r.n; j++ {
		if r.stopped() {
			break
		}
		k.visit(r.at(j))
	}
}

// nonFinite halts the run on the non-finite score of row i, naming the row
// and the epoch (b, the only value of the run that can overflow besides the
// score, is named when it is the cause).
func (k *kernelRun) nonFinite(i int, score float64) {
	r := k.run
	r.halt = true
	if !isFinite(r.b) {
		r.err = checkWeights("the bias", nil, r.b, r.res.LastMistakeRow, r.lastEpoch)
		return
	}
	r.err = nonFiniteError("the score Σ_j α_j η y_j k(x_j, x_i) + b of row %d in epoch %d is %v (overflow): the data, the kernel's values or Eta are too large; scale the data or lower Eta",
		i, r.epoch, score)
}

// visit scores row i and, on a mistake, adds 1 to α_i.
func (k *kernelRun) visit(i int) {
	r := k.run
	y := r.d.Y[i]
	score := k.score(i)
	if !isFinite(score) {
		k.nonFinite(i, score)
		return
	}
	if !r.opt.Tie.Mistake(y, score) {
		return
	}
	if k.alpha[i] == 0 {
		at, _ := slices.BinarySearch(k.active, i)
		k.active = slices.Insert(k.active, at, i)
	}
	k.alpha[i]++
	if !r.opt.NoBias {
		r.b += float64(r.opt.Eta * y) // no FMA: the same b on every platform
	}
	r.res.Updates++
	r.cur++
	r.lastEpoch = r.epoch
	r.res.LastMistakeRow = i
	if r.opt.Control.Observer != nil {
		var w []float64
		if k.recover != nil {
			w = k.recover(k.alpha)
		}
		r.opt.Control.Observer(Update{Epoch: r.epoch, Row: i, X: r.d.Row(i), Y: y, Score: score, W: w, B: r.b})
		if k.recover != nil && r.watch {
			// Recovering w cost O(n·d): the Context is checked after each,
			// as after every step that costs as much (stoppedEach). Dual
			// went on for hundreds of updates after a cancel (helper-53).
			r.checkStop()
		}
	}
}
