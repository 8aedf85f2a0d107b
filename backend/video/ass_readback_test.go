package video

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/readback"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestWriteASSReadBack writes each read-back input (readback.Inputs) as
// the ASS script a burn-in or an ASS track gets, reads it with ffmpeg and
// compares what ffmpeg got with the track, cue by cue: every cue with
// duration and visible text, its text as a viewer reads it
// (readback.Text, with "{", "}" and "\" as the look-alikes writeASS
// writes for them) and its times within the 10 ms of ASS's centiseconds.
func TestWriteASSReadBack(t *testing.T) {
	t.Parallel()
	for _, rel := range readback.Inputs() {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(corpus.Path(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			_, track, _, err := format.Read(filepath.Base(rel), "", data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "subs.ass")
			if err := os.WriteFile(path, writeASS(track, 1280, 720), 0o600); err != nil {
				t.Fatal(err)
			}
			var got []readback.Cue
			for _, c := range fftest.ReadSubtitles(t, path, "ass") {
				got = append(got, readback.Cue{StartMs: c.Start.Milliseconds(), EndMs: c.End.Milliseconds(), Text: c.Text})
			}
			var want []caption.Cue
			for _, c := range track.Cues {
				if c.EndMs > c.StartMs && strings.TrimSpace(c.Text) != "" {
					c.Text = assLookalikes.Replace(c.Text)
					want = append(want, c)
				}
			}
			readback.Compare(t, "ffmpeg", got, want, 10)
		})
	}
}

// assLookalikes is what writeASS writes for the characters ASS has no
// escape for (see assText). A read-only table.
var assLookalikes = strings.NewReplacer("{", "(", "}", ")", `\`, "∖")
