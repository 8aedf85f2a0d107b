//go:build !race

package jsrun

// raceBuild is true in a build with the race detector, where the engine
// runs many times slower and the watchdog's kick is left out.
const raceBuild = false
