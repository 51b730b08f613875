package perceptron

import (
	"fmt"
	"math"

	"github.com/perceptron-go/lessons/perceptron/internal/asm"
	"gonum.org/v1/gonum/mat"
)

// Tie says what a score of exactly 0 means.
type Tie int

const (
	// TieMistake, the default, treats a score of 0 as wrong for both labels:
	// training updates whenever y(w·x + b) ≤ 0 and Predict returns 0, which
	// counts as an error. This is the training rule of scikit-learn's
	// Perceptron (it updates when y(w·x + b) ≤ 0) and of MIT 6.036; note
	// that scikit-learn's predict, unlike ours, answers classes_[0] (-1) at
	// a score of exactly 0, as TieNegative does.
	TieMistake Tie = iota
	// TieNegative takes sign(0) = -1, as the NTU Machine Learning
	// Foundations course does: a point with score 0 and label -1 is correct.
	TieNegative
)

// String returns the name used by the command line: "mistake" or "negative".
func (t Tie) String() string {
	switch t {
	case TieMistake:
		return "mistake"
	case TieNegative:
		return "negative"
	}
	return fmt.Sprintf("Tie(%d)", int(t))
}

// ParseTie parses "mistake" or "negative" (the names of String).
func ParseTie(s string) (Tie, error) {
	switch s {
	case "mistake", "zero":
		return TieMistake, nil
	case "negative", "minus":
		return TieNegative, nil
	}
	return 0, kindErrorf(ErrOption, "unknown tie policy %q: want mistake or negative", s)
}

func (t Tie) valid() error {
	if t != TieMistake && t != TieNegative {
		return kindErrorf(ErrOption, "unknown tie policy %d: want TieMistake or TieNegative", int(t))
	}
	return nil
}

// Sign returns the prediction for a score under the tie policy: +1 for a
// positive score, -1 for a negative one, for 0 either 0 (TieMistake) or -1
// (TieNegative), and 0 (no prediction, an error for every label) for NaN
// under both policies.
func (t Tie) Sign(score float64) float64 {
	switch {
	case score > 0:
		return 1
	case score < 0:
		return -1
	case t == TieNegative && score == 0:
		return -1
	}
	return 0
}

// Mistake reports whether a point with label y and this score is
// misclassified under the tie policy: y·score ≤ 0 for TieMistake,
// Sign(score) ≠ y for TieNegative. A NaN score is a mistake under both
// policies, so arithmetic that went wrong never counts as a success.
func (t Tie) Mistake(y, score float64) bool {
	if math.IsNaN(score) {
		return true
	}
	if t == TieNegative {
		return t.Sign(score) != y
	}
	return y*score <= 0
}

// Hyperplane is the linear classifier h(x) = sign(w·x + b). Its tie policy
// says what a score of exactly 0 predicts; the zero value, TieMistake, is
// the default. Every learner stores the Tie of its Options in the
// hyperplanes it returns, so a model predicts as it was trained.
type Hyperplane struct {
	W   []float64
	B   float64
	Tie Tie
}

var _ Model = Hyperplane{}

// dot returns Σ w_j x_j summed left to right, the order scikit-learn uses, so
// that weights learned here are bit-identical to its. The float64
// conversion forbids fusing the multiply and the add into an FMA (which Go
// does on arm64), which would change the rounding.
func dot(w, x []float64) float64 {
	var s float64
	w = w[:len(x)]
	for j, v := range x {
		s += float64(w[j] * v)
	}
	return s
}

// Dim returns the number of features d.
func (h Hyperplane) Dim() int { return len(h.W) }

// Score returns w·x + b. It is an error (ErrModel) for h to have no
// weights, (ErrDimension) for x to have the wrong dimension, and
// (ErrNonFinite) for x or the weights to hold a NaN or
// ±Inf, or for the score not to be finite: NaN (w·x overflowed to
// +Inf − Inf) or ±Inf (beyond the float64 range, where the left-to-right
// sum's sign is not even to be trusted: w = (1, 1, −1, −1, −1) and
// x = 1e308 in every feature sum to +Inf, though w·x = −1e308). Below
// the range it is float64's, as every sum of the package and scikit-learn's:
// a product under 2^-1074 rounds to 0 (w = 1e-200, x = 1e-200 scores 0, a
// tie), as 1e16 + 1 − 1e16 rounds to 0; the score is the float64 sum in
// order, the one PLA learned with, not the exact one.
func (h Hyperplane) Score(x []float64) (float64, error) {
	if err := h.checkModel(); err != nil {
		return 0, err
	}
	if err := checkPoint(x, len(h.W), 0); err != nil {
		return 0, err
	}
	s := dot(h.W, x) + h.B
	if math.IsNaN(s) {
		return 0, kindErrorf(ErrNonFinite, "score is NaN: w·x + b overflows")
	}
	if math.IsInf(s, 0) {
		return 0, kindErrorf(ErrNonFinite, "score w·x + b overflows the float64 range (the sum of its terms in order is %v; its sign is %v)", s, overflowSign(h.W, h.B, x))
	}
	return s, nil
}

