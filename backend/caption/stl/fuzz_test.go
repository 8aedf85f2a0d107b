package stl

import (
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// FuzzParse checks that no input makes Parse panic and that what it
// gives keeps the invariants. The seeds are the golden inputs.
func FuzzParse(f *testing.F) {
	suite().Fuzz(f, func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
		checkInvariants(t, tr, diags)
	})
}
