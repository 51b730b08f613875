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

// DisplayAlt renders p with plots.PNG and shows it inline in the GoNB
// notebook as an HTML <img> whose alt attribute is alt (with the PNG
// itself beside it, as image/png, for saved notebooks): the sentence a
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
	displayPNGAlt(b, alt)
	gonbui.Sync() // as in Display
	return gonbui.Error()
}

// ShowAlt is DisplayAlt at the size of the committed figures
// (plots.Width × plots.Height), as Show is for Display.
func ShowAlt(p *plot.Plot, alt string) error {
	return DisplayAlt(p, plots.Width, plots.Height, alt)
}

// displayPNGAlt sends the PNG bytes b as one output with two forms: the
// image/png that a saved notebook and nbconvert keep, and text/html, an
// <img> with alt text (PNGHTML), which JupyterLab and Notebook prefer to
// show.
func displayPNGAlt(b []byte, alt string) {
	gonbui.SendData(&protocol.DisplayData{Data: map[protocol.MIMEType]any{
		protocol.MIMEImagePNG: b,
		protocol.MIMETextHTML: PNGHTML(b, alt),
	}})
}

// PNGHTML returns an HTML <img> that shows the PNG bytes b from a data URL,
// with alt (HTML-escaped) as its alt text.
func PNGHTML(b []byte, alt string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return `<img alt="` + r.Replace(alt) + `" src="data:image/png;base64,` +
		base64.StdEncoding.EncodeToString(b) + `">`
}
