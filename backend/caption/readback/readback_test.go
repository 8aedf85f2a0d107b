package readback

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// TestInputs reads every read-back input: each is in the corpus and gives
// cues to every caption format, so that no read-back test compares two
// empty lists.
func TestInputs(t *testing.T) {
	t.Parallel()
	for _, rel := range Inputs() {
		data, err := os.ReadFile(corpus.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		_, track, _, err := format.Read(filepath.Base(rel), "", data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, f := range []string{format.SRT, format.VTT, format.SCC} {
			if len(Delivered(f, track)) == 0 {
				t.Errorf("%s: no cue delivered in %s", rel, f)
			}
		}
	}
}

// TestCompare compares cues read back with an SRT file's: the same cues
// in another order, times within the tolerance and text folded as Text
// says pass; a missing cue, a time off or other text fail.
func TestCompare(t *testing.T) {
	t.Parallel()
	want := Delivered(format.SRT, trackOf(
		cue(1000, 2000, "<LAUGHING & WHOOPS!>"), cue(1000, 3000, "Two\nlines"), cue(4000, 5000, "It's"), cue(6000, 7000, " "),
	))
	tests := []struct {
		name string
		got  []Cue
		tol  Times
		ok   bool
	}{
		{"the same, in the browser's order", []Cue{{1000, 3000, "Two lines"}, {1000, 2000, "\u2039LAUGHING & WHOOPS!\u203a"}, {4000, 5000, "It\u2019s"}}, 0, true},
		{"times within the tolerance", []Cue{{1010, 2000, "\u2039LAUGHING & WHOOPS!\u203a"}, {1000, 2990, "Two  lines "}, {4000, 5000, "It's"}}, 10, true},
		{"a time off", []Cue{{1011, 2000, "\u2039LAUGHING & WHOOPS!\u203a"}, {1000, 3000, "Two lines"}, {4000, 5000, "It's"}}, 10, false},
		{"times not compared", []Cue{{0, 1, "Two lines"}, {2, 3, "\u2039LAUGHING & WHOOPS!\u203a"}, {4, 5, "It's"}}, NoTimes, true},
		{"a cue missing", []Cue{{1000, 3000, "Two lines"}, {4000, 5000, "It's"}}, 0, false},
		{"text lost", []Cue{{1000, 2000, ""}, {1000, 3000, "Two lines"}, {4000, 5000, "It's"}}, 0, false},
		{"the text as it was, not as SRT writes it", []Cue{{1000, 2000, "<LAUGHING & WHOOPS!>"}, {1000, 3000, "Two lines"}, {4000, 5000, "It's"}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var rec recorder
			Compare(&rec, "reader", tt.got, want, tt.tol)
			if rec.failed == tt.ok {
				t.Errorf("Compare failed: %v, want %v (%s)", rec.failed, !tt.ok, rec.msg)
			}
		})
	}
}

// recorder is a testing.TB that records a failure instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = format
}

func trackOf(cues ...caption.Cue) *caption.Track {
	return &caption.Track{Version: caption.Version, Cues: cues}
}

func cue(start, end int64, text string) caption.Cue {
	return caption.Cue{StartMs: start, EndMs: end, Text: text}
}
