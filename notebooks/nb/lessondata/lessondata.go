// Package lessondata holds the lessons' own small data sets and the few
// computations that both a lesson's cells and its figures use. It imports
// only package perceptron, on purpose: GoNB links every cell into a program
// of its own, and a cell that needs a lesson's data but draws nothing
// should not link gonum/plot (package figures, which draws, imports this
// one).
package lessondata

import (
	"fmt"
	"math"

	"github.com/perceptron-go/lessons/perceptron"
)

// IrisData returns the data of lessons 0 and 4: Fisher's iris flowers,
// setosa (y = -1) against versicolor (y = +1), on sepal length and petal
// length (cm): 100 flowers.
func IrisData() (*perceptron.Dataset, error) {
	return perceptron.Iris().Binary(0, 1, 0, 2)
}

// Lesson01Rule returns lesson 1's two-feature bank: the hidden rule of
// CreditApplicants at a typical age (46) and years in job (5), a score of
// salary and debt alone: 0.05·salary − 0.1·debt − 1.1.
func Lesson01Rule() perceptron.Hyperplane {
	return perceptron.Hyperplane{W: []float64{0.05, -0.1}, B: -1.1}
}

// Lesson01Data returns lesson 1's applicants: the salary and debt of
// CreditApplicants(15, 0, 2), each labelled by the decision of lesson 1's
// two-feature bank, 0.05·salary − 0.1·debt − 1.1 (Lesson01Rule).
func Lesson01Data() (*perceptron.Dataset, error) {
	return bankData(15, 2, []int{1, 3}, []string{"salary (k$)", "debt (k$)"}, Lesson01Rule())
}

// Lesson02Rule returns lesson 2's bank: approve when salary > 40 k$,
// h(x) = sign(x − 40).
func Lesson02Rule() perceptron.Hyperplane {
	return perceptron.Hyperplane{W: []float64{1}, B: -40}
}

// Lesson02Data returns lesson 2's applicants: the salary of
// CreditApplicants(20, 0, 3), each labelled by lesson 2's bank, approve
// when salary > 40 k$ (Lesson02Rule).
func Lesson02Data() (*perceptron.Dataset, error) {
	return bankData(20, 3, []int{1}, []string{"salary (k$)"}, Lesson02Rule())
}

// bankData returns the given feature columns of CreditApplicants(n, 0,
// seed), named names, with each applicant labelled by rule's decision
// instead of the hidden one: a smaller bank for a figure.
func bankData(n int, seed uint64, cols []int, names []string, rule perceptron.Hyperplane) (*perceptron.Dataset, error) {
	all, _, err := perceptron.CreditApplicants(n, 0, seed)
	if err != nil {
		return nil, err
	}
	x := make([][]float64, all.N())
	y := make([]float64, all.N())
	for i := range x {
		for _, c := range cols {
			x[i] = append(x[i], all.X.At(i, c))
		}
		if y[i], err = rule.Predict(x[i]); err != nil {
			return nil, err
		}
	}
	d, err := perceptron.NewDataset(x, y)
	if err != nil {
		return nil, err
	}
	d.Features = names
	d.Classes = all.Classes
	return d, nil
}

// CumulativeMistakes runs a fresh online perceptron (η = 1, w = 0, b = 0,
// TieMistake) over the rows of d in order, each received once, and returns
// the number of mistakes after each point.
func CumulativeMistakes(d *perceptron.Dataset) ([]float64, error) {
	o, err := perceptron.NewOnline(d.D(), 1, perceptron.TieMistake)
	if err != nil {
		return nil, err
	}
	out := make([]float64, d.N())
	for i := range out {
		if _, err := o.Step(d.Row(i), d.Y[i]); err != nil {
			return nil, err
		}
		out[i] = float64(o.Mistakes)
	}
	return out, nil
}

// AtThreshold rescales h so that its threshold is t > 0: the hyperplane
// (t/(−b))·(w, b), whose rule reads "approve when w·x > t". It has the same
// predictions as h. It is an error for b not to be negative.
func AtThreshold(h perceptron.Hyperplane, t float64) (perceptron.Hyperplane, error) {
	if !(h.B < 0) || !(t > 0) {
		return perceptron.Hyperplane{}, fmt.Errorf("lessondata: AtThreshold needs b < 0 and t > 0, got b = %v, t = %v", h.B, t)
	}
	c := t / -h.B
	w := make([]float64, len(h.W))
	for j, v := range h.W {
		w[j] = c * v
	}
	return perceptron.Hyperplane{W: w, B: -t}, nil
}

