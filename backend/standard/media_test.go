package standard

import (
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
)

// speaking is an analysis of cleanTrack's programme (20 s): speech under
// its three spoken cues, moved by shift ms, and extra segments.
func speaking(shift int64, extra ...analysis.Segment) *analysis.Analysis {
	a := &analysis.Analysis{Version: analysis.Version, DurationMs: 20000, Audio: &analysis.Audio{}}
	for _, s := range [][2]int64{{1000, 3950}, {4500, 7450}, {11500, 14450}} {
		a.Audio.Speech = append(a.Audio.Speech, analysis.Segment{StartMs: s[0] + shift, EndMs: s[1] + shift, Confidence: 0.9})
	}
	a.Audio.Speech = append(a.Audio.Speech, extra...)
	return a
}

func TestMediaClauses(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	uncaptioned := speaking(0, analysis.Segment{StartMs: 18200, EndMs: 19900, Confidence: 0.8})
	videoOnly := &analysis.Analysis{Version: analysis.Version, DurationMs: 20000,
		Video: &analysis.Video{FrameRate: analysis.Rational{Num: 25, Den: 1}}}
	type want struct {
		status Status
		code   string // a finding's code, "" for none
		reason string // a substring of the reason, for not_evaluated
	}
	for _, tc := range []struct {
		name     string
		media    *analysis.Analysis
		duration int64 // MediaDurationMs; cleanInput's 20 s when 0
		clauses  map[[2]string]want
	}{
		{name: "no media", clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}:       {status: StatusNotEvaluated, reason: "needs media"},
			{"fcc-79.1", "79.1(j)(2)(iii)"}:      {status: StatusPass},
			{"dcmp", "dcmp.sync"}:                {status: StatusNotEvaluated, reason: "needs media"},
			{"dcmp", "dcmp.clear"}:               {status: StatusNotEvaluated, reason: "needs the audio"},
			{"wcag-2.1-aa", "1.2.2-equivalence"}: {status: StatusNotEvaluated, reason: "cannot be verified"},
		}},
		{name: "video only", media: videoOnly, clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}: {status: StatusNotEvaluated, reason: "needs media"},
			{"dcmp", "dcmp.sync"}:          {status: StatusNotEvaluated, reason: "needs media"},
		}},
		{name: "in sync", media: speaking(0), clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}:       {status: StatusPass},
			{"fcc-79.1", "79.1(j)(2)(iii)"}:      {status: StatusPass},
			{"dcmp", "dcmp.sync"}:                {status: StatusPass},
			{"dcmp", "dcmp.clear"}:               {status: StatusNotEvaluated},
			{"wcag-2.1-aa", "1.2.2-equivalence"}: {status: StatusNotEvaluated},
		}},
		{name: "captions 0.7 s late", media: speaking(-700), clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}: {status: StatusFail, code: "caption_late"},
			{"dcmp", "dcmp.sync"}:          {status: StatusFail, code: "caption_late"},
		}},
		{name: "captions 0.7 s early", media: speaking(700), clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}: {status: StatusFail, code: "caption_early"},
		}},
		{name: "speech without captions", media: uncaptioned, clauses: map[[2]string]want{
			{"fcc-79.1", "79.1(j)(2)(ii)"}:       {status: StatusPass},
			{"fcc-79.1", "79.1(j)(2)(iii)"}:      {status: StatusFail, code: "uncaptioned_speech"},
			{"dcmp", "dcmp.clear"}:               {status: StatusFail, code: "uncaptioned_speech"},
			{"wcag-2.1-aa", "1.2.2-equivalence"}: {status: StatusFail, code: "uncaptioned_speech"},
		}},
		{name: "the media's duration when none is given", duration: -1,
			media: &analysis.Analysis{Version: analysis.Version, DurationMs: 60000, Audio: speaking(0).Audio},
			clauses: map[[2]string]want{
				{"fcc-79.1", "79.1(j)(2)(iii)"}: {status: StatusFail, code: "captions_end_early"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := cleanInput("srt")
			in.Media = tc.media
			if tc.duration < 0 {
				in.MediaDurationMs = 0
			}
			for at, w := range tc.clauses {
				c := clauseOf(t, s, at[0], at[1], in)
				var codes []string
				for _, f := range c.Findings {
					codes = append(codes, f.Code)
				}
				if c.Status != w.status || (w.code != "" && !slices.Contains(codes, w.code)) || !strings.Contains(c.Reason, w.reason) {
					t.Errorf("%s %s = %s %v (reason %q), want %s with %q (reason with %q)",
						at[0], at[1], c.Status, codes, c.Reason, w.status, w.code, w.reason)
				}
			}
		})
	}
}
