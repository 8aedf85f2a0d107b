package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestTwoHandlesOneFile stands in for the server and the admin CLI holding
// the same file: both write at once, and nothing is lost or refused.
func TestTwoHandlesOneFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	var dbs [2]*sqlstore.DB
	for i := range dbs {
		db, err := sqlite.Open(ctx, path, sqlite.Options{})
		if err != nil {
			t.Fatalf("open handle %d: %v", i, err)
		}
		t.Cleanup(func() { db.Close() })
		dbs[i] = db
	}

	const perHandle, capacity = 40, 50
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	var granted atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 4*perHandle)
	for h, db := range dbs {
		for i := range perHandle {
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, ok, err := db.Quotas().Take(ctx, "shared", day, capacity)
				if err != nil {
					errs <- err
				}
				if ok {
					granted.Add(1)
				}
			}()
			go func() {
				defer wg.Done()
				a := &account.Account{ID: fmt.Sprintf("h%d-%d", h, i), Email: fmt.Sprintf("h%d-%d@example.test", h, i),
					Tier: account.TierPro, DailyCap: 1, CreatedAt: day}
				if err := db.Accounts().CreateAccount(ctx, a); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent write: %v", err)
	}
	if got := granted.Load(); got != capacity {
		t.Errorf("granted %d runs across handles, want exactly %d", got, capacity)
	}
	for i, db := range dbs {
		used, err := db.Quotas().Used(ctx, "shared", day)
		if err != nil || used != capacity {
			t.Errorf("handle %d: used = %d, %v; want %d", i, used, err, capacity)
		}
		list, err := db.Accounts().ListAccounts(ctx)
		if err != nil || len(list) != 2*perHandle {
			t.Errorf("handle %d: %d accounts, %v; want %d", i, len(list), err, 2*perHandle)
		}
	}
}
