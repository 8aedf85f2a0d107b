package apperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindCodes(t *testing.T) {
	t.Parallel()
	want := map[Kind]string{
		Internal: "internal_error", BadRequest: "bad_request", RequestTooLarge: "payload_too_large",
		Unauthorized: "unauthorized", APIKeyRevoked: "api_key_revoked", APIKeyExpired: "api_key_expired",
		Forbidden: "forbidden", NotFound: "not_found", Conflict: "conflict", InputTooLarge: "payload_too_large",
		ProcessingFailed: "processing_failed", RateLimited: "rate_limited", QuotaExceeded: "quota_exceeded",
		NotImplemented: "not_implemented", Unavailable: "unavailable", MethodNotAllowed: "method_not_allowed",
	}
	for k, code := range want {
		if got := k.Code(); got != code {
			t.Errorf("Kind(%d).Code() = %q; want %q", k, got, code)
		}
	}
}

func TestWrapAndAs(t *testing.T) {
	t.Parallel()
	cause := errors.New("disk on fire")
	e := New(BadRequest, "unknown preset %q", "x").WithDetail("field", "preset").Wrap(cause)
	wrapped := fmt.Errorf("engine: process: %w", e)
	got, ok := As(wrapped)
	if !ok || got.Kind != BadRequest || got.Details["field"] != "preset" || got.Message != `unknown preset "x"` {
		t.Fatalf("As = %+v, %v", got, ok)
	}
	if !errors.Is(wrapped, cause) {
		t.Error("cause is not in the chain")
	}
	if KindOf(errors.New("plain")) != Internal || KindOf(wrapped) != BadRequest {
		t.Error("KindOf")
	}
}