// overflowSign returns the sign (-1, 0 or +1) of w·x + b computed without
// overflow: every product w_j x_j and b split into a fraction and a power
// of 2 (math.Frexp, exact) and summed in order at the exponent of the
// largest, with scaledScore, as scaledDistance does. It is the sign Predict, PredictAll
// and Errors use where the direct sum w·x + b overflowed to ±Inf, whose
// sign is that of the first partial sum that overflowed, not that of the
// whole (1e308 + 1e308 − 3e308 is +Inf).
func overflowSign(w []float64, b float64, x []float64) float64 {
	s, _ := scaledScore(w, b, x)
	switch {
	case s > 0:
		return 1
	case s < 0:
		return -1
	}
	return 0
}

// scaledScore returns w·x + b as s·2^top without overflow or underflow on
// the way: every product w_j x_j and b split into a fraction and a power of
// 2 (math.Frexp, exact: |fw·fx| in [1/4, 1)), summed in order at the
// exponent top of the largest. A zero score is (0, 0).
func scaledScore(w []float64, b float64, x []float64) (s float64, top int) {
	type part struct {
		f float64
		e int
	}
	parts := make([]part, 0, len(x)+1)
	top = math.MinInt
	add := func(f float64, e int) {
		if f != 0 {
			parts = append(parts, part{f, e})
			top = max(top, e)
		}
	}
	for j, v := range x {
		fw, ew := math.Frexp(w[j])
		fx, ex := math.Frexp(v)
		add(fw*fx, ew+ex)
	}
	fb, eb := math.Frexp(b)
	add(fb, eb)
	if len(parts) == 0 {
		return 0, 0
	}
	for _, p := range parts {
		s += math.Ldexp(p.f, p.e-top)
	}
	return s, top
}

// scoreSign returns the score w·x + b for a prediction: the direct sum,
// or where it overflowed to ±Inf, overflowSign; a NaN stays NaN (no
// prediction, a mistake for every label).
func scoreSign(w []float64, b float64, x []float64, s float64) float64 {
	if math.IsInf(s, 0) {
		return overflowSign(w, b, x)
	}
	return s
}

// Predict returns h.Tie.Sign(w·x + b): +1, -1, or for a score of 0 the
// tie policy's answer. Where w·x + b is beyond the float64 range (Score's
// error) its sign is computed without overflow; a sum that overflowed to
// NaN is Score's error.
func (h Hyperplane) Predict(x []float64) (float64, error) {
	if err := h.checkModel(); err != nil {
		return 0, err
	}
	if err := checkPoint(x, len(h.W), 0); err != nil {
		return 0, err
	}
	s := dot(h.W, x) + h.B
	if math.IsNaN(s) {
		return 0, kindErrorf(ErrNonFinite, "score is NaN: w·x + b overflows")
	}
	return h.Tie.Sign(scoreSign(h.W, h.B, x, s)), nil
}

// Norm returns ||w||, the Euclidean norm of w (b excluded). It does not
// overflow or underflow where ||w|| itself is representable (see norm2).
func (h Hyperplane) Norm() float64 {
	return norm2(h.W)
}

// norm2 returns the Euclidean norm of x: sqrt(x·x) when x·x is safely in
// range (bit for bit what it always was), else scaledNorm, which overflows
// only when the norm itself exceeds the largest float64. NaN in x gives NaN.
func norm2(x []float64) float64 {
	s := dot(x, x)
	if s > 0x1p-900 && s < 0x1p900 {
		return math.Sqrt(s)
	}
	return scaledNorm(x)
}

