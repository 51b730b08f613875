// Package figures builds every figure that the README and the lessons show.
// Each lesson's file (lesson01.go, …) exports the builders its notebook
// calls, and registers the figures it shows under a file name, computed with
// fixed seeds, so that
//
//	go run ./figures/regen
//
// rewrites this folder's PNG and GIF files byte-identically from the
// perceptron package alone. The test of this package checks that two
// renderings are equal and that the committed files are up to date.
package figures

import (
	"fmt"
	"image/color"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// Width and Height are the size of every PNG figure (plots.Width and
// plots.Height; the lessons' cells name them here).
const (
	Width  = plots.Width
	Height = plots.Height
)

// Figure is one file of this folder: its name (with extension) and the
// function that computes its bytes.
type Figure struct {
	Name string
	Make func() ([]byte, error)
}

var registry = map[string]Figure{}

// register adds a figure; each lesson's file registers its own in init.
func register(name string, make func() ([]byte, error)) {
	if _, dup := registry[name]; dup {
		panic("figures: duplicate figure " + name)
	}
	registry[name] = Figure{Name: name, Make: make}
}

// registerPlot adds a PNG figure of size Width × Height built by build.
func registerPlot(name string, build func() (*plot.Plot, error)) {
	register(name, func() ([]byte, error) {
		p, err := build()
		if err != nil {
			return nil, err
		}
		return plots.PNG(p, Width, Height)
	})
}

// All returns every registered figure, sorted by name.
func All() []Figure {
	out := make([]Figure, 0, len(registry))
	for _, f := range registry {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the figure with the given file name.
func Lookup(name string) (Figure, error) {
	f, ok := registry[name]
	if !ok {
		return Figure{}, fmt.Errorf("figures: no figure %q", name)
	}
	return f, nil
}

// namedBoundary is a hyperplane whose boundary a figure draws with a legend
// entry, dashed in reddish purple when dash is set.
type namedBoundary struct {
	name string
	h    perceptron.Hyperplane
	dash bool
}

// addBoundaries adds each boundary, clipped to box, and its legend entry.
func addBoundaries(p *plot.Plot, box plots.Box, lines ...namedBoundary) error {
	for _, l := range lines {
		line, err := plots.Boundary(l.h, box)
		if err != nil {
			return fmt.Errorf("figures: %s: %w", l.name, err)
		}
		if l.dash {
			dash(&line.LineStyle, 5, 3)
			line.Color = plots.ReddishPurple
		}
		addWithLegend(p, l.name, line)
	}
	return nil
}

// boundariesFigure draws the 2-D data d (columns 0 and 1) with the named
// boundaries, on equal scales (the lines' angles are true). The canvas is
// wider than the data: all the spare width goes to the right of the data,
// where the legend sits, and the lines stop at the data's box (grown by
// 5 %), so the axis runs past the data by no more than that spare width.
// under, when not nil, adds what lies below the points over that box, such
// as decision regions.
func boundariesFigure(d *perceptron.Dataset, title string, under func(p *plot.Plot, box plots.Box) error, lines ...namedBoundary) (*plot.Plot, error) {
	p := plots.New(title, "x1", "x2")
	box, err := plots.BoxOf(d, 0, 1, 0.05)
	if err != nil {
		return nil, err
	}
	if err := plots.EqualAxes(p, box, Width, Height); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = box.XMin, box.XMin+(p.X.Max-p.X.Min)
	if under != nil {
		if err := under(p, box); err != nil {
			return nil, err
		}
	}
	if err := plots.AddPoints(p, d, 0, 1); err != nil {
		return nil, err
	}
	if err := addBoundaries(p, box, lines...); err != nil {
		return nil, err
	}
	return p, nil
}

// addRegions adds the decision regions of the 2-D model m over the box
// (plots.Regions at the given resolution) and their legend entries: pos
// for the light blue where m scores > 0, neg for the light orange where it
// scores < 0, each a swatch outlined in the colour edge, 0.5 points wide
// (no outline when edge is nil).
func addRegions(p *plot.Plot, m perceptron.Model, box plots.Box, resolution int, pos, neg string, edge color.Color) error {
	regions, err := plots.Regions(func(x, y float64) float64 {
		s, _ := m.Score([]float64{x, y})
		return s
	}, box, resolution)
	if err != nil {
		return err
	}
	p.Add(regions)
	for _, r := range []struct {
		name string
		c    color.Color
	}{{pos, plots.PosLight}, {neg, plots.NegLight}} {
		swatch := &plotter.Polygon{Color: r.c}
		if edge != nil {
			swatch.LineStyle.Color, swatch.LineStyle.Width = edge, vg.Points(0.5)
		}
		p.Legend.Add(r.name, swatch)
	}
	return nil
}

// The glyphs that mark single points of the figures.
var (
	ring    draw.GlyphDrawer = draw.RingGlyph{}
	cross   draw.GlyphDrawer = draw.CrossGlyph{}
	square  draw.GlyphDrawer = draw.BoxGlyph{}
	dot     draw.GlyphDrawer = draw.CircleGlyph{}
	pyramid draw.GlyphDrawer = draw.PyramidGlyph{}
)

// mark returns the points xys drawn as the glyph shape, of the given
// radius in points and colour c: a ring round the nearest point, a cross
// on a mistake.
func mark(shape draw.GlyphDrawer, radius float64, c color.Color, xys ...plotter.XY) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(plotter.XYs(xys))
	if err != nil {
		return nil, err
	}
	s.GlyphStyle = draw.GlyphStyle{Shape: shape, Radius: vg.Points(radius), Color: c}
	return s, nil
}

// legendPlotter is a plotter with a thumbnail for the legend, as most of
// gonum/plot's are.
type legendPlotter interface {
	plot.Plotter
	plot.Thumbnailer
}

// addWithLegend adds pl to p, drawn over what p holds, and its legend entry
// name after p's others.
func addWithLegend(p *plot.Plot, name string, pl legendPlotter) {
	p.Add(pl)
	p.Legend.Add(name, pl)
}

// dash makes the line style ls dashed: on points drawn, then off points
// left out, in turn.
func dash(ls *draw.LineStyle, on, off float64) {
	ls.Dashes = []vg.Length{vg.Points(on), vg.Points(off)}
}
