package figures

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// TrainingErrorTrace draws, after every update t of a run on n training
// points, the training error rate of PLA's current weights (errs[t-1]) and
// of the pocket (pocket[t-1]), as staircases: PLA's jumps, the pocket's
// only goes down. The dashed line is the noise rate, the error of the
// target itself.
func TrainingErrorTrace(errs, pocket []int, n int, noise float64, title string) (*plot.Plot, error) {
	if len(errs) == 0 || len(pocket) != len(errs) || n < 1 {
		return nil, fmt.Errorf("figures: %d PLA errors and %d pocket errors on %d points", len(errs), len(pocket), n)
	}
	rate := func(v []int) []float64 {
		r := make([]float64, len(v))
		for i, e := range v {
			r[i] = float64(e) / float64(n)
		}
		return r
	}
	p := plots.New(title, "update t", "training error rate")
	pla, err := plots.Steps(rate(errs))
	if err != nil {
		return nil, err
	}
	pla.Width = vg.Points(1)
	pk, err := plots.Steps(rate(pocket))
	if err != nil {
		return nil, err
	}
	pk.Color, pk.Width = plots.Color(1), vg.Points(2.5)
	floor, err := plots.Series([]float64{noise, noise})
	if err != nil {
		return nil, err
	}
	floor.XYs[1].X = float64(len(errs))
	floor.Color = plots.Black
	dash(&floor.LineStyle, 4, 3)
	floor.Width = vg.Points(1)
	p.Add(pla, pk, floor)
	p.Legend.Add("PLA's current w", pla)
	p.Legend.Add("pocket (best w so far)", pk)
	p.Legend.Add("label noise (the target's error)", floor)
	top := 0
	for _, e := range errs {
		top = max(top, e)
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = shortTicks, shortTicks
	p.X.Min, p.X.Max = 0, float64(len(errs))
	p.Y.Min, p.Y.Max = 0, 1.45*float64(top)/float64(n) // room for the legend
	return p, nil
}

// PocketVsLast draws one dot per run on one data set (named name): the
// test error of the pocket weights (x) against the test error of PLA's last
// weights (y), with the line y = x: a dot above it is a run where the
// pocket did better, a dot on it a tie.
func PocketVsLast(name string, pocket, last []float64) (*plot.Plot, error) {
	if len(pocket) != len(last) {
		return nil, fmt.Errorf("figures: %d pocket errors and %d last errors", len(pocket), len(last))
	}
	p := plots.New("Test error on "+name+": pocket against last weights", "test error of the pocket", "test error of the last weights")
	dots, err := plots.Scatter(pocket, last)
	if err != nil {
		return nil, err
	}
	dots.Radius = vg.Points(2.5)
	xhi, yhi, above, below := 0.0, 0.0, 0, 0
	for k := range pocket {
		xhi, yhi = max(xhi, pocket[k]), max(yhi, last[k])
		if last[k] > pocket[k] {
			above++
		} else if last[k] < pocket[k] {
			below++
		}
	}
	// Each axis fits its own errors (equal scales would stretch the pocket's
	// axis to the last weights' range and squeeze its dots into a corner);
	// the line of equal error is clipped to the plot. The top 25 % of the
	// height is left to the legend, above every dot.
	xhi, yhi = 1.1*xhi, 1.1*yhi
	id, err := plots.Identity(0, max(xhi, yhi))
	if err != nil {
		return nil, err
	}
	p.Add(dots, id)
	p.Legend.Add(fmt.Sprintf("one run (%d runs: pocket better in %d, worse in %d)", len(pocket), above, below), dots)
	p.Legend.Add("equal error", id)
	p.Legend.Left = true
	p.X.Tick.Marker, p.Y.Tick.Marker = shortTicks, shortTicks
	p.X.Min, p.X.Max = 0, xhi
	p.Y.Min, p.Y.Max = 0, yhi/0.75
	return p, nil
}

// lesson06Noisy is the noisy training set of the lesson's single run.
func lesson06Noisy() (*perceptron.Dataset, error) {
	d, _, err := perceptron.NoisyData(100, 2, 0, 0.1, 1)
	return d, err
}

// PocketCompare returns the test errors of the pocket and of the last
// weights of Pocket (MaxEpochs 20) for seeds 1..runs on two data sets:
// NoisyData(200, 2, 0, 0.1, seed) split in half, and the breast cancer data
// split 70/30 and standardised with a Scaler fitted on the training part.
func PocketCompare(runs int) (names []string, pocket, last [][]float64, err error) {
	names = []string{"synthetic data", "breast cancer"}
	pocket, last = make([][]float64, 2), make([][]float64, 2)
	bc, err := perceptron.BreastCancer().Binary(0, 1)
	if err != nil {
		return nil, nil, nil, err
	}
	opt := perceptron.Options{MaxEpochs: 20}
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.NoisyData(200, 2, 0, 0.1, seed)
		if err != nil {
			return nil, nil, nil, err
		}
		synTrain, synTest, err := perceptron.TrainTestSplit(d, 0.5, seed)
		if err != nil {
			return nil, nil, nil, err
		}
		bcTrain, bcTest, err := perceptron.TrainTestSplit(bc, 0.3, seed)
		if err != nil {
			return nil, nil, nil, err
		}
		sc, err := perceptron.FitScaler(bcTrain)
		if err != nil {
			return nil, nil, nil, err
		}
		if bcTrain, err = sc.Transform(bcTrain); err != nil {
			return nil, nil, nil, err
		}
		if bcTest, err = sc.Transform(bcTest); err != nil {
			return nil, nil, nil, err
		}
		for g, set := range [][2]*perceptron.Dataset{{synTrain, synTest}, {bcTrain, bcTest}} {
			res, err := perceptron.Pocket(set[0], opt)
			if err != nil {
				return nil, nil, nil, err
			}
			a, err := res.Hyperplane.ErrorRate(set[1])
			if err != nil {
				return nil, nil, nil, err
			}
			b, err := res.Last.ErrorRate(set[1])
			if err != nil {
				return nil, nil, nil, err
			}
			pocket[g] = append(pocket[g], a)
			last[g] = append(last[g], b)
		}
	}
	return names, pocket, last, nil
}

