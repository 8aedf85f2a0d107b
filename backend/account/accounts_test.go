package account_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func TestCreateAccount(t *testing.T) {
	t.Parallel()
	allFeatures := slices.Sorted(slices.Values(account.Features()))
	tests := []struct {
		name         string
		in           account.NewAccount
		wantKind     apperr.Kind
		wantField    string
		wantEmail    string
		wantTier     string
		wantFeatures []string
		wantCap      int
	}{
		{name: "free_plus defaults", in: account.NewAccount{Email: "a@example.test", Tier: account.TierFreePlus},
			wantEmail: "a@example.test", wantTier: account.TierFreePlus, wantFeatures: []string{"API_KEYS", "API_V1"}, wantCap: 10},
		{name: "empty tier is free_plus", in: account.NewAccount{Email: "b@example.test"},
			wantEmail: "b@example.test", wantTier: account.TierFreePlus, wantFeatures: []string{"API_KEYS", "API_V1"}, wantCap: 10},
		{name: "pro defaults", in: account.NewAccount{Email: "c@example.test", Tier: account.TierPro},
			wantEmail: "c@example.test", wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 500},
		{name: "email normalised", in: account.NewAccount{Email: "  Mixed.Case@Example.TEST \n", Tier: account.TierPro, DailyCap: 9999},
			wantEmail: "mixed.case@example.test", wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 9999},
		{name: "explicit features sorted and deduplicated",
			in:        account.NewAccount{Email: "d@example.test", Tier: account.TierFreePlus, Features: []string{"caption_drift", "API_V1", "caption_drift"}, DailyCap: 3},
			wantEmail: "d@example.test", wantTier: account.TierFreePlus, wantFeatures: []string{"API_V1", "caption_drift"}, wantCap: 3},
		{name: "explicit empty features", in: account.NewAccount{Email: "e@example.test", Tier: account.TierPro, Features: []string{}},
			wantEmail: "e@example.test", wantTier: account.TierPro, wantFeatures: []string{}, wantCap: 500},
		{name: "empty email", in: account.NewAccount{Email: "  "}, wantKind: apperr.BadRequest, wantField: "email"},
		{name: "not an address", in: account.NewAccount{Email: "nobody"}, wantKind: apperr.BadRequest, wantField: "email"},
		{name: "display name", in: account.NewAccount{Email: "Bob <bob@example.test>"}, wantKind: apperr.BadRequest, wantField: "email"},
		{name: "bidi override in email", in: account.NewAccount{Email: "evil\u202egro.elpmaxe@example.test"}, wantKind: apperr.BadRequest, wantField: "email"},
		{name: "zero-width space in email", in: account.NewAccount{Email: "ad\u200bmin@example.test"}, wantKind: apperr.BadRequest, wantField: "email"},
		{name: "unknown tier", in: account.NewAccount{Email: "f@example.test", Tier: "gold"}, wantKind: apperr.BadRequest, wantField: "tier"},
		{name: "unknown feature", in: account.NewAccount{Email: "g@example.test", Features: []string{"API_V1", "TELEPORT"}}, wantKind: apperr.BadRequest, wantField: "features"},
		{name: "free_plus cap above 10", in: account.NewAccount{Email: "h@example.test", Tier: account.TierFreePlus, DailyCap: 11}, wantKind: apperr.BadRequest, wantField: "dailyCap"},
		{name: "pro cap above 9999", in: account.NewAccount{Email: "i@example.test", Tier: account.TierPro, DailyCap: 10000}, wantKind: apperr.BadRequest, wantField: "dailyCap"},
		{name: "negative cap", in: account.NewAccount{Email: "j@example.test", Tier: account.TierPro, DailyCap: -1}, wantKind: apperr.BadRequest, wantField: "dailyCap"},
	}
	svc, _ := newService(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := svc.CreateAccount(context.Background(), tt.in)
			wantKind(t, err, tt.wantKind)
			if tt.wantKind != apperr.Internal {
				if got := detail(err, "field"); got != tt.wantField {
					t.Errorf("details.field = %v, want %s", got, tt.wantField)
				}
				return
			}
			if a.Email != tt.wantEmail || a.Tier != tt.wantTier || !slices.Equal(a.Features, tt.wantFeatures) || a.DailyCap != tt.wantCap {
				t.Errorf("got %s %s %v cap %d; want %s %s %v cap %d", a.Email, a.Tier, a.Features, a.DailyCap,
					tt.wantEmail, tt.wantTier, tt.wantFeatures, tt.wantCap)
			}
			if a.ID == "" || !a.CreatedAt.Equal(start()) || a.APIDisabled {
				t.Errorf("id %q created %v disabled %v", a.ID, a.CreatedAt, a.APIDisabled)
			}
			stored, err := svc.Account(context.Background(), a.ID)
			wantKind(t, err, apperr.Internal)
			if stored.Email != a.Email || !slices.Equal(stored.Features, a.Features) || stored.DailyCap != a.DailyCap {
				t.Errorf("stored %+v, created %+v", stored, a)
			}
		})
	}
}

