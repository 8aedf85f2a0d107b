package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// openDB opens (creating if needed) the database in dir, after making
// the folder private to the user ([privateDataDir]): it holds key hashes
// and account data.
func openDB(ctx context.Context, dir string, cfg *Config) (*sqlite.DB, error) {
	if dir == "" {
		return nil, fmt.Errorf("server: no data folder configured")
	}
	if err := privateDataDir(dir, cfg.logger()); err != nil {
		return nil, err
	}
	db, err := sqlite.Open(ctx, filepath.Join(dir, DBFile), sqlite.Options{Now: cfg.Now, BusyTimeout: cfg.BusyTimeout})
	if err != nil {
		return nil, fmt.Errorf("server: open database in %s: %w", dir, err)
	}
	return db, nil
}

func newAccounts(db *sqlite.DB, cfg *Config) *account.Service {
	return account.NewService(db.Accounts(), account.Options{
		Now: cfg.Now, DefaultKeyTTL: cfg.DefaultKeyTTL, ProDailyCap: cfg.ProDailyCap, SessionTTL: cfg.SessionTTL,
		Throttle: quota.NewFailures(quota.FailureOptions{Now: cfg.Now, Free: cfg.LoginFreeFailures, MaxDelay: cfg.LoginMaxPause})})
}

func newQuota(db *sqlite.DB, cfg *Config) *quota.Service {
	return quota.NewService(db.Quotas(), quota.Options{
		Now: cfg.Now, BurstPerSecond: cfg.BurstPerSecond, Burst: cfg.Burst})
}

// Admin is what the admin commands need: the account and quota services
// over the data folder's database, usable while a server runs on it
// (SQLite WAL).
type Admin struct {
	Accounts *account.Service
	Quota    *quota.Service
	db       *sqlite.DB
}

// OpenAdmin opens the database of cfg.DataDir for the admin commands,
// creating it in the folder if needed; the folder itself must exist.
func OpenAdmin(ctx context.Context, cfg Config) (*Admin, error) {
	// A mistyped --data must not quietly start a second, empty store:
	// the folder has to exist already (serve creates it on first start).
	if st, err := os.Stat(cfg.DataDir); cfg.DataDir != "" && (err != nil || !st.IsDir()) {
		return nil, fmt.Errorf("server: no data folder %s: start captionqa serve with it once, or check --data", cfg.DataDir)
	}
	db, err := openDB(ctx, cfg.DataDir, &cfg)
	if err != nil {
		return nil, err
	}
	return &Admin{Accounts: newAccounts(db, &cfg), Quota: newQuota(db, &cfg), db: db}, nil
}

// Close closes the database.
func (a *Admin) Close() error { return a.db.Close() }
