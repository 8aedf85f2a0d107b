package apperr

// Envelope is the JSON body of every error response (docs/api.md, Errors):
// {"error": {"code", "message", "details"}}.
type Envelope struct {
	Error Body `json:"error"`
}

// Body is the inside of an [Envelope].
type Body struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// Envelope returns e as the API's error envelope. An [Internal] error
// shows a generic message: its text may hold details meant for logs only.
func (e *Error) Envelope() Envelope {
	if e.Kind == Internal {
		return Envelope{Error: Body{Code: e.Code(), Message: "Internal error."}}
	}
	return Envelope{Error: Body{Code: e.Code(), Message: e.Message, Details: e.Details}}
}
