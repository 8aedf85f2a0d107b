package fix

import "github.com/captionqa/captionqa/backend/jsonw"

// EncodeJSON writes c as encoding/json would.
func (c *Change) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	e.Key("code", true)
	e.String(c.Code)
	e.Key("cueIndex", false)
	e.Int(int64(c.CueIndex))
	e.Key("action", false)
	e.String(c.Action)
	e.Key("message", false)
	e.String(c.Message)
	e.Raw("}")
}

// EncodeChanges writes cs as a JSON array, null when cs is nil.
func EncodeChanges(e *jsonw.Encoder, cs []Change) {
	jsonw.Array(e, cs, (*Change).EncodeJSON)
}
