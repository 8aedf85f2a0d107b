//go:build race

package race

// Enabled is true in a build with the race detector.
const Enabled = true
