package figures

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// AlphaCounts draws the mistake counts α_i of a dual perceptron, one bar per
// training row i.
func AlphaCounts(alpha []int, title string) (*plot.Plot, error) {
	p := plots.New(title, "training row i", "α_i (updates made on row i)")
	bars, err := plots.Bars(plots.Ints(alpha), vg.Points(3))
	if err != nil {
		return nil, err
	}
	bars.LineStyle.Width = 0
	addWithLegend(p, "α_i", bars)
	top := 0
	for _, a := range alpha {
		top = max(top, a)
	}
	p.X.Min, p.X.Max = -1, float64(len(alpha))
	p.Y.Min, p.Y.Max = 0, 1.25*float64(max(top, 1)) // room for the legend
	return p, nil
}

// KernelRegions draws the training data d (2 features) over the decision
// regions of the kernel perceptron m, f(x) = Σ_i α_i η y_i k(x_i, x) + b
// (light blue where f > 0, light orange where f < 0), with the rows that
// have α_i > 0 (those that enter f) circled, on equal axis scales.
func KernelRegions(d *perceptron.Dataset, m *perceptron.KernelModel, title string) (*plot.Plot, error) {
	if d.D() != 2 {
		return nil, fmt.Errorf("figures: kernel regions need 2 features, got %d", d.D())
	}
	box, err := plots.BoxOf(d, 0, 1, 0.15)
	if err != nil {
		return nil, err
	}
	box.YMax += 0.3 * (box.YMax - box.YMin) // room for the legend
	p := plots.New(title, "x1", "x2")
	// Equal scales, so that circles are drawn round; the regions then fill
	// the widened box.
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, err
	}
	box = plots.Box{XMin: p.X.Min, XMax: p.X.Max, YMin: p.Y.Min, YMax: p.Y.Max}
	if err := addRegions(p, m, box, 200, "f > 0: predict +1", "f < 0: predict -1", color.Gray{Y: 120}); err != nil {
		return nil, err
	}
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	var xs, ys []float64
	for i, a := range m.Alpha {
		if a > 0 {
			xs, ys = append(xs, d.Row(i)[0]), append(ys, d.Row(i)[1])
		}
	}
	if len(xs) > 0 {
		sv, err := plots.Scatter(xs, ys)
		if err != nil {
			return nil, err
		}
		sv.GlyphStyle.Radius = vg.Points(6)
		sv.GlyphStyle.Color = plots.Black
		sv.GlyphStyle.Shape = ring
		addWithLegend(p, "α_i > 0", sv)
	}
	return p, nil
}

// lesson09Kernel runs the kernel perceptron of lesson 9's figures:
// with at most 100 epochs and the defaults otherwise.
func lesson09Kernel(d *perceptron.Dataset, k perceptron.Kernel) (*perceptron.KernelModel, error) {
	opt := perceptron.Options{MaxEpochs: 100}
	return perceptron.KernelPerceptron(d, k, opt)
}

// KernelExplorer is lesson 9's live control: it trains the kernel
// perceptron (at most 100 epochs) on the two circles of the lesson
// (Circles(100, 0.05, 1)) with the kernel chosen by kind and param, the
// polynomial kernel (x·z + 1)^param ("poly", param a whole degree from 1
// to 8) or the RBF kernel exp(-param·||x - z||²) ("rbf", param > 0 and at
// most 1000), and draws its decision regions; the caption says whether it
// converged, the epochs, updates and training errors, and how many rows
// have α_i > 0.
func KernelExplorer(kind string, param float64) (*plot.Plot, string, error) {
	var k perceptron.Kernel
	switch kind {
	case "poly":
		if param != math.Trunc(param) || param < 1 || param > 8 {
			return nil, "", fmt.Errorf("figures: kernel explorer: degree %v is not a whole number from 1 to 8", param)
		}
		k = perceptron.PolyKernel{Degree: int(param), C: 1}
	case "rbf":
		if !(param > 0 && param <= 1000) {
			return nil, "", fmt.Errorf("figures: kernel explorer: RBF γ %v is not in (0, 1000]", param)
		}
		k = perceptron.RBFKernel{Gamma: param}
	default:
		return nil, "", fmt.Errorf("figures: kernel explorer: kernel %q is not \"poly\" or \"rbf\"", kind)
	}
	d, err := perceptron.Circles(100, 0.05, 1)
	if err != nil {
		return nil, "", err
	}
	m, err := lesson09Kernel(d, k)
	if err != nil {
		return nil, "", err
	}
	e, err := m.Errors(d)
	if err != nil {
		return nil, "", err
	}
	active := 0
	for _, a := range m.Alpha {
		if a > 0 {
			active++
		}
	}
	caption := fmt.Sprintf("%v: converged %v after %d epochs, %d updates, %d training errors, %d of %d rows with α_i > 0",
		k, m.Converged, m.Epochs, m.Updates, e, active, d.N())
	p, err := KernelRegions(d, m, fmt.Sprintf("Two circles, kernel %v: %d training errors", k, e))
	if err != nil {
		return nil, "", err
	}
	return p, caption, nil
}

func init() {
	registerPlot("09_kernel_explorer.png", func() (*plot.Plot, error) {
		p, _, err := KernelExplorer("rbf", 50)
		return p, err
	})
	registerPlot("09_alpha.png", func() (*plot.Plot, error) {
		d, err := perceptron.Iris().Binary(0, 1, 0, 2)
		if err != nil {
			return nil, err
		}
		r, err := perceptron.Dual(d, perceptron.Options{})
		if err != nil {
			return nil, err
		}
		return AlphaCounts(r.Alpha, "Dual perceptron on iris: mistakes per flower")
	})
	registerPlot("09_xor_poly.png", func() (*plot.Plot, error) {
		d := perceptron.XORData()
		m, err := lesson09Kernel(d, perceptron.PolyKernel{Degree: 2, C: 1})
		if err != nil {
			return nil, err
		}
		return KernelRegions(d, m, "XOR with the kernel (x·z + 1)²")
	})
	for _, c := range []struct {
		name, title string
		k           perceptron.Kernel
	}{
		{"09_circles_poly.png", "Two circles with the kernel (x·z + 1)²", perceptron.PolyKernel{Degree: 2, C: 1}},
		{"09_circles_rbf.png", "Two circles with the RBF kernel exp(-2||x - z||²)", perceptron.RBFKernel{Gamma: 2}},
	} {
		registerPlot(c.name, func() (*plot.Plot, error) {
			d, err := perceptron.Circles(100, 0.05, 1)
			if err != nil {
				return nil, err
			}
			m, err := lesson09Kernel(d, c.k)
			if err != nil {
				return nil, err
			}
			return KernelRegions(d, m, c.title)
		})
	}
}