func init() {
	registerPlot("06_training_errors.png", func() (*plot.Plot, error) {
		d, err := lesson06Noisy()
		if err != nil {
			return nil, err
		}
		opt := perceptron.Options{MaxEpochs: 10}
		res, err := perceptron.Pocket(d, opt)
		if err != nil {
			return nil, err
		}
		errs := make([]int, len(res.History))
		pocket := make([]int, len(res.History))
		for k, h := range res.History {
			errs[k], pocket[k] = h.Errors, h.PocketErrors
		}
		return TrainingErrorTrace(errs, pocket, d.N(), 0.1, "PLA and the pocket on noisy data (100 points, 10% flipped)")
	})
	for g, file := range []string{"06_pocket_vs_last_synthetic.png", "06_pocket_vs_last_cancer.png"} {
		registerPlot(file, func() (*plot.Plot, error) {
			names, pocket, last, err := PocketCompare(100)
			if err != nil {
				return nil, err
			}
			return PocketVsLast(names[g], pocket[g], last[g])
		})
	}
}

// PocketLines draws the data d (columns 0 and 1) with two boundaries: the
// pocket's (solid) and PLA's last weights' (dashed), on equal scales, with
// the legend at the right of the data so that it covers no point.
func PocketLines(d *perceptron.Dataset, pocket, last perceptron.Hyperplane, title string) (*plot.Plot, error) {
	return boundariesFigure(d, title, nil, namedBoundary{"pocket weights", pocket, false}, namedBoundary{"last PLA weights", last, true})
}

