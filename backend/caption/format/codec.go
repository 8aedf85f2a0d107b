package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/ass"
	"github.com/captionqa/captionqa/backend/caption/sbv"
	"github.com/captionqa/captionqa/backend/caption/scc"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/stl"
	"github.com/captionqa/captionqa/backend/caption/ttml"
	"github.com/captionqa/captionqa/backend/caption/vtt"
)

// CodeUnknownFormat is the diagnostic for content no reader recognises.
const CodeUnknownFormat = "unknown_format"

type parseFunc func(io.Reader) (*caption.Track, []caption.Diagnostic, error)

type writeFunc func(io.Writer, *caption.Track) error

// parser returns the reader of a normalised format name.
func parser(f string) parseFunc {
	switch f {
	case SRT:
		return srt.Parse
	case VTT:
		return vtt.Parse
	case SBV:
		return sbv.Parse
	case ASS:
		return ass.Parse
	case TTML, EBUTTD:
		return ttml.Parse
	case SCC:
		return scc.Parse
	case STL:
		return stl.Parse
	}
	return caption.ParseJSON
}

// writer returns the writer of a normalised format name, nil for a format
// that is only read.
func writer(f string) writeFunc {
	switch f {
	case SRT:
		return srt.Write
	case VTT:
		return vtt.Write
	case TTML:
		return ttml.Write
	case EBUTTD:
		return ttml.WriteEBUTTD
	case SCC:
		return scc.Write
	case STL:
		return stl.Write
	case JSON:
		return caption.WriteJSON
	}
	return nil
}

// Parse reads r as format f (any spelling [Normalize] accepts). It returns
// [ErrUnknownFormat] for an unknown name; otherwise only I/O errors.
func Parse(f string, r io.Reader) (*caption.Track, []caption.Diagnostic, error) {
	name, err := Normalize(f)
	if err != nil {
		return nil, nil, err
	}
	return parser(name)(r)
}

// Read parses a whole caption file. from names the format; when it is ""
// the format is detected from the content, with name as a hint. Content no
// reader recognises yields an empty track with an unknown_format (or
// empty_input) diagnostic. It returns [ErrUnknownFormat] only for a bad
// from.
func Read(name, from string, data []byte) (string, *caption.Track, []caption.Diagnostic, error) {
	f := from
	if f == "" {
		f = Detect(name, data)
	}
	if f == "" {
		// Let a reader report empty input the way every reader does.
		t, diags, err := caption.Read(bytes.NewReader(data), "", func(string) (*caption.Track, caption.Diagnostics) {
			var d caption.Diagnostics
			d.Error(CodeUnknownFormat, 1, "the file is not in a caption format CaptionQA reads (%s)", strings.Join(Readable(), ", "))
			return nil, d
		})
		return "", t, diags, err
	}
	f, err := Normalize(f)
	if err != nil {
		return "", nil, nil, err
	}
	t, diags, err := parser(f)(bytes.NewReader(data))
	return f, t, diags, err
}

// Write writes t in format f, one of [Writable]. It returns
// [ErrUnknownFormat] for a format it cannot write.
func Write(f string, w io.Writer, t *caption.Track) error {
	name, err := Normalize(f)
	if err != nil {
		return err
	}
	write := writer(name)
	if write == nil {
		return fmt.Errorf("%w: %s can be read but not written (writable: %s)", ErrUnknownFormat, name, strings.Join(Writable(), ", "))
	}
	return write(w, t)
}
