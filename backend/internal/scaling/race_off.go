//go:build !race

package scaling

// raceDetector is true in a build with the race detector.
const raceDetector = false
