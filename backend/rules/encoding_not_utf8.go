package rules

import "github.com/captionqa/captionqa/backend/caption"

// EncodingNotUTF8 is the rule for a file that was not UTF-8 and was
// decoded as Windows-1252. Only the reader sees the bytes, so Check finds
// nothing on a track: its findings are reader diagnostics ([ReaderCode]).
type EncodingNotUTF8 struct{}

// Code returns "encoding_not_utf8".
func (EncodingNotUTF8) Code() string { return CodeEncodingNotUTF8 }

// Unit returns "": the rule has no threshold.
func (EncodingNotUTF8) Unit() string { return "" }

// Check returns nil: a track's text is always UTF-8.
func (EncodingNotUTF8) Check(*caption.Track, Params) []caption.Diagnostic { return nil }
