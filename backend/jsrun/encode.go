package jsrun

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// encodeCues writes cues as the JSON array the glue parses: every cue's
// fields in exporttpl.Cue's order, with two savings the glue undoes (see
// preludeSource), since JSON.parse costs the engine about 45 ns a byte:
//   - "lines":0 when Lines is Text split at "\n" (as it should be): the
//     text is not sent twice, and the glue splits it again;
//   - nil Spans as [], nil Speaker and Placement as null.
//
// It appends to b (from a pool) and returns the grown slice.
func encodeCues(b []byte, cues []exporttpl.Cue) ([]byte, error) {
	size := 2
	for i := range cues {
		size += 140 + len(cues[i].ID) + len(cues[i].Text)*11/10
	}
	b = slices.Grow(b[:0], size)
	b = append(b, '[')
	for i := range cues {
		c := &cues[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(c.Index), 10)
		b = append(b, `,"id":`...)
		b = jsonw.AppendString(b, c.ID)
		b = append(b, `,"startMs":`...)
		b = strconv.AppendInt(b, c.StartMs, 10)
		b = append(b, `,"endMs":`...)
		b = strconv.AppendInt(b, c.EndMs, 10)
		b = append(b, `,"text":`...)
		b = jsonw.AppendString(b, c.Text)
		b = append(b, `,"lines":`...)
		if c.Lines == nil || linesOfText(c.Lines, c.Text) {
			b = append(b, '0')
		} else {
			b = append(b, '[')
			for j, l := range c.Lines {
				if j > 0 {
					b = append(b, ',')
				}
				b = jsonw.AppendString(b, l)
			}
			b = append(b, ']')
		}
		b = append(b, `,"spans":`...)
		if len(c.Spans) == 0 {
			b = append(b, "[]"...)
		} else {
			sp, err := json.Marshal(c.Spans)
			if err != nil {
				return nil, err
			}
			b = append(b, sp...)
		}
		b = append(b, `,"speaker":`...)
		if c.Speaker == nil {
			b = append(b, "null"...)
		} else {
			b = jsonw.AppendString(b, *c.Speaker)
		}
		b = append(b, `,"placement":`...)
		if c.Placement == nil {
			b = append(b, "null"...)
		} else {
			p, err := json.Marshal(c.Placement)
			if err != nil {
				return nil, err
			}
			b = append(b, p...)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// linesOfText reports whether lines is text split at "\n" (none for an
// empty text), which the glue computes again.
func linesOfText(lines []string, text string) bool {
	if text == "" {
		return len(lines) == 0
	}
	for i, l := range lines {
		if len(text) < len(l) || text[:len(l)] != l {
			return false
		}
		text = text[len(l):]
		if i == len(lines)-1 {
			return text == ""
		}
		if text == "" || text[0] != '\n' {
			return false
		}
		text = text[1:]
	}
	return false
}
