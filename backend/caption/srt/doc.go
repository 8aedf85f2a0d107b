// Package srt reads and writes SubRip (.srt) captions.
//
// # Reading
//
// [Parse] is lenient, as real-world files demand, but every departure from
// the format is reported as a [caption.Diagnostic]:
//
//   - A block is a counter line, a timing line and text lines up to a blank
//     line. A missing, non-numeric or out-of-sequence counter is an
//     invalid_counter warning; the cue keeps the counter as written as its ID
//     ("" when there is none).
//   - Timing lines are "HH:MM:SS,mmm --> HH:MM:SS,mmm". A "." before the
//     milliseconds, one to two or more than three fraction digits (read as a
//     decimal fraction, so ",5" is 500 ms), a missing fraction, missing hours,
//     hours that are not two digits (100:00:00,000 is accepted), one-digit
//     minutes or seconds and an arrow without spaces are accepted and
//     reported once per file as non_standard_syntax. SubViewer-style
//     coordinates after the end time (X1:… Y2:…) are ignored
//     (unsupported_feature). A timing line that cannot be read is an
//     invalid_timestamp error and its block is skipped; a cue that ends
//     before it starts is an end_before_start error and is skipped, because
//     the IR has no valid form for it.
//   - A blank line ends a cue. Extra blank lines are reported once per file
//     (non_standard_syntax info). Text after a blank line that does not start
//     a block (no timing line, and not a lone number) is kept as more lines of
//     the cue above, with a non_standard_syntax warning, so that no caption
//     text is lost; the blank line itself is not kept. A cue gets one such
//     warning, on the line after its first blank line, with the number of
//     blank lines when there are more. Anything else that is not a block
//     (text before the first cue, a counter without a timing line) is
//     skipped up to the next block as one malformed_block error.
//     A timing line (or a number followed by one) inside cue text starts a
//     new cue even without the blank line before it.
//   - Text keeps its lines ("\n" between them) with trailing spaces and tabs
//     removed. <i> <b> <u> (any case, also {i} {b} {u} and the aliases
//     em, strong, italic, bold, underline) and <font color> (CSS colour
//     names, #rgb, #rrggbb, #rrggbbaa) become spans. Other HTML/WebVTT tags
//     (span, s, c, v, …) are removed with an invalid_markup note; <br> is a
//     line break. Text in angle brackets that is not a known tag, such as
//     "<LAUGHING & WHOOPS!>" or "a < b", is kept as text. The HTML entities
//     &amp; &lt; &gt; &quot; &apos; &nbsp; and numeric references are
//     decoded. {\anN} (and the legacy SSA {\aN}) sets [caption.Placement]
//     Area and Align; other {\…} override blocks are removed.
//
// Notes that could repeat on every cue (timing syntax, markup) are reported
// once per file, on the first line where they occur, with the number of
// occurrences in the message. Errors and counter warnings are reported on
// every occurrence, since each one drops or renames a cue.
//
// # Writing
//
// [Write] leaves out a cue without visible text ([Shows]), as every caption
// writer does: it would be a block without a text line, which ffmpeg drops
// and ttconv cannot read. It renumbers the cues it writes 1..n (SRT
// counters must be sequential, so the IR ID is not used), writes LF line
// endings, a blank line after every cue, spans as <i>, <b>, <u> and <font
// color="#rrggbb">, and a non-default placement as a leading {\anN}
// (start/end alignment is taken as left/right). Lines that are empty or
// only spaces are dropped, because a blank line would end the cue;
// trailing spaces are removed. SRT has no escape its readers agree on
// (this reader and HTML parsers decode "&lt;", ffmpeg shows it as it is
// and hands the text to libass as ASS), so text that some reader would
// take for markup and hide is written with look-alikes ([RewritesMarkup]
// tells the caller): the brackets of a tag as "‹" and "›" ("<LAUGHING &
// WHOOPS!>", "<i>", "a < b & c > d", whose "< b" ffmpeg reads as bold),
// the braces of an override block as "(" and ")" ("{\an8}", "{laughs}"),
// the backslash of the ASS escapes \N, \n and \h as "∖"; angle brackets
// no reader takes for a tag stay ("3 < 4 and 5 > 2"). Text that would
// read as an entity ("&amp;") is escaped ("&amp;amp;"), which ffmpeg
// shows as it is. "-->" in text is written as it is: readers
// look for a timing line only as a block's first or second line, which
// text never is. The exception is a line that would itself read as a
// timing line ("00:00:01,000 --> 00:00:02,000" as text): the reader would
// start a new cue there, so the ">" of its arrows is written "›" (U+203A),
// which reads back as "--›" ([RewritesArrow] tells the caller). An entity
// ("--&gt;") would read back unchanged here, but SRT players show
// entities as they are.
package srt

// Format is the format name of SubRip captions.
const Format = "srt"
