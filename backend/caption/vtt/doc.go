// Package vtt reads and writes WebVTT (https://www.w3.org/TR/webvtt1/).
//
// [Parse] follows the W3C WebVTT file parsing algorithm (section 6): blocks
// are collected exactly as the spec says, so a file a browser accepts gives
// the cues a browser shows. Where the spec would give up, Parse reports a
// [caption.Diagnostic] and keeps going: a file without the "WEBVTT"
// signature gets missing_webvtt_header and its cues are still read, because
// studios do deliver such files and losing their cues helps nobody.
//
// How WebVTT maps onto the IR:
//   - Cue.Text is the text a viewer reads: tags removed, character
//     references decoded, "\n" between lines. Ruby annotations (<rt>) are
//     left out of Text: they are pronunciation aids drawn above the base
//     text, and counting them would double the reading speed rules measure.
//   - <i>, <b>, <u>, <c.class>, <lang> and <v> become [caption.Span] fields;
//     classes on any tag go to Span.Class. When a cue has exactly one
//     speaker, it is Cue.Voice and the spans carry no voice; with several,
//     each span names its own.
//   - Cue settings become a [caption.Placement] (nil when a cue has none).
//     Placement.Area is a coarse summary for rules and other formats: "top"
//     for a line number 0..2 or a line percentage below 34, "middle" for a
//     line percentage from 34 to 66, "" (the default, bottom) otherwise and
//     for vertical text.
//   - A cue whose markup the spans cannot express (ruby, karaoke timestamp
//     tags) keeps its raw payload in Cue.Ext["vtt"]; [Write] reuses it only
//     while the cue's text and spans still match it, so an edited cue is
//     never written with stale markup.
//   - STYLE blocks are kept verbatim in Track.Ext["vtt"]; REGION blocks
//     become [caption.Region] values with every WebVTT default filled in.
//   - A cue that ends before it starts is parsed as the spec says (the WPT
//     conformance test checks it) but left out of the IR with an
//     end_before_start error: it is never active, so no player shows it,
//     and every IR cue has a displayable range.
//
// [Write] leaves out a cue without visible text ([Shows]), as every
// caption writer does. It is deterministic and regenerates markup from the
// spans. It never lets cue text end a cue early: "&", "<" and ">" are
// escaped (so "-->" cannot appear) and a line break that would leave an
// empty line is written as the character reference "&#10;", which reads
// back as the same text.
package vtt
