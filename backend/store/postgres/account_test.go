package postgres

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// acctT0 is the account tests' base time, whole seconds.
var acctT0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

func newAccount(id, email string) *account.Account {
	return &account.Account{ID: id, Email: email, Tier: account.TierPro,
		Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: acctT0}
}

// TestAccountListOrderAndFeatures: accounts made in the same second list
// in the order they were made (the seq column), not by id; a nil
// feature list, which pgx would send as NULL, is stored and read back
// as an empty list, on create and on update.
func TestAccountListOrderAndFeatures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	older := newAccount("id-2", "two@example.test")
	older.Features, older.CreatedAt = nil, acctT0.Add(-time.Hour)
	for _, a := range []*account.Account{newAccount("id-1", "one@example.test"), older, newAccount("id-0", "three@example.test")} {
		checkKind(t, s.CreateAccount(ctx, a), apperr.Internal)
	}
	list, err := s.ListAccounts(ctx)
	checkKind(t, err, apperr.Internal)
	if len(list) != 3 || list[0].ID != "id-2" || list[1].ID != "id-1" || list[2].ID != "id-0" {
		t.Fatalf("ListAccounts = %+v, want id-2, id-1, id-0 (oldest first, then as made)", list)
	}
	if list[0].Features == nil {
		t.Error("features created nil read back as nil; want an empty list")
	}
	_, err = s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.Features = nil; return nil })
	checkKind(t, err, apperr.Internal)
	a, err := s.AccountByID(ctx, "id-1")
	checkKind(t, err, apperr.Internal)
	if a.Features == nil || len(a.Features) != 0 {
		t.Errorf("features after setting nil = %#v, want an empty list", a.Features)
	}
}

// TestAccountStoreUpdateRace: read-modify-write updates from several
// nodes at once apply one after the other, none lost.
func TestAccountStoreUpdateRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	checkKind(t, nodes[0].Accounts().CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	var wg sync.WaitGroup
	for i := range 30 {
		s := nodes[i%len(nodes)].Accounts()
		wg.Go(func() {
			_, err := s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.DailyCap++; return nil })
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if a, err := nodes[0].Accounts().AccountByID(ctx, "id-1"); err != nil || a.DailyCap != 80 {
		t.Errorf("cap after 30 increments of 50 = %+v, %v; want 80", a, err)
	}
}

// TestEnsureFirstAccountRace: nodes starting together on an empty
// database make one first account between them, and all return it.
func TestEnsureFirstAccountRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 4, nil)
	ids := make([]string, len(nodes))
	made := make([]bool, len(nodes))
	var wg sync.WaitGroup
	for i, db := range nodes {
		id := string(rune('a' + i))
		wg.Go(func() {
			a, created, err := db.Accounts().EnsureFirstAccount(ctx, newAccount(id, id+"@example.test"),
				newKey("k"+id, id, "cqa_"+id+"00000000000"), []byte{1})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i], made[i] = a.ID, created
		})
	}
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
}
