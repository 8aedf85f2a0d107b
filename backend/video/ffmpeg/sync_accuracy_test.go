package ffmpeg

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/rules"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// TestSyncOnProgrammes is the sync estimate measured end to end on
// spoken programmes (docs/media-checks.md): the speech the analysis
// finds against captions timed on the true speech (each staying up
// 400 ms after it, as reading time asks), shifted by -12 s to +12 s,
// with and without a music bed. The error is the estimated correction
// against the true shift: median at most 40 ms, every one at most 80 ms.
// Captions timed at 23.976 fps on 25 fps media are found drifted, and
// after the resync every cue starts within 80 ms of its speech; every
// line whose cue is removed is found uncaptioned, and none of complete
// captions.
func TestSyncOnProgrammes(t *testing.T) {
	programme.Need(t)
	r, store := newTestRunner(t, nil)
	var errs []float64
	for _, p := range []struct {
		name string
		spec programme.Spec
	}{
		// About 96 s, so that a 12 s shift leaves most cues over the
		// programme, and spoken at an uneven pace, as people speak: lines
		// at a steady beat fit a shift of one beat almost as well.
		{"clean", programme.Spec{Lines: unevenLines(20), Scenes: scenes([]string{"testsrc2", "smptebars", "rgbtestsrc"}, 800)}},
		{"tones-bed", programme.Spec{Lines: unevenLines(20), Bed: programme.BedTones, BedDB: -30,
			Scenes: scenes([]string{"rgbtestsrc", "testsrc2", "smptebars"}, 800)}},
	} {
		t.Run(p.name, func(t *testing.T) {
			truth := programme.Cached(t, p.spec)
			put(t, store, "sync-"+p.name, truth.Path)
			a, err := r.Analyze(context.Background(), video.AnalyzeSpec{MediaKey: "sync-" + p.name, Container: "matroska",
				Audio: true, DurationSeconds: float64(truth.DurationMs) / 1000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			cues := func(shift int64, k float64) []analysis.Span {
				out := make([]analysis.Span, len(truth.Speech))
				for i, s := range truth.Speech {
					out[i] = analysis.Span{StartMs: int64(float64(s.StartMs)*k) + shift, EndMs: int64(float64(s.EndMs+400)*k) + shift}
				}
				return out
			}
			for shift := int64(-12000); shift <= 12000; shift += 1000 {
				s, ok := analysis.EstimateSync(a.Audio.Speech, cues(shift, 1))
				if !ok || s.Ratio != 1 || s.Confidence < analysis.SyncConfident {
					t.Errorf("shift %d ms: %+v, %v; want ratio 1, confident", shift, s, ok)
					continue
				}
				errs = append(errs, math.Abs(s.OffsetMs+float64(shift)))
			}
			// Uncaptioned speech: every third line's cue removed is found
			// (each line lasts over 1.5 s), the complete captions give none.
			full, thinned := &caption.Track{Version: caption.Version}, &caption.Track{Version: caption.Version}
			var removed []int
			for i, sp := range cues(0, 1) {
				c := caption.Cue{StartMs: sp.StartMs, EndMs: sp.EndMs, Text: testLines[i%len(testLines)]}
				full.Cues = append(full.Cues, c)
				if i%3 == 1 {
					removed = append(removed, i)
					continue
				}
				thinned.Cues = append(thinned.Cues, c)
			}
			params := rules.Params{Limit: 1500, Media: a}
			if got := (rules.UncaptionedSpeech{}).Check(full, params); len(got) != 0 {
				t.Errorf("complete captions: %d uncaptioned_speech findings: %v", len(got), got)
			}
			if got := (rules.UncaptionedSpeech{}).Check(thinned, params); len(got) != len(removed) {
				t.Errorf("%d lines without a cue, %d uncaptioned_speech findings: %v", len(removed), len(got), got)
			}

			k := 25 / (24000.0 / 1001)
			drifted := cues(700, k)
			s, ok := analysis.EstimateSync(a.Audio.Speech, drifted)
			if !ok || s.Ratio == 1 {
				t.Fatalf("23.976 fps captions on 25 fps media: %+v, %v; want a drift", s, ok)
			}
			for i, c := range drifted {
				if d := s.Map(c.StartMs) - truth.Speech[i].StartMs; d < -80 || d > 80 {
					t.Errorf("after the resync cue %d starts %d ms from its speech", i, d)
				}
			}
		})
	}
	if len(errs) == 0 {
		return
	}
	slices.Sort(errs)
	med, worst := errs[len(errs)/2], errs[len(errs)-1]
	t.Logf("%d offsets: median error %.0f ms, largest %.0f ms", len(errs), med, worst)
	if med > 40 || worst > 80 {
		t.Errorf("offset error: median %.0f ms, largest %.0f ms; want at most 40 and 80", med, worst)
	}
}

// unevenLines is n lines from 1 s on, 3 to 5.6 s apart in a fixed,
// irregular pattern.
func unevenLines(n int) []programme.Line {
	out := make([]programme.Line, n)
	at := int64(1000)
	for i := range out {
		out[i] = programme.Line{AtMs: at, Text: testLines[i%len(testLines)]}
		at += 3000 + int64(i*1373%2600)
	}
	return out
}