// scaledNorm is the scaled sum of squares of BLAS dnrm2: scale · sqrt(ssq)
// with scale the largest |x_j| so far and ssq the sum of (x_j/scale)². It
// gives the bits of gonum's floats.Norm(x, 2) on amd64 (its assembly),
// which it replaces: gonum's Go twin, used on other platforms and with
// -tags noasm, lets the compiler fuse its multiply-adds (GOAMD64=v3, arm64)
// and differed in the last bit on 107 of 2000 vectors near 1e±160. The
// float64 conversions forbid those FMAs.
func scaledNorm(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if math.IsNaN(a) {
			return math.NaN()
		}
		if scale < a {
			s := scale / a
			ssq = 1 + float64(float64(ssq*s)*s)
			scale = a
		} else {
			s := a / scale
			ssq += float64(s * s)
		}
	}
	if math.IsInf(scale, 1) {
		return math.Inf(1)
	}
	return scale * math.Sqrt(ssq)
}

// Validate checks a hyperplane made by hand (or read from a file) whole:
// at least one weight, finite weights w and b, a known tie policy. Its
// errors match ErrModel, and ErrDimension, ErrNonFinite or ErrOption
// where that is the fault. The package's learners return valid
// hyperplanes.
func (h Hyperplane) Validate() error { return modelError(h.validate()) }

// validate is Validate with the errors of their own kinds only.
func (h Hyperplane) validate() error {
	if len(h.W) == 0 {
		// ErrModel as for every other use of the zero Hyperplane (and the
		// zero VotedModel's and KernelModel's Validate); ErrDimension too,
		// as it was.
		return causeErrorf([]error{ErrModel, ErrDimension}, "hyperplane: no weights w (a zero Hyperplane is not trained)")
	}
	if err := h.checkWeights(); err != nil {
		return err
	}
	return h.Tie.valid()
}

// checkModel reports a hyperplane that cannot score: without weights (the
// zero Hyperplane, not trained: ErrModel, which answered 0 for an empty
// point), with weights that are not finite (see checkWeights), or with a
// tie policy Validate refuses: Score and SignedDistance do not use it, but
// a model Validate refuses is an error of every method that scores with
// it, as VotedModel's and KernelModel's Score (they checked it, Hyperplane's
// did not, helper-67). Its errors match ErrModel beside their own kind, as
// Validate's and the other models' scoring errors do (a NaN weight was
// ErrNonFinite only, helper-72).
func (h Hyperplane) checkModel() error {
	if len(h.W) == 0 {
		return kindErrorf(ErrModel, "hyperplane: no weights w (a zero Hyperplane is not trained): use a learner's result, FromTheta or W of at least one weight")
	}
	if err := h.checkWeights(); err != nil {
		return modelError(err)
	}
	return modelError(h.Tie.valid())
}

// checkWeights reports weights (w, b) that are not finite, as an
// ErrNonFinite error naming the first bad one.
func (h Hyperplane) checkWeights() error {
	for j, v := range h.W {
		if !isFinite(v) {
			return kindErrorf(ErrNonFinite, "model weight w[%d] is %v", j, v)
		}
	}
	if !isFinite(h.B) {
		return kindErrorf(ErrNonFinite, "model bias b is %v", h.B)
	}
	return nil
}

// SignedDistance returns (w·x + b)/||w||: the distance of x to the boundary,
// positive on the side w points to. It is an error for w to be 0. The
// quotient is computed without overflow or underflow in its parts (see
// distance): w = (1e300, 1e300), x = (1e10, 1e10) gives 1.414e10, not +Inf,
// and w = (1e-300, 1e-300), x = (1e-30, 1e-30) gives 1.414e-30, not 0. A
// distance beyond the largest float64 is an ErrNonFinite error.
func (h Hyperplane) SignedDistance(x []float64) (float64, error) {
	if err := h.checkModel(); err != nil {
		return 0, err
	}
	if err := checkPoint(x, len(h.W), 0); err != nil {
		return 0, err
	}
	if isZero(h.W, 0) {
		return 0, kindErrorf(ErrOption, "signed distance: w is the zero vector, so there is no boundary")
	}
	dist := distance(h.W, h.B, x)
	if !isFinite(dist) {
		return 0, kindErrorf(ErrNonFinite, "signed distance: %v, beyond the float64 range", dist)
	}
	return dist, nil
}

// Margin returns y(w·x + b)/||w||, the margin of the labelled point (x, y):
// positive when the point is on its correct side, and its distance to the
// boundary.
func (h Hyperplane) Margin(x []float64, y float64) (float64, error) {
	if y != -1 && y != 1 {
		return 0, kindErrorf(ErrLabel, "label %v is not -1 or +1", y)
	}
	dist, err := h.SignedDistance(x)
	return y * dist, err
}

