// Package scc reads and writes Scenarist SCC (.scc) captions: the CEA-608
// line 21 data of 29.97 fps video, as byte pairs in hex, each line a
// timecode and the pairs sent from that frame on, one pair a frame.
//
// # Timing
//
// A timecode names a frame of 29.97 fps (30000/1001) video, and frame n
// starts n×1001/30 ms after frame 0. Drop-frame timecodes (";" or "."
// before the frames) are counted as drop-frame counting defines them;
// non-drop-frame ones (":") label every frame, 30 to a timecode second,
// and so run 0.1% slow against the clock (01:00:00:00 is 3603.6 s into
// the video). This is what the timecode means on the video the captions
// are for: reading a non-drop timecode as clock time instead (ffmpeg's SCC
// demuxer takes frames as ff×33 ms at 30 fps) drifts 3.6 s an hour;
// drop-frame times agree with it within a frame. TestTimecodeConvention
// pins both.
//
// The pairs of a line take effect one frame apart from its timecode, as
// line 21 carries them. A line stamped before the previous line's pairs
// are all sent follows them.
//
// # Reading
//
// [Parse] decodes caption channel CC1 as a decoder does:
//
//   - Every byte must have odd parity; a byte that fails is skipped (a
//     control code with one is skipped whole), a parity_error error on its
//     line. A control code sent twice in a row is taken once.
//   - Preamble address codes set the row, the indent and the colour,
//     italics and underline; mid-row codes change them and show as a
//     space; tab offsets move right. The standard, special (® ° ½ ♪ …) and
//     extended Western European character sets are read, an extended
//     character replacing the standard one sent before it. Backspace,
//     delete to end of row and the erase codes act on the memory in use.
//   - Pop-on (RCL, ENM, EOC, EDM) and paint-on (RDC) captions become cues
//     of what the screen shows: a cue from the frame a caption is
//     displayed to the frame the display changes. Paint-on text that
//     arrives over one SCC line is one change, at the frame of its first
//     character: codes that show nothing (a preamble address code, a
//     mid-row code's space before the text, a roll-up window moved while
//     empty) change nothing a viewer sees. TestCorpusWords checks every
//     corpus file against ffmpeg's reading and the hex.
//   - Roll-up captions (RU2, RU3, RU4, CR) become a cue per line, as an
//     editor expects: a line starts at its first character and ends when
//     the next line starts, when it is erased or when it scrolls out of
//     the window, so no line is repeated and cues never overlap.
//   - A cue's text is its rows top to bottom, each from its first visible
//     character to its last. Colour, italics and underline become spans.
//     SCC has no cue identifiers (Cue.ID is ""); SourceLine is the line
//     the cue's display starts on. Track.FrameRate is 29.97.
//     The rows' position gives the placement: a caption centred on rows
//     1-5 is at the top, on rows 6-10 in the middle, lower at the bottom
//     (the default); its alignment is centre, right or left when every
//     row shows it (rows of 30 columns or more fit any).
//   - Channel CC2 and text mode are not read (unsupported_feature info);
//     background attributes are ignored. A row written past column 32
//     shows the last character sent there, as on a decoder (warning).
//
// Diagnostics carry the 1-based line: a line that does not start with a
// timecode (malformed_block) or whose timecode cannot be read
// (invalid_timestamp) is skipped, an error; words that are not 4 hex
// digits are skipped (malformed_block); fields out of range and drop-frame
// labels that do not exist are read anyway (invalid_timestamp warning);
// a timecode earlier than the line above (cues_out_of_order); text loaded
// but never displayed (content_not_displayed error); a caption still
// displayed at the end of the file, which is given until the end of the
// data or 4 s, whichever is later (non_standard_syntax); a missing or
// other header (non_standard_syntax).
//
// # Writing
//
// [Write] writes 608-safe pop-on captions on CC1 with drop-frame
// timecodes ([Encode] with [Options] writes non-drop-frame):
//
//   - At most 32 columns: a longer line is re-wrapped at its last space
//     that fits (a longer word is cut). At most 4 rows: a cue with more is
//     split into captions of up to 4 rows, in order, sharing its time by
//     their length.
//   - Cues that overlap in time share the screen, as 608 shows one pop-on
//     caption at a time: while they overlap, one caption shows each cue's
//     rows, in the order the cues came on screen (those in the same area
//     stacked, the newest lowest), so that every line is on screen for
//     its own cue's time. A caption has 4 rows in all: a cue that does not
//     fit in the rows left waits until enough are free (overlapping_cues),
//     keeping its end while at least half its time is left, its duration
//     after that; a later cue that fits does not wait.
//   - The 608 character set: what 608 has is written as itself (* \ ^ _
//     { | } ~ as extended characters, since their codes are letters in
//     608). Letters it lacks are written without their accent (ł as l, œ
//     as oe), typographic marks as their plain form (… as ..., – as -, „
//     as "), spaces of other widths as a space; invisible characters and
//     combining marks are left out, and anything else is written as the
//     solid block █ ([SolidBlock]), 608's own mark for a character it
//     could not show.
//   - Styles: italics (white, as 608 draws them), underline and the seven
//     608 colours, with preamble and mid-row codes; a mid-row code takes
//     a space's place, so a change inside a word waits for the next space.
//   - Placement: the area gives the rows (bottom ending on row 15, top
//     from row 1, middle around row 8) and the alignment the columns
//     (centred by default, left, right).
//   - Every control code is sent twice and every byte has odd parity.
//   - Each caption is loaded (RCL, ENM, the rows) while the one before is
//     displayed, in the frames just before its start, so that its
//     end-of-caption code falls on its first frame; EDM erases it at its
//     end, unless the next caption replaces it there. When the frames
//     since the caption before was displayed are too few to load it, it
//     is displayed as soon as it is loaded. A caption that would last
//     only a frame or two between two others that show all it shows (cues
//     that overlap by that much) is left out when loading it would delay
//     the changes more than leaving it out does.
//   - The end-of-caption and erase codes each start a line of the file,
//     so that readers that time a line's codes by its timecode (ffmpeg's)
//     show and erase each caption on its frame too. TestWriteOverlap reads
//     the file back with this reader and with ffmpeg.
//
// [Changes] lists every change this makes, as warnings that name the cue:
// re-wrapped lines, split cues, replaced characters, styling moved or
// left out, and moved times; and, as infos, the cues that share captions
// and when. [Delivered] is the track the file reads back to.
package scc

// Format is the format name of Scenarist SCC captions.
const Format = "scc"
