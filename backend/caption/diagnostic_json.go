package caption

import "github.com/captionqa/captionqa/backend/jsonw"

// EncodeJSON writes d as encoding/json would (same fields, same
// omissions); a report can hold tens of thousands of diagnostics.
func (d *Diagnostic) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	e.Key("code", true)
	e.String(d.Code)
	e.Key("severity", false)
	e.String(string(d.Severity))
	e.Key("line", false)
	e.Int(int64(d.Line))
	if d.CueIndex != nil {
		e.Key("cueIndex", false)
		e.Int(int64(*d.CueIndex))
	}
	e.Key("message", false)
	e.String(d.Message)
	if d.Value != nil {
		e.Key("value", false)
		e.Float(*d.Value)
	}
	if d.Limit != nil {
		e.Key("limit", false)
		e.Float(*d.Limit)
	}
	if d.Unit != "" {
		e.Key("unit", false)
		e.String(d.Unit)
	}
	e.Raw("}")
}

// EncodeDiagnostics writes ds as a JSON array, null when ds is nil.
func EncodeDiagnostics(e *jsonw.Encoder, ds []Diagnostic) {
	jsonw.Array(e, ds, (*Diagnostic).EncodeJSON)
}
