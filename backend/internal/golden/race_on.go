//go:build race

package golden

// raceEnabled reports whether the race detector, which slows the readers
// down several times, is on.
const raceEnabled = true