func TestCreateAccountNamesUnknownFeature(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	_, err := svc.CreateAccount(context.Background(), account.NewAccount{Email: "a@example.test", Features: []string{"TELEPORT"}})
	wantKind(t, err, apperr.BadRequest)
	if e, _ := apperr.As(err); detail(err, "value") != "TELEPORT" || !strings.Contains(e.Message, "TELEPORT") {
		t.Errorf("error %v does not name the feature", err)
	}
}

func TestCreateAccountEmailTaken(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()
	_, err := svc.CreateAccount(ctx, account.NewAccount{Email: "taken@example.test"})
	wantKind(t, err, apperr.Internal)
	_, err = svc.CreateAccount(ctx, account.NewAccount{Email: "TAKEN@example.test ", Tier: account.TierPro})
	wantKind(t, err, apperr.Conflict)
}

func TestUpdateAccount(t *testing.T) {
	t.Parallel()
	allFeatures := slices.Sorted(slices.Values(account.Features()))
	tests := []struct {
		name         string
		tier         string // of the account before the update
		in           account.AccountUpdate
		email        string // default: the account's
		wantKind     apperr.Kind
		wantTier     string
		wantFeatures []string
		wantCap      int
		wantDisabled bool
	}{
		{name: "nothing", tier: account.TierFreePlus,
			wantTier: account.TierFreePlus, wantFeatures: []string{"API_KEYS", "API_V1"}, wantCap: 10},
		{name: "upgrade takes pro defaults", tier: account.TierFreePlus, in: account.AccountUpdate{Tier: ptr(account.TierPro)},
			wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 500},
		{name: "upgrade with cap", tier: account.TierFreePlus, in: account.AccountUpdate{Tier: ptr(account.TierPro), DailyCap: ptr(2500)},
			wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 2500},
		{name: "downgrade takes free_plus defaults", tier: account.TierPro, in: account.AccountUpdate{Tier: ptr(account.TierFreePlus)},
			wantTier: account.TierFreePlus, wantFeatures: []string{"API_KEYS", "API_V1"}, wantCap: 10},
		{name: "features replaced", tier: account.TierFreePlus, in: account.AccountUpdate{Features: ptr([]string{"caption_drift", "API_V1"})},
			wantTier: account.TierFreePlus, wantFeatures: []string{"API_V1", "caption_drift"}, wantCap: 10},
		{name: "cap zero is the default", tier: account.TierPro, in: account.AccountUpdate{DailyCap: ptr(0)},
			wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 500},
		{name: "disable api", tier: account.TierPro, in: account.AccountUpdate{APIDisabled: ptr(true), DailyCap: ptr(9999)},
			wantTier: account.TierPro, wantFeatures: allFeatures, wantCap: 9999, wantDisabled: true},
		{name: "free_plus cap above 10", tier: account.TierFreePlus, in: account.AccountUpdate{DailyCap: ptr(11)}, wantKind: apperr.BadRequest},
		{name: "downgrade keeping a pro cap", tier: account.TierPro, in: account.AccountUpdate{Tier: ptr(account.TierFreePlus), DailyCap: ptr(100)}, wantKind: apperr.BadRequest},
		{name: "unknown tier", tier: account.TierPro, in: account.AccountUpdate{Tier: ptr("gold")}, wantKind: apperr.BadRequest},
		{name: "unknown feature", tier: account.TierPro, in: account.AccountUpdate{Features: ptr([]string{"NOPE"})}, wantKind: apperr.BadRequest},
		{name: "bad email", tier: account.TierPro, email: "not-an-email", wantKind: apperr.BadRequest},
		{name: "unknown email", tier: account.TierPro, email: "ghost@example.test", wantKind: apperr.NotFound},
	}
	svc, _ := newService(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			a, err := svc.CreateAccount(ctx, account.NewAccount{Email: "u" + string(rune('a'+i)) + "@example.test", Tier: tt.tier})
			wantKind(t, err, apperr.Internal)
			email := tt.email
			if email == "" {
				email = " " + a.Email + " "
			}
			got, err := svc.UpdateAccount(ctx, email, tt.in)
			wantKind(t, err, tt.wantKind)
			stored, _ := svc.Account(ctx, a.ID)
			if tt.wantKind != apperr.Internal {
				if stored.Tier != a.Tier || stored.DailyCap != a.DailyCap || !slices.Equal(stored.Features, a.Features) {
					t.Errorf("failed update changed the account: %+v", stored)
				}
				return
			}
			for _, x := range []*account.Account{got, stored} {
				if x.Tier != tt.wantTier || !slices.Equal(x.Features, tt.wantFeatures) || x.DailyCap != tt.wantCap || x.APIDisabled != tt.wantDisabled {
					t.Errorf("got %s %v cap %d disabled %v; want %s %v cap %d disabled %v", x.Tier, x.Features, x.DailyCap, x.APIDisabled,
						tt.wantTier, tt.wantFeatures, tt.wantCap, tt.wantDisabled)
				}
			}
		})
	}
}

