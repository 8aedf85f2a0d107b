package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func keyScenarios() []scenario {
	return []scenario{
		{"create and look up", keyCreate},
		{"list revoke touch", keyListRevokeTouch},
		{"list pages ties of a second", keyListPages},
		{"active keys", keyActive},
		{"within the limit", keyWithin},
		{"within the limit concurrently", keyWithinConcurrently},
	}
}

func keyCreate(e *env) {
	t, s := e.t, e.db.Accounts()
	a1, a2 := e.account(1), e.account(2)
	scoped := newKey(1, a1.ID, e.now(), account.ScopeKeysRead, account.ScopeProcessWrite)
	taken := newKey(3, a2.ID, e.now())
	taken.Prefix = scoped.Prefix
	creates := []struct {
		name string
		key  *account.Key
		want apperr.Kind
	}{
		{"scoped", scoped, none},
		{"legacy", newKey(2, a1.ID, e.now()), none},
		{"prefix taken", taken, apperr.Conflict},
		{"unknown account", newKey(4, uuidN(99), e.now()), apperr.NotFound},
	}
	for _, tt := range creates {
		err := s.CreateKey(e.ctx, tt.key, hash(tt.key.ID))
		if !kindIs(err, tt.want) {
			t.Errorf("create %s: %v; want %s", tt.name, err, tt.want.Code())
		}
	}

	k, owner, h, err := s.KeyByPrefix(e.ctx, scoped.Prefix)
	must(t, err)
	if owner.ID != a1.ID || owner.Email != a1.Email || owner.Tier != a1.Tier {
		t.Errorf("KeyByPrefix account = %+v, want %+v", owner, a1)
	}
	if k.ID != scoped.ID || k.AccountID != a1.ID || k.Name != scoped.Name || !bytes.Equal(h, hash(scoped.ID)) ||
		!slices.Equal(k.Scopes, scoped.Scopes) || !sameTime(k.CreatedAt, scoped.CreatedAt) ||
		!sameTime(k.ExpiresAt, scoped.ExpiresAt) || k.RevokedAt != nil || k.LastUsedAt != nil {
		t.Errorf("KeyByPrefix = %+v, hash %x", k, h)
	}
	legacy, _, _, err := s.KeyByPrefix(e.ctx, keyPrefix(2))
	must(t, err)
	if len(legacy.Scopes) != 0 || !legacy.HasScope(account.ScopeProcessWrite) {
		t.Errorf("legacy key scopes = %#v, want none", legacy.Scopes)
	}
	_, _, _, err = s.KeyByPrefix(e.ctx, keyPrefix(99))
	wantKind(t, err, apperr.NotFound)
}

func keyListRevokeTouch(e *env) {
	t, s := e.t, e.db.Accounts()
	a1, a2 := e.account(1), e.account(2)
	must(t, s.CreateKey(e.ctx, newKey(1, a1.ID, e.now()), hash("1")))
	must(t, s.CreateKey(e.ctx, newKey(2, a1.ID, e.now().Add(time.Second)), hash("2")))

	revokes := []struct {
		name, account, key string
		want               apperr.Kind
	}{
		{"own key", a1.ID, uuidN(1), none},
		{"again keeps the first time", a1.ID, uuidN(1), none},
		{"another account's key", a2.ID, uuidN(2), apperr.NotFound},
		{"unknown key", a1.ID, uuidN(99), apperr.NotFound},
	}
	for i, tt := range revokes {
		err := s.RevokeKey(e.ctx, tt.account, tt.key, e.now().Add(time.Duration(i+1)*time.Minute))
		if !kindIs(err, tt.want) {
			t.Errorf("revoke %s: %v; want %s", tt.name, err, tt.want.Code())
		}
	}
	used := e.now().Add(5 * time.Second)
	must(t, s.TouchKey(e.ctx, uuidN(2), used))

	list, next, err := s.ListKeys(e.ctx, a1.ID, nil, 10)
	must(t, err)
	if len(list) != 2 || list[0].ID != uuidN(2) || list[1].ID != uuidN(1) || next != nil {
		t.Fatalf("ListKeys = %+v, next %v; want keys 2 then 1 (newest first) and no next page", list, next)
	}
	if r := list[1].RevokedAt; r == nil || !sameTime(*r, e.now().Add(time.Minute)) {
		t.Errorf("revoked at %v, want the first revocation %v", r, e.now().Add(time.Minute))
	}
	if l := list[0].LastUsedAt; l == nil || !sameTime(*l, used) || list[0].RevokedAt != nil {
		t.Errorf("key 2 = %+v, want last used at %v and not revoked", list[0], used)
	}
	if active, err := s.ActiveKeys(e.ctx, a1.ID, e.now()); err != nil || len(active) != 1 || active[0].ID != uuidN(2) {
		t.Errorf("ActiveKeys = %+v, %v; want key 2 only (key 1 is revoked)", active, err)
	}
	if k, err := s.KeyByID(e.ctx, a1.ID, uuidN(1)); err != nil || k.ID != uuidN(1) || k.RevokedAt == nil || !sameTime(*k.RevokedAt, e.now().Add(time.Minute)) {
		t.Errorf("KeyByID = %+v, %v; want key 1 revoked at its first revocation", k, err)
	}
	for _, other := range []struct{ account, key string }{{a2.ID, uuidN(1)}, {a1.ID, uuidN(99)}} {
		if _, err := s.KeyByID(e.ctx, other.account, other.key); !kindIs(err, apperr.NotFound) {
			t.Errorf("KeyByID(%s, %s) = %v; want not_found", other.account, other.key, err)
		}
	}
	if empty, next, err := s.ListKeys(e.ctx, a2.ID, nil, 10); err != nil || empty == nil || len(empty) != 0 || next != nil {
		t.Errorf("ListKeys of an account without keys = %#v, %v, %v; want an empty list", empty, next, err)
	}
	if empty, err := s.ActiveKeys(e.ctx, a2.ID, e.now()); err != nil || len(empty) != 0 {
		t.Errorf("ActiveKeys of an account without keys = %+v, %v", empty, err)
	}
}

