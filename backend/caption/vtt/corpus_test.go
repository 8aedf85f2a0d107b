package vtt

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// TestCorpusFiles parses every WebVTT file of the shared corpus (WPT cue
// text tests, mozilla/vtt.js, and the rest): no panic, well-formed
// diagnostics, and a clean round trip through Write.
func TestCorpusFiles(t *testing.T) {
	t.Parallel()
	files := corpus.Glob(t, ".", ".vtt")
	if len(files) == 0 {
		t.Skip("no .vtt files in the corpus")
	}
	root := corpus.Dir(t)
	for _, path := range files {
		rel, _ := filepath.Rel(root, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			track, diags, err := Parse(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			checkDiagnostics(t, diags)
			if track.Source == nil || track.Source.Format != Format {
				t.Errorf("source = %+v", track.Source)
			}
			checkRoundTrip(t, src)
		})
	}
}
