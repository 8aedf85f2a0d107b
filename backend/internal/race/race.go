// Package race says whether the race detector is built in, and skips the
// tests that cannot run under it.
//
// make test runs every test with -race first, then, in a pass without the
// detector, every test that calls Skip, reads Enabled or runs a scaling
// check (the norace command lists them from the sources), so a test that
// steps aside under -race still runs once in every full run (see
// build/test.sh).
package race

import "testing"

// Skip skips the test in a race build, saying why; elsewhere it does nothing.
// Call it in the Test function itself (or a closure in it), where norace
// finds it.
func Skip(tb testing.TB, why string) {
	tb.Helper()
	if Enabled {
		tb.Skipf("race build: %s; make test runs this test again without -race", why)
	}
}