// keyListPages: keys created in the same second page in insertion
// order, newest first, with no key repeated or skipped.
func keyListPages(e *env) {
	t, s := e.t, e.db.Accounts()
	a, other := e.account(1), e.account(2)
	older := newKey(9, a.ID, e.now().Add(-time.Hour))
	must(t, s.CreateKey(e.ctx, older, hash("9")))
	// Inserted out of id order, so an order by id would show.
	for _, n := range []int{3, 1, 5, 2, 4} {
		must(t, s.CreateKey(e.ctx, newKey(n, a.ID, e.now()), hash(uuidN(n))))
	}
	must(t, s.CreateKey(e.ctx, newKey(20, other.ID, e.now()), hash("20")))

	var got []string
	var pos *account.KeyPosition
	for range 10 {
		page, next, err := s.ListKeys(e.ctx, a.ID, pos, 2)
		must(t, err)
		for _, k := range page {
			got = append(got, k.Name)
		}
		if next == nil {
			if len(page) == 0 {
				t.Errorf("the last page is empty: the one before it promised more")
			}
			break
		}
		if len(page) != 2 || !sameTime(next.CreatedAt, page[1].CreatedAt) {
			t.Fatalf("page %+v, next %+v; want 2 keys and the position of the second", page, next)
		}
		pos = next
	}
	if want := "[key 4 key 2 key 5 key 1 key 3 key 9]"; fmt.Sprint(got) != want {
		t.Errorf("listing = %v; want %s (newest first, then last inserted first)", got, want)
	}
}

// keyActive: revoked keys and keys expired at now are left out; the
// others come oldest first.
func keyActive(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	now := e.now()
	revoked := newKey(1, a.ID, now.Add(-time.Minute))
	revokedAt := now.Add(-time.Second)
	revoked.RevokedAt = &revokedAt
	for _, k := range []*account.Key{
		newKey(4, a.ID, now.Add(-time.Minute)),
		revoked,
		newKey(2, a.ID, now.Add(-time.Hour)), // expires at now exactly
		newKey(3, a.ID, now.Add(-time.Minute)),
	} {
		must(t, s.CreateKey(e.ctx, k, hash(k.ID)))
	}
	active, err := s.ActiveKeys(e.ctx, a.ID, now)
	must(t, err)
	var got []string
	for _, k := range active {
		got = append(got, k.Name)
	}
	if want := "[key 4 key 3]"; fmt.Sprint(got) != want {
		t.Errorf("ActiveKeys = %v; want %s", got, want)
	}
}

// keyWithin: revoked keys and keys expired at the new key's creation do
// not count; a refused key is not stored.
func keyWithin(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	now := e.now()
	revoked := newKey(1, a.ID, now.Add(-time.Hour))
	revokedAt := now.Add(-time.Minute)
	revoked.RevokedAt = &revokedAt
	expired := newKey(2, a.ID, now.Add(-time.Hour)) // expires at now exactly
	must(t, s.CreateKey(e.ctx, revoked, hash("1")))
	must(t, s.CreateKey(e.ctx, expired, hash("2")))
	taken := newKey(6, a.ID, now)
	taken.Prefix = keyPrefix(1)

	steps := []struct {
		name string
		key  *account.Key
		kind apperr.Kind
		full bool // want ErrTooManyKeys
	}{
		{"prefix taken", taken, apperr.Conflict, false},
		{"unknown account", newKey(7, uuidN(99), now), apperr.NotFound, false},
		{"first active", newKey(3, a.ID, now), none, false},
		{"second active", newKey(4, a.ID, now), none, false},
		{"third at max 2", newKey(5, a.ID, now), none, true},
	}
	for _, st := range steps {
		err := s.CreateKeyWithin(e.ctx, st.key, hash(st.key.ID), 2)
		switch {
		case st.full:
			if !errors.Is(err, account.ErrTooManyKeys) {
				t.Errorf("%s: %v; want ErrTooManyKeys", st.name, err)
			}
		case !kindIs(err, st.kind):
			t.Errorf("%s: %v; want %s", st.name, err, st.kind.Code())
		}
	}
	_, _, _, err := s.KeyByPrefix(e.ctx, keyPrefix(5))
	wantKind(t, err, apperr.NotFound)
	list, _, err := s.ListKeys(e.ctx, a.ID, nil, 10)
	if err != nil || len(list) != 4 {
		t.Errorf("ListKeys: %d keys, %v; want 4", len(list), err)
	}
}

// keyWithinConcurrently: the count and the insert are one atomic step.
func keyWithinConcurrently(e *env) {
	t, s := e.t, e.db.Accounts()
	a := e.account(1)
	const max, tries = 3, 12
	errs := make([]error, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() { errs[i] = s.CreateKeyWithin(e.ctx, newKey(i+1, a.ID, e.now()), hash(uuidN(i+1)), max) })
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, account.ErrTooManyKeys):
			t.Errorf("unexpected error: %v", err)
		}
	}
	list, _, err := s.ListKeys(e.ctx, a.ID, nil, tries)
	if created != max || err != nil || len(list) != max {
		t.Errorf("%d created, %d listed (%v); want %d", created, len(list), err, max)
	}
}
