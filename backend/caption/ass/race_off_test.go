//go:build !race

package ass

// raceEnabled reports whether the race detector, which slows the reader
// several times over, is on.
const raceEnabled = false