// DatasetMargin returns the margin of the data set, min_i y_i(w·x_i + b)/||w||,
// and the row that attains it (the first such row). The data set is
// separated by h exactly when the margin is positive.
func (h Hyperplane) DatasetMargin(d *Dataset) (margin float64, row int, err error) {
	if err := h.checkData(d); err != nil {
		return 0, -1, err
	}
	n := h.Norm()
	if n == 0 {
		return 0, -1, kindErrorf(ErrOption, "margin: w is the zero vector, so there is no boundary")
	}
	margin, row = math.Inf(1), -1
	for i := 0; i < d.N(); i++ {
		x := d.Row(i)
		m := d.Y[i] * (dot(h.W, x) + h.B) / n
		if !directDistanceOK(h.W, x, m) {
			m = d.Y[i] * scaledDistance(h.W, h.B, x)
			if !isFinite(m) {
				return 0, -1, kindErrorf(ErrNonFinite, "margin: row %d: the margin of the point is %v, beyond the float64 range", i, m)
			}
		}
		if m < margin {
			margin, row = m, i
		}
	}
	return margin, row, nil
}

// distance returns (w·x + b)/||w|| for a non-zero w: the direct formula
// when no part of it overflows or underflows (bit for bit what it always
// was), else scaledDistance.
func distance(w []float64, b float64, x []float64) float64 {
	d := (dot(w, x) + b) / norm2(w)
	if directDistanceOK(w, x, d) {
		return d
	}
	return scaledDistance(w, b, x)
}

// directDistanceOK reports whether d, the direct (w·x + b)/||w||, can be
// trusted: finite, and no product w_j x_j of non-zero factors below 2^-969,
// where it would have lost bits to underflow (or become 0).
func directDistanceOK(w, x []float64, d float64) bool {
	if !isFinite(d) {
		return false
	}
	for j, v := range x {
		if p := math.Abs(w[j] * v); p < 0x1p-969 && w[j] != 0 && v != 0 {
			return false
		}
	}
	return true
}

// scaledDistance returns (w·x + b)/||w|| computed from every product w_j x_j
// and b split into a fraction and a power of 2 (math.Frexp, exact) and
// summed at the exponent of the largest, and ||w|| from w scaled by a power
// of 2, so that nothing overflows or underflows on the way: the answer is
// +Inf or 0 only when the distance itself is out of range. It is the
// fallback of distance and DatasetMargin.
func scaledDistance(w []float64, b float64, x []float64) float64 {
	s, top := scaledScore(w, b, x)
	if s == 0 {
		return 0
	}
	ew := maxExp(w)
	ws := make([]float64, len(w))
	for j, v := range w {
		ws[j] = math.Ldexp(v, -ew)
	}
	return math.Ldexp(s/norm2(ws), top-ew)
}

// maxExp returns the binary exponent e of the largest |v| (|v| < 2^e), or 0
// for a zero vector.
func maxExp(v []float64) int {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 || !isFinite(m) {
		return 0
	}
	_, e := math.Frexp(m)
	return e
}

// checkData checks that h's tie policy is known and that d is non-empty,
// finite, labelled -1/+1 and of h's dimension.
func (h Hyperplane) checkData(d *Dataset) error {
	if err := h.checkModel(); err != nil {
		return err
	}
	return checkScored(d, len(h.W))
}

// PredictAll returns the prediction h.Tie.Sign(w·x_i + b) of every row of d:
// 0 (an error for every label) where the score is NaN, and the sign
// computed without overflow where it is ±Inf (as Predict). Weights that
// are not finite are an ErrNonFinite error.
func (h Hyperplane) PredictAll(d *Dataset) ([]float64, error) {
	if err := h.checkData(d); err != nil {
		return nil, err
	}
	out := make([]float64, d.N())
	for i := range out {
		x := d.Row(i)
		out[i] = h.Tie.Sign(scoreSign(h.W, h.B, x, dot(h.W, x)+h.B))
	}
	return out, nil
}

// Errors returns the number of rows of d that h misclassifies under its tie
// policy h.Tie: the sum of the 0-1 loss. A row whose score is NaN (w·x
// overflowed) counts as an error, one whose score is ±Inf is judged by the
// sign computed without overflow (as Predict); weights that are not finite are an
// ErrNonFinite error, never a count.
func (h Hyperplane) Errors(d *Dataset) (int, error) {
	if err := h.checkData(d); err != nil {
		return 0, err
	}
	return countErrors(h.W, h.B, d, h.Tie), nil
}

