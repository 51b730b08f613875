package figures

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// lesson07Noisy returns the noisy data of lesson 7 for one seed, split in
// half: NoisyData(400, 2, 0, 0.1, seed) then TrainTestSplit(·, 0.5, seed).
// The notebook and the registered figures use it with the same seeds.
func lesson07Noisy(seed uint64) (train, test *perceptron.Dataset, err error) {
	d, _, err := perceptron.NoisyData(400, 2, 0, 0.1, seed)
	if err != nil {
		return nil, nil, err
	}
	return perceptron.TrainTestSplit(d, 0.5, seed)
}

// SurvivalCounts draws the survival counts c_k of the weight vectors w_k of
// a voted perceptron, one bar per vector, k = 0 (w = 0) to Updates.
func SurvivalCounts(v *perceptron.VotedModel, title string) (*plot.Plot, error) {
	p := plots.New(title, "weight vector k (after k updates)", "survival count c_k (steps)")
	bars, err := plots.Bars(plots.Ints(v.Counts), vg.Points(12))
	if err != nil {
		return nil, err
	}
	addWithLegend(p, "c_k", bars)
	p.X.Min, p.X.Max = -0.7, float64(len(v.Counts))-0.3
	top := 0
	for _, c := range v.Counts {
		top = max(top, c)
	}
	p.Y.Min, p.Y.Max = 0, 1.2*float64(top) // room for the legend
	return p, nil
}

// VotedRegions draws the training data d over the decision regions of the
// voted perceptron v (columns 0 and 1), with the boundary of the last PLA
// weights (v's Hyperplane) and of the averaged weights avg.
func VotedRegions(d *perceptron.Dataset, v *perceptron.VotedModel, avg perceptron.Hyperplane, title string) (*plot.Plot, error) {
	return boundariesFigure(d, title, func(p *plot.Plot, box plots.Box) error {
		return addRegions(p, v, box, 240, "voted +1 region", "voted -1 region", nil)
	}, namedBoundary{"last PLA weights", v.Last(), true}, namedBoundary{"averaged weights", avg, false})
}

// MethodErrors draws one bar per method, the mean of its test errors
// errs[m] over the runs, with every run's error as a dot on its bar.
func MethodErrors(names []string, errs [][]float64, title string) (*plot.Plot, error) {
	if len(names) != len(errs) || len(names) == 0 {
		return nil, fmt.Errorf("figures: %d method names for %d error lists", len(names), len(errs))
	}
	p := plots.New(title, "learner", "test error")
	means := make([]float64, len(errs))
	var xs, ys []float64
	for m, e := range errs {
		if len(e) == 0 {
			return nil, fmt.Errorf("figures: method %s has no runs", names[m])
		}
		for _, v := range e {
			means[m] += v / float64(len(e))
			xs = append(xs, float64(m))
			ys = append(ys, v)
		}
	}
	bars, err := plots.Bars(means, vg.Points(40))
	if err != nil {
		return nil, err
	}
	dots, err := plots.Scatter(xs, ys)
	if err != nil {
		return nil, err
	}
	dots.Color = plots.Black
	p.Add(bars, dots)
	p.Legend.Add(fmt.Sprintf("mean over %d runs", len(errs[0])), bars)
	p.Legend.Add("one run", dots)
	p.NominalX(names...)
	top := 0.0
	for _, v := range ys {
		top = max(top, v)
	}
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = 0, 1.15*top // room for the legend
	return p, nil
}

// OvRErrors draws, for each data set named in groups, the test error of
// one-vs-rest with PLA (pla[g]) and with the averaged perceptron (avg[g])
// side by side.
func OvRErrors(groups []string, pla, avg []float64, title string) (*plot.Plot, error) {
	if len(groups) != len(pla) || len(groups) != len(avg) {
		return nil, fmt.Errorf("figures: %d groups for %d and %d errors", len(groups), len(pla), len(avg))
	}
	p := plots.New(title, "data set", "test error")
	w := vg.Points(30)
	for i, s := range []struct {
		name string
		v    []float64
	}{{"one-vs-rest, last PLA weights", pla}, {"one-vs-rest, averaged", avg}} {
		b, err := plots.Bars(s.v, w)
		if err != nil {
			return nil, err
		}
		b.Color = plots.Color(i)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(2*i-1) * w / 2
		addWithLegend(p, s.name, b)
	}
	p.NominalX(groups...)
	top := 0.0
	for g := range groups {
		top = max(top, pla[g], avg[g])
	}
	p.X.Min, p.X.Max = -0.7, float64(len(groups))-0.3
	p.Y.Min, p.Y.Max = 0, 1.25*top // room for the legend
	return p, nil
}

// lesson07Runs returns lesson07Noisy(seed) and the voted and the averaged
// perceptron trained on its training half with 20 epochs.
func lesson07Runs(seed uint64) (train, test *perceptron.Dataset, v *perceptron.VotedModel, a *perceptron.AveragedResult, err error) {
	if train, test, err = lesson07Noisy(seed); err != nil {
		return nil, nil, nil, nil, err
	}
	opt := perceptron.Options{MaxEpochs: 20}
	if v, err = perceptron.Voted(train, opt); err != nil {
		return nil, nil, nil, nil, err
	}
	a, err = perceptron.Averaged(train, opt)
	return train, test, v, a, err
}

