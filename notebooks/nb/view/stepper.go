package view

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Stepper shows frames one at a time in a GoNB notebook with Explore: one
// slider, "frame", over 1..len(frames), starting at the last frame. Position
// k shows frames[k-1] under the caption "Frame k of n: " + caption(k). As
// with Explore, the cell leaves the last frame as its still figure, the
// browser steps through the frames with no kernel (so Run All goes on), and
// Stepper returns len(frames) at once; more frames than Explore draws ahead
// are thinned evenly (the first and last are always there). Outside a
// notebook it returns ErrNotNotebook.
//
// Each frame is rendered once; a nil caption function shows the bare
// "Frame k of n".
func Stepper(frames []*plot.Plot, width, height vg.Length, caption func(k int) string) (int, error) {
	return stepper(nil, frames, width, height, caption)
}

// StepperAlt is Stepper with alt text for every frame, as ExploreAlt is
// Explore with alt text: alt(k) says what frame k (1..len(frames)) shows;
// the still figure (the last frame) has alt(len(frames)), and stepping
// swaps the alt text with the frame. A nil alt, or a blank alt text, is an
// error.
func StepperAlt(alt func(k int) string, frames []*plot.Plot, width, height vg.Length, caption func(k int) string) (int, error) {
	if alt == nil {
		return 0, errorf("stepper: no alt text: say in a sentence what the figure shows")
	}
	return stepper(func(v Values, _ string) string { return alt(v.Int("frame")) }, frames, width, height, caption)
}

func stepper(alt AltFunc, frames []*plot.Plot, width, height vg.Length, caption func(k int) string) (int, error) {
	n := len(frames)
	if n == 0 {
		return 0, errorf("stepper: no frames")
	}
	for k, f := range frames {
		if f == nil {
			return 0, errorf("stepper: frame %d is nil", k+1)
		}
	}
	if n == 1 {
		return 0, errorf("stepper: 1 frame, want at least 2 to step through (show one with Display)")
	}
	v, err := explore(alt, width, height, func(v Values) (*plot.Plot, string, error) {
		k := v.Int("frame")
		text := fmt.Sprintf("Frame %d of %d", k, n)
		if caption != nil {
			text += ": " + caption(k)
		}
		return frames[k-1], text, nil
	}, []Control{Slider("frame", 1, float64(n), 1, float64(n))})
	if err != nil {
		return 0, err
	}
	return v.Int("frame"), nil
}
