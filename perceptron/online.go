package perceptron

// Online is the perceptron as an online learner: it receives one point x at
// a time, predicts sign(w·x + b), observes the label y, pays one mistake if
// the prediction was wrong under the Tie policy, and then updates
// w ← w + η y x and b ← b + η y (b stays 0 with NoBias). It is the mistake-
// bound model of the convergence theorem: on a stream separable with margin
// γ inside a ball of radius R, Mistakes ≤ (R/γ)² however long the stream.
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
// Seen) and changes nothing.
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
	o.Seen++
	if !o.Tie.Mistake(y, dot(o.W, x)+o.B) {
		return false, nil
	}
	step := float64(eta * y) // no FMA with B below
	for j, v := range x {
		o.W[j] += float64(v * step) // no FMA: the same rounding as PLA's update on every platform
	}
	if !o.NoBias {
		o.B += step
	}
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
