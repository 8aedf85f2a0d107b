// Package ass reads Advanced SubStation Alpha (ASS, script type v4.00+)
// and SubStation Alpha (SSA, v4.00) scripts into the caption IR.
//
// The reader follows what libass and VSFilter render rather than the
// letter of the 1998 SSA specification, because that is what authors
// check their scripts against:
//
//   - Sections are matched by name, case-insensitively. [Fonts] and
//     [Graphics] hold uuencoded data and are skipped line by line without
//     being decoded; Aegisub's own sections are skipped silently; any other
//     section is skipped with a malformed_block warning.
//   - The Format line of [V4 Styles], [V4+ Styles] and [Events] sets the
//     column order. Text is always the last event column and keeps its
//     commas. Without a Format line the standard order of the script type
//     is assumed, with a non_standard_syntax warning.
//   - Dialogue lines become cues, even when their text is empty (a blank
//     event or a drawing), so that every timed event stays visible to the
//     rules; Comment lines are ignored; Picture, Sound, Movie and Command
//     events are ignored with an unsupported_feature info. An event whose
//     times cannot be read, or that ends before it starts, is skipped with
//     an error diagnostic.
//   - Override blocks ({...}) set italic, bold, underline and the primary
//     colour (and its alpha) of the text after them; these become spans.
//     A block without a backslash is an author's comment and is dropped. A
//     "{" without a closing "}" is text. Animated and rendering-only tags
//     (\t, \fad, \k, \blur, \fs, \move, ...) are dropped without a
//     diagnostic: they change how text looks, not what it says.
//   - \N is a line break and \h a no-break space (U+00A0). \n is a soft
//     break: a line break when WrapStyle is 2 or the script is SSA (v4.00,
//     where \n was the only break; go-astisub and SSA-era renderers agree),
//     a space otherwise, as libass draws it.
//   - Text drawn while \p is above 0 is a vector drawing, not words: it is
//     left out of the cue text with one unsupported_feature info per cue.
//   - Spaces at the start and end of each line are dropped, as libass trims
//     them when it lays the line out.
//   - A cue's spans start from its style: an italic style makes the whole
//     cue italic unless a tag says otherwise. Colour spans are omitted for
//     opaque white, the default text colour of every output format.
//   - The first \an or \a tag and the first \pos tag of a line win, as in
//     VSFilter. Placement.Area comes from \pos against PlayResY when there
//     is one, from the alignment otherwise; Placement.Align comes from the
//     alignment's column.
//
// Script-level details (PlayResX, PlayResY, ScriptType, WrapStyle) are kept
// in Track.Ext["ass"], and per-event ones (layer, margins, effect, \pos) in
// Cue.Ext["ass"], for a same-format round trip.
package ass
