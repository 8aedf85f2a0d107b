package sqlstore_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestAccountStoreCreateAndRead: an account reads back as stored, by id
// and by email, and an unknown one is NotFound; accounts list oldest
// first, and those made in the same second in the order they were made
// (SQLite's rowid, PostgreSQL's seq column), not by id; a nil feature
// list (which pgx would send as NULL) is stored and read back as an
// empty list.
func TestAccountStoreCreateAndRead(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		a := newAccount("id-1", "one@example.test")
		a.APIDisabled = true
		wantKind(t, s.CreateAccount(ctx, a), apperr.Internal)
		b := newAccount("id-2", "two@example.test")
		b.Features = nil
		b.CreatedAt = acctT0.Add(-time.Hour) // older: listed first
		wantKind(t, s.CreateAccount(ctx, b), apperr.Internal)
		// Same second as id-1, made after it: listed after it, though its
		// id sorts first.
		wantKind(t, s.CreateAccount(ctx, newAccount("id-0", "three@example.test")), apperr.Internal)

		tests := []struct {
			name     string
			get      func() (*account.Account, error)
			wantKind apperr.Kind
			wantID   string
		}{
			{"by id", func() (*account.Account, error) { return s.AccountByID(ctx, "id-1") }, apperr.Internal, "id-1"},
			{"by email", func() (*account.Account, error) { return s.AccountByEmail(ctx, "two@example.test") }, apperr.Internal, "id-2"},
			{"unknown id", func() (*account.Account, error) { return s.AccountByID(ctx, "nope") }, apperr.NotFound, ""},
			{"unknown email", func() (*account.Account, error) { return s.AccountByEmail(ctx, "x@example.test") }, apperr.NotFound, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := tt.get()
				wantKind(t, err, tt.wantKind)
				if tt.wantID != "" && got.ID != tt.wantID {
					t.Errorf("got account %s, want %s", got.ID, tt.wantID)
				}
			})
		}

		got, err := s.AccountByID(ctx, "id-1")
		wantKind(t, err, apperr.Internal)
		if got.Email != a.Email || got.Tier != a.Tier || !slices.Equal(got.Features, a.Features) ||
			!got.APIDisabled || got.DailyCap != 50 || !got.CreatedAt.Equal(acctT0) {
			t.Errorf("round trip: got %+v, want %+v", got, a)
		}
		list, err := s.ListAccounts(ctx)
		wantKind(t, err, apperr.Internal)
		if len(list) != 3 || list[0].ID != "id-2" || list[1].ID != "id-1" || list[2].ID != "id-0" {
			t.Fatalf("ListAccounts = %+v, want id-2, id-1, id-0 (oldest first, then as made)", list)
		}
		if list[0].Features == nil || len(list[0].Features) != 0 {
			t.Errorf("features created nil read back as %#v; want an empty list", list[0].Features)
		}
	})
}

// TestAccountStoreConflicts: a taken email or id is a conflict.
func TestAccountStoreConflicts(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
		tests := []struct {
			name string
			a    *account.Account
		}{
			{"same email", newAccount("id-2", "one@example.test")},
			{"same id", newAccount("id-1", "other@example.test")},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantKind(t, s.CreateAccount(ctx, tt.a), apperr.Conflict)
			})
		}
	})
}

// TestAccountStoreUpdate: an update is saved and returned; one its
// function refuses saves nothing and returns the function's error; an
// unknown email is NotFound; features set to nil are stored and read
// back as an empty list.
func TestAccountStoreUpdate(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		wantKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

		got, err := s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error {
			a.DailyCap, a.APIDisabled, a.Tier = 77, true, account.TierFreePlus
			return nil
		})
		wantKind(t, err, apperr.Internal)
		reread, err := s.AccountByID(ctx, "id-1")
		wantKind(t, err, apperr.Internal)
		for _, a := range []*account.Account{got, reread} {
			if a.DailyCap != 77 || !a.APIDisabled || a.Tier != account.TierFreePlus {
				t.Errorf("after update: %+v", a)
			}
		}

		refuse := apperr.New(apperr.BadRequest, "no")
		_, err = s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.DailyCap = 1; return refuse })
		wantKind(t, err, apperr.BadRequest)
		if reread, err := s.AccountByID(ctx, "id-1"); err != nil || reread.DailyCap != 77 {
			t.Errorf("refused update saved: %+v, %v", reread, err)
		}
		_, err = s.UpdateAccount(ctx, "ghost@example.test", func(*account.Account) error { return nil })
		wantKind(t, err, apperr.NotFound)

		_, err = s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.Features = nil; return nil })
		wantKind(t, err, apperr.Internal)
		a, err := s.AccountByID(ctx, "id-1")
		wantKind(t, err, apperr.Internal)
		if a.Features == nil || len(a.Features) != 0 {
			t.Errorf("features after setting nil = %#v, want an empty list", a.Features)
		}
	})
}

