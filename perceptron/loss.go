package perceptron

import (
	"context"
	"fmt"
	"math"
)

// Loss returns the perceptron criterion of h on d,
//
//	L(w, b) = -Σ_{i: y_i(w·x_i + b) ≤ 0} y_i (w·x_i + b) = Σ_i max(0, -y_i(w·x_i + b)),
//
// the sum of how far every misclassified point is on the wrong side, each
// distance -y_i(w·x_i + b)/||w|| multiplied by ||w||. It is 0 exactly when
// no score is negative for its label, and it is also 0 at w = 0, b = 0,
// which is why the perceptron is never started by minimising it alone. A score that is not finite (w·x + b
// overflowed) or a loss that overflows is an ErrNonFinite error naming the
// row, never a loss of 0.
func Loss(h Hyperplane, d *Dataset) (float64, error) {
	if err := h.checkData(d); err != nil {
		return 0, err
	}
	p, _ := scorePoint(nil, h.W, h.B, d, nil)
	if i := p.bad; i >= 0 {
		return 0, kindErrorf(ErrNonFinite, "loss: row %d: the score w·x + b is %v (overflow)", i, dot(h.W, d.Row(i))+h.B)
	}
	if math.IsInf(p.loss, 0) {
		return 0, kindErrorf(ErrNonFinite, "loss: the sum overflows to %v", p.loss)
	}
	return p.loss, nil
}

// point is what one pass over the data finds at (w, b): the loss, and the
// subgradient's bias part and mistakes when the pass also fills one.
type point struct {
	loss     float64
	gb       float64
	mistakes int
	// bad is the first row whose score is NaN or ±Inf (the pass ends
	// there, its sums unfinished), or -1.
	bad int
}

// scorePoint scores every row of d at (w, b) once, for the loss there and,
// when gw is not nil, the subgradient −Σ y x over the rows with
// y(w·x + b) ≤ 0 (into gw; its bias part is gb):
// the descents' one pass a point, where the score check, the loss and the
// gradient read the data three times, and their Context looked only
// between steps. The sums run in row order, as the three passes summed,
// so the path is bit for bit what it was. A
// Context that is not nil is asked every ctxCheckValues values read; when
// it is done the pass ends with stopped true and its sums unfinished.
func scorePoint(gw, w []float64, b float64, d *Dataset, ctx context.Context) (p point, stopped bool) {
	for j := range gw {
		gw[j] = 0
	}
	p.bad = -1
	work := 0
	for i := 0; i < d.N(); i++ {
		x, y := d.Row(i), d.Y[i]
		if ctx != nil {
			if work += len(x); work >= ctxCheckValues {
				work = 0
				if ctx.Err() != nil {
					return p, true
				}
			}
		}
		s := dot(w, x) + b
		if !isFinite(s) {
			p.bad = i
			return p, false
		}
		if m := float64(y * s); !(m > 0) { // no FMA in l -= m
			p.loss -= m
			if gw != nil {
				for j, v := range x {
					gw[j] -= float64(y * v)
				}
				p.gb -= y
			}
			p.mistakes++
		}
	}
	return p, false
}

// LossGradient returns a subgradient of Loss at h,
//
//	∂L/∂w = -Σ_{i: y_i(w·x_i + b) ≤ 0} y_i x_i,   ∂L/∂b = -Σ_{same i} y_i.
//
// At a point with score exactly 0 the loss has a kink and any multiple
// t·(-y x), 0 ≤ t ≤ 1, is a subgradient; LossGradient takes t = 1 (the row
// counts as a mistake, as in PLA with TieMistake), so that the gradient at
// w = 0 is not 0 and a step of size η from w = 0 is PLA's batch update.
// A score that is not finite, or a gradient that overflows, is an
// ErrNonFinite error naming the row.
func LossGradient(h Hyperplane, d *Dataset) (gw []float64, gb float64, err error) {
	if err := h.checkData(d); err != nil {
		return nil, 0, err
	}
	gw = make([]float64, d.D())
	p, _ := scorePoint(gw, h.W, h.B, d, nil)
	if i := p.bad; i >= 0 {
		return nil, 0, kindErrorf(ErrNonFinite, "loss gradient: row %d: the score w·x + b is %v (overflow)", i, dot(h.W, d.Row(i))+h.B)
	}
	gb = p.gb
	if j := firstNonFinite(gw); j >= 0 || math.IsInf(gb, 0) {
		return nil, 0, kindErrorf(ErrNonFinite, "loss gradient: the sum overflows")
	}
	return gw, gb, nil
}

