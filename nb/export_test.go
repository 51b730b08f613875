package nb

import "time"

// SetProbeWait sets how long Connected waits for the browser and returns
// the function that restores it.
func SetProbeWait(d time.Duration) (restore func()) {
	old := probeWait
	probeWait = d
	return func() { probeWait = old }
}
