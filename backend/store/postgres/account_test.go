package postgres

import (
	"context"
	"slices"
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

func TestAccountStoreCreateAndRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	a := newAccount("id-1", "one@example.test")
	a.APIDisabled = true
	a.CreatedAt = acctT0.Add(700 * time.Millisecond) // kept in whole seconds
	checkKind(t, s.CreateAccount(ctx, a), apperr.Internal)
	b := newAccount("id-2", "two@example.test")
	b.Features = nil
	b.CreatedAt = acctT0.Add(-time.Hour) // older: listed first
	checkKind(t, s.CreateAccount(ctx, b), apperr.Internal)
	c := newAccount("id-0", "three@example.test") // same second as id-1, made after: listed after
	checkKind(t, s.CreateAccount(ctx, c), apperr.Internal)

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
			checkKind(t, err, tt.wantKind)
			if tt.wantID != "" && got.ID != tt.wantID {
				t.Errorf("got account %s, want %s", got.ID, tt.wantID)
			}
		})
	}

	got, err := s.AccountByID(ctx, "id-1")
	checkKind(t, err, apperr.Internal)
	if got.Email != a.Email || got.Tier != a.Tier || !slices.Equal(got.Features, a.Features) ||
		!got.APIDisabled || got.DailyCap != 50 || got.CreatedAt != acctT0 {
		t.Errorf("round trip: got %+v, want %+v at %v (UTC, whole seconds)", got, a, acctT0)
	}
	list, err := s.ListAccounts(ctx)
	checkKind(t, err, apperr.Internal)
	if len(list) != 3 || list[0].ID != "id-2" || list[1].ID != "id-1" || list[2].ID != "id-0" {
		t.Errorf("ListAccounts = %+v, want id-2, id-1, id-0 (oldest first, then as made)", list)
	}
	if list[0].Features == nil {
		t.Error("empty features decoded as nil; want an empty list")
	}
}

func TestAccountStoreConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	tests := []struct {
		name string
		a    *account.Account
	}{
		{"same email", newAccount("id-2", "one@example.test")},
		{"same id", newAccount("id-1", "other@example.test")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkKind(t, s.CreateAccount(ctx, tt.a), apperr.Conflict)
		})
	}
}

func TestAccountStoreUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)

	got, err := s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error {
		a.DailyCap, a.APIDisabled, a.Tier, a.Features = 77, true, account.TierFreePlus, nil
		return nil
	})
	checkKind(t, err, apperr.Internal)
	reread, _ := s.AccountByID(ctx, "id-1")
	for _, a := range []*account.Account{got, reread} {
		if a.DailyCap != 77 || !a.APIDisabled || a.Tier != account.TierFreePlus {
			t.Errorf("after update: %+v", a)
		}
	}
	if reread.Features == nil || len(reread.Features) != 0 {
		t.Errorf("features after setting nil = %#v, want an empty list", reread.Features)
	}

	refuse := apperr.New(apperr.BadRequest, "no")
	_, err = s.UpdateAccount(ctx, "one@example.test", func(a *account.Account) error { a.DailyCap = 1; return refuse })
	checkKind(t, err, apperr.BadRequest)
	if reread, _ := s.AccountByID(ctx, "id-1"); reread.DailyCap != 77 {
		t.Errorf("refused update saved: cap %d", reread.DailyCap)
	}
	_, err = s.UpdateAccount(ctx, "ghost@example.test", func(*account.Account) error { return nil })
	checkKind(t, err, apperr.NotFound)
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

func TestAccountStoreEnsureFirstAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, nil).Accounts()
	first, created, err := s.EnsureFirstAccount(ctx, newAccount("id-1", "one@example.test"), newKey("k1", "id-1", "cqa_aaaaaaaaaaaa"), []byte{1})
	checkKind(t, err, apperr.Internal)
	if !created || first.ID != "id-1" {
		t.Fatalf("first call: created=%v id=%s", created, first.ID)
	}
	again, created, err := s.EnsureFirstAccount(ctx, newAccount("id-2", "two@example.test"), newKey("k2", "id-2", "cqa_bbbbbbbbbbbb"), []byte{2})
	checkKind(t, err, apperr.Internal)
	if created || again.ID != "id-1" {
		t.Errorf("second call: created=%v id=%s, want existing id-1", created, again.ID)
	}
	if _, _, err := s.KeyByPrefix(ctx, "cqa_bbbbbbbbbbbb"); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("second call stored its key: %v", err)
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
