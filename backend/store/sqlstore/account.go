package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// AccountStore keeps accounts, their API keys, sessions and sign-in
// links. Every method may also return [apperr.Unavailable]
// (details.retryAfterSeconds) when the database is busy or cannot be
// reached.
type AccountStore struct{ db *DB }

var _ account.Store = (*AccountStore)(nil)

// Accounts returns the account store.
func (db *DB) Accounts() *AccountStore { return &AccountStore{db: db} }

const accountColumns = `id, email, tier, features, api_disabled, daily_cap, created_at, storage_quota`

// CreateAccount inserts a. It returns [apperr.Conflict] if the email or
// id is taken.
func (s *AccountStore) CreateAccount(ctx context.Context, a *account.Account) error {
	return s.db.createAccount(ctx, s.db.write, a)
}

func (db *DB) createAccount(ctx context.Context, q querier, a *account.Account) error {
	_, err := q.exec(ctx, `INSERT INTO accounts(`+accountColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7, $8)`,
		a.ID, a.Email, a.Tier, db.list(a.Features), a.APIDisabled, a.DailyCap, db.ts(a.CreatedAt), a.StorageQuota)
	if db.d.Unique(err) {
		return apperr.New(apperr.Conflict, "account already exists").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("store: create account %s: %w", a.ID, err)
	}
	return nil
}

// EnsureFirstAccount inserts a and its key k in one transaction if the
// accounts table is empty; otherwise it returns the oldest account. Nodes
// starting together take turns ([Dialect.FirstAccountLock]), so one
// account at most is created. It returns [apperr.Conflict] if k's prefix
// is taken.
func (s *AccountStore) EnsureFirstAccount(ctx context.Context, a *account.Account, k *account.Key, hash []byte) (*account.Account, bool, error) {
	var first *account.Account
	created := false
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		if lock := s.db.d.FirstAccountLock; lock != "" {
			if _, err := tx.exec(ctx, lock); err != nil {
				return fmt.Errorf("store: first account lock: %w", err)
			}
		}
		old, err := s.db.scanAccount(tx.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, `+s.db.d.Seq+` LIMIT 1`))
		switch {
		case err == nil:
			first = old
			return nil
		case apperr.KindOf(err) != apperr.NotFound:
			return err
		}
		if err := s.db.createAccount(ctx, tx, a); err != nil {
			return err
		}
		if err := s.db.createKey(ctx, tx, k, hash); err != nil {
			return err
		}
		first, created = a, true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return first, created, nil
}

// UpdateAccount loads the account with this email, locks its row,
// applies update and saves it in one transaction, so concurrent updates
// from any process apply one after the other. It returns
// [apperr.NotFound] if no account has the email, and update's error as
// is.
func (s *AccountStore) UpdateAccount(ctx context.Context, email string, update func(*account.Account) error) (*account.Account, error) {
	var a *account.Account
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		var err error
		if a, err = tx.accountByEmail(ctx, email); err != nil {
			return err
		}
		if err := update(a); err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE accounts SET tier = $1, features = $2, api_disabled = $3, daily_cap = $4, storage_quota = $5 WHERE id = $6`,
			a.Tier, s.db.list(a.Features), a.APIDisabled, a.DailyCap, a.StorageQuota, a.ID)
		if err != nil {
			return fmt.Errorf("store: update account %s: %w", a.ID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// accountByEmail reads the account with this email and locks its row, or
// returns [apperr.NotFound].
func (t *Tx) accountByEmail(ctx context.Context, email string) (*account.Account, error) {
	return t.db.scanAccount(t.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = $1 `+t.db.d.ForNoKeyUpdate, email))
}

// lockAccount takes the account's row lock until the transaction ends,
// or returns [apperr.NotFound]. Writers that count an account's rows
// under a limit take it first: on several nodes a count is only exact
// while no other transaction can add to it, and the account row is the
// one parent every such count has. FOR NO KEY UPDATE excludes the other
// counters but not the key-share locks of foreign keys, so inserts of an
// account's other rows (keys, sessions) do not wait. (SQLite's write
// transaction excludes every other writer anyway.)
func (t *Tx) lockAccount(ctx context.Context, accountID string) error {
	var one int
	err := t.queryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 `+t.db.d.ForNoKeyUpdate, accountID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("store: lock account %s: %w", accountID, err)
	}
	return nil
}

// AccountByID returns [apperr.NotFound] if no account has the id.
func (s *AccountStore) AccountByID(ctx context.Context, id string) (*account.Account, error) {
	return s.db.scanAccount(s.db.stmtRow(ctx, s.db.stmts.accountByID, id))
}

// AccountByEmail returns [apperr.NotFound] if no account has the email.
func (s *AccountStore) AccountByEmail(ctx context.Context, email string) (*account.Account, error) {
	return s.db.scanAccount(s.db.read.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = $1`, email))
}

// ListAccounts returns every account, oldest first (insertion order
// within a second).
func (s *AccountStore) ListAccounts(ctx context.Context) ([]account.Account, error) {
	return collect(ctx, s.db.read, func(r scanner) (account.Account, error) {
		a, err := s.db.scanAccount(r)
		if err != nil {
			return account.Account{}, err
		}
		return *a, nil
	}, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, `+s.db.d.Seq)
}

// scanAccount reads the accountColumns, then any extra destinations; no
// row is [apperr.NotFound].
func (db *DB) scanAccount(r scanner, extra ...any) (*account.Account, error) {
	var a account.Account
	err := r.Scan(append(db.accountDest(&a), extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: scan account: %w", err)
	}
	return &a, nil
}

// accountDest are the scan destinations of the accountColumns.
func (db *DB) accountDest(a *account.Account) []any {
	return []any{&a.ID, &a.Email, &a.Tier, db.scanList(&a.Features), &a.APIDisabled, &a.DailyCap, at(&a.CreatedAt), &a.StorageQuota}
}
