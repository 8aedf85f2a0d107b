// Package archtest holds the test that enforces the dependency rules of
// the architecture: which packages may import Wails, echo, SQL, ffmpeg, the
// JS engine and net/http, which layer may import which, and that no package
// keeps mutable state at package level.
package archtest
