package sqlstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// The assertions and fixtures of the account, key, session, sign-in
// link, quota and template tests.

// wantKind fails the test unless err has kind want; Internal means no
// error at all.
func wantKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if got := apperr.KindOf(err); got != want || (want != apperr.Internal && err == nil) {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
	if want == apperr.Internal && err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// acctT0 is the account tests' base time, whole seconds.
var acctT0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func newAccount(id, email string) *account.Account {
	return &account.Account{ID: id, Email: email, Tier: account.TierPro,
		Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: acctT0}
}

func newKey(id, accountID, prefix string, scopes ...string) *account.Key {
	return &account.Key{ID: id, AccountID: accountID, Name: "k-" + id, Prefix: prefix, Scopes: scopes,
		CreatedAt: acctT0, ExpiresAt: acctT0.Add(time.Hour)}
}

func newSession(id, accountID string, expires time.Time) *account.Session {
	return &account.Session{ID: id, AccountID: accountID, CSRFToken: "csrf-" + id, CreatedAt: acctT0, ExpiresAt: expires}
}

// newLink is a sign-in link made at at, live for 15 minutes.
func newLink(accountID string, at time.Time) *account.SignInLink {
	return &account.SignInLink{AccountID: accountID, CreatedAt: at, ExpiresAt: at.Add(15 * time.Minute)}
}

// templateID is a fixed, valid UUID ending in n's decimal digits.
func templateID(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

func newTemplate(n int, accountID string, at time.Time) *exporttpl.Template {
	return &exporttpl.Template{ID: templateID(n), AccountID: accountID, Name: "t", Source: "src", JS: "js", Revision: 1,
		FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
}
