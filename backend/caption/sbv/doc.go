// Package sbv reads YouTube SubViewer (.sbv) captions.
//
// An SBV file is a run of blocks separated by blank lines: a timing line
// "H:MM:SS.mmm,H:MM:SS.mmm", then text lines, where "[br]" is a line break.
// SBV has no cue identifiers (cue IDs are "") and no markup, so text is
// kept as written apart from trailing spaces ("<i>" and "&amp;" stay as
// they are; "[br][br]" gives an empty line, as a viewer would see it).
//
// [Parse] is lenient, and reports every departure as a [caption.Diagnostic]:
// a timing line that cannot be read is an invalid_timestamp error and its
// block is skipped; a cue that ends before it starts is an end_before_start
// error and is skipped; text after a blank line that does not start with a
// timing line is kept in the cue above with a non_standard_syntax warning
// (the blank line is not kept), or, before the first cue, skipped as a
// malformed_block error. Timestamps without milliseconds, without hours or
// with other than three fraction digits (read as a decimal fraction), a
// timing line inside cue text without a blank line before it, and extra
// blank lines are accepted and reported once per file as
// non_standard_syntax. CR, LF and CRLF line endings and a missing final
// line ending are all accepted.
package sbv

// Format is the format name of YouTube SBV captions.
const Format = "sbv"
