package vtt

import (
	"io"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// WriteCuesOnly writes t as [Write] does, in the form ffmpeg (5.1) reads
// whole; the video pipeline hands it this form (docs/media.md):
//
//   - without REGION and STYLE blocks, and so without the cue settings
//     that name a region: ffmpeg stops reading at the first block that is
//     not a cue, so it reads not one cue of a file that has such a block
//     before them. What the blocks held (a region's place and size, the
//     CSS) is left out;
//   - without empty lines in cue text, nor carriage returns: Write writes
//     them as the references "&#10;" and "&#13;", which ffmpeg shows as
//     they are. An empty line shows nothing, and no reader can take one
//     from a plain line break (a blank line ends the cue).
func WriteCuesOnly(w io.Writer, t *caption.Track) error {
	cues := *t
	// Of the track's extensions, Write reads only the STYLE blocks.
	cues.Regions, cues.Ext = nil, nil
	copied := false // cues.Cues is a copy of t's
	for i := range t.Cues {
		if text := t.Cues[i].Text; strings.Contains(text, "\n\n") || strings.HasPrefix(text, "\n") || strings.ContainsRune(text, '\r') {
			if !copied {
				cues.Cues, copied = slices.Clone(t.Cues), true
			}
			cues.Cues[i] = withoutEmptyLines(t.Cues[i])
		}
	}
	return Write(w, &cues)
}

// withoutEmptyLines returns c with the line breaks that open an empty line
// (or the text) and its carriage returns removed, its spans kept on the
// same characters.
func withoutEmptyLines(c caption.Cue) caption.Cue {
	runes := []rune(c.Text)
	kept := make([]int, len(runes)+1) // kept[i]: characters kept before i
	var b strings.Builder
	prevBreak := true // the text so far is empty or ends in a line break
	for i, r := range runes {
		kept[i+1] = kept[i]
		if r == '\r' || r == '\n' && prevBreak {
			continue
		}
		b.WriteRune(r)
		kept[i+1]++
		prevBreak = r == '\n'
	}
	c.Text = b.String()
	spans := make([]caption.Span, 0, len(c.Spans))
	for _, s := range c.Spans {
		// Clamped to the text, as Write does.
		s.Start, s.End = kept[min(max(s.Start, 0), len(runes))], kept[max(min(s.End, len(runes)), 0)]
		if s.Start < s.End {
			spans = append(spans, s)
		}
	}
	c.Spans = spans
	return c
}