// countErrors is Errors without the checks, for learners that have already
// validated d.
func countErrors(w []float64, b float64, d *Dataset, tie Tie) int {
	return countMistakes(w, b, d, tie) // the same count, four rows at a time
}

// ErrorRate returns the training (or test) error: the fraction of rows of d
// that h misclassifies, the mean 0-1 loss.
func (h Hyperplane) ErrorRate(d *Dataset) (float64, error) {
	e, err := h.Errors(d)
	if err != nil {
		return 0, err
	}
	return float64(e) / float64(d.N()), nil
}

// ZeroOneLoss returns 1 if the prediction p differs from the label y and 0
// otherwise. A prediction of 0 (an undecided tie) always costs 1.
func ZeroOneLoss(y, p float64) float64 {
	if p == y {
		return 0
	}
	return 1
}

// Theta returns θ = [b, w], the weights of the notational hack: θ·[1, x] =
// w·x + b.
func (h Hyperplane) Theta() []float64 {
	return append([]float64{h.B}, h.W...)
}

// FromTheta is the inverse of Theta: θ = [b, w] gives the hyperplane (w, b).
// θ must have at least two elements: b and one weight (a hyperplane without
// weights scores nothing, and Validate refuses it).
func FromTheta(theta []float64) (Hyperplane, error) {
	if len(theta) < 2 {
		return Hyperplane{}, kindErrorf(ErrDimension, "theta has %d elements: want [b, w...] with at least one weight", len(theta))
	}
	return Hyperplane{W: append([]float64(nil), theta[1:]...), B: theta[0]}, nil
}

// Augment returns the data set of the notational hack: every x becomes
// [1, x], so that a hyperplane through the origin in d+1 dimensions is a
// hyperplane with a bias in d dimensions. A nil or empty d gives an empty
// Dataset (every function of the package reports it as ErrEmpty).
func Augment(d *Dataset) *Dataset {
	n, c := d.N(), d.D()
	if n == 0 {
		return &Dataset{}
	}
	rows := make([]float64, 0, n*(c+1))
	for i := 0; i < n; i++ {
		rows = append(rows, 1)
		rows = append(rows, d.Row(i)...)
	}
	out := &Dataset{X: mat.NewDense(n, c+1, rows), Y: append([]float64(nil), d.Y...), Classes: d.Classes}
	if d.Features != nil {
		out.Features = append([]string{"x0 (constant 1)"}, d.Features...)
	}
	return out
}

// block is the number of rows that sweepPLA scores at a time (asm.Dot8Exact or
// dot8Fast).
const block = 8

// mistakeOrNaN is tie.Mistake(y, score) with a NaN score counted as a mistake.
func mistakeOrNaN(tie Tie, y, score float64) bool {
	return tie.Mistake(y, score) || math.IsNaN(score)
}

// countMistakes is countErrors (a NaN score counts as a mistake, a ±Inf
// one is judged by overflowSign) with the
// rows scored eight at a time by asm.Dot8Exact: the same scores, bit for bit,
// hence the same count, at the throughput of the CPU rather than the
// latency of one chain of adds.
func countMistakes(w []float64, b float64, d *Dataset, tie Tie) int {
	raw := d.X.RawMatrix()
	n, c, st, x := raw.Rows, raw.Cols, raw.Stride, raw.Data
	y := d.Y[:n]
	w = w[:c]
	e, i := 0, 0
	var o [block]int
	var s [block]float64
	for ; c > 0 && i+block <= n; i += block {
		for q := range o {
			o[q] = (i + q) * st
		}
		asm.Dot8Exact(w, x, &o, (i+block)*st, &s)
		for q, sq := range s {
			score := sq + b
			if math.IsInf(score, 0) { // rare: the row's slice only then
				score = overflowSign(w, b, x[(i+q)*st:(i+q)*st+c])
			}
			if mistakeOrNaN(tie, y[i+q], score) {
				e++
			}
		}
	}
	for ; i < n; i++ {
		xi := x[i*st : i*st+c]
		if mistakeOrNaN(tie, y[i], scoreSign(w, b, xi, dot(w, xi)+b)) {
			e++
		}
	}
	return e
}

func isZero(gw []float64, gb float64) bool {
	for _, v := range gw {
		if v != 0 {
			return false
		}
	}
	return gb == 0
}
