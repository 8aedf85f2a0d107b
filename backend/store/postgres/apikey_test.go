package postgres

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
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

func TestAPIKeyStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateAccount(ctx, newAccount("a2", "two@example.test")), apperr.Internal)

	creates := []struct {
		name string
		key  *account.Key
		want apperr.Kind
	}{
		{"scoped", newKey("k1", "a1", "cqa_111111111111", account.ScopeKeysRead, account.ScopeProcessWrite), apperr.Internal},
		{"legacy", newKey("k2", "a1", "cqa_222222222222"), apperr.Internal},
		{"prefix taken", newKey("k3", "a2", "cqa_111111111111"), apperr.Conflict},
		{"id taken", newKey("k1", "a2", "cqa_333333333333"), apperr.Conflict},
		{"unknown account", newKey("k4", "ghost", "cqa_444444444444"), apperr.NotFound},
	}
	for _, tt := range creates {
		t.Run("create "+tt.name, func(t *testing.T) {
			checkKind(t, s.CreateKey(ctx, tt.key, []byte("hash-"+tt.key.ID)), tt.want)
		})
	}

	k, hash, err := s.KeyByPrefix(ctx, "cqa_111111111111")
	checkKind(t, err, apperr.Internal)
	if k.ID != "k1" || string(hash) != "hash-k1" || !slices.Equal(k.Scopes, []string{account.ScopeKeysRead, account.ScopeProcessWrite}) ||
		k.CreatedAt != acctT0 || k.ExpiresAt != acctT0.Add(time.Hour) || k.RevokedAt != nil || k.LastUsedAt != nil {
		t.Errorf("KeyByPrefix = %+v, hash %q", k, hash)
	}
	legacy, _, err := s.KeyByPrefix(ctx, "cqa_222222222222")
	checkKind(t, err, apperr.Internal)
	if legacy.Scopes != nil {
		t.Errorf("legacy key scopes = %#v, want nil", legacy.Scopes)
	}
	_, _, err = s.KeyByPrefix(ctx, "cqa_999999999999")
	checkKind(t, err, apperr.NotFound)

	revokes := []struct {
		name, account, key string
		want               apperr.Kind
	}{
		{"own key", "a1", "k1", apperr.Internal},
		{"again keeps first time", "a1", "k1", apperr.Internal},
		{"another account's key", "a2", "k2", apperr.NotFound},
		{"unknown key", "a1", "nope", apperr.NotFound},
	}
	for i, tt := range revokes {
		t.Run("revoke "+tt.name, func(t *testing.T) {
			checkKind(t, s.RevokeKey(ctx, tt.account, tt.key, acctT0.Add(time.Duration(i+1)*time.Minute)), tt.want)
		})
	}
	checkKind(t, s.TouchKey(ctx, "k2", acctT0.Add(1500*time.Millisecond)), apperr.Internal)

	list, err := s.ListKeys(ctx, "a1")
	checkKind(t, err, apperr.Internal)
	if len(list) != 2 || list[0].ID != "k1" || list[1].ID != "k2" {
		t.Fatalf("ListKeys(a1) = %+v", list)
	}
	if list[0].RevokedAt == nil || *list[0].RevokedAt != acctT0.Add(time.Minute) {
		t.Errorf("revoked_at = %v, want the first revocation %v", list[0].RevokedAt, acctT0.Add(time.Minute))
	}
	if list[1].LastUsedAt == nil || *list[1].LastUsedAt != acctT0.Add(time.Second) || list[1].RevokedAt != nil {
		t.Errorf("k2 = %+v, want last used at t0+1s (UTC, whole seconds) and not revoked", list[1])
	}
	if none, err := s.ListKeys(ctx, "a2"); err != nil || len(none) != 0 || none == nil {
		t.Errorf("ListKeys(a2) = %#v, %v; want an empty list", none, err)
	}
}

func TestCreateKeyWithin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
	expired := newKey("old", "a1", "cqa_000000000000")
	expired.ExpiresAt = acctT0 // expired at acctT0: does not count
	checkKind(t, s.CreateKey(ctx, expired, []byte{0}), apperr.Internal)
	revoked := newKey("rev", "a1", "cqa_00000000000r")
	revoked.RevokedAt = &acctT0
	checkKind(t, s.CreateKey(ctx, revoked, []byte{0}), apperr.Internal)

	steps := []struct {
		name     string
		key      *account.Key
		wantKind apperr.Kind
		wantMax  bool
	}{
		{"first", newKey("k1", "a1", "cqa_111111111111"), apperr.Internal, false},
		{"second", newKey("k2", "a1", "cqa_222222222222"), apperr.Internal, false},
		{"third is over", newKey("k3", "a1", "cqa_333333333333"), apperr.Internal, true},
		{"prefix taken", newKey("k4", "a1", "cqa_111111111111"), apperr.Internal, true}, // counted first
		{"unknown account", newKey("k5", "ghost", "cqa_555555555555"), apperr.NotFound, false},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			err := s.CreateKeyWithin(ctx, st.key, []byte{1}, 2)
			if got := errors.Is(err, account.ErrTooManyKeys); got != st.wantMax {
				t.Fatalf("err = %v, want ErrTooManyKeys %v", err, st.wantMax)
			}
			if !st.wantMax {
				checkKind(t, err, st.wantKind)
			}
		})
	}
	revoked2 := newKey("k6", "a1", "cqa_666666666666")
	checkKind(t, s.RevokeKey(ctx, "a1", "k2", acctT0), apperr.Internal) // frees a place
	checkKind(t, s.CreateKeyWithin(ctx, revoked2, []byte{1}, 2), apperr.Internal)
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
