package view

import "time"

// SetFrameBudget sets how many frames Explore draws ahead at most and for
// how long, and returns the function that restores them.
func SetFrameBudget(frames int, d time.Duration) (restore func()) {
	oldFrames, oldTime := maxFrames, frameTime
	maxFrames, frameTime = frames, d
	return func() { maxFrames, frameTime = oldFrames, oldTime }
}

// DrawnAhead draws the frames of Explore's controls with a deadline that
// has passed, and returns each frame's values and error, in order.
func DrawnAhead(render RenderFunc, controls ...Control) (values, errs []string, err error) {
	v := Values{controls: controls, pos: make([]int, len(controls))}
	for i, c := range controls {
		v.pos[i] = c.pos
	}
	first, err := renderValues(render, nil, v, 72, 72, false)
	if err != nil {
		return nil, nil, err
	}
	fig := drawAhead(render, nil, v, lattice(controls, v.pos, maxFrames), first, 72, 72, time.Time{})
	for _, f := range fig.Frames {
		values = append(values, f.Values)
		errs = append(errs, f.Error)
	}
	return values, errs, nil
}

// LiveFigureScript is the browser's side of a live figure.
func LiveFigureScript() string { return liveFigureScript }
