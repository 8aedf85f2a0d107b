//go:build !race

package fix

// raceEnabled says the race detector slows this test binary down.
const raceEnabled = false
