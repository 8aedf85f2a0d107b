package rules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// UncaptionedSpeech reports speech of at least Params.Limit ms, in
// Params.Media's audio analysis, that no cue overlaps: dialogue left
// without captions. Shorter bursts (a cough, a word the detector caught
// in the noise) are let pass. It finds nothing without an audio analysis.
// Findings are track-wide, one per segment in time order; Value is the
// segment's length in ms.
type UncaptionedSpeech struct{}

// Code returns "uncaptioned_speech".
func (UncaptionedSpeech) Code() string { return CodeUncaptionedSpeech }

// Unit returns "ms".
func (UncaptionedSpeech) Unit() string { return UnitMs }

// Check reports each long enough speech segment no cue overlaps.
func (UncaptionedSpeech) Check(t *caption.Track, p Params) []caption.Diagnostic {
	speech, ok := speechOf(p)
	if !ok {
		return nil
	}
	cues := cueSpans(t)
	slices.SortFunc(cues, func(a, b analysis.Span) int { return cmp.Compare(a.StartMs, b.StartMs) })
	var out []caption.Diagnostic
	k := 0
	var reach int64 // the latest end of cues[:k]
	for _, s := range speech {
		// A cue overlaps the segment when it starts before the segment
		// ends and ends after it starts: of the cues that start before,
		// only the latest end matters.
		for k < len(cues) && cues[k].StartMs < s.EndMs {
			reach = max(reach, cues[k].EndMs)
			k++
		}
		if reach > s.StartMs || float64(s.DurationMs()) < p.Limit {
			continue
		}
		msg := fmt.Sprintf("speech from %s to %s (%s ms) has no caption",
			caption.FormatClock(s.StartMs), caption.FormatClock(s.EndMs), num(float64(s.DurationMs())))
		out = append(out, measured(caption.Diagnostic{Code: CodeUncaptionedSpeech, Message: msg}, float64(s.DurationMs()), p.Limit, UnitMs))
	}
	return out
}
