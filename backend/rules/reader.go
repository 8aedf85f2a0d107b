package rules

import "github.com/captionqa/captionqa/backend/caption"

// ReaderCode maps a reader diagnostic code to the rule code whose finding
// it is (readers see these problems, a track no longer shows them): cues_out_of_order, invalid_markup, invalid_timestamp,
// missing_webvtt_header and encoding_not_utf8 map to themselves, and
// end_before_start maps to invalid_timestamp, whose catalogue entry covers
// "end ≤ start". Every code it returns is in the
// [Catalogue], so [Lookup] finds the rule a promoted finding belongs to.
func ReaderCode(code string) (string, bool) {
	switch code {
	case caption.CodeCuesOutOfOrder, caption.CodeInvalidMarkup, caption.CodeInvalidTimestamp,
		caption.CodeMissingWebVTTHeader, caption.CodeEncodingNotUTF8:
		return code, true
	case caption.CodeEndBeforeStart:
		return caption.CodeInvalidTimestamp, true
	}
	return "", false
}
