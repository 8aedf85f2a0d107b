//go:build race

package httpapi_test

// raceEnabled: the race detector slows the JavaScript engine about ten
// times, and jsrun's interrupt kick is not built in, so tests keep to the
// scripts whose limits need neither.
const raceEnabled = true
