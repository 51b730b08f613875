package perceptron

// Result is what PLA learned, the hyperplane (w, b), and what the run did.
type Result struct {
	// Hyperplane holds the learned w and b.
	Hyperplane
	Stats
}

var _ Model = (*Result)(nil)

// model is the learned hyperplane, or for a nil result a Model whose every
// answer is an ErrModel error (see nilModel).
func (r *Result) model() validModel {
	if r == nil {
		return nilModel{"*Result", "PLA"}
	}
	return &r.Hyperplane
}

// Validate is the hyperplane's Validate, and for a nil result an ErrModel
// error (as its other methods answer).
func (r *Result) Validate() error { return r.model().Validate() }

// Dim is the number of features d the hyperplane expects (0 for a nil result).
func (r *Result) Dim() int { return r.model().Dim() }

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *Result) Score(x []float64) (float64, error) { return r.model().Score(x) }

// Predict returns the label of x (see Hyperplane.Predict).
func (r *Result) Predict(x []float64) (float64, error) { return r.model().Predict(x) }

// PredictAll returns Predict of every row of d.
func (r *Result) PredictAll(d *Dataset) ([]float64, error) { return r.model().PredictAll(d) }

// Errors returns the number of rows of d the learned hyperplane misclassifies.
func (r *Result) Errors(d *Dataset) (int, error) { return r.model().Errors(d) }

// ErrorRate returns Errors divided by the number of rows of d.
func (r *Result) ErrorRate(d *Dataset) (float64, error) { return r.model().ErrorRate(d) }

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
// Bad data (see Dataset.Validate: empty, ragged, not finite, a label other
// than -1 or +1) gives Validate's error; data of one class is not bad data
// here, PLA trains it (and converges). A score w·x + b
// or weights that become NaN or ±Inf (overflow: data near 1e154 or beyond,
// or a huge Eta) end the run with an error that matches ErrNonFinite and
// names the row and the epoch; a non-finite value is never reported as a
// result. When opt.Control.Context is done, PLA returns the
// weights so far (Converged false) and an error matching ErrStopped.
//
// Without an Observer (and in an order other than RandomMistake) the
// finiteness of the points is checked during the first epoch, so that an
// epoch reads the data once; with one, before the first epoch, so that the
// Observer never sees an update of a run that then fails.
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
		if err := checkTrainCtx(d, opt); err != nil {
			return nil, err
		}
	}
	r := newRun(d, opt)
	r.unchecked = lazy
	r.epochs(true)
	// A run the Context stopped returns ErrStopped whatever the rows it
	// did not read hold (a full check of them took as long as an epoch).
	if lazy && (r.bad || r.seen < d.N() && r.stop == nil) {
		if err := checkRows(d); err != nil {
			return nil, err
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &Result{Hyperplane: Hyperplane{W: r.w, B: r.b, Tie: opt.Tie}, Stats: r.res}, r.stop
}
