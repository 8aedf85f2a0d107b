package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/userpreset"
)

// TestPanicIsInternalError: a panicking component gives 500
// internal_error with the generic message; the panic is in the log only.
func TestPanicIsInternalError(t *testing.T) {
	t.Parallel()
	db := testkit.MustOpenDB(t)
	var logs bytes.Buffer
	builtins, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	e := New(Options{
		Presets:          userpreset.NewService(db.UserPresets(), builtins, nil),
		PresetSchemaJSON: []byte(`{}`),
		Accounts:         account.NewService(db.Accounts(), account.Options{}),
		Quota:            quota.NewService(db.Quotas(), quota.Options{}),
		Engine:           engine.New(engine.Options{}),
		Logger:           slog.New(slog.NewJSONHandler(&logs, nil)),
		Ready:            func(context.Context) error { panic("disk on fire at /secret/path") },
	})
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://localhost/readyz", nil))
	var env apperr.Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 500 || env.Error.Code != "internal_error" || env.Error.Message != "Internal error." || env.Error.Details != nil {
		t.Errorf("got %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(rec.Body.String(), "disk on fire") {
		t.Error("the panic leaked into the response")
	}
	if !strings.Contains(logs.String(), "disk on fire") || !strings.Contains(logs.String(), `"status":500`) {
		t.Errorf("the log lacks the panic:\n%s", logs.String())
	}
}

// TestStatusTable pins the code-to-status table (docs/api.md, Errors), and the
// rewriting of echo's own errors.
func TestStatusTable(t *testing.T) {
	t.Parallel()
	want := map[apperr.Kind]int{
		apperr.Internal: 500, apperr.BadRequest: 400, apperr.RequestTooLarge: 400, apperr.Unauthorized: 401,
		apperr.APIKeyRevoked: 401, apperr.APIKeyExpired: 401, apperr.Forbidden: 403, apperr.NotFound: 404,
		apperr.Conflict: 409, apperr.InputTooLarge: 413, apperr.ProcessingFailed: 422, apperr.RateLimited: 429,
		apperr.QuotaExceeded: 429, apperr.NotImplemented: 501, apperr.Unavailable: 503, apperr.MethodNotAllowed: 405,
	}
	for k, s := range want {
		if got := statusOf(k); got != s {
			t.Errorf("statusOf(%s) = %d; want %d", k.Code(), got, s)
		}
	}
	for code, kind := range map[int]apperr.Kind{404: apperr.NotFound, 405: apperr.MethodNotAllowed, 413: apperr.RequestTooLarge,
		415: apperr.BadRequest, 500: apperr.Internal} {
		if got := fromEcho(echo.NewHTTPError(code), "GET").Kind; got != kind {
			t.Errorf("echo %d → %s; want %s", code, got.Code(), kind.Code())
		}
	}
}
