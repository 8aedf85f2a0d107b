package rules

import "github.com/captionqa/captionqa/backend/caption"

// CaptionLate reports a cue that appears more than Params.Limit ms after
// the speech onset it captions, as [CaptionEarly] pairs them. It finds
// nothing without an audio analysis in Params.Media. Value is how late,
// in ms.
type CaptionLate struct{}

// Code returns "caption_late".
func (CaptionLate) Code() string { return CodeCaptionLate }

// Unit returns "ms".
func (CaptionLate) Unit() string { return UnitMs }

// Check reports each cue that starts more than p.Limit ms after its
// speech.
func (CaptionLate) Check(t *caption.Track, p Params) []caption.Diagnostic {
	return onsetCheck(t, p, CodeCaptionLate, 1)
}
