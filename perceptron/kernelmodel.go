package perceptron

import "gonum.org/v1/gonum/mat"

// KernelModel is what the kernel perceptron learned: the mistake count α_i
// of every training row and b, with the kernel and the training rows that
// its score
//
//	f(x) = Σ_i α_i η y_i k(x_i, x) + b
//
// needs, and what the run did (Stats).
type KernelModel struct {
	// Stats is what the run did.
	Stats
	// Alpha[i] is the number of updates made on training row i.
	Alpha []int
	// B is the learned bias b (0 with NoBias).
	B float64
	// Kernel is the kernel k.
	Kernel Kernel
	// Eta is the learning rate the model was trained with.
	Eta float64
	// Tie is the tie policy Predict and Errors use.
	Tie Tie
	// X and Y are the training rows and labels.
	X *mat.Dense
	Y []float64
}

var _ Model = (*KernelModel)(nil)

// KernelPerceptron runs the dual perceptron of Dual with the Gram matrix
// G_ij = k(x_i, x_j) in place of x_i·x_j: the visiting order, tie policy,
// epochs and stopping rules are PLA's with the same Options. With
// LinearKernel it makes exactly Dual's updates. The Observer, if set, sees
// W = nil (w lives in the kernel's feature space) and the current b. The
// Gram matrix is bounded by opt.Control.MaxGramBytes as in Dual.
//
// Non-finite scores or weights end the run with an ErrNonFinite error that
// names the row and the epoch; opt.Control.Context stops it with
// the partial result and an ErrStopped error, as in PLA. The Context is
// also checked before the Gram matrix is built and as it is (every 2^18
// values read, every 64 values of a kernel of the caller's): a Context done
// before the call returns at once, with α = 0 and no epoch.
func KernelPerceptron(d *Dataset, k Kernel, opt Options) (*KernelModel, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := checkTrainCtx(d, opt); err != nil {
		return nil, err
	}
	r, err := runKernel(d, k, opt, nil)
	if err != nil {
		return nil, err
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return &KernelModel{
		Stats: r.res, Alpha: r.alpha, B: r.b, Kernel: k, Eta: opt.Eta, Tie: opt.Tie,
		X: mat.DenseCopyOf(d.X), Y: append([]float64(nil), d.Y...),
	}, r.stop
}

// Dim returns the number of features d of the training rows.
func (m *KernelModel) Dim() int {
	if m == nil || m.X == nil {
		return 0
	}
	_, c := m.X.Dims()
	return c
}

// ErrorRate returns Errors divided by the number of rows of d.
func (m *KernelModel) ErrorRate(d *Dataset) (float64, error) { return errorRate(m, d) }

// usable is the first check of Validate: a model that is not nil and
// holds training rows and a kernel.
func (m *KernelModel) usable() error {
	if m == nil || m.X == nil || m.X.IsEmpty() || m.Kernel == nil {
		return kindErrorf(ErrModel, "kernel model: not trained (nil, or no training rows or kernel): make one with KernelPerceptron")
	}
	return nil
}

// Score returns f(x) = Σ_i α_i η y_i k(x_i, x) + b. A model Validate
// refuses is its error; an x of the wrong dimension or not finite is an
// error, and so (ErrNonFinite) is a score
// that is not finite: a kernel value or the sum overflowed (a polynomial
// kernel of high degree on large data), which leaves no sign to trust.
// Below the range it is float64's (see Hyperplane.Score): an RBF value
// exp(−841) is 0, so a point far from every training row scores b, a tie
// when b is 0, as the training run and scikit-learn would score it.
// Within the range it is rounded as the training run's sum is (term by
// term, in row order): a score, not a vote, whose sign where the terms
// cancel to less than their rounding may differ from the exact sum's
// (α of 2^53 − 2 on x = 3 and of 2^53, 2^53 and 2^53 − 7 on x = 1 of the
// other class score x = 1 at −1 in float64, +1 exactly).
// VotedModel's vote is exact.
func (m *KernelModel) Score(x []float64) (float64, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	_, dim := m.X.Dims()
	if err := checkPoint(x, dim, 0); err != nil {
		return 0, err
	}
	s := m.score(x)
	if !isFinite(s) {
		return 0, kindErrorf(ErrNonFinite, "kernel model: the score Σ_i α_i η y_i k(x_i, x) + b is %v (overflow): the kernel's values (%v) are too large for x", s, m.Kernel)
	}
	return s, nil
}

// score returns f(x), summed over the rows in order; the float64
// conversion forbids an FMA, so that the score is the same bits on every
// platform (and those of the training run's scores).
func (m *KernelModel) score(x []float64) float64 {
	var s float64
	for i, a := range m.Alpha {
		if a != 0 {
			s += float64(float64(a) * m.Eta * m.Y[i] * m.Kernel.Eval(m.X.RawRowView(i), x))
		}
	}
	return s + m.B
}

// Predict returns Tie.Sign(f(x)); a score that is not finite is Score's
// error.
func (m *KernelModel) Predict(x []float64) (float64, error) {
	s, err := m.Score(x)
	if err != nil {
		return 0, err
	}
	return m.Tie.Sign(s), nil
}

// checkData checks the model (Validate), and that d is non-empty, finite,
// labelled and of the model's dimension.
func (m *KernelModel) checkData(d *Dataset) error {
	if err := m.Validate(); err != nil {
		return err
	}
	return checkScored(d, m.Dim())
}

// PredictAll returns Tie.Sign(f(x_i)) for every row of d. A score that
// is not finite is an ErrNonFinite error naming the row, as in Score.
func (m *KernelModel) PredictAll(d *Dataset) ([]float64, error) {
	if err := m.checkData(d); err != nil {
		return nil, err
	}
	out := make([]float64, d.N())
	for i := range out {
		s, err := m.rowScore(d, i)
		if err != nil {
			return nil, err
		}
		out[i] = m.Tie.Sign(s)
	}
	return out, nil
}

// Errors returns the number of rows of d the model misclassifies under its
// tie policy. A score that is not finite is an ErrNonFinite error naming
// the row, never a count.
func (m *KernelModel) Errors(d *Dataset) (int, error) {
	if err := m.checkData(d); err != nil {
		return 0, err
	}
	e := 0
	for i := 0; i < d.N(); i++ {
		s, err := m.rowScore(d, i)
		if err != nil {
			return 0, err
		}
		if m.Tie.Mistake(d.Y[i], s) {
			e++
		}
	}
	return e, nil
}

// rowScore returns f(x_i) for row i of d, or an ErrNonFinite error naming
// the row when it is not finite.
func (m *KernelModel) rowScore(d *Dataset, i int) (float64, error) {
	s := m.score(d.Row(i))
	if !isFinite(s) {
		return 0, kindErrorf(ErrNonFinite, "kernel model: row %d: the score Σ_i α_i η y_i k(x_i, x) + b is %v (overflow): the kernel's values (%v) are too large for this row", i, s, m.Kernel)
	}
	return s, nil
}
