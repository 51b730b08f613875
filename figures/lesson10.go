package figures

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// WeightsFigure draws the weights of several models side by side, one
// group of bars per feature (named by features) and one colour per model
// (named by names). Rescale the models to one threshold first (AtThreshold)
// so that their weights are on one scale.
func WeightsFigure(models []perceptron.Hyperplane, names, features []string, title string) (*plot.Plot, error) {
	if len(models) != len(names) || len(models) == 0 {
		return nil, fmt.Errorf("figures: %d models but %d names", len(models), len(names))
	}
	p := plots.New(title, "feature", "weight (points per unit)")
	p.Legend.Left = true
	p.Legend.Top = false
	width := vg.Points(14)
	for k, h := range models {
		if len(h.W) != len(features) {
			return nil, fmt.Errorf("figures: model %d has %d weights for %d features", k, len(h.W), len(features))
		}
		bars, err := plots.Bars(h.W, width)
		if err != nil {
			return nil, err
		}
		bars.Color = plots.Color(k)
		bars.LineStyle.Width = 0
		bars.Offset = width * vg.Length(float64(k)-float64(len(models)-1)/2)
		addWithLegend(p, names[k], bars)
	}
	p.NominalX(features...)
	// Round the range out to multiples of a step of 1, 2 or 5 tenths of a
	// power of 10, with some room above and below the bars.
	step := math.Pow(10, math.Floor(math.Log10(p.Y.Max-p.Y.Min))) / 2
	p.Y.Min = math.Floor(p.Y.Min/step-0.1) * step
	p.Y.Max = math.Ceil(p.Y.Max/step+0.1) * step
	return p, nil
}

// lesson10Models trains lesson 10's three learners on standardised
// training applicants and returns the hidden rule and the three learned
// rules in raw units, each at the hidden rule's threshold 2.5.
func lesson10Models() ([]perceptron.Hyperplane, *perceptron.Dataset, error) {
	d, rule, err := perceptron.CreditApplicants(1000, 0.05, 1)
	if err != nil {
		return nil, nil, err
	}
	train, _, err := perceptron.TrainTestSplit(d, 0.25, 1)
	if err != nil {
		return nil, nil, err
	}
	sc, err := perceptron.FitScaler(train)
	if err != nil {
		return nil, nil, err
	}
	z, err := sc.Transform(train)
	if err != nil {
		return nil, nil, err
	}
	opt := perceptron.Options{MaxEpochs: 50}
	pla, err := perceptron.PLA(z, opt)
	if err != nil {
		return nil, nil, err
	}
	pocket, err := perceptron.Pocket(z, opt)
	if err != nil {
		return nil, nil, err
	}
	avg, err := perceptron.Averaged(z, opt)
	if err != nil {
		return nil, nil, err
	}
	out := []perceptron.Hyperplane{rule}
	for _, h := range []perceptron.Hyperplane{pla.Hyperplane, pocket.Hyperplane, avg.Hyperplane} {
		raw, err := sc.Unscale(h)
		if err != nil {
			return nil, nil, err
		}
		if raw, err = lessondata.AtThreshold(raw, -rule.B); err != nil {
			return nil, nil, err
		}
		out = append(out, raw)
	}
	return out, d, nil
}

func init() {
	registerPlot("10_credit_weights.png", func() (*plot.Plot, error) {
		models, d, err := lesson10Models()
		if err != nil {
			return nil, err
		}
		return WeightsFigure(models, []string{"hidden rule", "PLA (last w)", "pocket", "averaged"},
			d.Features, "The bank's score and the learned ones (threshold 2.5)")
	})
}