// Parting compares two PLA runs on the same data and options that differ
// only in the learning rate: one at η = 1, one at another η. In exact
// arithmetic, from w = 0, b = 0, the second run makes the same updates with
// η times the weights. In floating point the two can part, but only where
// a score of the η = 1 run lies within rounding of 0, where rounding
// decides the sign.
type Parting struct {
	// Shared is the number of updates made alike by both runs (the same
	// rows, in the same order).
	Shared int
	// Parted reports whether the runs part: an update Shared+1 made by only
	// one of them, or on different rows.
	Parted bool
	// Row is the row whose score, at the weights both runs shared, is
	// nearest 0 relative to its size (-1 if the runs do not part).
	Row int
	// Score is that score at η = 1, and Relative is |Score| divided by
	// Σ_j |w_j x_j| + |b|, the size of the terms it sums (1 if all are 0).
	Score, Relative float64
	// One and Other are the two runs' results.
	One, Other *perceptron.Result
}

// EtaParting runs PLA on d with opt at η = 1 and at eta, records every
// update of both, and reports where they part (see Parting). A check of
// "η changes no update" holds exactly when either the runs do not part or
// Relative is at rounding level.
func EtaParting(d *perceptron.Dataset, opt perceptron.Options, eta float64) (Parting, error) {
	var rec1, rec2 perceptron.Recorder
	opt.Eta, opt.Control.Observer = 1, rec1.Observe
	one, err := perceptron.PLA(d, opt)
	if err != nil {
		return Parting{}, err
	}
	opt.Eta, opt.Control.Observer = eta, rec2.Observe
	other, err := perceptron.PLA(d, opt)
	if err != nil {
		return Parting{}, err
	}
	p := Parting{Row: -1, One: one, Other: other}
	u1, u2 := rec1.Updates, rec2.Updates
	for p.Shared < min(len(u1), len(u2)) && u1[p.Shared].Row == u2[p.Shared].Row {
		p.Shared++
	}
	if p.Parted = p.Shared < max(len(u1), len(u2)); !p.Parted {
		return p, nil
	}
	w, b := make([]float64, d.D()), 0.0
	if p.Shared > 0 {
		w, b = u1[p.Shared-1].W, u1[p.Shared-1].B
	}
	p.Relative = math.Inf(1)
	for i := range d.N() {
		s, size := b, math.Abs(b)
		for j, x := range d.Row(i) {
			s += w[j] * x
			size += math.Abs(w[j] * x)
		}
		rel := 1.0
		if size > 0 {
			rel = math.Abs(s) / size
		}
		if rel < p.Relative {
			p.Row, p.Score, p.Relative = i, s, rel
		}
	}
	return p, nil
}

// RecencyErrors measures the online perceptron's bias towards its recent
// mistakes. For seeds 1..runs it draws SeparableData(500, 2, 0.05, seed),
// flips every fifth label (rows 0, 5, 10, ...) in the first half of the
// stream (early) or in the second half (late), runs a fresh online
// perceptron (η = 1) over the stream once, and returns the mean error rate
// of its final weights on the stream's true labels.
func RecencyErrors(runs int) (early, late float64, err error) {
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.SeparableData(500, 2, 0.05, seed)
		if err != nil {
			return 0, 0, err
		}
		for _, isLate := range []bool{false, true} {
			o, err := perceptron.NewOnline(d.D(), 1, perceptron.TieMistake)
			if err != nil {
				return 0, 0, err
			}
			for i := range d.N() {
				y := d.Y[i]
				if i%5 == 0 && (i >= d.N()/2) == isLate {
					y = -y
				}
				if _, err := o.Step(d.Row(i), y); err != nil {
					return 0, 0, err
				}
			}
			e, err := o.Hyperplane().ErrorRate(d)
			if err != nil {
				return 0, 0, err
			}
			if isLate {
				late += e / float64(runs)
			} else {
				early += e / float64(runs)
			}
		}
	}
	return early, late, nil
}
