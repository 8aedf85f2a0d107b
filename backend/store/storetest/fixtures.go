package storetest

import (
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/account"
)

// newAccount returns account n: id uuidN(n), email an@example.test, pro
// with the API, created at at.
func newAccount(n int, at time.Time) *account.Account {
	return &account.Account{ID: uuidN(n), Email: fmt.Sprintf("a%d@example.test", n), Tier: account.TierPro,
		Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: at}
}

// account creates account n at the clock's time.
func (e *env) account(n int) *account.Account {
	e.t.Helper()
	a := newAccount(n, e.now())
	if err := e.db.Accounts().CreateAccount(e.ctx, a); err != nil {
		e.t.Fatalf("create account %d: %v", n, err)
	}
	return a
}

// newKey returns key n of the account, created at at and valid for an
// hour; no scopes is a legacy key.
func newKey(n int, accountID string, at time.Time, scopes ...string) *account.Key {
	return &account.Key{ID: uuidN(n), AccountID: accountID, Name: fmt.Sprintf("key %d", n), Prefix: keyPrefix(n),
		Scopes: scopes, CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
}

// keyPrefix is key n's prefix, in the layout account mints.
func keyPrefix(n int) string { return fmt.Sprintf("%s%012x", account.SecretTag, n) }
