package engine

import (
	"context"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusKeepsText: every file of the shared corpus delivered for a
// plain-text platform, its speakers written as labels before the fixes
// split and re-wrap it, keeps all its text in order: EN 301 549 7.1.3
// finds no text lost in a cue (a finding without a cue is content the
// reader had to leave out).
func TestCorpusKeepsText(t *testing.T) {
	eng := newTestEngine(t)
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		for _, prof := range []string{"warn-only", "auto-split-cps"} {
			res, err := eng.Process(context.Background(), Request{Filename: c.Name, Data: c.Input,
				Preset: "generic", FixProfile: prof, Standard: "en-301-549"})
			if err != nil {
				return // not a file the engine delivers: the readers' tests cover it
			}
			for _, cl := range res.Report.Standard.Clauses {
				if cl.ID != "7.1.3" {
					continue
				}
				for _, f := range cl.Findings {
					if f.Code == "text_lost" && f.CueIndex != nil {
						t.Errorf("%s: %s", prof, f.Message)
					}
				}
			}
		}
	}, ".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".xml")
}
