package storetest

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func accountScenarios() []scenario {
	return []scenario{
		{"create and read", accountCreateAndRead},
		{"conflicts", accountConflicts},
		{"update", accountUpdate},
		{"first account", accountFirst},
	}
}

func accountCreateAndRead(e *env) {
	t, s := e.t, e.db.Accounts()
	a := newAccount(1, e.now())
	a.APIDisabled = true
	a.Features = []string{account.FeatureAPIV1, account.FeatureCaptionDrift}
	must(t, s.CreateAccount(e.ctx, a))
	b := newAccount(2, e.now().Add(-time.Hour)) // older: listed first
	b.Features = nil
	must(t, s.CreateAccount(e.ctx, b))

	tests := []struct {
		name   string
		get    func() (*account.Account, error)
		want   apperr.Kind
		wantID string
	}{
		{"by id", func() (*account.Account, error) { return s.AccountByID(e.ctx, a.ID) }, none, a.ID},
		{"by email", func() (*account.Account, error) { return s.AccountByEmail(e.ctx, b.Email) }, none, b.ID},
		{"unknown id", func() (*account.Account, error) { return s.AccountByID(e.ctx, uuidN(99)) }, apperr.NotFound, ""},
		{"unknown email", func() (*account.Account, error) { return s.AccountByEmail(e.ctx, "x@example.test") }, apperr.NotFound, ""},
	}
	for _, tt := range tests {
		got, err := tt.get()
		wantKind(t, err, tt.want)
		if tt.wantID != "" && got.ID != tt.wantID {
			t.Errorf("%s: got account %s, want %s", tt.name, got.ID, tt.wantID)
		}
	}

	got, err := s.AccountByID(e.ctx, a.ID)
	must(t, err)
	if got.Email != a.Email || got.Tier != a.Tier || !slices.Equal(got.Features, a.Features) || !got.APIDisabled ||
		got.DailyCap != a.DailyCap || !sameTime(got.CreatedAt, a.CreatedAt) {
		t.Errorf("round trip: got %+v, want %+v", got, a)
	}
	list, err := s.ListAccounts(e.ctx)
	must(t, err)
	if len(list) != 2 || list[0].ID != b.ID || list[1].ID != a.ID {
		t.Fatalf("ListAccounts = %+v, want b then a (oldest first)", list)
	}
	if len(list[0].Features) != 0 || list[0].APIDisabled {
		t.Errorf("account without features: %+v", list[0])
	}
}

func accountConflicts(e *env) {
	s := e.db.Accounts()
	first := e.account(1)
	sameEmail := newAccount(2, e.now())
	sameEmail.Email = first.Email
	tests := []struct {
		name string
		a    *account.Account
	}{
		{"same email", sameEmail},
		{"same id", &account.Account{ID: first.ID, Email: "other@example.test", Tier: account.TierPro, DailyCap: 1,
			CreatedAt: e.now()}},
	}
	for _, tt := range tests {
		e.t.Run(tt.name, func(t *testing.T) { wantKind(t, s.CreateAccount(e.ctx, tt.a), apperr.Conflict) })
	}
	if list, err := s.ListAccounts(e.ctx); err != nil || len(list) != 1 {
		e.t.Errorf("after the conflicts: %d accounts, %v; want 1", len(list), err)
	}
}

func accountUpdate(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	features := []string{account.FeatureAPIV1, account.FeatureExplainAI}
	got, err := s.UpdateAccount(e.ctx, a.Email, func(a *account.Account) error {
		a.DailyCap, a.APIDisabled, a.Tier, a.Features = 77, true, account.TierFreePlus, features
		return nil
	})
	must(t, err)
	reread, err := s.AccountByID(e.ctx, a.ID)
	must(t, err)
	for _, a := range []*account.Account{got, reread} {
		if a.DailyCap != 77 || !a.APIDisabled || a.Tier != account.TierFreePlus || !slices.Equal(a.Features, features) {
			t.Errorf("after update: %+v", a)
		}
	}

	refuse := apperr.New(apperr.BadRequest, "no")
	_, err = s.UpdateAccount(e.ctx, a.Email, func(a *account.Account) error { a.DailyCap = 1; return refuse })
	if !errors.Is(err, refuse) {
		t.Errorf("refused update: %v; want update's error as is", err)
	}
	if reread, _ := s.AccountByID(e.ctx, a.ID); reread.DailyCap != 77 {
		t.Errorf("refused update saved: cap %d", reread.DailyCap)
	}
	_, err = s.UpdateAccount(e.ctx, "ghost@example.test", func(*account.Account) error { return nil })
	wantKind(t, err, apperr.NotFound)
}

func accountFirst(e *env) {
	t, s := e.t, e.db.Accounts()
	a1, a2 := newAccount(1, e.now()), newAccount(2, e.now())
	first, created, err := s.EnsureFirstAccount(e.ctx, a1, newKey(1, a1.ID, e.now(), account.ScopeKeysRead), hash("k1"))
	must(t, err)
	if !created || first.ID != a1.ID {
		t.Fatalf("first call: created=%v id=%s", created, first.ID)
	}
	if _, _, h, err := s.KeyByPrefix(e.ctx, keyPrefix(1)); err != nil || !bytes.Equal(h, hash("k1")) {
		t.Errorf("first call's key: %v", err)
	}
	again, created, err := s.EnsureFirstAccount(e.ctx, a2, newKey(2, a2.ID, e.now()), hash("k2"))
	must(t, err)
	if created || again.ID != a1.ID {
		t.Errorf("second call: created=%v id=%s, want the existing %s", created, again.ID, a1.ID)
	}
	_, _, _, err = s.KeyByPrefix(e.ctx, keyPrefix(2))
	wantKind(t, err, apperr.NotFound)
	_, err = s.AccountByID(e.ctx, a2.ID)
	wantKind(t, err, apperr.NotFound)
}
