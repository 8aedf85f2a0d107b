package postgres

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func newKey(id, accountID, prefix string, scopes ...string) *account.Key {
	return &account.Key{ID: id, AccountID: accountID, Name: "k-" + id, Prefix: prefix, Scopes: scopes,
		CreatedAt: acctT0, ExpiresAt: acctT0.Add(time.Hour)}
}

// TestAPIKeyStore: what the conformance suite leaves to each adapter's
// SQL: a taken id is a conflict as a taken prefix is; a legacy key's
// empty scopes read back as nil and an account without keys lists an
// empty list, not nil; CreateKeyWithin counts before it inserts, so a
// full account is refused as full even when the prefix is taken too.
func TestAPIKeyStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateAccount(ctx, newAccount("a2", "two@example.test")), apperr.Internal)

	checkKind(t, s.CreateKey(ctx, newKey("k1", "a1", "cqa_111111111111"), []byte{1}), apperr.Internal)
	checkKind(t, s.CreateKey(ctx, newKey("k1", "a2", "cqa_333333333333"), []byte{1}), apperr.Conflict)
	legacy, _, err := s.KeyByPrefix(ctx, "cqa_111111111111")
	checkKind(t, err, apperr.Internal)
	if legacy.Scopes != nil {
		t.Errorf("legacy key scopes = %#v, want nil", legacy.Scopes)
	}
	if none, err := s.ListKeys(ctx, "a2"); err != nil || none == nil || len(none) != 0 {
		t.Errorf("ListKeys(a2) = %#v, %v; want an empty list", none, err)
	}
	err = s.CreateKeyWithin(ctx, newKey("k2", "a1", "cqa_111111111111"), []byte{1}, 1)
	if !errors.Is(err, account.ErrTooManyKeys) {
		t.Errorf("full account, prefix taken: %v; want ErrTooManyKeys", err)
	}
}

// TestCreateKeyWithinRace: callers on several nodes at once never take
// an account past its most active keys.
func TestCreateKeyWithinRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	checkKind(t, nodes[0].Accounts().CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
	const max = 4
	var wg sync.WaitGroup
	errs := make([]error, 30)
	start := make(chan struct{})
	for i := range errs {
		s := nodes[i%len(nodes)].Accounts()
		wg.Go(func() {
			<-start
			errs[i] = s.CreateKeyWithin(ctx, newKey(fmt.Sprint("k", i), "a1", fmt.Sprintf("cqa_%012d", i)), []byte{1}, max)
		})
	}
	close(start)
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, account.ErrTooManyKeys):
			t.Errorf("unexpected error: %v", err)
		}
	}
	keys, err := nodes[0].Accounts().ListKeys(ctx, "a1")
	if ok != max || err != nil || len(keys) != max {
		t.Errorf("%d created, %d stored (%v); want %d", ok, len(keys), err, max)
	}
}

// TestOnlyTheHashIsStored reads every column of the key's row and checks
// that the secret appears nowhere, only its SHA-256.
func TestOnlyTheHashIsStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	svc := account.NewService(db.Accounts(), account.Options{})
	a, err := svc.CreateAccount(ctx, account.NewAccount{Email: "h@example.test", Tier: account.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	k, secret, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "n", Scopes: []string{account.ScopeKeysRead}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.pool.Query(ctx, `SELECT * FROM api_keys WHERE id = $1`, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal("key row missing")
	}
	vals, err := rows.Values()
	if err != nil {
		t.Fatal(err)
	}
	body := secret[len(k.Prefix)+1:]
	sum := sha256.Sum256([]byte(secret))
	for i, f := range rows.FieldDescriptions() {
		if f.Name == "hash" {
			if b, _ := vals[i].([]byte); !bytes.Equal(b, sum[:]) {
				t.Errorf("hash column is not SHA-256 of the secret")
			}
			continue
		}
		if s := fmt.Sprint(vals[i]); strings.Contains(s, body) {
			t.Errorf("column %s holds the secret", f.Name)
		}
	}
}
