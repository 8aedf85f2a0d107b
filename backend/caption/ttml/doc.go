// Package ttml reads and writes TTML: TTML1, TTML2, the IMSC1 text profile
// and legacy DFXP documents (the 2006 ttaf1 namespaces).
//
// The reader resolves TTML timing the way a presentation processor does
// (par and seq time containers, begin/end/dur relative to the parent,
// implicit durations) and turns every <p> into one cue per distinct
// interval of what it shows: a paragraph whose spans carry their own
// timing is split at the span boundaries, so that the cues show text
// exactly when the document displays something.
//
// Documented choices where TTML leaves the end open:
//   - content whose end is indefinite (no end or dur on it or anywhere
//     above it, so that TTML shows it until the document ends) is given an
//     end 4 s after the latest time the document names, the same end for
//     every such cue; such cues carry ext.ttml = {"openEnd": true} and the
//     reader adds one end_supplied warning (docs/cli.md, TTML timing);
//   - a document with no time at all is one interval starting at 0, so its
//     cues run from 0 to 4 s, with the same warning;
//   - an element that ends before it begins is never active, so its text
//     is left out with an end_before_start error, as every reader reports
//     a cue it drops (an element with no text loses nothing and gets no
//     diagnostic);
//   - time containment: nothing shows outside its parent's interval, and a
//     child's times count from its parent's begin (in a seq container,
//     from the end of the element before it). Text an element's parent
//     cuts off entirely (a <p begin="3s"> in a <div end="2s">, a <span>
//     timed outside its <p>) is left out with a content_not_displayed
//     error on the element's line; an element whose own end or dur runs
//     past its parent's end is read as shown until then, with a
//     content_not_displayed warning. An element with no end of its own
//     ends with its parent by design and gets no diagnostic.
//     In a seq container, an element after one shown indefinitely never
//     begins: its text is left out with a content_not_displayed error.
//
// Placement: a cue in a declared region gets [caption.Placement.Region] and
// an Area from where its text block sits: the top edge of the region when
// tts:displayAlign is before, the middle for center and the bottom edge
// for after; above 33.3% of the frame is top, below 66.7% is bottom, the
// rest middle. A paragraph whose spans name different regions is shown
// in each of them with the text that region holds, so it gives cues in
// each. Content outside every region of a document that declares
// regions is not displayed by TTML and is left out with a
// content_not_displayed error for each paragraph.
//
// The writer emits an IMSC1 text-profile document with three regions
// (bottom, middle, top), one <p> per cue and styles for italic, bold and
// underline. A cue in a region of the track (a TTML <region>, a WebVTT
// REGION) is written in that region, as an IMSC1 region with the same box
// in percent of the frame and, where it is a free XML id, the same id
// (see layout.go); a cue with WebVTT line, position or size gets a region
// of its own, the box a WebVTT renderer draws (see placement.go). Reading
// either back gives that box as the cue's region; what a region cannot
// carry is reported by [Unplaced]. Cues no TTML player shows (no
// duration, no text) are left out ([Shows]).
//
// [WriteEBUTTD] writes the EBU-TT-D profile (EBU Tech 3380) with the same
// regions: styles only by reference, text only in spans, every paragraph
// with an xml:id, a begin and an end; docs/cli.md (EBU-TT-D and EBU STL
// deliveries) says what it loses.
package ttml

import (
	"io"

	"github.com/captionqa/captionqa/backend/caption"
)

// Format is the format name of TTML in [caption.Source.Format].
const Format = "ttml"

// Parse reads a TTML document. Problems become diagnostics with a 1-based
// line; the error is only ever an I/O error.
func Parse(r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	return caption.Read(r, Format, parseText)
}