// TestAccountStoreUpdateRace: read-modify-write updates from several
// nodes at once (handles on one SQLite file, pools on one PostgreSQL
// database) apply one after the other, none lost.
func TestAccountStoreUpdateRace(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 3, nil)
			wantKind(t, nodes[0].Accounts().CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range 30 {
				s := nodes[i%len(nodes)].Accounts()
				wg.Go(func() {
					<-start
					_, err := s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.DailyCap++; return nil })
					if err != nil {
						t.Error(err)
					}
				})
			}
			close(start)
			wg.Wait()
			if a, err := nodes[0].Accounts().AccountByID(ctx, "id-1"); err != nil || a.DailyCap != 80 {
				t.Errorf("cap after 30 increments of 50 = %+v, %v; want 80", a, err)
			}
		})
	}
}

// TestAccountStoreEnsureFirstAccount: the first call on an empty store
// creates its account and key; a later one returns that account and
// stores neither of its own.
func TestAccountStoreEnsureFirstAccount(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		s := open(t, nil).Accounts()
		first, created, err := s.EnsureFirstAccount(ctx, newAccount("id-1", "one@example.test"), newKey("k1", "id-1", "cqa_aaaaaaaaaaaa"), []byte{1})
		wantKind(t, err, apperr.Internal)
		if !created || first.ID != "id-1" {
			t.Fatalf("first call: created=%v id=%s", created, first.ID)
		}
		if k, _, _, err := s.KeyByPrefix(ctx, "cqa_aaaaaaaaaaaa"); err != nil || k.AccountID != "id-1" {
			t.Errorf("first call's key: %+v, %v", k, err)
		}
		again, created, err := s.EnsureFirstAccount(ctx, newAccount("id-2", "two@example.test"), newKey("k2", "id-2", "cqa_bbbbbbbbbbbb"), []byte{2})
		wantKind(t, err, apperr.Internal)
		if created || again.ID != "id-1" {
			t.Errorf("second call: created=%v id=%s, want existing id-1", created, again.ID)
		}
		if _, _, _, err := s.KeyByPrefix(ctx, "cqa_bbbbbbbbbbbb"); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("second call stored its key: %v", err)
		}
		if _, err := s.AccountByID(ctx, "id-2"); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("second call stored its account: %v", err)
		}
	})
}

// TestEnsureFirstAccountRace: nodes starting together on an empty
// database (handles on one SQLite file, pools on one PostgreSQL
// database) make one first account between them, and all return it.
func TestEnsureFirstAccountRace(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 4, nil)
			ids := make([]string, len(nodes))
			made := make([]bool, len(nodes))
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, db := range nodes {
				id := string(rune('a' + i))
				wg.Go(func() {
					<-start
					a, created, err := db.Accounts().EnsureFirstAccount(ctx, newAccount(id, id+"@example.test"),
						newKey("k"+id, id, "cqa_"+id+"00000000000"), []byte{1})
					if err != nil {
						t.Error(err)
						return
					}
					ids[i], made[i] = a.ID, created
				})
			}
			close(start)
			wg.Wait()
			list, err := nodes[0].Accounts().ListAccounts(ctx)
			if err != nil || len(list) != 1 {
				t.Fatalf("accounts = %+v, %v; want exactly one", list, err)
			}
			creators := 0
			for i := range nodes {
				if ids[i] != list[0].ID {
					t.Errorf("node %d returned %s, want %s", i, ids[i], list[0].ID)
				}
				if made[i] {
					creators++
				}
			}
			if creators != 1 {
				t.Errorf("%d nodes say they created it, want 1", creators)
			}
		})
	}
}
