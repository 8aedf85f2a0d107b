package sqlstore_test

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
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestAPIKeyStore: keys read back as stored, by prefix with their hash
// and listed oldest first; a taken id is a conflict as a taken prefix
// is, and an unknown account is NotFound; a legacy key's empty scopes
// read back as nil and an account without keys lists an empty list, not
// nil; a second revocation keeps the first time; CreateKeyWithin counts
// before it inserts, so a full account is refused as full even when the
// prefix is taken too.
func TestAPIKeyStore(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
		wantKind(t, s.CreateAccount(ctx, newAccount("a2", "two@example.test")), apperr.Internal)

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
				wantKind(t, s.CreateKey(ctx, tt.key, []byte("hash-"+tt.key.ID)), tt.want)
			})
		}

		k, _, hash, err := s.KeyByPrefix(ctx, "cqa_111111111111")
		wantKind(t, err, apperr.Internal)
		if k.ID != "k1" || k.AccountID != "a1" || k.Name != "k-k1" || string(hash) != "hash-k1" ||
			!slices.Equal(k.Scopes, []string{account.ScopeKeysRead, account.ScopeProcessWrite}) ||
			!k.CreatedAt.Equal(acctT0) || !k.ExpiresAt.Equal(acctT0.Add(time.Hour)) || k.RevokedAt != nil || k.LastUsedAt != nil {
			t.Errorf("KeyByPrefix = %+v, hash %q", k, hash)
		}
		legacy, _, _, err := s.KeyByPrefix(ctx, "cqa_222222222222")
		wantKind(t, err, apperr.Internal)
		if legacy.Scopes != nil {
			t.Errorf("legacy key scopes = %#v, want nil", legacy.Scopes)
		}
		_, _, _, err = s.KeyByPrefix(ctx, "cqa_999999999999")
		wantKind(t, err, apperr.NotFound)
		_, _, _, err = s.KeyByPrefix(ctx, "cqa_333333333333")
		wantKind(t, err, apperr.NotFound) // the refused "id taken" key

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
				wantKind(t, s.RevokeKey(ctx, tt.account, tt.key, acctT0.Add(time.Duration(i+1)*time.Minute)), tt.want)
			})
		}
		wantKind(t, s.TouchKey(ctx, "k2", acctT0.Add(time.Second)), apperr.Internal)

		list, _, err := s.ListKeys(ctx, "a1", nil, 10)
		wantKind(t, err, apperr.Internal)
		if len(list) != 2 || list[0].ID != "k2" || list[1].ID != "k1" {
			t.Fatalf("ListKeys(a1) = %+v; want k2 then k1 (newest first)", list)
		}
		if list[1].RevokedAt == nil || !list[1].RevokedAt.Equal(acctT0.Add(time.Minute)) {
			t.Errorf("revoked_at = %v, want the first revocation %v", list[1].RevokedAt, acctT0.Add(time.Minute))
		}
		if list[0].LastUsedAt == nil || !list[0].LastUsedAt.Equal(acctT0.Add(time.Second)) || list[0].RevokedAt != nil {
			t.Errorf("k2 = %+v, want last used at t0+1s and not revoked", list[0])
		}
		if none, _, err := s.ListKeys(ctx, "a2", nil, 10); err != nil || len(none) != 0 || none == nil {
			t.Errorf("ListKeys(a2) = %#v, %v; want an empty list", none, err)
		}

		// a1 holds one active key (k2; k1 is revoked), its most.
		err = s.CreateKeyWithin(ctx, newKey("k5", "a1", "cqa_111111111111"), []byte{1}, 1)
		if !errors.Is(err, account.ErrTooManyKeys) {
			t.Errorf("full account, prefix taken: %v; want ErrTooManyKeys", err)
		}
		if list, _, err := s.ListKeys(ctx, "a1", nil, 10); err != nil || len(list) != 2 {
			t.Errorf("after a refused CreateKeyWithin: %+v, %v; want k1 and k2 only", list, err)
		}
	})
}

// TestCreateKeyWithinRace: callers on several nodes at once (handles on
// one SQLite file, pools on one PostgreSQL database) never take an
// account past its most active keys.
func TestCreateKeyWithinRace(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 3, nil)
			wantKind(t, nodes[0].Accounts().CreateAccount(ctx, newAccount("a1", "one@example.test")), apperr.Internal)
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
			keys, _, err := nodes[0].Accounts().ListKeys(ctx, "a1", nil, len(errs))
			if ok != max || err != nil || len(keys) != max {
				t.Errorf("%d created, %d stored (%v); want %d", ok, len(keys), err, max)
			}
		})
	}
}

// TestOnlyTheHashIsStored reads every column of the key's row and checks
// that the secret appears nowhere, only its SHA-256.
func TestOnlyTheHashIsStored(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		svc := account.NewService(db.Accounts(), account.Options{})
		a, err := svc.CreateAccount(ctx, account.NewAccount{Email: "h@example.test", Tier: account.TierPro})
		if err != nil {
			t.Fatal(err)
		}
		k, secret, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "n", Scopes: []string{account.ScopeKeysRead}})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := db.Query(ctx, `SELECT * FROM api_keys WHERE id = $1`, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		if !rows.Next() {
			t.Fatalf("key row missing: %v", rows.Err())
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		body := secret[len(k.Prefix)+1:]
		sum := sha256.Sum256([]byte(secret))
		hashed := false
		for i, v := range vals {
			if cols[i] == "hash" {
				if b, _ := v.([]byte); !bytes.Equal(b, sum[:]) {
					t.Errorf("hash column is not SHA-256 of the secret: %#v", v)
				}
				hashed = true
				continue
			}
			s := fmt.Sprint(v)
			if b, ok := v.([]byte); ok {
				s = string(b)
			}
			if strings.Contains(s, body) {
				t.Errorf("column %s holds the secret", cols[i])
			}
		}
		if !hashed {
			t.Errorf("no hash column among %v", cols)
		}
	})
}
