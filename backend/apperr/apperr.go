// Package apperr is the one error type a client may see: a [Kind] that
// fixes the wire code of the API's error envelope (docs/api.md, Errors), a
// message written for the caller, and optional details. Transport layers
// map Kind to a status in one table; everything else returns or wraps an
// *Error. It imports the standard library only.
package apperr

import (
	"errors"
	"fmt"
)

// Kind classifies an error. Each kind has exactly one wire code; two kinds
// share payload_too_large because that code has two statuses, 400 and 413.
type Kind int

// Kinds; docs/api.md (Errors) lists their codes with their statuses.
const (
	// Internal is the zero Kind: an unexpected failure, shown generically.
	Internal Kind = iota
	BadRequest
	// RequestTooLarge: the request declares or sends more than the route
	// accepts (400 payload_too_large, refused before the body is read).
	RequestTooLarge
	Unauthorized
	APIKeyRevoked
	APIKeyExpired
	Forbidden
	NotFound
	Conflict
	// InputTooLarge: the engine refused the input's size (413
	// payload_too_large).
	InputTooLarge
	ProcessingFailed
	RateLimited
	QuotaExceeded
	NotImplemented
	Unavailable
	// MethodNotAllowed: the path is a route, but not for this method (405
	// method_not_allowed, with the Allow header; the served contract
	// documents it).
	MethodNotAllowed
)

// Code returns the wire code of k, as the error envelope carries it.
func (k Kind) Code() string {
	switch k {
	case BadRequest:
		return "bad_request"
	case RequestTooLarge, InputTooLarge:
		return "payload_too_large"
	case Unauthorized:
		return "unauthorized"
	case APIKeyRevoked:
		return "api_key_revoked"
	case APIKeyExpired:
		return "api_key_expired"
	case Forbidden:
		return "forbidden"
	case NotFound:
		return "not_found"
	case Conflict:
		return "conflict"
	case ProcessingFailed:
		return "processing_failed"
	case RateLimited:
		return "rate_limited"
	case QuotaExceeded:
		return "quota_exceeded"
	case NotImplemented:
		return "not_implemented"
	case Unavailable:
		return "unavailable"
	case MethodNotAllowed:
		return "method_not_allowed"
	}
	return "internal_error"
}

// Error is a failure the caller may see.
type Error struct {
	Kind    Kind
	Message string
	// Details carries machine-readable context: "field", "missingScope",
	// "missingFeature", "diagnostics", "limitBytes" and the like.
	Details map[string]any
	// Err is the underlying cause, for logs only; it is never shown.
	Err error
}

// New returns an error of kind k with a message for the caller.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// WithDetail returns e with details[key] = value added.
func (e *Error) WithDetail(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// Wrap records cause as the underlying error (shown only in logs).
func (e *Error) Wrap(cause error) *Error {
	e.Err = cause
	return e
}

// Code returns the wire code.
func (e *Error) Code() string { return e.Kind.Code() }

// Error returns the code and message, and the cause when there is one: the
// form for logs, never for clients.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Kind.Code() + ": " + e.Message + ": " + e.Err.Error()
	}
	return e.Kind.Code() + ": " + e.Message
}

// Unwrap returns the cause recorded by [Error.Wrap], for [errors.Is] and
// [errors.As].
func (e *Error) Unwrap() error { return e.Err }

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// KindOf returns the kind of the *Error in err's chain, or [Internal].
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	return Internal
}
