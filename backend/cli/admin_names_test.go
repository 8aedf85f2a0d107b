package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// TestAdminEscapesStoredNames: names and emails stored before they were
// checked may hold control and bidirectional characters; the admin
// commands print them escaped, in tables and in JSON alike, and the JSON
// still decodes to the stored text.
func TestAdminEscapesStoredNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := admin(t, dir, "account", "create", "--email", "first@example.com", "--tier", "pro"); code != 0 {
		t.Fatalf("account create: %s", errOut)
	}
	const (
		evilName  = "deploy\x1b]0;pwned\x07\x1b[2J\r\nfake row\u202etxt.exe\u009b\x00"
		evilEmail = "ad\u202emin@example.com"
	)
	// Written through the store, as an older release would have.
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, server.DBFile), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second)
	a := &account.Account{ID: "5b0c3b7e-3a54-4e0f-9d6c-1f2e3d4c5b6a", Email: evilEmail, Tier: account.TierPro,
		Features: account.Features(), DailyCap: 5, CreatedAt: now}
	if err := db.Accounts().CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	k := &account.Key{ID: "0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", AccountID: a.ID, Name: evilName, Prefix: "cqa_0123456789ab",
		Scopes: []string{account.ScopeUsageRead}, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := db.Accounts().CreateKey(ctx, k, []byte("hash")); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{
		{"account", "list"},
		{"account", "list", "--json"},
		{"key", "list", "--account", evilEmail, "--json"},
		{"key", "list", "--account", evilEmail},
	} {
		code, out, errOut := admin(t, dir, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && name.Unsafe(r) }) {
			t.Errorf("%v printed a raw control or bidi character:\n%q", args, out)
		}
		json := args[len(args)-1] == "--json"
		switch {
		case json && args[0] == "key":
			if keys := decode[struct{ Keys []httpapi.KeyView }](t, out).Keys; len(keys) != 1 || keys[0].Name != evilName {
				t.Errorf("%v: keys = %+v; want the stored name back", args, keys)
			}
		case json:
			if list := decode[[]accountView](t, out); len(list) != 2 || list[1].Email != evilEmail {
				t.Errorf("%v: accounts = %+v; want the stored email back", args, list)
			}
		case args[0] == "key":
			if !strings.Contains(out, `deploy\x1b]0;pwned\x07\x1b[2J\r\nfake row\u202etxt.exe\u009b\x00`) {
				t.Errorf("%v: the name is not shown escaped:\n%s", args, out)
			}
		default:
			if !strings.Contains(out, `ad\u202emin@example.com`) {
				t.Errorf("%v: the email is not shown escaped:\n%s", args, out)
			}
		}
	}
}