// RandomMistakePocket is the pocket with the seed's pick rule (Learning
// From Data's PLA, and the NTU homework's "random" pocket): at each of at
// most updates updates it picks one of the rows that the current weights
// misclassify (y(w·x + b) <= 0) uniformly at random, with a PCG generator
// seeded by seed, updates w ← w + y x, b ← b + y, and pockets the new
// weights when they make strictly fewer training errors. It stops early
// when no row is misclassified. It returns the pocket and its errors.
func RandomMistakePocket(d *perceptron.Dataset, updates int, seed uint64) (pocket perceptron.Hyperplane, pocketErrors int, err error) {
	if d == nil || d.N() == 0 {
		return perceptron.Hyperplane{}, 0, fmt.Errorf("figures: random-mistake pocket: no data")
	}
	if updates < 0 {
		return perceptron.Hyperplane{}, 0, fmt.Errorf("figures: random-mistake pocket: %d updates, want >= 0", updates)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	cur := perceptron.Hyperplane{W: make([]float64, d.D())}
	pocket = perceptron.Hyperplane{W: make([]float64, d.D())}
	if pocketErrors, err = pocket.Errors(d); err != nil {
		return perceptron.Hyperplane{}, 0, err
	}
	for range updates {
		var mistakes []int
		for i := range d.N() {
			if d.Y[i]*(floats.Dot(cur.W, d.X.RawRowView(i))+cur.B) <= 0 {
				mistakes = append(mistakes, i)
			}
		}
		if len(mistakes) == 0 {
			break
		}
		i := mistakes[rng.IntN(len(mistakes))]
		floats.AddScaled(cur.W, d.Y[i], d.X.RawRowView(i))
		cur.B += d.Y[i]
		e, err := cur.Errors(d)
		if err != nil {
			return perceptron.Hyperplane{}, 0, err
		}
		if e < pocketErrors {
			pocket = perceptron.Hyperplane{W: slices.Clone(cur.W), B: cur.B}
			pocketErrors = e
		}
	}
	return pocket, pocketErrors, nil
}

// BestLine returns a line with the fewest training errors on 2-D data d
// (a score of 0 a mistake), by exhaustive search over the lines through two
// points moved a hair: a line with the fewest errors can be moved, without
// any point crossing it, until it passes through two points a and b, and
// when no third point lies on that line (points in general position), one
// of the four lines through a ± δu and b ± δu (u the unit normal of ab, δ a
// hair relative to the data's scale), in either orientation, puts a and b
// on the sides it had them and every other point where it was. All four
// placements of a and b are tried for every pair, whatever |ab|. It costs
// O(n³) and suits the lessons' 100 points. It is an error for d not to
// have 2 features.
func BestLine(d *perceptron.Dataset) (perceptron.Hyperplane, int, error) {
	if d == nil || d.N() < 2 || d.D() != 2 {
		return perceptron.Hyperplane{}, 0, fmt.Errorf("figures: BestLine needs 2-D data with at least 2 points")
	}
	best := perceptron.Hyperplane{W: []float64{0, 0}}
	bestErrors, err := best.Errors(d)
	if err != nil {
		return perceptron.Hyperplane{}, 0, err
	}
	scale := 0.0
	for i := range d.N() {
		for _, v := range d.Row(i) {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	delta := 1e-9 * math.Max(scale, 1)
	for i := range d.N() {
		for j := i + 1; j < d.N(); j++ {
			a, b := d.Row(i), d.Row(j)
			dx, dy := b[0]-a[0], b[1]-a[1]
			length := math.Hypot(dx, dy)
			if length == 0 {
				continue
			}
			ux, uy := -dy/length, dx/length // unit normal of ab
			for _, da := range []float64{-delta, delta} {
				for _, db := range []float64{-delta, delta} {
					// the line through a + da·u and b + db·u: a's score has the
					// sign of −da, b's of −db (times the orientation)
					pa := []float64{a[0] + da*ux, a[1] + da*uy}
					pb := []float64{b[0] + db*ux, b[1] + db*uy}
					w0, w1 := -(pb[1] - pa[1]), pb[0]-pa[0]
					for _, sign := range []float64{1, -1} {
						h := perceptron.Hyperplane{W: []float64{sign * w0, sign * w1}, B: -sign * (w0*pa[0] + w1*pa[1])}
						e, err := h.Errors(d)
						if err != nil {
							return perceptron.Hyperplane{}, 0, err
						}
						if e < bestErrors {
							best, bestErrors = h, e
						}
					}
				}
			}
		}
	}
	return best, bestErrors, nil
}

// Lesson06Budgets are the budgets of lesson 6's longer runs: epochs for the
// cyclic pocket, and the same multiples of 1000 updates for the random one.
var Lesson06Budgets = []int{10, 100, 1000}

// LongerPockets returns the pocket's training errors on d after longer and
// longer runs: cyclic (perceptron.Pocket, rows in order) after each of
// Lesson06Budgets epochs, and with a random mistake
// (RandomMistakePocket, seed 1) after 100 times as many updates.
func LongerPockets(d *perceptron.Dataset) (cyclic, random []int, err error) {
	for _, k := range Lesson06Budgets {
		res, err := perceptron.Pocket(d, perceptron.Options{MaxEpochs: k})
		if err != nil {
			return nil, nil, err
		}
		_, e, err := RandomMistakePocket(d, 100*k, 1)
		if err != nil {
			return nil, nil, err
		}
		cyclic, random = append(cyclic, res.PocketErrors), append(random, e)
	}
	return cyclic, random, nil
}
