package project

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
)

// maxShownDiagnostics bounds the diagnostics an error's details carry: a
// broken 40,000-cue file would otherwise answer with megabytes of them.
const maxShownDiagnostics = 100

// timeline is a timeline ready to store.
type timeline struct {
	track *caption.Track
	ir    string // compact IR v1 JSON
	cues  int
}

// readIR reads text, sent in field, as IR v1 JSON. IR is read strictly: a
// document the IR reader reports any error on (a cue it had to drop, a
// structure it could not read) is refused, since storing it would
// silently lose what the caller sent. Caption files are read leniently
// instead ([readFile]), as POST /process reads them.
func readIR(field, text string) (*timeline, error) {
	t, err := parseIR(field, text)
	if err != nil {
		return nil, err
	}
	return encode(field, t)
}

// parseIR reads text as [readIR] does, without encoding it for storage:
// a diff candidate is compared, never stored.
func parseIR(field, text string) (*caption.Track, error) {
	if len(text) > MaxIRBytes {
		return nil, tooLarge(field, len(text))
	}
	t, diags, err := caption.ParseJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("project: read ir: %w", err)
	}
	for _, d := range diags {
		if d.Severity == caption.SeverityError {
			return nil, unreadable(field, "the IR is not a valid IR v1 document", diags)
		}
	}
	if len(t.Cues) == 0 {
		return nil, unreadable(field, "the IR has no cues", diags)
	}
	return t, nil
}

// readFile reads a caption file in any format the engine reads, detected
// from its content with its name as a hint. It is refused only when it
// yields no cues.
func readFile(field string, f *File) (*timeline, error) {
	if len(f.Data) > MaxIRBytes {
		return nil, tooLarge(field, len(f.Data))
	}
	_, t, diags, err := format.Read(f.Name, "", f.Data)
	if err != nil {
		return nil, fmt.Errorf("project: read file: %w", err)
	}
	if len(t.Cues) == 0 {
		return nil, unreadable(field, "the file yielded no caption cues", diags)
	}
	return encode(field, t)
}

// encode writes t as compact IR JSON, within [MaxIRBytes].
func encode(field string, t *caption.Track) (*timeline, error) {
	var buf bytes.Buffer
	if err := caption.WriteJSON(&buf, t); err != nil {
		return nil, fmt.Errorf("project: encode ir: %w", err)
	}
	var compact bytes.Buffer
	compact.Grow(buf.Len())
	if err := json.Compact(&compact, buf.Bytes()); err != nil {
		return nil, fmt.Errorf("project: compact ir: %w", err)
	}
	if compact.Len() > MaxIRBytes {
		return nil, tooLarge(field, compact.Len()).WithDetail("reason", "ir_too_large")
	}
	return &timeline{track: t, ir: compact.String(), cues: len(t.Cues)}, nil
}

func tooLarge(field string, n int) *apperr.Error {
	return apperr.New(apperr.RequestTooLarge, "the timeline is %d bytes as IR JSON; the limit is %d", n, MaxIRBytes).
		WithDetail("field", field).WithDetail("limitBytes", MaxIRBytes)
}

// unreadable is the 422 of a timeline that cannot be stored, with the
// reader's first diagnostics.
func unreadable(field, msg string, diags []caption.Diagnostic) *apperr.Error {
	shown := diags
	if shown == nil {
		shown = []caption.Diagnostic{}
	}
	e := apperr.New(apperr.ProcessingFailed, "%s", msg).WithDetail("field", field)
	if len(shown) > maxShownDiagnostics {
		e.WithDetail("omittedDiagnostics", len(shown)-maxShownDiagnostics)
		shown = shown[:maxShownDiagnostics]
	}
	return e.WithDetail("diagnostics", shown)
}