// GDOptions are the hyper-parameters of GradientDescent and SGD. As with
// Options, the zero value is the default: η = 1 (Eta 0), at most 1000 steps
// (Steps 0), seed 0, a free bias, a start at w = 0, b = 0. Set only the
// fields you change.
type GDOptions struct {
	// Eta is the step size η > 0; 0 means 1. It follows the rule of
	// Options.Eta.
	Eta float64
	// Steps is the most steps (> 0; 0 means 1000): full-batch steps for
	// GradientDescent, single-row steps for SGD.
	Steps int
	// Seed seeds SGD's permutations (GradientDescent does not use it).
	Seed uint64
	// NoBias fixes b = 0 (b keeps Init.B, normally 0).
	NoBias bool
	// Init is the starting point; W nil means w = 0 (and b = Init.B), so
	// its zero value is w = 0, b = 0. Its Tie is checked (an unknown
	// policy is ErrOption) but not read: the loss counts a score of 0 a
	// mistake, and the result predicts with TieMistake.
	Init Hyperplane
	// Context, if not nil, stops the run when it is done, as
	// Options.Control.Context stops the batch learners: asked before
	// every step and every 2^18 values read in a step's pass over the
	// data, it ends the run with the path so far (a step it cuts short is
	// taken back) and an error that matches ErrStopped and the context's
	// error.
	Context context.Context
}

// defaultGDSteps is the step budget that a zero GDOptions.Steps stands for.
const defaultGDSteps = 1000

// GDResult is what GradientDescent or SGD learned and the way there.
type GDResult struct {
	// Hyperplane holds the final w and b.
	Hyperplane
	// Path holds (w, b) at the start and after every step. A run that
	// ends with an ErrNonFinite error holds the path up to the last point
	// whose loss is finite; the Hyperplane is where it stopped.
	Path []Hyperplane
	// Losses[k] is Loss(Path[k]) on the whole data set, always finite:
	// a point whose score or loss is not (w·x + b overflowed) ends the
	// run with an ErrNonFinite error naming the row and the step.
	Losses []float64
	// Steps is the number of steps made (len(Path) - 1 when the run ends
	// without an ErrNonFinite error).
	Steps int
	// Stats is what the run did, read as for the other learners. Updates
	// counts the steps taken on a subgradient that is not 0 (for SGD a
	// mistake, as PLA counts them), even where rounding leaves the weights
	// as they were (w − η·1e-300 is w), Epochs the passes over
	// the data (for GradientDescent one a step and, when Converged, the
	// clean pass that found no mistake, as PLA counts it; for SGD the
	// epochs begun),
	// UpdateRuns the updates of every epoch and LastMistakeRow the row of
	// SGD's last update (-1 for GradientDescent, whose steps sum over
	// rows). Converged reports whether the final weights make no mistake,
	// y(w·x + b) > 0 for every row; it is never true with weights that are
	// not finite: those end the run with an ErrNonFinite error.
	Stats
}

var _ Model = (*GDResult)(nil)

// model is the learned hyperplane, or for a nil result a Model whose every
// answer is an ErrModel error (see nilModel).
func (r *GDResult) model() validModel {
	if r == nil {
		return nilModel{"*GDResult", "GradientDescent or SGD"}
	}
	return &r.Hyperplane
}

// Validate is the hyperplane's Validate, and for a nil result an ErrModel
// error (as its other methods answer).
func (r *GDResult) Validate() error { return r.model().Validate() }

