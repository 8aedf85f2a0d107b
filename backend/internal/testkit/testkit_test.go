package testkit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func TestClock(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := testkit.NewClock(t0)
	steps := []struct {
		name string
		do   func()
		want time.Time
	}{
		{"start", func() {}, t0},
		{"advance", func() { c.Advance(90 * time.Second) }, t0.Add(90 * time.Second)},
		{"set", func() { c.Set(t0.Add(-time.Hour)) }, t0.Add(-time.Hour)},
	}
	for _, st := range steps {
		st.do()
		if got := c.Now(); !got.Equal(st.want) {
			t.Errorf("%s: Now = %v, want %v", st.name, got, st.want)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { c.Advance(time.Second); _ = c.Now() })
	}
	wg.Wait()
	if got, want := c.Now(), t0.Add(-time.Hour+8*time.Second); !got.Equal(want) {
		t.Errorf("after concurrent advances: %v, want %v", got, want)
	}
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	db := testkit.MustOpenDB(t)
	if err := db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	svc := account.NewService(db.Accounts(), account.Options{})
	a := testkit.MustCreateAccount(t, svc, "fixture@example.test", account.TierFreePlus, account.FeatureAPIV1)
	if len(a.Features) != 1 || a.Features[0] != account.FeatureAPIV1 {
		t.Errorf("features = %v, want [API_V1]", a.Features)
	}
	k, secret := testkit.MustCreateKey(t, svc, a.ID, account.ScopeUsageRead)
	p, err := svc.Authenticate(context.Background(), secret)
	if err != nil || p.Key.ID != k.ID {
		t.Errorf("Authenticate fixture key: %v", err)
	}
}
