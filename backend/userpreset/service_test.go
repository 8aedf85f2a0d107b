package userpreset_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/userpreset"
)

func newService(t *testing.T) (*userpreset.Service, string, string) {
	t.Helper()
	db := testkit.MustOpenDB(t)
	builtins, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	clock := testkit.NewClock(time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	accounts := account.NewService(db.Accounts(), account.Options{Now: clock.Now})
	a := testkit.MustCreateAccount(t, accounts, "studio@example.com", account.TierPro)
	b := testkit.MustCreateAccount(t, accounts, "rival@example.com", account.TierPro)
	return userpreset.NewService(db.UserPresets(), builtins, clock.Now), a.ID, b.ID
}

// TestPutRefusals: the name rules, the built-ins' names in any case and
// a file that does not check are refused with their field.
func TestPutRefusals(t *testing.T) {
	t.Parallel()
	svc, a, _ := newService(t)
	ctx := context.Background()
	tests := []struct {
		name, preset, file string
		kind               apperr.Kind
		field, reason      string
	}{
		{"empty name", "  ", `{"base":"youtube"}`, apperr.BadRequest, "name", "required"},
		{"long name", strings.Repeat("n", 65), `{"base":"youtube"}`, apperr.BadRequest, "name", "too_long"},
		{"control character", "a\x1bb", `{"base":"youtube"}`, apperr.BadRequest, "name", "unsafe_character"},
		{"slash", "a/b", `{"base":"youtube"}`, apperr.BadRequest, "name", "reserved_character"},
		{"template prefix", "template:x", `{"base":"youtube"}`, apperr.BadRequest, "name", "reserved_character"},
		{"built-in", "youtube", `{"base":"youtube"}`, apperr.Conflict, "name", "builtin_preset"},
		{"built-in in another case", "YouTube", `{"base":"youtube"}`, apperr.Conflict, "name", "builtin_preset"},
		{"bad file", "studio-a", `{"base":"youtube","output":"ass"}`, apperr.BadRequest, "output", ""},
	}
	for _, tc := range tests {
		_, _, err := svc.Put(ctx, a, tc.preset, []byte(tc.file))
		ae, ok := apperr.As(err)
		if !ok || ae.Kind != tc.kind || ae.Details["field"] != tc.field || (tc.reason != "" && ae.Details["reason"] != tc.reason) {
			t.Errorf("%s: %v (%+v); want %s on %s, reason %q", tc.name, err, ae, tc.kind.Code(), tc.field, tc.reason)
		}
	}
}

// TestResolve: the account's own name is resolved; a built-in, "" and a
// name the account does not hold are left to the engine.
func TestResolve(t *testing.T) {
	t.Parallel()
	svc, a, b := newService(t)
	ctx := context.Background()
	if _, created, err := svc.Put(ctx, a, " studio-a ", []byte(`{"base":"lms","title":"Studio A"}`)); err != nil || !created {
		t.Fatalf("put: created %v, %v", created, err)
	}
	req := engine.Request{Preset: "studio-a"}
	if err := svc.Resolve(ctx, a, &req); err != nil || req.Resolved == nil || req.Resolved.ID != "studio-a" || req.Resolved.Output != "ttml" {
		t.Fatalf("resolve own: %v, %+v", err, req.Resolved)
	}
	for _, tc := range []struct{ account, name string }{{b, "studio-a"}, {a, "youtube"}, {a, ""}, {a, "studio-z"}, {"", "studio-a"}} {
		req := engine.Request{Preset: tc.name}
		if err := svc.Resolve(ctx, tc.account, &req); err != nil || req.Resolved != nil {
			t.Errorf("resolve %q for %q: %v, %+v; want it left to the engine", tc.name, tc.account, err, req.Resolved)
		}
	}
	list, err := svc.List(ctx, b)
	if err != nil || len(list) != len(preset.Required())+len(preset.Studio()) {
		t.Errorf("another account's list: %d entries, %v; want the built-ins only", len(list), err)
	}
}