// Dim is the number of features d the hyperplane expects (0 for a nil result).
func (r *GDResult) Dim() int { return r.model().Dim() }

// Score returns w·x + b of the learned hyperplane (see Hyperplane.Score).
func (r *GDResult) Score(x []float64) (float64, error) { return r.model().Score(x) }

// Predict returns the label of x (see Hyperplane.Predict).
func (r *GDResult) Predict(x []float64) (float64, error) { return r.model().Predict(x) }

// PredictAll returns Predict of every row of d.
func (r *GDResult) PredictAll(d *Dataset) ([]float64, error) { return r.model().PredictAll(d) }

// Errors returns the number of rows of d the learned hyperplane misclassifies.
func (r *GDResult) Errors(d *Dataset) (int, error) { return r.model().Errors(d) }

// ErrorRate returns Errors divided by the number of rows of d.
func (r *GDResult) ErrorRate(d *Dataset) (float64, error) { return r.model().ErrorRate(d) }

// start validates d and opt, puts the defaults in place of the zero Eta and
// Steps, and returns the starting weights.
func (opt *GDOptions) start(d *Dataset) (w []float64, b float64, err error) {
	eta, err := learningRate(opt.Eta)
	if err != nil {
		return nil, 0, err
	}
	opt.Eta = eta
	if opt.Steps == 0 {
		opt.Steps = defaultGDSteps
	}
	if opt.Steps < 0 {
		return nil, 0, kindErrorf(ErrOption, "Steps must be > 0 (0 means 1000), got %d", opt.Steps)
	}
	// A done Context skips the rest of the finiteness scan (the start's
	// record then meets a non-finite row as a non-finite score), and the
	// run stops before its first step.
	if err := checkTrainCtx(d, Options{Control: Control{Context: opt.Context}}); err != nil {
		return nil, 0, err
	}
	w = make([]float64, d.D())
	if err := opt.Init.Tie.valid(); err != nil {
		// Not read, but a value no policy has is a mistake of the
		// caller's (helper-70: Tie 9 passed unseen).
		return nil, 0, wrapf(err, "Init")
	}
	if !isFinite(opt.Init.B) {
		return nil, 0, kindErrorf(ErrNonFinite, "Init: bias is %v", opt.Init.B)
	}
	if opt.Init.W == nil {
		return w, opt.Init.B, nil // w = 0, b = Init.B
	}
	if len(opt.Init.W) != d.D() {
		return nil, 0, kindErrorf(ErrDimension, "wrong dimension: Init has %d weights, the data has %d features", len(opt.Init.W), d.D())
	}
	for j, v := range opt.Init.W {
		if !isFinite(v) {
			return nil, 0, kindErrorf(ErrNonFinite, "Init: weight %d is %v", j, v)
		}
	}
	copy(w, opt.Init.W)
	return w, opt.Init.B, nil
}

// stopped returns an ErrStopped error when opt.Context is done, before
// step steps+1.
func (opt *GDOptions) stopped(steps int) error {
	if why := ctxStopped(opt.Context); why != nil {
		return causeErrorf([]error{ErrStopped, why}, "stopped after %d steps, before convergence: %v", steps, why)
	}
	return nil
}

// record appends (w, b) and its loss, found by the pass p at that point,
// to the path; a score or a loss that is not finite is an ErrNonFinite
// error (at names the point: "at the start", "after step 3"), and nothing
// is appended.
func (g *GDResult) record(w []float64, b float64, p point, d *Dataset, at func() string) error {
	if i := p.bad; i >= 0 {
		// A row not finite itself (unread by a start that a done Context
		// cut short) is named as such, not as an overflow (helper-64).
		if err := checkFinite(d.Row(i), i); err != nil {
			return err
		}
		return kindErrorf(ErrNonFinite, "%s: row %d: the score w·x + b is %v (overflow): the data, Init or Eta are too large; scale the data or lower Eta", at(), i, dot(w, d.Row(i))+b)
	}
	if !isFinite(p.loss) {
		return kindErrorf(ErrNonFinite, "%s: the loss overflows to %v: the data, Init or Eta are too large; scale the data or lower Eta", at(), p.loss)
	}
	g.add(w, b, p.loss)
	return nil
}