func TestAccountLookups(t *testing.T) {
	t.Parallel()
	svc, clock := newService(t)
	ctx := context.Background()
	first, _ := svc.CreateAccount(ctx, account.NewAccount{Email: "first@example.test"})
	clock.Advance(1)
	second, _ := svc.CreateAccount(ctx, account.NewAccount{Email: "second@example.test", Tier: account.TierPro})

	tests := []struct {
		name     string
		get      func() (*account.Account, error)
		wantKind apperr.Kind
		wantID   string
	}{
		{"by id", func() (*account.Account, error) { return svc.Account(ctx, second.ID) }, apperr.Internal, second.ID},
		{"by email, normalised", func() (*account.Account, error) { return svc.AccountByEmail(ctx, " FIRST@example.test") }, apperr.Internal, first.ID},
		{"unknown id", func() (*account.Account, error) { return svc.Account(ctx, "00000000-0000-0000-0000-000000000000") }, apperr.NotFound, ""},
		{"unknown email", func() (*account.Account, error) { return svc.AccountByEmail(ctx, "nobody@example.test") }, apperr.NotFound, ""},
		{"malformed email", func() (*account.Account, error) { return svc.AccountByEmail(ctx, "???") }, apperr.NotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.get()
			wantKind(t, err, tt.wantKind)
			if tt.wantID != "" && got.ID != tt.wantID {
				t.Errorf("got %s, want %s", got.ID, tt.wantID)
			}
		})
	}
	list, err := svc.ListAccounts(ctx)
	wantKind(t, err, apperr.Internal)
	if len(list) != 2 || list[0].ID != first.ID || list[1].ID != second.ID {
		t.Errorf("ListAccounts = %+v, want first then second", list)
	}
}

func TestEnsureOwner(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	ctx := context.Background()

	_, _, _, err := svc.EnsureOwner(ctx, "not an email")
	wantKind(t, err, apperr.BadRequest)

	owner, secret, created, err := svc.EnsureOwner(ctx, " Owner@Example.test")
	wantKind(t, err, apperr.Internal)
	if !created || secret == "" {
		t.Fatalf("first EnsureOwner: created=%v secret empty=%v", created, secret == "")
	}
	if owner.Email != "owner@example.test" || owner.Tier != account.TierPro || owner.DailyCap != 500 ||
		!slices.Equal(owner.Features, slices.Sorted(slices.Values(account.Features()))) {
		t.Errorf("owner = %+v", owner)
	}
	p, err := svc.Authenticate(ctx, secret)
	wantKind(t, err, apperr.Internal)
	if p.Account.ID != owner.ID {
		t.Errorf("owner key belongs to %s", p.Account.ID)
	}
	for _, s := range account.Scopes() {
		if !p.Key.HasScope(s) {
			t.Errorf("owner key lacks scope %s", s)
		}
	}

	again, secret2, created2, err := svc.EnsureOwner(ctx, "someone.else@example.test")
	wantKind(t, err, apperr.Internal)
	if created2 || secret2 != "" || again.ID != owner.ID {
		t.Errorf("second EnsureOwner: created=%v secret=%q owner=%s, want false, empty, %s", created2, secret2, again.ID, owner.ID)
	}
}

func TestEnsureOwnerConcurrent(t *testing.T) {
	t.Parallel()
	svc, _ := newService(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for range 10 {
		wg.Go(func() {
			_, _, c, err := svc.EnsureOwner(context.Background(), "owner@example.test")
			if err != nil {
				t.Errorf("EnsureOwner: %v", err)
			}
			if c {
				mu.Lock()
				created++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	list, _ := svc.ListAccounts(context.Background())
	if created != 1 || len(list) != 1 {
		t.Errorf("created %d owners, %d accounts; want exactly one", created, len(list))
	}
}
