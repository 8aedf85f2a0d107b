package rules

import (
	"fmt"
	"sort"

	"github.com/captionqa/captionqa/backend/caption"
)

// CaptionWithoutSpeech reports a cue shown over no speech at all in
// Params.Media's audio analysis: a caption for words nobody says there,
// often one timed against another cut of the programme. A cue whose text
// is a sound or music label ([NonSpeech]: "[door slams]", "♪ ... ♪")
// captions no speech by design and passes, as does a cue without text
// (empty_cue's business). It finds nothing without an audio analysis. The
// rule has no threshold.
type CaptionWithoutSpeech struct{}

// Code returns "caption_without_speech".
func (CaptionWithoutSpeech) Code() string { return CodeCaptionWithoutSpeech }

// Unit returns "": the rule has no threshold.
func (CaptionWithoutSpeech) Unit() string { return "" }

// Check reports each spoken cue that overlaps no speech.
func (CaptionWithoutSpeech) Check(t *caption.Track, p Params) []caption.Diagnostic {
	speech, ok := speechOf(p)
	if !ok {
		return nil
	}
	var out []caption.Diagnostic
	for i := range t.Cues {
		c := &t.Cues[i]
		if NonSpeech(c.Text) || !visible(c.Text) {
			continue
		}
		j := sort.Search(len(speech), func(j int) bool { return speech[j].EndMs > c.StartMs })
		if j < len(speech) && speech[j].StartMs < c.EndMs {
			continue
		}
		msg := fmt.Sprintf("cue %d (%s–%s) is shown over no speech; check its timing, or mark a sound in brackets",
			i+1, caption.FormatClock(c.StartMs), caption.FormatClock(c.EndMs))
		out = append(out, finding(CodeCaptionWithoutSpeech, t, i, msg))
	}
	return out
}