// lesson07Compare runs last / voted / averaged / pocket on lesson07Noisy
// for seeds 1..runs with 20 epochs and returns the test errors, [method][run].
func lesson07Compare(runs int) (names []string, errs [][]float64, err error) {
	names = []string{"last PLA", "voted", "averaged", "pocket"}
	errs = make([][]float64, 4)
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		train, test, v, a, err := lesson07Runs(seed)
		if err != nil {
			return nil, nil, err
		}
		pk, err := perceptron.Pocket(train, perceptron.Options{MaxEpochs: 20})
		if err != nil {
			return nil, nil, err
		}
		ve, err := v.Errors(test)
		if err != nil {
			return nil, nil, err
		}
		rates := []float64{0, float64(ve) / float64(test.N()), 0, 0}
		for m, h := range []perceptron.Hyperplane{a.Last, {}, a.Hyperplane, pk.Hyperplane} {
			if m == 1 {
				continue // voted: counted above
			}
			if rates[m], err = h.ErrorRate(test); err != nil {
				return nil, nil, err
			}
		}
		for m := range errs {
			errs[m] = append(errs[m], rates[m])
		}
	}
	return names, errs, nil
}

// averagedLearner returns the Learner that runs Averaged with opt and scores
// with the averaged weights, for OneVsRest.
func averagedLearner(opt perceptron.Options) perceptron.Learner {
	return func(d *perceptron.Dataset) (perceptron.Model, error) {
		a, err := perceptron.Averaged(d, opt)
		if err != nil {
			return nil, err
		}
		return a.Hyperplane, nil
	}
}

// lesson07OvR splits m with m.Split(0.3, seed), trains one-vs-rest with PLA
// and with the averaged perceptron (opt for both) and returns their test
// errors.
func lesson07OvR(m *perceptron.MultiDataset, opt perceptron.Options, seed uint64) (pla, avg float64, err error) {
	train, test, err := m.Split(0.3, seed)
	if err != nil {
		return 0, 0, err
	}
	pm, err := perceptron.OneVsRest(train, perceptron.PLALearner(opt))
	if err != nil {
		return 0, 0, err
	}
	am, err := perceptron.OneVsRest(train, averagedLearner(opt))
	if err != nil {
		return 0, 0, err
	}
	if pla, err = pm.ErrorRate(test); err != nil {
		return 0, 0, err
	}
	avg, err = am.ErrorRate(test)
	return pla, avg, err
}

func init() {
	registerPlot("07_survival_counts.png", func() (*plot.Plot, error) {
		d, err := perceptron.Iris().Binary(0, 1, 0, 2)
		if err != nil {
			return nil, err
		}
		opt := perceptron.Options{MaxEpochs: 6}
		v, err := perceptron.Voted(d, opt)
		if err != nil {
			return nil, err
		}
		return SurvivalCounts(v, "Voted perceptron on iris: how long each w_k survived")
	})
	registerPlot("07_voted_regions.png", func() (*plot.Plot, error) {
		train, _, v, a, err := lesson07Runs(1)
		if err != nil {
			return nil, err
		}
		return VotedRegions(train, v, a.Hyperplane, "10% flipped labels: voted regions, last and averaged boundary")
	})
	registerPlot("07_test_errors.png", func() (*plot.Plot, error) {
		names, errs, err := lesson07Compare(10)
		if err != nil {
			return nil, err
		}
		return MethodErrors(names, errs, "Test error on noisy data (10% flipped), 20 epochs")
	})
	registerPlot("07_ovr_errors.png", func() (*plot.Plot, error) {
		iris := perceptron.Options{MaxEpochs: 20}
		digits := perceptron.Options{MaxEpochs: 10}
		ip, ia, err := lesson07OvR(perceptron.Iris(), iris, 1)
		if err != nil {
			return nil, err
		}
		dp, da, err := lesson07OvR(perceptron.Digits(), digits, 1)
		if err != nil {
			return nil, err
		}
		return OvRErrors([]string{"iris (3 classes)", "digits (10 classes)"}, []float64{ip, dp}, []float64{ia, da},
			"One-vs-rest: last PLA weights vs averaged, 30% test split")
	})
}

// OvRSplits returns the one-vs-rest test errors of the last PLA weights and
// of the averaged perceptron (MaxEpochs epochs each) on m split 70/30 with
// seeds 1..splits, one entry per split.
func OvRSplits(m *perceptron.MultiDataset, epochs, splits int) (pla, avg []float64, err error) {
	for seed := uint64(1); seed <= uint64(splits); seed++ {
		p, a, err := lesson07OvR(m, perceptron.Options{MaxEpochs: epochs}, seed)
		if err != nil {
			return nil, nil, err
		}
		pla, avg = append(pla, p), append(avg, a)
	}
	return pla, avg, nil
}
