package rules

import (
	"fmt"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/caption"
)

// CaptionEarly reports a cue that appears more than Params.Limit ms
// before the speech onset it captions ([Captioned]: the onset of the
// speech segment it overlaps most, or the nearest within a second, once
// the track's estimated offset and drift are taken out); a cue that
// continues the speech of the cue before it has no onset of its own.
// Netflix asks for in-times within a frame or two of the first frame of
// audio. It finds nothing without an audio analysis in Params.Media.
// Value is how early, in ms.
type CaptionEarly struct{}

// Code returns "caption_early".
func (CaptionEarly) Code() string { return CodeCaptionEarly }

// Unit returns "ms".
func (CaptionEarly) Unit() string { return UnitMs }

// Check reports each cue that starts more than p.Limit ms before its
// speech.
func (CaptionEarly) Check(t *caption.Track, p Params) []caption.Diagnostic {
	return onsetCheck(t, p, CodeCaptionEarly, -1)
}

// onsetCheck is [CaptionEarly] (sign -1) and [CaptionLate] (sign 1): a
// cue whose start is more than p.Limit ms on that side of its speech
// onset.
func onsetCheck(t *caption.Track, p Params, code string, sign int64) []caption.Diagnostic {
	speech, ok := speechOf(p)
	if !ok {
		return nil
	}
	var sync *analysis.Sync
	if s, ok := SyncOf(t, p.Media); ok {
		sync = &s
	}
	var out []caption.Diagnostic
	for i, j := range Captioned(t, speech, sync) {
		if j < 0 {
			continue
		}
		onset := speech[j].StartMs
		d := sign * (t.Cues[i].StartMs - onset)
		if float64(d) <= p.Limit {
			continue
		}
		way := "before"
		if sign > 0 {
			way = "after"
		}
		msg := fmt.Sprintf("cue %d appears %d ms %s the speech it captions starts at %s (limit %s ms); start it with the speech",
			i+1, d, way, caption.FormatClock(onset), num(p.Limit))
		out = append(out, measured(finding(code, t, i, msg), float64(d), p.Limit, UnitMs))
	}
	return out
}