// add appends a copy of (w, b) and its loss to the path.
func (g *GDResult) add(w []float64, b, loss float64) {
	g.Path = append(g.Path, Hyperplane{W: append([]float64(nil), w...), B: b})
	g.Losses = append(g.Losses, loss)
}

// atStart and afterStep name a point of a descent's path in its errors.
func atStart() string { return "at the start" }

func afterStep(k int) func() string { return func() string { return fmt.Sprintf("after step %d", k) } }

// GradientDescent minimises Loss by full-batch subgradient descent from
// opt.Init: w ← w - η ∂L/∂w and b ← b - η ∂L/∂b (b fixed with NoBias), that
// is w ← w + η Σ_{mistakes} y x, the batch perceptron. It stops after
// opt.Steps steps or as soon as the gradient is 0: when no row has
// y(w·x + b) ≤ 0 (Converged), or when the mistakes' contributions cancel,
// where the descent is stuck. Every step costs one O(n·d) pass over the
// data, which scores every row once for the new point's loss and the
// gradient there. Weights that become NaN or ±Inf (η or the data
// too large), and a score or a loss that overflows where Init or a step
// leads, end the run with an ErrNonFinite error naming the step (and the
// row), and the path so far; so does a done opt.Context, with an
// ErrStopped error.
func GradientDescent(d *Dataset, opt GDOptions) (*GDResult, error) {
	w, b, err := opt.start(d)
	if err != nil {
		return nil, err
	}
	g := &GDResult{Stats: Stats{LastMistakeRow: -1}}
	// One pass a point gives its loss and its gradient. The start's reads
	// every row whatever the Context, so that it names a NaN row that a
	// done Context left unchecked; a later pass that the Context stops
	// leaves its point out, and the run ends on the last point recorded.
	gw := make([]float64, len(w))
	p, _ := scorePoint(gw, w, b, d, nil)
	if err := g.record(w, b, p, d, atStart); err != nil {
		g.Hyperplane = Hyperplane{W: w, B: b}
		return g, err
	}
	next := make([]float64, len(w))
	for {
		if err := opt.stopped(g.Steps); err != nil {
			g.Hyperplane = Hyperplane{W: w, B: b}
			return g, err
		}
		gb := p.gb
		if opt.NoBias {
			gb = 0
		}
		if p.mistakes == 0 {
			// The clean pass is an epoch of no update, as PLA counts it
			// (Stats: "the clean one included"; it was left out,
			// helper-62).
			g.Converged = true
			g.Epochs++
			g.UpdateRuns.add(0)
			break
		}
		if g.Steps == opt.Steps || isZero(gw, gb) {
			break
		}
		for j, v := range gw {
			next[j] = w[j] - float64(opt.Eta*v) // no FMA: the same rounding on every platform
		}
		nb := b - float64(opt.Eta*gb)
		if err := weightsError("the weights", next, nb, func() string { return fmt.Sprintf("at step %d", g.Steps+1) }); err != nil {
			g.step()
			g.Hyperplane = Hyperplane{W: next, B: nb}
			return g, err
		}
		var stopped bool
		if p, stopped = scorePoint(gw, next, nb, d, opt.Context); stopped {
			g.Hyperplane = Hyperplane{W: w, B: b}
			return g, opt.stopped(g.Steps)
		}
		g.step()
		w, next, b = next, w, nb
		if err := g.record(w, b, p, d, afterStep(g.Steps)); err != nil {
			g.Hyperplane = Hyperplane{W: w, B: b}
			return g, err
		}
	}
	g.Hyperplane = Hyperplane{W: w, B: b}
	return g, nil
}

