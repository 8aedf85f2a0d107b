package vtt

import (
	"testing"

	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusFiles parses every WebVTT file of the shared corpus (WPT cue
// text tests, mozilla/vtt.js, and the rest): no panic, well-formed
// diagnostics, and a clean round trip through Write.
func TestCorpusFiles(t *testing.T) {
	t.Parallel()
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		track, diags := golden.MustParse(t, Parse, c.Input)
		checkDiagnostics(t, diags)
		if track.Source == nil || track.Source.Format != Format {
			t.Errorf("source = %+v", track.Source)
		}
		checkRoundTrip(t, c.Input)
	}, ".vtt")
}
