package caption

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// FormatJSON is the format name of the IR's own JSON form.
const FormatJSON = "json"

// ParseJSON reads an IR document. Unknown fields are ignored (the IR only
// grows); a cue that cannot be read is dropped with a diagnostic on its line
// and the others are kept. The error is only ever an I/O error.
func ParseJSON(r io.Reader) (*Track, []Diagnostic, error) {
	return Read(r, FormatJSON, parseJSONText)
}

// header holds the top-level fields other than cues.
type header struct {
	Version   *int                       `json:"version"`
	Language  string                     `json:"language"`
	FrameRate float64                    `json:"frameRate"`
	Styles    []Style                    `json:"styles"`
	Regions   []Region                   `json:"regions"`
	Ext       map[string]json.RawMessage `json:"ext"`
}

func parseJSONText(text string) (*Track, Diagnostics) {
	var d Diagnostics
	t := &Track{Cues: []Cue{}}
	// lineAt gives the line of the next value after offset off: the decoder's
	// offset stops before the separating comma and whitespace. Offsets come
	// in increasing order, so it counts on from the last one: counting from
	// the start each time made a long document's read quadratic.
	lineOff, lineNo := 0, 1
	lineAt := func(off int64) int {
		i := min(int(off), len(text))
		for i < len(text) && strings.IndexByte(", \t\r\n", text[i]) >= 0 {
			i++
		}
		if i < lineOff {
			return 1 + strings.Count(text[:i], "\n")
		}
		lineNo += strings.Count(text[lineOff:i], "\n")
		lineOff = i
		return lineNo
	}
	dec := json.NewDecoder(strings.NewReader(text))
	fail := func(err error) (*Track, Diagnostics) {
		d.Error(CodeInvalidDocument, lineAt(dec.InputOffset()), "the JSON could not be read: %v", err)
		return t, d
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err == nil {
			err = errors.New("the document is not a JSON object")
		}
		return fail(err)
	}
	// Top-level fields other than cues are gathered into one object so that
	// a single Unmarshal applies the struct tags.
	rest := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		if key != "cues" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return fail(err)
			}
			rest[key] = raw
			continue
		}
		if err := readJSONCues(dec, t, &d, lineAt); err != nil {
			return fail(err)
		}
	}
	b, _ := json.Marshal(rest)
	var h header
	if err := json.Unmarshal(b, &h); err != nil {
		d.Error(CodeInvalidDocument, 1, "a top-level field has the wrong type: %v", err)
	}
	switch {
	case h.Version == nil:
		d.Warn(CodeInvalidDocument, 1, "the IR has no version; read as version %d", Version)
	case *h.Version != Version:
		d.Warn(CodeInvalidDocument, 1, "IR version %d is not supported; read as version %d", *h.Version, Version)
	}
	t.Language, t.FrameRate, t.Styles, t.Regions, t.Ext = h.Language, h.FrameRate, h.Styles, h.Regions, h.Ext
	return t, d
}

func readJSONCues(dec *json.Decoder, t *Track, d *Diagnostics, lineAt func(int64) int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('[') {
		return errors.New("cues is not an array")
	}
	for dec.More() {
		line := lineAt(dec.InputOffset())
		var c Cue
		if err := dec.Decode(&c); err != nil {
			var typeErr *json.UnmarshalTypeError
			if !errors.As(err, &typeErr) {
				return err
			}
			d.Error(CodeInvalidDocument, line, "cue dropped: %v", err)
			continue
		}
		c.SourceLine = line
		if checkJSONCue(&c, d, line) {
			t.Cues = append(t.Cues, c)
		}
	}
	_, err = dec.Token()
	return err
}

// checkJSONCue normalises c and reports whether it is kept.
func checkJSONCue(c *Cue, d *Diagnostics, line int) bool {
	if c.StartMs < 0 || c.EndMs < 0 {
		d.Error(CodeInvalidTimestamp, line, "cue %q dropped: negative time", c.ID)
		return false
	}
	if c.EndMs < c.StartMs {
		d.Error(CodeEndBeforeStart, line, "cue %q dropped: it ends (%s) before it starts (%s)",
			c.ID, FormatClock(c.EndMs), FormatClock(c.StartMs))
		return false
	}
	if strings.ContainsRune(c.Text, '\r') {
		c.Text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(c.Text)
	}
	c.Text = strings.TrimRight(c.Text, "\n")
	n := utf8.RuneCountInString(c.Text)
	spans := c.Spans[:0]
	for _, s := range c.Spans {
		if s.Start < 0 || s.End > n || s.Start >= s.End {
			d.Warn(CodeInvalidSetting, line, "cue %q: span [%d,%d) lies outside its %d characters and was dropped", c.ID, s.Start, s.End, n)
			continue
		}
		spans = append(spans, s)
	}
	if len(spans) == 0 {
		spans = nil
	}
	c.Spans = spans
	return true
}

// WriteJSON writes t as an indented IR document. The output is
// deterministic: the same track gives the same bytes.
func WriteJSON(w io.Writer, t *Track) error {
	out := *t
	out.Version = Version
	if out.Cues == nil {
		out.Cues = []Cue{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&out); err != nil {
		return fmt.Errorf("caption: encode json: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("caption: write json: %w", err)
	}
	return nil
}
