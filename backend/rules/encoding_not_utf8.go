package rules

import "github.com/captionqa/captionqa/backend/caption"

// EncodingNotUTF8 is the rule for text that was not UTF-8: a file read as
// Windows-1252 or as UTF-16 without a byte order mark (a warning, which
// writing the delivery in UTF-8 repairs), and bytes a UTF-8, UTF-16 or
// UTF-32 file cannot read, one error a line (read as Windows-1252 or
// U+FFFD: a guess, so it blocks delivery; docs/cli.md, Formats). Only the
// reader sees the bytes, so Check finds nothing on a track: its findings
// are reader diagnostics ([ReaderCode], [caption.DecodeText]).
type EncodingNotUTF8 struct{}

// Code returns "encoding_not_utf8".
func (EncodingNotUTF8) Code() string { return CodeEncodingNotUTF8 }

// Unit returns "": the rule has no threshold.
func (EncodingNotUTF8) Unit() string { return "" }

// Check returns nil: a track's text is always UTF-8.
func (EncodingNotUTF8) Check(*caption.Track, Params) []caption.Diagnostic { return nil }
