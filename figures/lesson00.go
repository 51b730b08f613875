package figures

import (
	"github.com/perceptron-go/lessons/notebooks/nb/lessondata"
	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
	"gonum.org/v1/plot"
)

// IrisBoundary draws the iris flowers of d by class and the boundary
// w·x + b = 0 of h, over the box of the data grown by 10 % (the lower right
// corner, where the legend goes, is empty).
func IrisBoundary(d *perceptron.Dataset, h perceptron.Hyperplane, title string) (*plot.Plot, error) {
	p := plots.New(title, "sepal length (cm)", "petal length (cm)")
	box, err := plots.BoxOf(d, 0, 1, 0.1)
	if err != nil {
		return nil, err
	}
	if err := plots.SetRange(p, box); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	if err := addBoundaries(p, box, namedBoundary{"boundary w·x + b = 0", h, false}); err != nil {
		return nil, err
	}
	p.Legend.Top = false
	return p, nil
}

// irisPLA runs PLA with opt on the iris flowers of lessondata.IrisData.
func irisPLA(opt perceptron.Options) (*perceptron.Dataset, *perceptron.Result, error) {
	d, err := lessondata.IrisData()
	if err != nil {
		return nil, nil, err
	}
	res, err := perceptron.PLA(d, opt)
	return d, res, err
}

func init() {
	registerPlot("00_iris_pla.png", func() (*plot.Plot, error) {
		d, res, err := irisPLA(perceptron.Options{})
		if err != nil {
			return nil, err
		}
		return IrisBoundary(d, res.Hyperplane, "PLA on iris: setosa vs versicolor")
	})
}
