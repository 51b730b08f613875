package perceptron

import "math"

// The checks below make the methods of a nil or zero model, or of one
// assembled by hand (or by Load) with fields that disagree, return an error
// instead of panicking or answering wrongly.

// check reports a nil or zero KernelModel, or one whose fields disagree:
// no training rows or kernel, as many α and labels as rows, α ≥ 0, a
// finite η > 0 and b, a known tie policy.
func (m *KernelModel) check() error {
	if m == nil || m.X == nil || m.X.IsEmpty() || m.Kernel == nil {
		return errorf("kernel model: not trained (nil, or no training rows or kernel): make one with KernelPerceptron")
	}
	n, _ := m.X.Dims()
	if len(m.Alpha) != n || len(m.Y) != n {
		return kindErrorf(ErrDimension, "kernel model: %d training rows, %d alphas and %d labels: want one of each per row", n, len(m.Alpha), len(m.Y))
	}
	for i, a := range m.Alpha {
		if a < 0 {
			return errorf("kernel model: alpha[%d] = %d is negative: it counts mistakes", i, a)
		}
	}
	if !(m.Eta > 0) || math.IsInf(m.Eta, 0) {
		return errorf("kernel model: Eta must be a finite number > 0, got %v", m.Eta)
	}
	if math.IsNaN(m.B) || math.IsInf(m.B, 0) {
		return kindErrorf(ErrNonFinite, "kernel model: bias b is %v", m.B)
	}
	return m.Tie.valid()
}

// check reports a VotedModel whose vectors and counts disagree: one count
// per vector, every count ≥ 0, every vector of the model's dimension with
// finite weights.
func (v *VotedModel) check() error {
	if v == nil {
		return errorf("voted model is nil: make one with Voted")
	}
	if len(v.Counts) != len(v.Vectors) {
		return kindErrorf(ErrDimension, "voted model: %d vectors but %d counts: want one count per vector", len(v.Vectors), len(v.Counts))
	}
	for k, h := range v.Vectors {
		if v.Counts[k] < 0 {
			return errorf("voted model: vector %d has count %d: a survival count is >= 0", k, v.Counts[k])
		}
		if len(h.W) != len(v.W) {
			return kindErrorf(ErrDimension, "voted model: vector %d has %d weights, want %d", k, len(h.W), len(v.W))
		}
		if err := h.checkWeights(); err != nil {
			return kindErrorf(ErrNonFinite, "voted model: vector %d: %s", k, trimPrefix(err))
		}
	}
	return v.Tie.valid()
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
