// Package stl reads EBU STL subtitle files (EBU Tech 3264-1991): a
// 1024-byte GSI (General Subtitle Information) block, then 128-byte TTI
// (Text and Timing Information) blocks. The files are binary: [Sniff]
// recognises one from its first bytes.
//
// # The GSI block
//
// [Parse] takes from it the disk format code (STL25.01 is 25 fps,
// STL30.01 is 30 fps time codes on 29.97 fps video; STL24/48/50/60 are
// read too, and anything else is read at 25 fps with a warning), the
// character code table of the text (00 Latin, 01 Cyrillic, 02 Arabic, 03
// Greek, 04 Hebrew; another is read as Latin, with a warning), the
// display standard (blank or 0: open subtitles; 1 and 2: teletext), the
// language (Track.Language, a BCP 47 tag), the maximum number of rows
// and the programme start time code (TCP). The number of TTI blocks it
// gives is checked against the file (a warning when they differ); the
// code page number only concerns the GSI's own text (titles and the
// like), which is not read, and the time code of the first cue (TCF)
// repeats what the TTI blocks say.
//
// # Times and the programme start
//
// A time code counts frames at the file's rate: at 25 fps frame n starts
// at n×40 ms; STL30.01 time codes name frames of 29.97 fps video, n×1001/30
// ms (there is no drop-frame counting in STL), as the SCC reader does.
//
// Times are relative to TCP: the programme's first frame is media time
// 0, as EBU Tech 3264 defines TCP and as go-astisub reads it (ttconv
// ignores TCP unless given a start time). A subtitle that ends before
// the programme starts is left out (content_not_displayed error); one
// that starts before it and ends after is shown from 0 (warning). When
// every subtitle ends before TCP, the file does not time its subtitles on
// the programme's clock (go-astisub's example-in-nonzero-offset.stl):
// they are then read from 00:00:00:00, with a warning, rather than all
// lost. TestProgrammeStart pins both.
//
// # The TTI blocks
//
//   - A subtitle is a block and its extension blocks (same subtitle
//     number, extension block numbers up to FF), whose text fields are
//     joined. User data and reserved blocks (EBN F0-FE) and comments
//     (comment flag 1) are left out, with an info.
//   - Cue.ID is the subtitle number. A cue's SourceLine, and a
//     diagnostic's line, is the 1-based number of its first TTI block.
//     Subtitle groups (SGN) are read into one track, with an info when
//     there are several.
//   - A cumulative set (cumulative status 1, 2…, 3) adds subtitles to the
//     screen one after the other, each kept until its own end: it becomes
//     a cue for each state of the screen, with the text of every subtitle
//     shown, in set order.
//   - The justification code gives Placement.Align (1 left, 2 centre, 3
//     right; 0 keeps the text's own spacing, and says nothing). The
//     vertical position gives Placement.Area: the rows the subtitle takes
//     (teletext rows 1-23, a double-height line taking two; for open
//     subtitles 0 to the GSI's maximum rows), in thirds of the screen,
//     the lowest third being the default.
//   - The text field is read as a viewer sees it: 0x8A breaks lines,
//     teletext control codes show as a space between words (never at the
//     ends of a line), the alphanumeric colour codes and the new
//     background code become colour and background spans (reset at each
//     line, as teletext rows are), 0x80-0x83 become italics and underline
//     spans; boxing, double height and flashing change nothing the IR
//     keeps; the rest of a field after the unused-space code 0x8F is
//     filler. Table 00 is ISO 6937: a diacritical mark (0xC1-0xCF) goes on
//     the letter after it (é is 0xC2 'e'), as a precomposed letter, or the
//     letter and a combining mark when Unicode has none. Tables 01-04 are
//     the upper halves of ISO 8859-5, -6, -7 and -8. A byte the table
//     leaves undefined reads as U+FFFD (a warning for the file).
//
// A file shorter than its GSI block, or that ends inside a TTI block
// (that block is left out), is an invalid_document error; time codes with
// a field out of range are read as frame counts (invalid_timestamp
// warning); a subtitle that ends before it starts is left out
// (end_before_start error). Parse never panics, and takes time linear in
// the file.
//
// # Writing
//
// [Write] writes a track as teletext subtitles in table 00, a TTI block
// (and extension blocks) a cue, each row boxed; [Changes] lists what it
// changes to fit (characters the table lacks, colour changes inside a
// word, times on frames) and [Delivered] what the file reads back to.
// docs/cli.md (EBU-TT-D and EBU STL deliveries) says what it loses.
package stl

// Format is the format name of EBU STL subtitles.
const Format = "stl"
