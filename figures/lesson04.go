package figures

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// EpochUpdates draws the updates PLA made in each epoch of a run, one bar
// per epoch (0-based), the clean last epoch included.
func EpochUpdates(res *perceptron.Result, title string) (*plot.Plot, error) {
	p := plots.New(title, "epoch (pass over the data)", "updates in the epoch")
	bars, err := plots.Bars(plots.Ints(res.UpdatesPerEpoch()), vg.Points(24))
	if err != nil {
		return nil, err
	}
	p.Add(bars)
	p.Legend.Add(fmt.Sprintf("updates (%d in all)", res.Updates), bars)
	top := 0
	for _, u := range res.UpdatesPerEpoch() {
		top = max(top, u)
	}
	names := make([]string, len(res.UpdatesPerEpoch()))
	for e := range names {
		names[e] = fmt.Sprint(e)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.7, float64(len(res.UpdatesPerEpoch()))-0.3
	p.Y.Min, p.Y.Max = 0, 1.35*float64(top) // room for the legend
	return p, nil
}

// LFDOrders draws, for every run of two LFD experiments made with the same
// seed and n (so on the same data sets), the updates of the cyclic pick (x)
// against the updates of the random-mistake pick (y), on log-log axes,
// with the line y = x: a point off the line is a data set on which the pick
// rule changed the number of updates.
func LFDOrders(cyclic, mistake perceptron.LFDSummary) (*plot.Plot, error) {
	if len(cyclic.Updates) != len(mistake.Updates) || cyclic.N != mistake.N {
		return nil, fmt.Errorf("figures: LFD experiments of %d and %d runs, n = %d and %d", len(cyclic.Updates), len(mistake.Updates), cyclic.N, mistake.N)
	}
	p := plots.New(fmt.Sprintf("PLA on the same %d data sets (N = %d), two pick rules", len(cyclic.Updates), cyclic.N),
		"updates, cyclic pick", "updates, random-mistake pick")
	xs, ys := plots.Ints(cyclic.Updates), plots.Ints(mistake.Updates)
	dots, err := plots.Scatter(xs, ys)
	if err != nil {
		return nil, err
	}
	dots.GlyphStyle.Radius = vg.Points(1.5)
	hi := 1.0
	for k := range xs {
		hi = max(hi, xs[k], ys[k])
	}
	hi *= 2
	id, err := plots.Identity(1, hi)
	if err != nil {
		return nil, err
	}
	p.Add(dots, id)
	p.Legend.Add("one data set", dots)
	p.Legend.Add("same number of updates", id)
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 1, hi, 1, hi*3 // room for the legend
	return p, nil
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
	floor.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(floor)
	p.Legend.Add("label noise (the target's error)", floor)
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1.3*top
	return p, nil
}

// lesson04Budgets are the update budgets of the training-versus-test figure.
var lesson04Budgets = []int{1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 2000, 5000}

// lesson04BudgetCurves runs PLA with each budget of updates on
// NoisyData(200, 2, 0, 0.1, seed) split in half (TrainTestSplit(·, 0.5,
// seed)) for seeds 1..runs, and returns the mean training and test errors.
func lesson04BudgetCurves(runs int) (train, test []float64, err error) {
	train = make([]float64, len(lesson04Budgets))
	test = make([]float64, len(lesson04Budgets))
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.NoisyData(200, 2, 0, 0.1, seed)
		if err != nil {
			return nil, nil, err
		}
		tr, te, err := perceptron.TrainTestSplit(d, 0.5, seed)
		if err != nil {
			return nil, nil, err
		}
		for k, budget := range lesson04Budgets {
			opt := perceptron.DefaultOptions()
			opt.MaxUpdates = budget
			res, err := perceptron.PLA(tr, opt)
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
	registerPlot("04_iris_epochs.png", func() (*plot.Plot, error) {
		d, err := perceptron.Iris().Binary(0, 1, 0, 2)
		if err != nil {
			return nil, err
		}
		res, err := perceptron.PLA(d, perceptron.DefaultOptions())
		if err != nil {
			return nil, err
		}
		return EpochUpdates(res, "PLA on iris (setosa vs versicolor): updates per epoch")
	})
	registerPlot("04_lfd_orders.png", func() (*plot.Plot, error) {
		c, err := perceptron.LFDExperiment(1000, 100, perceptron.Cyclic, 1)
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
		train, test, err := lesson04BudgetCurves(20)
		if err != nil {
			return nil, err
		}
		return BudgetErrors(lesson04Budgets, train, test, 0.1, "PLA on noisy data (10% flipped): stopping after a budget")
	})
}
