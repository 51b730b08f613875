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
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

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
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			line.Color = plots.ReddishPurple
		}
		p.Add(line)
		p.Legend.Add(l.name, line)
	}
	return nil
}
