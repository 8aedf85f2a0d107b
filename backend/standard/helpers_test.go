package standard

import (
	"os"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// loadReal loads the shipped catalogues.
func loadReal(t testing.TB) *Set {
	t.Helper()
	s, err := Load(os.DirFS("../../assets/standards"))
	if err != nil {
		t.Fatalf("Load(assets/standards): %v", err)
	}
	return s
}

func cue(startMs, endMs int64, text string) caption.Cue {
	return caption.Cue{StartMs: startMs, EndMs: endMs, Text: text}
}

func track(cues ...caption.Cue) *caption.Track {
	if cues == nil {
		cues = []caption.Cue{}
	}
	return &caption.Track{Version: caption.Version, Cues: cues}
}

// clone deep-copies the cue slice so a test can edit one track and keep
// the other as it was.
func clone(t *caption.Track) *caption.Track {
	c := *t
	c.Cues = append([]caption.Cue(nil), t.Cues...)
	return &c
}

// cleanTrack passes every numeric DCMP and FCC threshold: 3 s cues of
// short mixed-case lines, 2 per line at most, well under 160 wpm.
func cleanTrack() *caption.Track {
	return track(
		cue(1000, 4000, "Welcome back to the show."),
		cue(4500, 7500, "Tonight we talk about\nthe tide tables."),
		cue(8000, 11000, "[waves crashing]"),
		cue(11500, 14500, "- Marta, are you there?\n- I'm right here."),
		cue(15000, 18000, "♪ Row, row, row your boat ♪"),
	)
}

// cleanInput is cleanTrack converted to outFormat without change and read
// back identically.
func cleanInput(outFormat string) Input {
	src := cleanTrack()
	src.Language = "en"
	del := clone(src)
	return Input{
		Source: src, Delivery: del, OutputFormat: outFormat,
		Reparse:         &Reparse{Track: clone(del)},
		MediaDurationMs: 20000,
	}
}

// clauseOf grades in against standard std and returns the clause id.
func clauseOf(t *testing.T, s *Set, std, id string, in Input) Clause {
	t.Helper()
	r, err := s.Grade(std, in)
	if err != nil {
		t.Fatalf("Grade(%s): %v", std, err)
	}
	for _, c := range r.Clauses {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("%s has no clause %q", std, id)
	return Clause{}
}

func codes(ds []caption.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Code
	}
	return out
}
