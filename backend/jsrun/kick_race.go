//go:build race

package jsrun

import "modernc.org/quickjs"

// kickSupported is false in race builds: the kick (see kick.go) writes into
// the engine's memory without synchronisation, which the race detector
// reports. There the runner relies on the eval timeout and Interrupt, which
// stop ordinary loops on time but let a loop of heavy built-in calls
// overrun its deadline.
const kickSupported = false

func newKicker(*quickjs.VM) func() { return nil }
