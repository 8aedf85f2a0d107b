package explain

import "github.com/captionqa/captionqa/backend/fix"

// kindOf is the editorial step that settles a finding of code: the rule
// codes of the catalogue, the readers' codes and the standards' own.
// A code not listed needs a person to look (review_manually).
func kindOf(code string) string {
	switch code {
	case "text_lost", "content_not_displayed", "no_cues":
		return KindRestoreContent
	case "overlapping_cues", "duration_too_short", "duration_too_long", "gap_too_small", "cues_out_of_order",
		"invalid_timestamp", "end_before_start", "timing_drift_on_convert", "cue_after_media_end",
		"captions_end_early", "caption_gap", "sync_offset", "sync_drift", "caption_early", "caption_late",
		"shot_change_near", "caption_without_speech":
		return KindFixTiming
	case "uncaptioned_speech":
		return KindRestoreContent
	case "reading_speed_high", "presentation_rate_high":
		return KindSplitCues
	case "too_many_lines", "line_too_long", "line_unbalanced", "line_break_poor":
		return KindShortenLines
	case "empty_cue", "placeholder_text":
		return KindRemoveEmpty
	case "invalid_markup", "encoding_not_utf8", "missing_webvtt_header", "malformed_block", "invalid_setting",
		"non_standard_syntax", "invalid_counter", "control_character", "doubled_space", "invalid_document":
		return KindRepairMarkup
	case "position_out_of_bounds":
		return KindFixPlacement
	case "missing_language_tag":
		return KindSetLanguage
	case "speaker_info_dropped":
		return KindAddSpeakerIDs
	case "sound_label_brackets", "sound_label_case", "music_symbol_substitute", "music_symbol_unbalanced",
		"style_inconsistent", "no_sound_descriptions", "allcaps_text":
		return KindRestoreMarkers
	case "strip_styling", "colour_used", "contrast_too_low", "presentation_dropped":
		return KindReviewStyling
	}
	return KindReviewManually
}

// profileFor is the least fix profile that repairs a finding of code, or
// "" when none does (docs/cli.md, Fix profiles): layout-preserve-breaks fixes
// timing and hygiene and breaks over-long lines; auto-split-sentences
// re-wraps and splits; auto-split-cps borrows time and splits for speed.
func profileFor(code string) fix.Profile {
	switch code {
	case "overlapping_cues", "duration_too_short", "gap_too_small", "cues_out_of_order", "invalid_timestamp",
		"end_before_start", "empty_cue", "position_out_of_bounds", "line_too_long":
		return fix.LayoutPreserveBreaks
	case "duration_too_long", "too_many_lines", "line_unbalanced":
		return fix.AutoSplitSentences
	case "reading_speed_high":
		return fix.AutoSplitCPS
	}
	return ""
}

// strength orders the fix profiles: each does what the ones before it do.
func strength(p fix.Profile) int {
	switch p {
	case fix.LayoutPreserveBreaks:
		return 1
	case fix.AutoSplitSentences:
		return 2
	case fix.AutoSplitCPS:
		return 3
	}
	return 0
}

// kindInfo is what the plan says of each kind: a title with the count,
// who acts, and an editor's minutes per cue (the first cue of a step
// costs a minute more: finding the place and checking the result).
type kindInfo struct {
	title       string // "%d" is the count
	owner       string
	perCue      float64
	orderInTier int // the order of kinds within one priority
}

const (
	ownerEditor = "caption editor"
	ownerVendor = "caption vendor"
	ownerQC     = "QC reviewer"
)

// kinds describes every kind; read-only.
var kinds = map[string]kindInfo{
	KindRestoreContent: {"Restore content missing from %s", ownerVendor, 2, 0},
	KindFixTiming:      {"Fix the timing of %s", ownerEditor, 0.5, 1},
	KindSplitCues:      {"Split or shorten %s that read too fast", ownerEditor, 1, 2},
	KindShortenLines:   {"Re-break or shorten the lines of %s", ownerEditor, 0.5, 3},
	KindRemoveEmpty:    {"Remove %s without text", ownerEditor, 0.25, 4},
	KindRepairMarkup:   {"Repair the markup of %s", ownerEditor, 0.25, 5},
	KindFixPlacement:   {"Bring %s back into the frame", ownerEditor, 0.5, 6},
	KindSetLanguage:    {"Declare the captions' language", ownerEditor, 0, 7},
	KindAddSpeakerIDs:  {"Identify the speakers in %s", ownerEditor, 1, 8},
	KindRestoreMarkers: {"Make sound and music markers consistent in %s", ownerEditor, 0.5, 9},
	KindReviewStyling:  {"Review the styling of %s", ownerEditor, 0.5, 10},
	KindReviewManually: {"Check %s by hand", ownerQC, 1, 11},
}
