package rules

import "github.com/captionqa/captionqa/backend/caption"

// MissingLanguageTag reports a track that declares no language
// ([caption.Track.Language] empty, blank or "und"). TTML needs xml:lang, and a
// player or LMS needs the language to label the track and pick fonts and
// line breaking. The single finding belongs to the track, not to a cue:
// CueIndex is nil and Line is 0.
type MissingLanguageTag struct{}

// Code returns "missing_language_tag".
func (MissingLanguageTag) Code() string { return CodeMissingLanguageTag }

// Unit returns "": the rule has no threshold.
func (MissingLanguageTag) Unit() string { return "" }

// Check reports the track when it has no language tag, or only "und"
// (undetermined).
func (MissingLanguageTag) Check(t *caption.Track, _ Params) []caption.Diagnostic {
	if caption.LanguageDeclared(t.Language) {
		return nil
	}
	return []caption.Diagnostic{{
		Code:    CodeMissingLanguageTag,
		Message: "the track declares no language; set one (a BCP 47 tag such as en-US) so players can label it",
	}}
}
