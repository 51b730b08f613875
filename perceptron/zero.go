package perceptron

// maxExactCount is 2^53: every integer from 0 to it is a float64, and
// 2^53 + 1 is not.
const maxExactCount int64 = 1 << 53

// The models' fields are exported, so a model may be assembled by hand (or
// read from a file) with fields that disagree. Validate checks such a
// model whole, and every method that scores with it (Score, Predict,
// PredictAll, Errors, ErrorRate) calls Validate first, once a call: a
// model Validate refuses is an error there too, never a panic or a
// silently wrong vote. The check costs about what one score costs (it
// reads every vector, or every training row, once).

// Validate reports a nil or zero KernelModel, or one whose fields
// disagree: no training rows or kernel, as many α and labels as rows,
// 0 ≤ α ≤ 2^53 (each mistake count a float64 holds exactly; the score
// is a float64 sum all the same, rounded as Score says), an η
// that KernelPerceptron's Options.Eta accepts (finite, at least 2^-1022,
// and not 0), a finite b, a known tie policy, finite training rows
// labelled -1/+1, and a kernel: one of this package's with parameters
// that KernelPerceptron accepts (a PolyKernel of Degree 1 to MaxPolyDegree
// with a finite C, an RBFKernel with a finite Gamma > 0), as ParseKernel
// checks them, or a kernel of the caller's, which KernelPerceptron takes
// too and which is not checked (a value it gives that is not finite is
// Score's ErrNonFinite error). Its errors match ErrModel, and the kind of the fault
// beside it. KernelPerceptron builds valid models; Score, Predict,
// PredictAll and Errors call Validate first.
func (m *KernelModel) Validate() error { return modelError(m.validate()) }

// validate is Validate with the errors of their own kinds only.
func (m *KernelModel) validate() error {
	if err := m.usable(); err != nil {
		return err
	}
	if err := checkKernel(m.Kernel); err != nil {
		return wrapf(err, "kernel model")
	}
	n, _ := m.X.Dims()
	if len(m.Alpha) != n || len(m.Y) != n {
		return kindErrorf(ErrDimension, "kernel model: %d training rows, %d alphas and %d labels: want one of each per row", n, len(m.Alpha), len(m.Y))
	}
	if err := checkRows(&Dataset{X: m.X, Y: m.Y}); err != nil {
		return wrapf(err, "kernel model: training rows")
	}
	for i, a := range m.Alpha {
		if a < 0 {
			return kindErrorf(ErrModel, "kernel model: alpha[%d] = %d is negative: it counts mistakes", i, a)
		}
		if int64(a) > maxExactCount {
			return kindErrorf(ErrModel, "kernel model: alpha[%d] = %d is beyond 2^53: a float64 would not hold it exactly", i, a)
		}
	}
	// η by the one rule of the learners (learningRate), except that 0,
	// which a learner's options read as 1, is not a trained model's η.
	if _, err := learningRate(m.Eta); err != nil || m.Eta == 0 {
		return kindErrorf(ErrModel, "kernel model: Eta must be a finite number >= 2^-1022 (as KernelPerceptron's Options.Eta), got %v", m.Eta)
	}
	if !isFinite(m.B) {
		return kindErrorf(ErrNonFinite, "kernel model: bias b is %v", m.B)
	}
	return m.Tie.valid()
}

// Validate reports a VotedModel whose vectors and counts disagree: at
// least one vector, one count per vector, every count ≥ 0 and at least one
// above 0 (with none, no vector votes and every point is a tie: so is the
// partial result of a Voted stopped before its first row), every
// vector of the same dimension d ≥ 1 with finite weights, a known tie
// policy. Its errors match ErrModel, and ErrDimension or ErrNonFinite
// where that is the fault. Voted builds valid models; Score, Predict,
// PredictAll and Errors call Validate first. Counts have no upper bound
// below the largest int: the vote is summed exactly (see Score).
func (v *VotedModel) Validate() error {
	if err := v.usable(); err != nil {
		return err
	}
	if len(v.Counts) != len(v.Vectors) {
		return causeErrorf([]error{ErrModel, ErrDimension}, "voted model: %d vectors but %d counts: want one count per vector", len(v.Vectors), len(v.Counts))
	}
	if v.Dim() == 0 {
		return causeErrorf([]error{ErrModel, ErrDimension}, "voted model: vector %d (the last) has no weights w: want at least one", len(v.Vectors)-1)
	}
	votes := false
	for k, h := range v.Vectors {
		if v.Counts[k] < 0 {
			return kindErrorf(ErrModel, "voted model: vector %d has count %d: a survival count is >= 0", k, v.Counts[k])
		}
		votes = votes || v.Counts[k] > 0
		if len(h.W) != v.Dim() {
			return causeErrorf([]error{ErrModel, ErrDimension}, "voted model: vector %d has %d weights, the last has %d", k, len(h.W), v.Dim())
		}
		if err := h.checkWeights(); err != nil {
			return causeErrorf([]error{ErrModel, ErrNonFinite}, "voted model: vector %d: %s", k, trimPrefix(err))
		}
	}
	if !votes {
		return kindErrorf(ErrModel, "voted model: every count is 0: no vector votes, and every point would be a tie")
	}
	if err := v.Tie.valid(); err != nil {
		return causeErrorf([]error{ErrModel, err}, "voted model: %s", trimPrefix(err))
	}
	return nil
}

// trimPrefix returns the message of err without the package's prefix.
func trimPrefix(err error) string {
	const p = "perceptron: "
	s := err.Error()
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
