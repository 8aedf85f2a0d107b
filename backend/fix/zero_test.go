package fix

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// A cue of no duration (invalid_timestamp: no player shows it) gets the
// time to be read from the free time around it under every profile but
// warn-only, whatever the duration targets: MinDurationMs, else 833 ms,
// or what its text needs at MaxCPS (else 20 cps) when that is more;
// never into the next cue.
func TestZeroLengthCueTimed(t *testing.T) {
	t.Parallel()
	delivery := Targets{MaxCharsPerLine: 42, MaxLines: 2, MaxCPS: 20, Overlaps: true, EmptyCues: true}
	aided := delivery
	aided.MinDurationMs, aided.MaxDurationMs, aided.MinGapMs = 833, 7000, 84
	long := "We walked along the harbour wall for an hour." // 45 characters: 2250 ms at 20 cps
	tests := []struct {
		name       string
		tg         Targets
		in         []caption.Cue
		start, end int64 // the cue's times after the fix
		// cpsStart, when set, is its start under auto-split-cps, which
		// may borrow more time before it to meet MaxCPS.
		cpsStart int64
	}{
		{"delivery targets, 2 s free after", delivery,
			[]caption.Cue{cue("1", 1000, 1000, "Hello there."), cue("2", 3000, 5000, "Second cue here.")}, 1000, 1833, 0},
		{"aided targets, 2 s free after", aided,
			[]caption.Cue{cue("1", 1000, 1000, "Hello there."), cue("2", 3000, 5000, "Second cue here.")}, 1000, 1833, 0},
		{"no targets but overlaps", Targets{Overlaps: true},
			[]caption.Cue{cue("1", 1000, 1000, "Hello there."), cue("2", 3000, 5000, "Second cue here.")}, 1000, 1833, 0},
		{"text needs more than the minimum", delivery,
			[]caption.Cue{cue("1", 1000, 1000, long), cue("2", 5000, 7000, "Second cue here.")}, 1000, 3250, 0},
		{"end before start", delivery,
			[]caption.Cue{cue("1", 1000, 400, "Hello there."), cue("2", 3000, 5000, "Second cue here.")}, 1000, 1833, 0},
		{"little room: up to the next cue, then earlier", aided,
			[]caption.Cue{cue("0", 0, 500, "Before."), cue("1", 1000, 1000, "Hello there."), cue("2", 1500, 3500, "Second cue here.")}, 800, 1416, 0},
		{"the next cue at the same time", delivery,
			[]caption.Cue{cue("1", 1000, 1000, "Hello there."), cue("2", 1000, 3000, "Second cue here.")}, 800, 1000, 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &caption.Track{Cues: tt.in}
			for _, p := range []Profile{LayoutPreserveBreaks, AutoSplitSentences, AutoSplitCPS} {
				res := Apply(in, p, tt.tg)
				k := 0
				for k < len(in.Cues) && in.Cues[k].ID != "1" {
					k++
				}
				c := res.Track.Cues[k]
				start := tt.start
				if p == AutoSplitCPS && tt.cpsStart != 0 {
					start = tt.cpsStart
				}
				if c.StartMs != start || c.EndMs != tt.end {
					t.Errorf("%s: cue %d at %d–%d, want %d–%d; changes %+v", p, k, c.StartMs, c.EndMs, start, tt.end, res.Changes)
				}
				if k+1 < len(res.Track.Cues) && c.EndMs > res.Track.Cues[k+1].StartMs {
					t.Errorf("%s: the cue ends at %d, into the next cue at %d", p, c.EndMs, res.Track.Cues[k+1].StartMs)
				}
				reported := false
				for _, ch := range res.Changes {
					reported = reported || ch.Code == codeInvalidTime && ch.CueIndex == k && (ch.Action == ActionExtendEnd || ch.Action == ActionMoveStart)
				}
				if !reported {
					t.Errorf("%s: the timing is not reported as an invalid_timestamp repair: %+v", p, res.Changes)
				}
			}
			if res := Apply(in, WarnOnly, tt.tg); !reflect.DeepEqual(res.Track, in) {
				t.Errorf("warn-only edited the track")
			}
		})
	}
}
