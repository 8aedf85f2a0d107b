package standard

import (
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// EncodeJSON writes r as encoding/json would; a long delivery can give a
// clause tens of thousands of findings.
func (r *Report) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	e.Key("id", true)
	e.String(r.ID)
	e.Key("title", false)
	e.String(r.Title)
	if r.Version != "" {
		e.Key("version", false)
		e.String(r.Version)
	}
	e.Key("summary", false)
	e.Raw(`{"pass":`)
	e.Int(int64(r.Summary.Pass))
	e.Raw(`,"fail":`)
	e.Int(int64(r.Summary.Fail))
	e.Raw(`,"notEvaluated":`)
	e.Int(int64(r.Summary.NotEvaluated))
	e.Raw("}")
	e.Key("clauses", false)
	if r.Clauses == nil {
		e.Raw("null")
	} else {
		// Clauses stream through the encoder: each may hold a long list.
		e.Raw("[")
		for i := range r.Clauses {
			if i > 0 {
				e.Raw(",")
			}
			r.Clauses[i].EncodeJSON(e)
		}
		e.Raw("]")
	}
	e.Raw("}")
}

// EncodeJSON writes c as encoding/json would.
func (c *Clause) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	e.Key("id", true)
	e.String(c.ID)
	e.Key("title", false)
	e.String(c.Title)
	e.Key("requirement", false)
	e.String(c.Requirement)
	e.Key("status", false)
	e.String(string(c.Status))
	e.Key("findings", false)
	caption.EncodeDiagnostics(e, c.Findings)
	if c.Reason != "" {
		e.Key("reason", false)
		e.String(c.Reason)
	}
	if len(c.Checks) > 0 {
		e.Key("checks", false)
		e.Strings(c.Checks)
	}
	e.Raw("}")
}
