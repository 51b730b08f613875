package nb

import "time"

// SetFrameBudget sets how many frames Explore draws ahead at most and for
// how long, and returns the function that restores them.
func SetFrameBudget(frames int, d time.Duration) (restore func()) {
	oldFrames, oldTime := maxFrames, frameTime
	maxFrames, frameTime = frames, d
	return func() { maxFrames, frameTime = oldFrames, oldTime }
}