// step counts one step of GradientDescent.
func (g *GDResult) step() {
	g.Steps++
	g.Updates++
	g.Epochs++
	g.UpdateRuns.add(1)
}

// SGD minimises Loss by stochastic subgradient descent from opt.Init: each
// step takes one row and moves against the subgradient of that row's term,
// w ← w + η y x and b ← b + η y if y(w·x + b) ≤ 0, and nothing otherwise.
// The rows are visited in a fresh random permutation every epoch, drawn from
// opt.Seed exactly as PLA's Shuffle order draws them, so that from w = 0 SGD
// makes exactly the updates of PLA with Order Shuffle, TieMistake and the
// same Seed and Eta. It stops after opt.Steps single-row steps or after an
// epoch without a mistake (Converged). Path records every step, updates or
// not: a step that updates costs an O(n·d) pass for its loss, one that
// does not records the point before it again.
// Weights that become NaN or ±Inf, and a score or a loss that overflows
// (every point of the path is scored whole), end the run with an
// ErrNonFinite error naming where, and the path so far, as PLA stops on a
// score that overflows; so does a done opt.Context, with an ErrStopped
// error.
func SGD(d *Dataset, opt GDOptions) (*GDResult, error) {
	w, b, err := opt.start(d)
	if err != nil {
		return nil, err
	}
	g := &GDResult{Stats: Stats{LastMistakeRow: -1}}
	p, _ := scorePoint(nil, w, b, d, nil) // every row, as GradientDescent's start
	if err := g.record(w, b, p, d, atStart); err != nil {
		g.Hyperplane = Hyperplane{W: w, B: b}
		return g, err
	}
	// A step without an update records the point before it again, with
	// its loss; a step with one scores the new point in one pass, and a
	// Context done during that pass ends the run on the point before it
	// (prev), the last recorded.
	prev := make([]float64, len(w))
	r := newRun(d, Options{Order: Shuffle, Seed: opt.Seed})
	for epoch := 0; g.Steps < opt.Steps; epoch++ {
		r.shuffle()
		g.Epochs++
		mistakes, full := 0, true
		for _, i := range r.perm {
			if g.Steps == opt.Steps {
				full = false
				break
			}
			if err := opt.stopped(g.Steps); err != nil {
				g.UpdateRuns.add(mistakes)
				g.Hyperplane = Hyperplane{W: w, B: b}
				return g, err
			}
			x, y := d.Row(i), d.Y[i]
			if y*(dot(w, x)+b) > 0 {
				g.Steps++
				g.add(w, b, p.loss)
				continue
			}
			// The row's subgradient is -y x (and -y for b); the
			// conversion forbids an FMA, as in PLA's update.
			copy(prev, w)
			prevB := b
			for j, v := range x {
				w[j] -= float64(opt.Eta * (-y * v))
			}
			if !opt.NoBias {
				b -= float64(opt.Eta * (-y))
			}
			err := checkWeights("the weights", w, b, i, epoch)
			if err == nil {
				var stopped bool
				if p, stopped = scorePoint(nil, w, b, d, opt.Context); stopped {
					g.UpdateRuns.add(mistakes)
					g.Hyperplane = Hyperplane{W: prev, B: prevB}
					return g, opt.stopped(g.Steps)
				}
			}
			mistakes++
			g.Updates++
			g.LastMistakeRow = i
			g.Steps++
			if err == nil {
				err = g.record(w, b, p, d, afterStep(g.Steps))
			}
			if err != nil {
				g.UpdateRuns.add(mistakes)
				g.Hyperplane = Hyperplane{W: w, B: b}
				return g, err
			}
		}
		g.UpdateRuns.add(mistakes)
		if full && mistakes == 0 {
			g.Converged = true
			break
		}
	}
	if !g.Converged {
		end, _ := scorePoint(nil, w, b, d, nil)
		g.Converged = end.mistakes == 0 && end.bad < 0
	}
	g.Hyperplane = Hyperplane{W: w, B: b}
	return g, nil
}
