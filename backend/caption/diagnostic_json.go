package caption

import (
	"strconv"

	"github.com/captionqa/captionqa/backend/jsonw"
)

// AppendJSON appends d to b as encoding/json would encode it (same
// fields, same omissions); a report can hold tens of thousands of
// diagnostics.
func (d *Diagnostic) AppendJSON(b []byte) []byte {
	b = append(b, `{"code":`...)
	b = jsonw.AppendString(b, d.Code)
	b = append(b, `,"severity":`...)
	b = jsonw.AppendString(b, string(d.Severity))
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(d.Line), 10)
	if d.CueIndex != nil {
		b = append(b, `,"cueIndex":`...)
		b = strconv.AppendInt(b, int64(*d.CueIndex), 10)
	}
	b = append(b, `,"message":`...)
	b = jsonw.AppendString(b, d.Message)
	if d.Value != nil {
		b = append(b, `,"value":`...)
		b = jsonw.AppendFloat(b, *d.Value)
	}
	if d.Limit != nil {
		b = append(b, `,"limit":`...)
		b = jsonw.AppendFloat(b, *d.Limit)
	}
	if d.Unit != "" {
		b = append(b, `,"unit":`...)
		b = jsonw.AppendString(b, d.Unit)
	}
	return append(b, '}')
}

// EncodeDiagnostics writes ds as a JSON array, null when ds is nil.
func EncodeDiagnostics(e *jsonw.Encoder, ds []Diagnostic) {
	jsonw.Array(e, ds, (*Diagnostic).AppendJSON)
}
