//go:build race

package ttml

// slowdown scales time limits: the race detector makes code 5-20x slower.
const slowdown = 20
