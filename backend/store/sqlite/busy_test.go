package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// holdWriteLock makes db (a second handle on the file: another process to
// the first) hold the write lock in an open write transaction until the
// returned release is called; release waits for the commit.
func holdWriteLock(t *testing.T, db *sqlstore.DB, email string) (release func()) {
	t.Helper()
	held, stop, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := db.Accounts().UpdateAccount(context.Background(), email, func(*account.Account) error {
			close(held)
			<-stop
			return nil
		})
		done <- err
	}()
	select {
	case <-held:
	case err := <-done:
		t.Fatalf("holder did not take the lock: %v", err)
	}
	released := false
	release = func() {
		if released {
			return
		}
		released = true
		close(stop)
		if err := <-done; err != nil {
			t.Errorf("holder: %v", err)
		}
	}
	t.Cleanup(release)
	return release
}

// wantBusy checks that err is the busy database's 503: unavailable with
// details.retryAfterSeconds.
func wantBusy(t *testing.T, name string, err error) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Unavailable {
		t.Errorf("%s: %v, want unavailable", name, err)
		return
	}
	if got := e.Details["retryAfterSeconds"]; got != 1 {
		t.Errorf("%s: retryAfterSeconds = %v, want 1", name, got)
	}
}

// TestBusyDatabase: while another handle holds the write lock, every
// write of the store fails with unavailable (not an internal error) after
// the busy timeout, Ready says so at once, and reads still answer; after
// the release both recover.
func TestBusyDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "busy.db")
	db, err := sqlite.Open(ctx, path, sqlite.Options{BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	other, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })

	s, q := db.Accounts(), db.Quotas()
	a := newAccount("acc", "acc@example.test")
	wantKind(t, s.CreateAccount(ctx, a), apperr.Internal)
	k := newKey("key", a.ID, "prefix1")
	wantKind(t, s.CreateKey(ctx, k, []byte("h")), apperr.Internal)
	sess := &account.Session{ID: "s1", AccountID: a.ID, CSRFToken: "c", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	wantKind(t, s.CreateSession(ctx, sess, []byte("t1")), apperr.Internal)
	if err := db.Ready(ctx); err != nil {
		t.Fatalf("Ready before the lock: %v", err)
	}

	writes := []struct {
		name  string
		write func() error
	}{
		{"CreateAccount", func() error { return s.CreateAccount(ctx, newAccount("b", "b@example.test")) }},
		{"EnsureFirstAccount", func() error {
			_, _, err := s.EnsureFirstAccount(ctx, newAccount("c", "c@example.test"), newKey("k2", "c", "prefix2"), []byte("h"))
			return err
		}},
		{"UpdateAccount", func() error {
			_, err := s.UpdateAccount(ctx, a.Email, func(*account.Account) error { return nil })
			return err
		}},
		{"CreateKey", func() error { return s.CreateKey(ctx, newKey("k3", a.ID, "prefix3"), []byte("h")) }},
		{"RevokeKey", func() error { return s.RevokeKey(ctx, a.ID, k.ID, t0) }},
		{"TouchKey", func() error { return s.TouchKey(ctx, k.ID, t0) }},
		{"SetPasswordHash", func() error { _, err := s.SetPasswordHash(ctx, a.Email, "x"); return err }},
		{"CreateSession", func() error {
			return s.CreateSession(ctx, &account.Session{ID: "s2", AccountID: a.ID, CreatedAt: t0, ExpiresAt: t0}, []byte("t2"))
		}},
		{"RevokeSession", func() error { return s.RevokeSession(ctx, []byte("t1")) }},
		{"DeleteSessionsBefore", func() error { return s.DeleteSessionsBefore(ctx, t0) }},
		{"Take", func() error { _, _, err := q.Take(ctx, "pool", t0, 5); return err }},
	}

	release := holdWriteLock(t, other, a.Email)
	for _, w := range writes {
		wantBusy(t, w.name, w.write())
	}
	wantBusy(t, "Ready", db.Ready(ctx))
	if _, err := s.AccountByID(ctx, a.ID); err != nil {
		t.Errorf("read while busy: %v", err)
	}

	release()
	if err := db.Ready(ctx); err != nil {
		t.Errorf("Ready after the release: %v", err)
	}
	for _, w := range writes {
		if err := w.write(); err != nil {
			t.Errorf("%s after the release: %v", w.name, err)
		}
	}
}

// TestReadyIgnoresOwnWrites: this process's own write transaction does
// not make Ready fail; the probe waits for it.
func TestReadyIgnoresOwnWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "own.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a := newAccount("acc", "acc@example.test")
	wantKind(t, db.Accounts().CreateAccount(ctx, a), apperr.Internal)
	ready := make(chan error, 1)
	_, err = db.Accounts().UpdateAccount(ctx, a.Email, func(*account.Account) error {
		go func() { ready <- db.Ready(ctx) }()
		time.Sleep(400 * time.Millisecond) // longer than the probe's own busy wait
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-ready; err != nil {
		t.Errorf("Ready during this process's own write: %v", err)
	}
}
