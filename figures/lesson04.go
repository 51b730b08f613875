package figures

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// EpochUpdates draws the updates PLA made in each epoch of a run, one bar
// per epoch (0-based), the clean last epoch included.
func EpochUpdates(res *perceptron.Result, title string) (*plot.Plot, error) {
	return EpochBars(res.UpdatesPerEpoch(), title)
}

// EpochBars draws perEpoch[e], the updates of epoch e, as one bar per epoch
// (0-based): EpochUpdates for a run given by its counts alone, such as the
// one a student's own batch PLA returns in lesson 4.
func EpochBars(perEpoch []int, title string) (*plot.Plot, error) {
	p := plots.New(title, "epoch (pass over the data)", "updates in the epoch")
	bars, err := plots.Bars(plots.Ints(perEpoch), vg.Points(24))
	if err != nil {
		return nil, err
	}
	p.Add(bars)
	top, total := 0, 0
	for _, u := range perEpoch {
		top = max(top, u)
		total += u
	}
	p.Legend.Add(fmt.Sprintf("updates (%d in all)", total), bars)
	names := make([]string, len(perEpoch))
	for e := range names {
		names[e] = fmt.Sprint(e)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.7, float64(len(perEpoch))-0.3
	p.Y.Min, p.Y.Max = 0, 1.35*float64(max(top, 1)) // room for the legend
	if top <= 12 {                                  // few updates: label every whole number (the default gives 0, 2, 4)
		var ticks []plot.Tick
		for u := 0; float64(u) <= p.Y.Max; u++ {
			ticks = append(ticks, plot.Tick{Value: float64(u), Label: strconv.Itoa(u)})
		}
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	}
	// An epoch without an update is a bar of height 0, which shows nothing:
	// mark each one with a dot on the axis and a label.
	var clean, above plotter.XYs
	var labels []string
	for e, u := range perEpoch {
		if u == 0 {
			clean = append(clean, plotter.XY{X: float64(e), Y: 0.05 * p.Y.Max})
			above = append(above, plotter.XY{X: float64(e), Y: 0.1 * p.Y.Max})
			labels = append(labels, "clean: 0")
		}
	}
	if len(clean) > 0 {
		dots, err := mark(dot, 4, plots.Color(0), clean...)
		if err != nil {
			return nil, err
		}
		names, err := plotter.NewLabels(plotter.XYLabels{XYs: above, Labels: labels})
		if err != nil {
			return nil, err
		}
		for k := range names.TextStyle {
			names.TextStyle[k].XAlign = -0.5 // centred over the epoch
		}
		p.Add(dots, names)
		p.Legend.Add("an epoch with no update", dots)
	}
	return p, nil
}

// LFDOrders draws, for every run of two LFD experiments made with the same
// seed and n (so on the same data sets), the updates of the cyclic pick (x)
// against the updates of the random-mistake pick (y), on log-log axes,
// with the line y = x: a point off the line is a data set on which the pick
// rule changed the number of updates. Both axes span the same decades, so
// y = x is the diagonal of the plot.
//
// The axes are linear in log10(updates), labelled 1, 10, 100, …: gonum/plot
// places the glyph box of a LogScale axis label at the linear midpoint of
// the range, which makes it shrink the data area.
func LFDOrders(cyclic, mistake perceptron.LFDSummary) (*plot.Plot, error) {
	if len(cyclic.Updates) != len(mistake.Updates) || cyclic.N != mistake.N {
		return nil, fmt.Errorf("figures: LFD experiments of %d and %d runs, n = %d and %d", len(cyclic.Updates), len(mistake.Updates), cyclic.N, mistake.N)
	}
	p := plots.New(fmt.Sprintf("PLA on the same %d data sets (N = %d), two pick rules", len(cyclic.Updates), cyclic.N),
		"updates, cyclic pick", "updates, random-mistake pick")
	xs, ys := plots.Ints(cyclic.Updates), plots.Ints(mistake.Updates)
	hi := 1.0
	for k := range xs {
		if xs[k] < 1 || ys[k] < 1 {
			return nil, fmt.Errorf("figures: run %d made %v and %v updates; a log axis needs at least 1", k, xs[k], ys[k])
		}
		hi = max(hi, xs[k], ys[k])
		xs[k], ys[k] = math.Log10(xs[k]), math.Log10(ys[k])
	}
	dots, err := plots.Scatter(xs, ys)
	if err != nil {
		return nil, err
	}
	dots.GlyphStyle.Radius = vg.Points(1.5)
	top := math.Log10(2 * hi)
	id, err := plots.Identity(0, top)
	if err != nil {
		return nil, err
	}
	p.Add(dots, id)
	p.Legend.Add("one data set", dots)
	p.Legend.Add("y = x: as many updates", id)
	p.Legend.Top, p.Legend.Left = false, false
	p.X.Tick.Marker, p.Y.Tick.Marker = decades{}, decades{}
	// Both axes span the same decades, 1 to twice the largest count, so
	// y = x runs corner to corner and no room is left empty; the legend
	// sits at the lower right, where y is far below x and no data set is.
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, top, 0, top
	return p, nil
}

// decades ticks an axis that shows log10 of a quantity: a labelled tick
// at every whole number k (labelled 10^k: 1, 10, 100, …) and unlabelled
// ones at log10(2..9) + k.
type decades struct{}

func (decades) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for k := math.Floor(min); k <= max; k++ {
		for m := 1.0; m < 10; m++ {
			v := k + math.Log10(m)
			if v < min || v > max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 {
				t.Label = strconv.FormatFloat(math.Pow(10, k), 'f', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// BudgetErrors draws the mean training and test error of PLA against its
// budget of updates (MaxUpdates, log axis): train[k] and test[k] are the
// errors of the weights PLA holds when it stops after budgets[k] updates.
func BudgetErrors(budgets []int, train, test []float64, noise float64, title string) (*plot.Plot, error) {
	if len(budgets) == 0 || len(train) != len(budgets) || len(test) != len(budgets) {
		return nil, fmt.Errorf("figures: %d budgets for %d training and %d test errors", len(budgets), len(train), len(test))
	}
	p := plots.New(title, "budget of updates (MaxUpdates)", "error rate")
	xs := plots.Ints(budgets)
	top := 0.0
	for i, s := range []struct {
		name string
		v    []float64
	}{{"training error", train}, {"test error", test}} {
		xys := make(plotter.XYs, len(xs))
		for k := range xs {
			xys[k] = plotter.XY{X: xs[k], Y: s.v[k]}
			top = max(top, s.v[k])
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = plots.Color(i), vg.Points(1.5)
		pts.Color = plots.Color(i)
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	floor, err := plotter.NewLine(plotter.XYs{{X: xs[0], Y: noise}, {X: xs[len(xs)-1], Y: noise}})
	if err != nil {
		return nil, err
	}
	floor.Color = plots.Black
	dash(&floor.LineStyle, 4, 3)
	addWithLegend(p, "label noise (the target's error)", floor)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1.3*top
	return p, nil
}

// Lesson04Budgets are the update budgets of lesson 4's training-versus-test
// figure.
var Lesson04Budgets = []int{1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 2000, 5000}

// Lesson04BudgetCurves runs PLA with each budget of updates on
// NoisyData(200, 2, 0, 0.1, seed) split in half (TrainTestSplit(·, 0.5,
// seed)) for seeds 1..runs, and returns the mean training and test errors.
func Lesson04BudgetCurves(runs int) (train, test []float64, err error) {
	return meanErrors(runs, 2, Lesson04Budgets, func(budget int) (opt perceptron.Options) {
		opt.MaxUpdates = budget
		return opt
	})
}

// Lesson04Epochs are the epoch limits (MaxEpochs) of lesson 4's table of
// too few and too many epochs.
var Lesson04Epochs = []int{1, 2, 5, 10, 20, 50, 100, 200}

// Lesson04EpochCurves returns the mean training and test error rates of
// PLA's weights after each epoch limit of Lesson04Epochs, over runs data
// sets NoisyData(200, dim, 0, 0.1, seed), seeds 1..runs, each split in
// half (TrainTestSplit with the same seed): 100 training points in dim
// dimensions with 10% of the labels flipped.
func Lesson04EpochCurves(runs, dim int) (train, test []float64, err error) {
	return meanErrors(runs, dim, Lesson04Epochs, func(epochs int) perceptron.Options {
		return perceptron.Options{MaxEpochs: epochs}
	})
}

// meanErrors returns the mean training and test error rates of PLA with
// the options limit(k), one pair per k of limits, over runs data sets
// NoisyData(200, dim, 0, 0.1, seed), seeds 1..runs, each split in half
// with TrainTestSplit(·, 0.5, seed).
func meanErrors(runs, dim int, limits []int, limit func(k int) perceptron.Options) (train, test []float64, err error) {
	train = make([]float64, len(limits))
	test = make([]float64, len(limits))
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.NoisyData(200, dim, 0, 0.1, seed)
		if err != nil {
			return nil, nil, err
		}
		tr, te, err := perceptron.TrainTestSplit(d, 0.5, seed)
		if err != nil {
			return nil, nil, err
		}
		for k, l := range limits {
			res, err := perceptron.PLA(tr, limit(l))
			if err != nil {
				return nil, nil, err
			}
			a, err := res.ErrorRate(tr)
			if err != nil {
				return nil, nil, err
			}
			b, err := res.ErrorRate(te)
			if err != nil {
				return nil, nil, err
			}
			train[k] += a / float64(runs)
			test[k] += b / float64(runs)
		}
	}
	return train, test, nil
}

func init() {
	registerPlot("04_lfd_target.png", func() (*plot.Plot, error) {
		p, _, err := TargetVsLearned(10, 3)
		return p, err
	})
	registerPlot("04_iris_epochs.png", func() (*plot.Plot, error) {
		_, res, err := irisPLA(perceptron.Options{})
		if err != nil {
			return nil, err
		}
		return EpochUpdates(res, "PLA on iris (setosa vs versicolor): updates per epoch")
	})
	registerPlot("04_lfd_orders.png", func() (*plot.Plot, error) {
		c, err := perceptron.LFDExperiment(1000, 100, perceptron.InOrder, 1)
		if err != nil {
			return nil, err
		}
		m, err := perceptron.LFDExperiment(1000, 100, perceptron.RandomMistake, 1)
		if err != nil {
			return nil, err
		}
		return LFDOrders(c, m)
	})
	registerPlot("04_budget_errors.png", func() (*plot.Plot, error) {
		train, test, err := Lesson04BudgetCurves(20)
		if err != nil {
			return nil, err
		}
		return BudgetErrors(Lesson04Budgets, train, test, 0.1, "PLA on noisy data (10% flipped): stopping after a budget")
	})
}

// Lesson04Explore runs PLA on the iris flowers of IrisData with learning
// rate eta and the pick rule named order (in-order, random-cycle, shuffle or
// mistake; see perceptron.ParseOrder) drawn from seed, and draws the
// flowers and the boundary it learned. The caption gives the updates per
// epoch (numbered from 0), the weights, and w/η and b/η, which are the
// same for every η when the order is fixed: from w = 0, b = 0 the rate
// only scales the weights.
func Lesson04Explore(eta float64, order string, seed uint64) (*plot.Plot, string, error) {
	if !(eta > 0) || math.IsInf(eta, 0) {
		// The package reads Eta 0 as its default 1; the caption divides by η.
		return nil, "", fmt.Errorf("figures: η must be a finite number > 0, got %v", eta)
	}
	o, err := perceptron.ParseOrder(order)
	if err != nil {
		return nil, "", err
	}
	d, res, err := irisPLA(perceptron.Options{Eta: eta, Order: o, Seed: seed})
	if err != nil {
		return nil, "", err
	}
	title := fmt.Sprintf("PLA on iris: η = %g, %s order, seed %d", eta, order, seed)
	p, err := IrisBoundary(d, res.Hyperplane, title)
	if err != nil {
		return nil, "", err
	}
	caption := fmt.Sprintf("%d updates in %d epochs %v (converged %v); w = [%.3g %.3g], b = %.3g; w/η = [%.4g %.4g], b/η = %.4g",
		res.Updates, res.Epochs, res.UpdatesPerEpoch(), res.Converged, res.W[0], res.W[1], res.B, res.W[0]/eta, res.W[1]/eta, res.B/eta)
	return p, caption, nil
}

// disagreeGrey shades the part of the square where f and g disagree.
var disagreeGrey = color.RGBA{R: 205, G: 205, B: 205, A: 255}

// TargetVsLearned draws one run of the Learning-From-Data experiment: the
// N points of LFDDataBothClasses(n, seed) in [-1, 1]², the target line f
// (dashed), the line g that PLA (in order) learns from them, and, shaded,
// the part of the square where f and g disagree, whose area over 4 is
// P[f ≠ g]. It returns the figure and that probability
// (perceptron.Disagreement).
func TargetVsLearned(n int, seed uint64) (*plot.Plot, float64, error) {
	d, f, err := perceptron.LFDDataBothClasses(n, seed)
	if err != nil {
		return nil, 0, err
	}
	res, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		return nil, 0, err
	}
	g := res.Hyperplane
	prob, err := perceptron.Disagreement(f, g)
	if err != nil {
		return nil, 0, err
	}
	p := plots.New(fmt.Sprintf("N = %d: target f, learned g, P[f ≠ g] = %.3f", n, prob), "x1", "x2")
	box := plots.Box{XMin: -1, XMax: 1, YMin: -1, YMax: 1}
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, 0, err
	}
	const res2 = 300
	img := image.NewRGBA(image.Rect(0, 0, res2, res2))
	for r := range res2 {
		for c := range res2 {
			x := []float64{-1 + (float64(c)+0.5)*2/res2, 1 - (float64(r)+0.5)*2/res2}
			a, b := f.W[0]*x[0]+f.W[1]*x[1]+f.B, g.W[0]*x[0]+g.W[1]*x[1]+g.B
			col := color.RGBA{R: 255, G: 255, B: 255, A: 255}
			if (a > 0) != (b > 0) {
				col = disagreeGrey
			}
			img.SetRGBA(c, r, col)
		}
	}
	p.Add(plotter.NewImage(img, -1, -1, 1, 1))
	p.Legend.Add("f and g disagree", &plotter.Polygon{Color: disagreeGrey})
	target, err := plots.Boundary(f, box)
	if err != nil {
		return nil, 0, err
	}
	dash(&target.LineStyle, 5, 3)
	learned, err := plots.Boundary(g, box)
	if err != nil {
		return nil, 0, err
	}
	learned.Color = plots.Color(2)
	p.Add(target, learned)
	p.Legend.Add("target f", target)
	p.Legend.Add(fmt.Sprintf("g, learned by PLA (%d updates)", res.Updates), learned)
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, 0, err
	}
	return p, prob, nil
}
