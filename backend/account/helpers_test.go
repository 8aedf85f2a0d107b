package account_test

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

// start is a fixed instant for the fake clock.
func start() time.Time { return time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC) }

// newService returns a service over a fresh database and its clock.
func newService(t *testing.T) (*account.Service, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(start())
	svc := account.NewService(testkit.MustOpenDB(t).Accounts(), account.Options{Now: clock.Now, ProDailyCap: 500})
	return svc, clock
}

// wantKind fails unless err is nil (want [apperr.Internal]) or carries
// the kind want.
func wantKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if want == apperr.Internal {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if got := apperr.KindOf(err); err == nil || got != want {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
}

func detail(err error, key string) any {
	e, ok := apperr.As(err)
	if !ok {
		return nil
	}
	return e.Details[key]
}

func ptr[T any](v T) *T { return &v }
