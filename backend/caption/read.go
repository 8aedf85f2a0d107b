package caption

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ParseTextFunc is a codec's parser for decoded text. It returns the cues it
// found, in source order, and the diagnostics of its format. It must not
// panic on any input.
type ParseTextFunc func(text string) (*Track, Diagnostics)

// Read is the frame every codec's Parse shares: it reads r, decodes the
// bytes ([DecodeText]), reports empty input, runs parse, records the source,
// and finishes the track ([Finish]). The error is only ever an I/O error.
func Read(r io.Reader, format string, parse ParseTextFunc) (*Track, []Diagnostic, error) {
	b, err := readAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("caption: read %s: %w", format, err)
	}
	text, enc, diags := decodeOwned(b)
	t := &Track{Version: Version, Cues: []Cue{}}
	if strings.TrimSpace(text) == "" {
		d := Diagnostics(diags)
		d.Error(CodeEmptyInput, 0, "the file is empty")
		t.Source = &Source{Format: format, Encoding: enc}
		return t, d, nil
	}
	parsed, more := parse(text)
	if parsed != nil {
		t = parsed
	}
	t.Version = Version
	t.Source = &Source{Format: format, Encoding: enc}
	d := append(Diagnostics(diags), more...)
	Finish(t, &d)
	return t, d, nil
}

// Finish puts cues in presentation order (by StartMs, then source order)
// with a cues_out_of_order warning when the source had them otherwise, and
// adds no_cues when nothing was found. A NUL in cue text becomes U+FFFD,
// with a warning. ASS events and TTML timed elements
// may come in any order (their formats say so), so for those the order is
// put right without a warning. Readers that do not go through [Read] call
// it themselves.
func Finish(t *Track, d *Diagnostics) {
	if t.Cues == nil {
		t.Cues = []Cue{}
	}
	anyOrder := t.Source != nil && (t.Source.Format == "ass" || t.Source.Format == "ttml")
	for i := 1; i < len(t.Cues); i++ {
		if t.Cues[i].StartMs < t.Cues[i-1].StartMs {
			if !anyOrder {
				d.Warn(CodeCuesOutOfOrder, t.Cues[i].SourceLine,
					"cue starts at %s, before the cue above it (%s); cues were put in time order",
					FormatClock(t.Cues[i].StartMs), FormatClock(t.Cues[i-1].StartMs))
			}
			slices.SortStableFunc(t.Cues, func(a, b Cue) int {
				switch {
				case a.StartMs < b.StartMs:
					return -1
				case a.StartMs > b.StartMs:
					return 1
				}
				return 0
			})
			break
		}
	}
	for i := range t.Cues {
		// No format lets a NUL show, and WebVTT readers turn it into
		// U+FFFD: so does every reader here, one character for one, so
		// the spans' offsets hold.
		if c := &t.Cues[i]; strings.IndexByte(c.Text, 0) >= 0 {
			c.Text = strings.ReplaceAll(c.Text, "\x00", "\uFFFD")
			d.Warn(CodeNonStandardSyntax, c.SourceLine, "the cue text holds a NUL character, which no player shows; it was replaced by U+FFFD")
		}
	}
	if len(t.Cues) == 0 {
		d.Error(CodeNoCues, 0, "no valid cues were found")
	}
}

// readAll reads r to the end, sizing the buffer once when r knows its
// length (bytes.Reader, strings.Reader), which every in-memory caller's
// reader does: io.ReadAll's doubling would copy a 4 MiB file several times.
func readAll(r io.Reader) ([]byte, error) {
	if wt, ok := r.(interface {
		io.WriterTo
		Len() int
	}); ok && wt.Len() > 0 {
		// The reader hands over its bytes in one Write (bytes.Reader,
		// strings.Reader), and appending them to a nil slice allocates
		// without first zeroing the memory, as make would.
		var w appendWriter
		_, err := wt.WriteTo(&w)
		return w.b, err
	}
	if l, ok := r.(interface{ Len() int }); ok {
		b := make([]byte, l.Len())
		n, err := io.ReadFull(r, b)
		if err == io.ErrUnexpectedEOF {
			err = nil
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		rest, err := io.ReadAll(r)
		return append(b[:n], rest...), err
	}
	return io.ReadAll(r)
}

// appendWriter is an io.Writer that collects what it is given.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
