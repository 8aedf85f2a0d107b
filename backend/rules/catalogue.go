package rules

import "github.com/captionqa/captionqa/backend/caption"

// Rule codes of the catalogue. The first four are the rule codes the
// contract's Diagnostic schema names; the
// reader-reported ones are the [caption] diagnostic codes they promote.
const (
	CodeOverlappingCues      = "overlapping_cues"
	CodeReadingSpeedHigh     = "reading_speed_high"
	CodeTooManyLines         = "too_many_lines"
	CodeStripStyling         = "strip_styling"
	CodeEncodingNotUTF8      = caption.CodeEncodingNotUTF8
	CodeCuesOutOfOrder       = caption.CodeCuesOutOfOrder
	CodeInvalidTimestamp     = caption.CodeInvalidTimestamp
	CodeMissingWebVTTHeader  = caption.CodeMissingWebVTTHeader
	CodeEmptyCue             = "empty_cue"
	CodeInvalidMarkup        = caption.CodeInvalidMarkup
	CodeLineTooLong          = "line_too_long"
	CodeLineUnbalanced       = "line_unbalanced"
	CodeDurationTooShort     = "duration_too_short"
	CodeDurationTooLong      = "duration_too_long"
	CodeGapTooSmall          = "gap_too_small"
	CodePresentationRateHigh = "presentation_rate_high"
	CodePositionOutOfBounds  = "position_out_of_bounds"
	CodeMissingLanguageTag   = "missing_language_tag"
	// The checks against the programme's analysis (Params.Media).
	CodeSyncOffset           = "sync_offset"
	CodeSyncDrift            = "sync_drift"
	CodeCaptionEarly         = "caption_early"
	CodeCaptionLate          = "caption_late"
	CodeUncaptionedSpeech    = "uncaptioned_speech"
	CodeCaptionWithoutSpeech = "caption_without_speech"
	CodeShotChangeNear       = "shot_change_near"
)

// Units a [Rule.Unit] returns and findings carry in [caption.Diagnostic.Unit].
const (
	// UnitCPS is characters (see [Characters]) per second.
	UnitCPS = "cps"
	// UnitChars is characters, counted by [Characters].
	UnitChars = "chars"
	// UnitLines is display lines of a cue.
	UnitLines = "lines"
	// UnitMs is milliseconds.
	UnitMs = "ms"
	// UnitWPM is words (see [Words]) per minute.
	UnitWPM = "wpm"
)

// Catalogue returns every rule, in a fixed order (the four codes the
// contract names first). The slice is new on every call, so callers may
// keep or reorder it.
func Catalogue() []Rule {
	return []Rule{
		OverlappingCues{},
		ReadingSpeedHigh{},
		TooManyLines{},
		StripStyling{},
		EncodingNotUTF8{},
		CuesOutOfOrder{},
		InvalidTimestamp{},
		MissingWebVTTHeader{},
		EmptyCue{},
		InvalidMarkup{},
		LineTooLong{},
		LineUnbalanced{},
		DurationTooShort{},
		DurationTooLong{},
		GapTooSmall{},
		PresentationRateHigh{},
		PositionOutOfBounds{},
		MissingLanguageTag{},
		SyncOffset{},
		SyncDrift{},
		CaptionEarly{},
		CaptionLate{},
		UncaptionedSpeech{},
		CaptionWithoutSpeech{},
		ShotChangeNear{},
	}
}

// NeedsLimit reports whether r needs a limit above 0 to mean anything:
// every threshold rule does but overlapping_cues, whose limit is a
// tolerance (0, or none, counts any overlap).
func NeedsLimit(r Rule) bool { return r.Unit() != "" && r.Code() != CodeOverlappingCues }

// Lookup returns the catalogue's rule with the given code.
func Lookup(code string) (Rule, bool) {
	for _, r := range Catalogue() {
		if r.Code() == code {
			return r, true
		}
	}
	return nil, false
}

// PerCueText reports whether the rule with the given code judges each cue
// by its text alone: its findings for cue i depend only on Cues[i].Text,
// Cues[i].SourceLine, i and Params.Limit, never on times, styling,
// placement, other cues or the track. A caller that checks a changed copy
// of a track may then keep such a rule's findings for every cue whose
// text and source line did not change, and check only the others.
// Rules added to the catalogue are not per-cue-text unless listed here.
func PerCueText(code string) bool {
	switch code {
	case CodeTooManyLines, CodeEmptyCue, CodeInvalidMarkup, CodeLineTooLong, CodeLineUnbalanced:
		return true
	}
	return false
}

// PerCue reports whether the rule with the given code judges each cue by
// itself: its findings for cue i depend only on Cues[i].Text,
// Cues[i].StartMs, Cues[i].EndMs, Cues[i].SourceLine, i and Params.Limit,
// never on styling, placement, other cues or the track. Every
// [PerCueText] rule is one. A caller that checks a changed copy of a track
// may keep such a rule's findings for every cue whose text, times and
// source line did not change. Rules added to the catalogue are not
// per-cue unless listed here.
func PerCue(code string) bool {
	switch code {
	case CodeReadingSpeedHigh, CodePresentationRateHigh, CodeDurationTooShort, CodeDurationTooLong:
		return true
	}
	return PerCueText(code)
}
