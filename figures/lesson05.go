package figures

import (
	"fmt"
	"math"

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
// (Cauchy–Schwarz, ||θ*|| = 1) the two bounds squeeze the run until they
// meet at t = (R/γ)². Both axes are logarithmic, so that a run far shorter
// than the bound still fills most of the width: there tγ is a line of
// slope 1 and R√t one of slope 1/2.
func ProofSqueeze(trace []perceptron.Update, b perceptron.BoundResult) (*plot.Plot, error) {
	if len(trace) == 0 || !b.Separable {
		return nil, fmt.Errorf("figures: proof squeeze needs a run with updates on separable data (%d updates, separable %v)", len(trace), b.Separable)
	}
	p := plots.New("The proof of the convergence theorem along one run", "updates t (log scale)", "θ_t·θ* and ||θ_t|| (log scale)")
	star := b.Target.Theta()
	align := make(plotter.XYs, len(trace))
	length := make(plotter.XYs, len(trace))
	for t, u := range trace {
		theta := perceptron.Hyperplane{W: u.W, B: u.B}.Theta()
		var dotStar, sq float64
		for j, v := range theta {
			dotStar += v * star[j]
			sq += v * v
		}
		align[t] = plotter.XY{X: float64(t + 1), Y: dotStar}
		length[t] = plotter.XY{X: float64(t + 1), Y: math.Sqrt(sq)}
	}
	T := b.Bound
	const steps = 200
	lower := make(plotter.XYs, steps+1)
	upper := make(plotter.XYs, steps+1)
	for k := range lower {
		t := math.Pow(T, float64(k)/steps) // 1 … T, evenly on the log axis
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
		{"θ_t·θ* (never above ||θ_t||)", align, false, 0},
		{"tγ (lower bound on θ_t·θ*)", lower, true, 0},
	} {
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = plots.Color(s.c), vg.Points(1.5)
		if s.dash {
			dash(&l.LineStyle, 5, 3)
			l.Width = vg.Points(1)
		}
		addWithLegend(p, s.name, l)
	}
	meet, err := plots.Scatter([]float64{T}, []float64{T * b.Gamma})
	if err != nil {
		return nil, err
	}
	meet.Color = plots.Black
	meet.GlyphStyle.Radius = vg.Points(3)
	addWithLegend(p, fmt.Sprintf("bounds meet: t = (R/γ)² = %.0f", T), meet)
	end, err := mark(cross, 4, plots.Black, plotter.XY{X: float64(len(trace)), Y: length[len(length)-1].Y})
	if err != nil {
		return nil, err
	}
	addWithLegend(p, fmt.Sprintf("the run stops: t = %d", len(trace)), end)
	p.Legend.Top, p.Legend.Left = true, true
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	lo := min(b.Gamma, align[0].Y) / 2
	p.X.Min, p.X.Max = 1, 1.5*T
	p.Y.Min, p.Y.Max = lo, 25*b.R*math.Sqrt(T) // room above for the legend
	return p, nil
}

// shortTicks are gonum/plot's default ticks with their labels written in
// the shortest form ("250", not "250.00").
var shortTicks = plainTicks{plot.DefaultTicks{}}

// Lesson05Margins are the minimum margins of the data sets of lesson 5's
// scatter: data set k (seed k) uses Lesson05Margins[k mod 4].
var Lesson05Margins = []float64{0.01, 0.03, 0.1, 0.3}

// BoundsAndUpdates returns the bound (R/γ)² and the updates of PLA (default
// options) on SeparableData(50, 2, margin, seed) for seeds 1..runs, the
// margin cycling through Lesson05Margins.
func BoundsAndUpdates(runs int) (bounds, updates []float64, err error) {
	for seed := uint64(1); seed <= uint64(runs); seed++ {
		d, _, err := perceptron.SeparableData(50, 2, Lesson05Margins[seed%4], seed)
		if err != nil {
			return nil, nil, err
		}
		b, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil {
			return nil, nil, err
		}
		res, err := perceptron.PLA(d, perceptron.Options{})
		if err != nil {
			return nil, nil, err
		}
		bounds = append(bounds, b.Bound)
		updates = append(updates, float64(res.Updates))
	}
	return bounds, updates, nil
}

// BoundScatterRuns is BoundScatter of BoundsAndUpdates(runs): lesson 5's
// scatter in one call.
func BoundScatterRuns(runs int) (*plot.Plot, error) {
	bounds, updates, err := BoundsAndUpdates(runs)
	if err != nil {
		return nil, err
	}
	return BoundScatter(bounds, updates)
}

// BoundExplorerSeed is the seed of the data set that BoundExplorer draws.
const BoundExplorerSeed = 5

// BoundExplorer is lesson 5's live control: for 50 points drawn at distance
// at least margin from a hidden line (SeparableData(50, 2, margin,
// BoundExplorerSeed)) it draws the data, the bound's separator θ* and the
// band of its geometric margin, and returns a caption with R, the bound's γ,
// (R/γ)² and the updates PLA really makes. It is an error for margin to be
// outside [0, 0.5].
func BoundExplorer(margin float64) (*plot.Plot, string, error) {
	if !(margin >= 0 && margin <= 0.5) {
		return nil, "", fmt.Errorf("figures: bound explorer: margin %v is outside [0, 0.5]", margin)
	}
	d, _, err := perceptron.SeparableData(50, 2, margin, BoundExplorerSeed)
	if err != nil {
		return nil, "", err
	}
	b, err := perceptron.Bound(d, perceptron.Options{})
	if err != nil {
		return nil, "", err
	}
	res, err := perceptron.PLA(d, perceptron.Options{})
	if err != nil {
		return nil, "", err
	}
	caption := fmt.Sprintf("margin ≥ %.3f: R = %.3f, γ = %.4f, bound (R/γ)² = %.0f, PLA made %d updates (%.1f%% of the bound)",
		margin, b.R, b.Gamma, b.Bound, res.Updates, 100*float64(res.Updates)/b.Bound)
	box, err := plots.BoxOf(d, 0, 1, 0.1)
	if err != nil {
		return nil, "", err
	}
	// The ball of radius R of the augmented points [1, x] is, in the plane
	// of x, the disc ||x|| <= sqrt(R² − 1): draw its circle, and keep it in view.
	r := math.Sqrt(b.R*b.R - 1)
	box.XMin, box.XMax = min(box.XMin, -1.05*r), max(box.XMax, 1.05*r)
	box.YMin, box.YMax = min(box.YMin, -1.05*r), max(box.YMax, 1.05*r)
	box.YMax += 0.35 * (box.YMax - box.YMin) // room for the legend
	p := plots.New(fmt.Sprintf("γ = %.4f, (R/γ)² = %.0f, PLA: %d updates", b.Gamma, b.Bound, res.Updates), "x1", "x2")
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, "", err
	}
	box = plots.Box{XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max} // the lines span the whole figure
	geo, _, err := b.Target.DatasetMargin(d)                                    // the geometric margin of θ*, over ||w||
	if err != nil {
		return nil, "", err
	}
	band, err := plots.MarginBand(b.Target, geo, box, true)
	if err != nil {
		return nil, "", err
	}
	line, err := plots.Boundary(b.Target, box)
	if err != nil {
		return nil, "", err
	}
	circle := make(plotter.XYs, 201)
	for k := range circle {
		a := 2 * math.Pi * float64(k) / float64(len(circle)-1)
		circle[k] = plotter.XY{X: r * math.Cos(a), Y: r * math.Sin(a)}
	}
	ball, err := plotter.NewLine(circle)
	if err != nil {
		return nil, "", err
	}
	dash(&ball.LineStyle, 4, 3)
	ball.LineStyle.Color = plots.Color(2)
	p.Add(band)
	p.Add(line, ball)
	p.Legend.Add("θ* (the bound's separator)", line)
	p.Legend.Add(fmt.Sprintf("||x|| = √(R² − 1) = %.3f, where ||[1, x]|| = R = %.3f", r, b.R), ball)
	p.Legend.Add(fmt.Sprintf("its margin band (distance %.3f)", geo), band)
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, "", err
	}
	return p, caption, nil
}

func init() {
	registerPlot("05_bound_scatter.png", func() (*plot.Plot, error) { return BoundScatterRuns(100) })
	registerPlot("05_bound_explorer.png", func() (*plot.Plot, error) {
		p, _, err := BoundExplorer(0.03)
		return p, err
	})
	registerPlot("05_proof_squeeze.png", func() (*plot.Plot, error) {
		d, _, err := perceptron.SeparableData(50, 2, 0.03, 5)
		if err != nil {
			return nil, err
		}
		b, err := perceptron.Bound(d, perceptron.Options{})
		if err != nil {
			return nil, err
		}
		var rec perceptron.Recorder
		opt := perceptron.Options{}
		opt.Control.Observer = rec.Observe
		if _, err := perceptron.PLA(d, opt); err != nil {
			return nil, err
		}
		return ProofSqueeze(rec.Updates, b)
	})
}
