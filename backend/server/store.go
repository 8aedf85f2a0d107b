package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/postgres"
	"github.com/captionqa/captionqa/backend/store/sqlite"
)

// isPostgres reports whether a --store URL names a PostgreSQL database.
func isPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// openStore opens the store cfg names: PostgreSQL when cfg.Store is a
// postgres:// URL (shared by every node of a cluster), else the SQLite
// file in the data folder, after making the folder private to the user
// ([privateDataDir]): it holds key hashes and account data. This is the
// one place that knows which adapter is in use.
func openStore(ctx context.Context, cfg *Config) (store.DB, error) {
	switch {
	case isPostgres(cfg.Store):
		db, err := postgres.Open(ctx, cfg.Store, postgres.Options{Now: cfg.Now})
		if err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
		return db.Store(), nil
	case cfg.Store != "":
		return nil, fmt.Errorf("server: --store %q: give a postgres:// URL, or leave it out for the data folder's SQLite file", redactURL(cfg.Store))
	}
	dir := cfg.DataDir
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
	return db.Store(), nil
}

// redactURL drops what follows the scheme of a URL that may hold a
// password, for error messages.
func redactURL(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		return u[:i+3] + "…"
	}
	return u
}

func newAccounts(db store.DB, cfg *Config) *account.Service {
	return account.NewService(db.Accounts(), account.Options{
		Now: cfg.Now, DefaultKeyTTL: cfg.DefaultKeyTTL, ProDailyCap: cfg.ProDailyCap, SessionTTL: cfg.SessionTTL,
		Throttle: quota.NewFailures(quota.FailureOptions{Now: cfg.Now, Free: cfg.LoginFreeFailures, MaxDelay: cfg.LoginMaxPause})})
}

func newQuota(db store.DB, cfg *Config) *quota.Service {
	return quota.NewService(db.Quotas(), quota.Options{
		Now: cfg.Now, BurstPerSecond: cfg.BurstPerSecond, Burst: cfg.Burst, Buckets: db.Buckets(), Admission: db.Admission()})
}

// Admin is what the admin commands need: the account and quota services
// over the store, usable while a server runs on it (SQLite WAL, or the
// cluster's Postgres).
type Admin struct {
	Accounts *account.Service
	Quota    *quota.Service
	db       store.DB
}

// OpenAdmin opens the store cfg names (cfg.Store, else the SQLite file
// of cfg.DataDir) for the admin commands, creating the database in the
// folder if needed; the folder itself must exist.
func OpenAdmin(ctx context.Context, cfg Config) (*Admin, error) {
	// A mistyped --data must not quietly start a second, empty store:
	// the folder has to exist already (serve creates it on first start).
	if st, err := os.Stat(cfg.DataDir); cfg.Store == "" && cfg.DataDir != "" && (err != nil || !st.IsDir()) {
		return nil, fmt.Errorf("server: no data folder %s: start captionqa serve with it once, or check --data", cfg.DataDir)
	}
	db, err := openStore(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	return &Admin{Accounts: newAccounts(db, &cfg), Quota: newQuota(db, &cfg), db: db}, nil
}

// Close closes the store.
func (a *Admin) Close() error { return a.db.Close() }
