package figures

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// BoundScatter draws, for many data sets, the bound (R/γ)² of the
// convergence theorem (x) against the number of updates PLA actually made
// (y), on log-log axes, with the line y = x: the theorem says no dot lies
// above it.
func BoundScatter(bounds, updates []float64) (*plot.Plot, error) {
	p := plots.New(fmt.Sprintf("Convergence theorem on %d separable data sets", len(bounds)),
		"bound (R/γ)²", "updates PLA made")
	dots, err := plots.Scatter(bounds, updates)
	if err != nil {
		return nil, err
	}
	lo, hi := math.Inf(1), 0.0
	for k := range bounds {
		lo = min(lo, bounds[k], updates[k])
		hi = max(hi, bounds[k], updates[k])
	}
	lo = max(lo/2, 0.5)
	hi *= 2
	id, err := plots.Identity(lo, hi)
	if err != nil {
		return nil, err
	}
	p.Add(dots, id)
	p.Legend.Add("one data set", dots)
	p.Legend.Add("updates = bound", id)
	p.Legend.Left = true
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo, hi, lo, hi*4 // room for the legend
	return p, nil
}

// ProofSqueeze draws the two steps of the convergence proof along one run of
// PLA with a bias and η = 1 (trace as a Recorder keeps it), for the
// quantities b of Bound: after t updates the alignment θ_t·θ* stays above
// tγ and the length ||θ_t|| stays below R√t, and since θ_t·θ* ≤ ||θ_t||
// the two bounds squeeze the run until they meet at t = (R/γ)², drawn up
// to there.
func ProofSqueeze(trace []perceptron.Update, b perceptron.BoundResult) (*plot.Plot, error) {
	if len(trace) == 0 || !b.Separable {
		return nil, fmt.Errorf("figures: proof squeeze needs a run with updates on separable data (%d updates, separable %v)", len(trace), b.Separable)
	}
	p := plots.New("The proof of the convergence theorem along one run", "updates t", "θ_t·θ* and ||θ_t||")
	star := b.Target.Theta()
	align := make(plotter.XYs, len(trace)+1)
	length := make(plotter.XYs, len(trace)+1)
	for t, u := range trace {
		theta := perceptron.Hyperplane{W: u.W, B: u.B}.Theta()
		var dotStar, sq float64
		for j, v := range theta {
			dotStar += v * star[j]
			sq += v * v
		}
		align[t+1] = plotter.XY{X: float64(t + 1), Y: dotStar}
		length[t+1] = plotter.XY{X: float64(t + 1), Y: math.Sqrt(sq)}
	}
	T := b.Bound
	const steps = 400
	lower := make(plotter.XYs, steps+1)
	upper := make(plotter.XYs, steps+1)
	for k := range lower {
		t := T * float64(k) / steps
		lower[k] = plotter.XY{X: t, Y: t * b.Gamma}
		upper[k] = plotter.XY{X: t, Y: b.R * math.Sqrt(t)}
	}
	for _, s := range []struct {
		name string
		xys  plotter.XYs
		dash bool
		c    int
	}{
		{"R√t (upper bound on ||θ_t||)", upper, true, 1},
		{"||θ_t||", length, false, 1},
		{"θ_t·θ*", align, false, 0},
		{"tγ (lower bound on θ_t·θ*)", lower, true, 0},
	} {
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = plots.Color(s.c), vg.Points(1.5)
		if s.name == "||θ_t||" {
			l.Width = vg.Points(4) // under the thinner alignment line, which nearly covers it
		}
		if s.dash {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			l.Width = vg.Points(1)
		}
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	meet, err := plots.Scatter([]float64{T}, []float64{T * b.Gamma})
	if err != nil {
		return nil, err
	}
	meet.Color = plots.Black
	meet.GlyphStyle.Radius = vg.Points(3)
	p.Add(meet)
	p.Legend.Add(fmt.Sprintf("bounds meet: t = (R/γ)² = %.0f", T), meet)
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Tick.Marker, p.Y.Tick.Marker = shortTicks, shortTicks
	p.X.Min, p.X.Max = 0, 1.05*T
	p.Y.Min, p.Y.Max = 0, 1.6*T*b.Gamma // room for the legend
	return p, nil
}

// shortTicks are gonum/plot's default ticks with their labels written in
// the shortest form ("250", not "250.00").
var shortTicks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 6, 64)
		}
	}
	return ticks
})

// lesson05Bounds returns the bound and the updates of PLA (default options)
// on SeparableData(50, 2, margin, seed) for seeds 1..runs, the margin
// cycling through 0.01, 0.03, 0.1 and 0.3 (margin[seed mod 4]).
func lesson05Bounds(runs int) (bounds, updates []float64, err error) {
	margins := []float64{0.01, 0.03, 0.1, 0.3}
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.SeparableData(50, 2, margins[seed%4], seed)
		if err != nil {
			return nil, nil, err
		}
		b, err := perceptron.Bound(d, false)
		if err != nil {
			return nil, nil, err
		}
		res, err := perceptron.PLA(d, perceptron.DefaultOptions())
		if err != nil {
			return nil, nil, err
		}
		bounds = append(bounds, b.Bound)
		updates = append(updates, float64(res.Updates))
	}
	return bounds, updates, nil
}

func init() {
	registerPlot("05_bound_scatter.png", func() (*plot.Plot, error) {
		bounds, updates, err := lesson05Bounds(100)
		if err != nil {
			return nil, err
		}
		return BoundScatter(bounds, updates)
	})
	registerPlot("05_proof_squeeze.png", func() (*plot.Plot, error) {
		d, _, err := perceptron.SeparableData(50, 2, 0.03, 5)
		if err != nil {
			return nil, err
		}
		b, err := perceptron.Bound(d, false)
		if err != nil {
			return nil, err
		}
		var rec perceptron.Recorder
		opt := perceptron.DefaultOptions()
		opt.Observer = rec.Observe
		if _, err := perceptron.PLA(d, opt); err != nil {
			return nil, err
		}
		return ProofSqueeze(rec.Updates, b)
	})
}
