package fix

import (
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

// EncodeChanges writes cs as a JSON array, null when cs is nil.
func EncodeChanges(e *jsonw.Encoder, cs []Change) {
	jsonw.Array(e, cs, (*Change).AppendJSON)
}
