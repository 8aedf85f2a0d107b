//go:build race

package format

const raceEnabled = true
