package fix

import (
	"encoding/json"
	"strconv"

	"github.com/captionqa/captionqa/backend/jsonw"
)

// AppendJSON appends c to b as JSON; a [FileLevel] change has no
// cueIndex.
func (c *Change) AppendJSON(b []byte) []byte {
	b = append(b, `{"code":`...)
	b = jsonw.AppendString(b, c.Code)
	if c.CueIndex >= 0 {
		b = append(b, `,"cueIndex":`...)
		b = strconv.AppendInt(b, int64(c.CueIndex), 10)
	}
	b = append(b, `,"action":`...)
	b = jsonw.AppendString(b, c.Action)
	b = append(b, `,"message":`...)
	b = jsonw.AppendString(b, c.Message)
	return append(b, '}')
}

// MarshalJSON encodes c as [Change.AppendJSON] does, so encoding/json
// (the CLI) and the API's encoder agree.
func (c Change) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// UnmarshalJSON reads what MarshalJSON writes: a change without cueIndex
// is a [FileLevel] one, not one of cue 0.
func (c *Change) UnmarshalJSON(b []byte) error {
	var w struct {
		Code     string `json:"code"`
		CueIndex *int   `json:"cueIndex"`
		Action   string `json:"action"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*c = Change{Code: w.Code, CueIndex: FileLevel, Action: w.Action, Message: w.Message}
	if w.CueIndex != nil {
		c.CueIndex = *w.CueIndex
	}
	return nil
}

// EncodeChanges writes cs as a JSON array, null when cs is nil.
func EncodeChanges(e *jsonw.Encoder, cs []Change) {
	jsonw.Array(e, cs, (*Change).AppendJSON)
}
