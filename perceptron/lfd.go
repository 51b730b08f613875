package perceptron

import "math/rand/v2"

// lfdExperimentStream is the second PCG word of the generator that draws
// the seeds of the runs of LFDExperiment.
const lfdExperimentStream = 0x1fde4

// LFDMaxEpochs is the most epochs a run of LFDExperiment may take. The data
// is always separable, so PLA stops, but a target line that leaves a tiny
// margin can make it slow; a run that reaches this limit is counted in
// LFDSummary.NotConverged (none did in 1000 runs at N = 10 or N = 100).
const LFDMaxEpochs = 100000

// LFDSummary is the outcome of LFDExperiment: per run, the number of updates
// PLA made and the exact out-of-sample error P[f ≠ g] of the line g it
// learned, and their means.
type LFDSummary struct {
	// N is the number of training points of every run and Order the pick
	// rule of PLA.
	N     int
	Order Order
	// Updates[k] is the number of updates of run k (the "iterations" of
	// Learning From Data) and Disagreement[k] is P[f ≠ g] of run k.
	Updates      []int
	Disagreement []float64
	// MeanUpdates and MeanDisagreement are the means over the runs.
	MeanUpdates      float64
	MeanDisagreement float64
	// NotConverged counts the runs stopped by LFDMaxEpochs.
	NotConverged int
}

// LFDExperiment repeats the experiment of Learning From Data (exercise 1.4,
// problems 1.4 and 1.7) runs times: run k draws a target line f and n
// points labelled by it with LFDDataBothClasses (conditioned on both
// classes, which the book is not: for n = 10 about 1 sample in 11 is
// one-sided, and such a sample is redrawn; PLA would train it, with a
// disagreement that depends on the line only, and the lessons' numbers are
// those of the conditioned experiment),
// runs PLA (w = 0, b = 0, η = 1,
// TieMistake) with the pick rule order until a pass makes no mistake (at
// most LFDMaxEpochs epochs), and measures the exact disagreement
// P[f(x) ≠ g(x)] for x uniform on [-1, 1]² with Disagreement.
//
// The seed of run k, for both LFDDataBothClasses and PLA's random order, is the k-th
// number drawn from a generator seeded with seed. It does not depend on
// order, so experiments with the same seed and n see the same data sets and
// their orders can be compared run by run; the same arguments give the same
// summary.
//
// The book picks a random misclassified point at every step (RandomMistake)
// and reports about 10 updates and P ≈ 0.1 for n = 10, about 100 updates
// and P ≈ 0.01 for n = 100.
//
// It is an error for runs to be below 1, for n to be below 2 or for order
// to be unknown.
func LFDExperiment(runs, n int, order Order, seed uint64) (LFDSummary, error) {
	if runs < 1 {
		return LFDSummary{}, kindErrorf(ErrOption, "LFD experiment: need runs >= 1, got %d", runs)
	}
	if n < 2 {
		return LFDSummary{}, kindErrorf(ErrOption, "LFD experiment: need n >= 2 points, got %d", n)
	}
	if err := checkGenerated("LFD experiment", n, 2); err != nil {
		return LFDSummary{}, err
	}
	if err := checkGenerated("LFD experiment (runs)", runs, 2); err != nil {
		return LFDSummary{}, err
	}
	opt := Options{}
	opt.Order = order
	opt.MaxEpochs = LFDMaxEpochs
	if err := opt.validate(); err != nil {
		return LFDSummary{}, err
	}
	s := LFDSummary{N: n, Order: order, Updates: make([]int, runs), Disagreement: make([]float64, runs)}
	seeds := rand.New(rand.NewPCG(seed, lfdExperimentStream))
	for k := range runs {
		runSeed := seeds.Uint64()
		d, f, err := LFDDataBothClasses(n, runSeed)
		if err != nil {
			return LFDSummary{}, err
		}
		opt.Seed = runSeed
		res, err := PLA(d, opt)
		if err != nil {
			return LFDSummary{}, err
		}
		if !res.Converged {
			s.NotConverged++
		}
		// PLA from w = 0 on data with both classes makes at least one
		// update, so g is never w = 0, b = 0 and Disagreement accepts it.
		p, err := Disagreement(f, res.Hyperplane)
		if err != nil {
			return LFDSummary{}, err
		}
		s.Updates[k] = res.Updates
		s.Disagreement[k] = p
		s.MeanUpdates += float64(res.Updates)
		s.MeanDisagreement += p
	}
	s.MeanUpdates /= float64(runs)
	s.MeanDisagreement /= float64(runs)
	return s, nil
}
