package srt

import (
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// Changes returns what [Write] writes of t's cues other than as it is, as
// warnings naming the cue (CueIndex, and Line from its SourceLine), the
// way a conversion reports them: text that would read as markup in some
// reader, written with look-alikes ([RewritesMarkup]), and a
// line that would read as a timing line, whose "-->" is written "--›"
// ([RewritesArrow]). Both have the code invalid_markup. The cues Write
// leaves out ([Shows]) are not looked at: the caller reports them.
func Changes(t *caption.Track) []caption.Diagnostic {
	var out []caption.Diagnostic
	for i := range t.Cues {
		c := &t.Cues[i]
		if !Shows(c) {
			continue
		}
		if RewritesMarkup(c.Text) {
			out = append(out, change(c, i, `text would read as markup in SRT players, which would hide it (a tag "<…>" or an override block "{…}") or change it (an ASS escape \N, \n or \h): it is written with look-alikes, "‹…›", "(…)" and "∖"`))
		}
		if RewritesArrow(c.Text) {
			out = append(out, change(c, i, `a line would read as a timing line, where SRT readers start a new cue; its "-->" is written "--›"`))
		}
	}
	return out
}

func change(c *caption.Cue, i int, msg string) caption.Diagnostic {
	return caption.Diagnostic{Code: caption.CodeInvalidMarkup, Severity: caption.SeverityWarning, Line: c.SourceLine,
		CueIndex: &i, Message: fmt.Sprintf("cue %d: %s", i+1, msg)}
}

// Delivered returns what a file [Write] makes of t reads back to: the cues
// it writes ([Shows]), in t's order, with their text as written: what
// would read as markup in some reader as look-alikes ([RewritesMarkup])
// and the arrows of a line that would read as a timing line as "--›"
// ([RewritesArrow]). Spans and placement are t's; blank lines and
// trailing spaces, which Write drops, are left in.
func Delivered(t *caption.Track) *caption.Track {
	out := *t
	out.Cues = make([]caption.Cue, 0, len(t.Cues))
	var looks []int
	for _, c := range t.Cues {
		if !Shows(&c) {
			continue
		}
		var timing []bool // per line: it reads as a timing line
		if RewritesArrow(c.Text) {
			for l := range strings.SplitSeq(c.Text, "\n") {
				timing = append(timing, timingLike(trimRightSpace(l)))
			}
		}
		if looks = markupAt(c.Text, looks); len(looks) > 0 {
			var b strings.Builder
			from := 0
			for _, k := range looks {
				b.WriteString(c.Text[from:k])
				b.WriteString(lookalike(c.Text[k]))
				from = k + 1
			}
			b.WriteString(c.Text[from:])
			c.Text = b.String()
		}
		if timing != nil {
			lines := strings.Split(c.Text, "\n")
			for k := range lines {
				if timing[k] {
					lines[k] = strings.ReplaceAll(lines[k], "-->", "--"+arrowHead)
				}
			}
			c.Text = strings.Join(lines, "\n")
		}
		out.Cues = append(out.Cues, c)
	}
	return &out
}
