package view

import (
	"encoding/base64"
	"strings"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron/plots"
)

// DisplayAlt draws p as a vector figure (plots.SVG) and shows it inline in
// the GoNB notebook as an HTML <img> (SVGHTML) that scales to the cell's
// width and follows a dark theme, whose alt attribute is alt (with the
// PNG of plots.PNG beside it, as image/png, for saved notebooks and tools
// that show no HTML): the sentence a
// screen reader speaks (and a browser shows if the image cannot load) in
// place of the figure. It returns an error, and displays nothing, if alt
// is blank: every figure of the pack says what it shows. Outside a
// notebook it returns ErrNotNotebook. Like Display, it returns once GoNB
// has acknowledged the figure.
func DisplayAlt(p *plot.Plot, width, height vg.Length, alt string) error {
	if strings.TrimSpace(alt) == "" {
		return errorf("display: no alt text: say in a sentence what the figure shows")
	}
	if !gonbui.IsNotebook {
		return notNotebook()
	}
	b, err := plots.PNG(p, width, height)
	if err != nil {
		return err
	}
	svg, err := plots.SVG(p, width, height)
	if err != nil {
		return err
	}
	displayFigure(b, svg, alt)
	gonbui.Sync() // as in Display
	return gonbui.Error()
}

// ShowAlt is DisplayAlt at the size of the committed figures
// (plots.Width × plots.Height), as Show is for Display.
func ShowAlt(p *plot.Plot, alt string) error {
	return DisplayAlt(p, plots.Width, plots.Height, alt)
}

// displayFigure sends one figure as one output with two forms: the PNG
// bytes b as image/png, which tools that show no HTML use, and text/html,
// the SVG as an <img> with alt text (SVGHTML), which JupyterLab, Notebook
// and nbconvert's HTML prefer to show.
func displayFigure(b, svg []byte, alt string) {
	gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMEImagePNG: b,
		protocol.MIMETextHTML: SVGHTML(svg, alt),
	}})
}

// FigureClass is the class of every figure's <img> that SVGHTML makes.
const FigureClass = "plots-figure"

// figureStyle fits a figure to any screen: as wide as the cell up to the
// figure's own width at 100 % zoom (40em, about 1.3 times its 14 cm), its
// height following the width, and no taller than 45 % of the window, so
// that a live figure's controls and caption fit above it on a 1024×768
// window and at 200 % zoom (a 384 px high window, less JupyterLab's bars).
// The white box behind it is for a dark theme when the <style> of
// darkStyle is stripped (a notebook not trusted): black ink must not sit
// on a dark page.
const figureStyle = "display: block; width: 100%; max-width: 40em; height: auto; max-height: 45vh; " +
	"object-fit: contain; object-position: left top; background-color: white"

// darkStyle makes the figures read in a dark theme (JupyterLab and Notebook 7
// mark the page with data-jp-theme-light="false"): the figure's black ink
// turns light and its transparent background shows the page, with the data
// colours' hues kept (inverted, then turned half a circle back).
const darkStyle = `<style>[data-jp-theme-light="false"] img.` + FigureClass +
	` { filter: invert(1) hue-rotate(180deg); background-color: transparent !important; }</style>`

// SVGHTML returns an HTML <img> that shows the SVG document svg from a data
// URL, with alt (HTML-escaped) as its alt text, the class FigureClass, the
// style that scales it to the cell's width, and the <style> that makes it
// read in a dark theme.
func SVGHTML(svg []byte, alt string) string {
	return `<img alt="` + escapeAttr(alt) + `" class="` + FigureClass + `" style="` + figureStyle +
		`" src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString(svg) + `">` + darkStyle
}

func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// PNGHTML returns an HTML <img> that shows the PNG bytes b from a data URL,
// with alt (HTML-escaped) as its alt text.
func PNGHTML(b []byte, alt string) string {
	return `<img alt="` + escapeAttr(alt) + `" src="data:image/png;base64,` +
		base64.StdEncoding.EncodeToString(b) + `">`
}
