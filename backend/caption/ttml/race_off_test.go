//go:build !race

package ttml

// slowdown scales time limits: 1 without the race detector.
const slowdown = 1
