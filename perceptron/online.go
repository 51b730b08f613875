package perceptron

import "math"

// Online is the perceptron as an online learner: it receives one point x at
// a time, predicts sign(w·x + b), observes the label y, pays one mistake if
// the prediction was wrong under the Tie policy, and then updates
// w ← w + η y x and b ← b + η y (b stays 0 with NoBias). It is the
// mistake-bound model of the convergence theorem: on a stream separable
// with margin γ inside a ball of radius R, Mistakes ≤ (R/γ)² however long
// the stream (with a bias, R and γ are those of the points [1, x] through
// the origin, as Bound computes them; with NoBias, of the points x).
//
// The fields may be read at any time; set Eta, Tie and NoBias before the
// first Step.
type Online struct {
	// W and B are the current weights.
	W []float64
	B float64
	// Eta is the learning rate η > 0; 0 means 1, as in Options.
	Eta float64
	// Tie says whether a score of 0 is a mistake.
	Tie Tie
	// NoBias fixes b = 0.
	NoBias bool
	// Mistakes counts the mistakes (hence the updates) so far and Seen the
	// points received.
	Mistakes, Seen int
}

// NewOnline returns an online perceptron for points of d features, with
// w = 0, b = 0 and learning rate eta (0 means 1, as in Options). It is an
// error for d to be < 1, for eta not to be 0 or a finite number > 0 (and
// not subnormal, as in Options), or for tie to be unknown.
func NewOnline(d int, eta float64, tie Tie) (*Online, error) {
	if d < 1 {
		return nil, kindErrorf(ErrOption, "online: dimension must be >= 1, got %d", d)
	}
	if err := checkGenerated("online", 1, d); err != nil {
		return nil, err
	}
	eta, err := learningRate(eta)
	if err != nil {
		return nil, err
	}
	if err := tie.valid(); err != nil {
		return nil, err
	}
	return &Online{W: make([]float64, d), Eta: eta, Tie: tie}, nil
}

// Step receives the point x, predicts, observes the label y and updates on a
// mistake; it reports whether the prediction was a mistake. A point of the
// wrong dimension, with a NaN or ±Inf, or a label other than -1/+1 is an
// error (the row named is the 0-based position of the point in the stream,
// Seen) and changes nothing. So are (ErrNonFinite) weights that are not
// finite, a score w·x + b that overflows, and an update that would make a
// weight overflow (Step then also reports the mistake): W, B, Mistakes and
// Seen stay as they were.
func (o *Online) Step(x []float64, y float64) (mistake bool, err error) {
	if o == nil || len(o.W) == 0 {
		return false, kindErrorf(ErrModel, "online: not initialised (nil, or no weights W): make one with NewOnline")
	}
	if err := checkPoint(x, len(o.W), o.Seen); err != nil {
		return false, err
	}
	if y != -1 && y != 1 {
		return false, kindErrorf(ErrLabel, "row %d: label %v is not -1 or +1", o.Seen, y)
	}
	if err := o.Tie.valid(); err != nil {
		return false, err
	}
	eta, err := learningRate(o.Eta)
	if err != nil {
		return false, err
	}
	if o.Seen == math.MaxInt {
		// 2^31 − 1 on a 32-bit platform (386), where Seen wrapped and the
		// errors named point −2147483647.
		return false, kindErrorf(ErrOption, "online: %d points seen, the largest int on this platform: start a new Online (a 64-bit build counts to 2^63 − 1)", o.Seen)
	}
	score := dot(o.W, x) + o.B
	if !isFinite(score) {
		if err := weightsError("online: the weights", o.W, o.B, func() string { return "(set by hand: Step never makes them so)" }); err != nil {
			return false, err
		}
		return false, nonFiniteError("online: the score w·x + b of point %d is %v with finite weights (overflow): the data or Eta is too large; scale the data or lower Eta", o.Seen, score)
	}
	if !o.Tie.Mistake(y, score) {
		o.Seen++
		return false, nil
	}
	step := float64(eta * y) // no FMA with B below
	// The update is checked before it is made: weights that overflow
	// are an error, as in PLA, and the learner stays as it was.
	for j, v := range x {
		if w := o.W[j] + float64(v*step); math.IsInf(w, 0) {
			return true, nonFiniteError("online: the update on point %d overflows w[%d] (%v + %v·%v): the data or Eta is too large; scale the data or lower Eta", o.Seen, j, o.W[j], step, v)
		}
	}
	if b := o.B + step; !o.NoBias && math.IsInf(b, 0) {
		return true, nonFiniteError("online: the update on point %d overflows b (%v + %v)", o.Seen, o.B, step)
	}
	for j, v := range x {
		o.W[j] += float64(v * step) // no FMA: the same rounding as PLA's update on every platform
	}
	if !o.NoBias {
		o.B += step
	}
	o.Seen++
	o.Mistakes++
	return true, nil
}

// Hyperplane returns a copy of the current weights (w, b); the zero
// Hyperplane for a nil Online.
func (o *Online) Hyperplane() Hyperplane {
	if o == nil {
		return Hyperplane{}
	}
	return Hyperplane{W: append([]float64(nil), o.W...), B: o.B, Tie: o.Tie}
}
