package format

import (
	"errors"
	"fmt"
	"path/filepath"
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

// Format names, as the CLI and the API accept them.
const (
	SRT  = srt.Format
	VTT  = vtt.Format
	SBV  = sbv.Format
	ASS  = ass.Format
	TTML = ttml.Format
	// EBUTTD is EBU-TT-D (EBU Tech 3380), a TTML profile: written by its
	// own writer, read by the TTML reader.
	EBUTTD = ttml.FormatEBUTTD
	SCC    = scc.Format
	STL    = stl.Format
	JSON   = caption.FormatJSON
)

// ErrUnknownFormat is returned for a format name CaptionQA does not know,
// or one it can read but not write.
var ErrUnknownFormat = errors.New("format: unknown format")

// aliases is a read-only table of every accepted spelling of a format name.
var aliases = map[string]string{
	"srt": SRT, "subrip": SRT,
	"vtt": VTT, "webvtt": VTT,
	"sbv": SBV, "youtube": SBV,
	"ass": ASS, "ssa": ASS,
	"ttml": TTML, "dfxp": TTML, "imsc": TTML, "imsc1": TTML, "xml": TTML,
	"scc": SCC, "scenarist": SCC,
	"ebu-tt-d": EBUTTD, "ebuttd": EBUTTD,
	"stl": STL, "ebu-stl": STL,
	"json": JSON, "ir": JSON, "developer-json": JSON,
}

// Binary reports whether format f's files are bytes rather than text
// (EBU STL), so that a JSON string cannot carry them as they are.
func Binary(f string) bool { return f == STL }

// Readable lists the formats [Parse] reads.
func Readable() []string { return []string{SRT, VTT, SBV, ASS, TTML, SCC, STL, JSON} }

// Writable lists the formats [Write] writes.
func Writable() []string { return []string{SRT, VTT, TTML, EBUTTD, SCC, STL, JSON} }

// Title is a format's name as editors write it in a sentence: "SRT",
// "WebVTT", "TTML", "the JSON model".
func Title(f string) string {
	switch f {
	case SRT:
		return "SRT"
	case VTT:
		return "WebVTT"
	case SBV:
		return "SBV"
	case ASS:
		return "ASS"
	case TTML:
		return "TTML"
	case EBUTTD:
		return "EBU-TT-D"
	case SCC:
		return "SCC"
	case STL:
		return "EBU STL"
	case JSON:
		return "the JSON model"
	}
	return f
}

// Normalize returns the format name for a spelling such as "webvtt" or
// "SSA". It returns [ErrUnknownFormat] for anything else.
func Normalize(name string) (string, error) {
	if f, ok := aliases[strings.ToLower(strings.TrimSpace(name))]; ok {
		return f, nil
	}
	return "", fmt.Errorf("%w %q (known: %s)", ErrUnknownFormat, name, strings.Join(Readable(), ", "))
}

// FromExtension returns the format a file name's extension suggests, or ""
// when the extension says nothing.
func FromExtension(name string) string {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	if ext == "" {
		return ""
	}
	return aliases[ext]
}

// Extension returns the usual file extension of a writable format.
// EBU-TT-D is ".xml", as broadcasters name EBU-TT-D deliveries, and so
// that a job delivering both TTML and EBU-TT-D gives two file names;
// FromExtension reads ".xml" as TTML, which the TTML reader reads.
func Extension(f string) string {
	switch f {
	case JSON:
		return ".json"
	case EBUTTD:
		return ".xml"
	}
	return "." + f
}

// ContentType returns the media type of a writable format's output.
func ContentType(f string) string {
	switch f {
	case VTT:
		return "text/vtt; charset=utf-8"
	case TTML, EBUTTD:
		return "application/ttml+xml; charset=utf-8"
	case STL:
		// EBU STL is binary and has no registered media type.
		return "application/octet-stream"
	case SCC:
		// SCC has no registered media type; it is ASCII text.
		return "text/plain; charset=us-ascii"
	case JSON:
		return "application/json"
	}
	return "application/x-subrip; charset=utf-8"
}
