package plots

import (
	"encoding/base64"
	"fmt"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Stepper shows frames one at a time in a GoNB notebook, under a slider
// over 1..len(frames) and a Done button: moving the slider shows frame k
// with the caption caption(k) (frame k is frames[k-1]; the slider starts at
// the last frame). When Done is clicked the live controls are removed, the
// chosen frame stays in the notebook as a still figure, and Stepper returns
// its number k.
//
// Stepper blocks while the slider is live, so it needs a browser: a
// notebook executed headless (nbconvert, CI) would wait forever. Outside a
// notebook it returns ErrNotNotebook. Each frame is rendered once, by PNG.
func Stepper(frames []*plot.Plot, width, height vg.Length, caption func(k int) string) (int, error) {
	if !gonbui.IsNotebook {
		return 0, ErrNotNotebook
	}
	n := len(frames)
	if n == 0 {
		return 0, errorf("stepper: no frames")
	}
	imgs := make([]string, n)
	for k, f := range frames {
		png, err := PNG(f, width, height)
		if err != nil {
			return 0, errorf("stepper: frame %d: %v", k+1, err)
		}
		imgs[k] = `<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `">`
	}
	figID := "stepper_figure_" + gonbui.UniqueID()
	show := func(k int) {
		gonbui.UpdateHTML(figID, fmt.Sprintf(`<p class="stepper-caption" data-frame="%d">Frame %d of %d: %s</p>%s`,
			k, k, n, caption(k), imgs[k-1]))
	}

	// The controls live in a transient block, removed when Done is clicked.
	controls := dom.CreateTransientDiv()
	row := "stepper_controls_" + gonbui.UniqueID()
	dom.Append(controls, fmt.Sprintf(`<div id="%s" style="display: flex; align-items: center; gap: 0.5em; max-width: 36em"><b>Frame</b> <span>1</span></div>`, row))
	slider := widgets.Slider(1, n, n).AppendTo(row).Done()
	dom.Append(row, fmt.Sprintf("<span>%d</span>", n))
	button := widgets.Button("Done").AppendTo(row).Done()
	show(n)
	moves, clicks := slider.Listen().LatestOnly(), button.Listen()
	for k := n; ; {
		select {
		case v := <-moves.C:
			k = min(max(v, 1), n)
			show(k)
		case <-clicks.C:
			moves.Close()
			clicks.Close()
			gonbui.UpdateHTML(figID, "")
			dom.Remove(controls)
			return k, Display(frames[k-1], width, height)
		}
	}
}
