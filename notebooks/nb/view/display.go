package view

import (
	"fmt"

	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// Display renders p with plots.PNG and shows it inline in the GoNB notebook
// that runs the program. Outside a notebook it renders nothing and returns
// ErrNotNotebook; it also returns the error of the GoNB connection, if any.
// It returns once GoNB has acknowledged the figure (gonbui.Sync).
func Display(p *plot.Plot, width, height vg.Length) error {
	if !gonbui.IsNotebook {
		return notNotebook()
	}
	b, err := plots.PNG(p, width, height)
	if err != nil {
		return err
	}
	gonbui.DisplayPNG(b)
	gonbui.Sync() // wait until GoNB has the figure: a cell that ends at once could lose it
	return gonbui.Error()
}

// DisplayGIF shows an animated GIF (made by plots.GIF) inline in the GoNB
// notebook as an HTML <img> with a data URL (plots.GIFHTML), since GoNB
// has no GIF MIME type of its own. Outside a notebook it returns
// ErrNotNotebook.
func DisplayGIF(gifBytes []byte, alt string) error {
	if !gonbui.IsNotebook {
		return notNotebook()
	}
	if len(gifBytes) == 0 {
		return errorf("display gif: no bytes")
	}
	gonbui.DisplayHTML(plots.GIFHTML(gifBytes, alt))
	gonbui.Sync() // as in Display
	return gonbui.Error()
}

// Show displays p at the size of the committed figures (plots.Width ×
// plots.Height), so that a lesson shows exactly the file in the figures
// folder. Like Display, it returns once GoNB has the figure.
func Show(p *plot.Plot) error {
	return Display(p, plots.Width, plots.Height)
}

// errorf returns an error whose message starts with "view: ".
func errorf(format string, args ...any) error {
	return fmt.Errorf("view: "+format, args...)
}
