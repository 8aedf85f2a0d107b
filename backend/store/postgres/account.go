package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// AccountStore keeps accounts, their API keys, sessions and sign-in
// links. Every method may also return [apperr.Unavailable]
// (details.retryAfterSeconds) when the database cannot be reached.
type AccountStore struct{ db *DB }

var _ account.Store = (*AccountStore)(nil)

// Accounts returns the account store.
func (db *DB) Accounts() *AccountStore { return &AccountStore{db: db} }

const accountColumns = `id, email, tier, features, api_disabled, daily_cap, created_at`

// firstAccountLock is the transaction-scoped advisory lock
// EnsureFirstAccount holds: under READ COMMITTED two nodes could both
// find the table empty, and a lock on rows that do not exist yet is not
// possible ("firstacc" in ASCII).
const firstAccountLock int64 = 0x6669727374616363

// CreateAccount inserts a. It returns [apperr.Conflict] if the email or
// id is taken.
func (s *AccountStore) CreateAccount(ctx context.Context, a *account.Account) error {
	return unavailable(createAccount(ctx, s.db.pool, a))
}

func createAccount(ctx context.Context, q querier, a *account.Account) error {
	_, err := q.Exec(ctx, `INSERT INTO accounts(`+accountColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7)`,
		a.ID, a.Email, a.Tier, textList(a.Features), a.APIDisabled, a.DailyCap, second(a.CreatedAt))
	if isUnique(err) {
		return apperr.New(apperr.Conflict, "account already exists").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("postgres: create account %s: %w", a.ID, err)
	}
	return nil
}

// EnsureFirstAccount inserts a and its key k in one transaction if the
// accounts table is empty; otherwise it returns the oldest account. Nodes
// starting together take turns (an advisory lock), so one account at
// most is created. It returns [apperr.Conflict] if k's prefix is taken.
func (s *AccountStore) EnsureFirstAccount(ctx context.Context, a *account.Account, k *account.Key, hash []byte) (*account.Account, bool, error) {
	var first *account.Account
	created := false
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, firstAccountLock); err != nil {
			return fmt.Errorf("postgres: first account lock: %w", err)
		}
		old, err := scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, seq LIMIT 1`))
		switch {
		case err == nil:
			first = old
			return nil
		case apperr.KindOf(err) != apperr.NotFound:
			return err
		}
		if err := createAccount(ctx, tx, a); err != nil {
			return err
		}
		if err := createKey(ctx, tx, k, hash); err != nil {
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
// from any node apply one after the other. It returns [apperr.NotFound]
// if no account has the email, and update's error as is.
func (s *AccountStore) UpdateAccount(ctx context.Context, email string, update func(*account.Account) error) (*account.Account, error) {
	var a *account.Account
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = $1 FOR NO KEY UPDATE`, email))
		if err != nil {
			return err
		}
		if err := update(a); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE accounts SET tier = $1, features = $2, api_disabled = $3, daily_cap = $4 WHERE id = $5`,
			a.Tier, textList(a.Features), a.APIDisabled, a.DailyCap, a.ID)
		if err != nil {
			return fmt.Errorf("postgres: update account %s: %w", a.ID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// AccountByID returns [apperr.NotFound] if no account has the id.
func (s *AccountStore) AccountByID(ctx context.Context, id string) (*account.Account, error) {
	a, err := scanAccount(s.db.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, id))
	return a, unavailable(err)
}

// AccountByEmail returns [apperr.NotFound] if no account has the email.
func (s *AccountStore) AccountByEmail(ctx context.Context, email string) (*account.Account, error) {
	a, err := scanAccount(s.db.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = $1`, email))
	return a, unavailable(err)
}

// ListAccounts returns every account, oldest first (insertion order
// within a second).
func (s *AccountStore) ListAccounts(ctx context.Context) ([]account.Account, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, seq`)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list accounts: %w", err))
	}
	defer rows.Close()
	list := []account.Account{}
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list accounts: %w", err))
	}
	return list, nil
}

// scanAccount reads the accountColumns, then any extra destinations; no
// row is [apperr.NotFound].
func scanAccount(row pgx.Row, extra ...any) (*account.Account, error) {
	var a account.Account
	dest := append([]any{&a.ID, &a.Email, &a.Tier, &a.Features, &a.APIDisabled, &a.DailyCap, &a.CreatedAt}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan account: %w", err)
	}
	a.Features = textList(a.Features)
	a.CreatedAt = a.CreatedAt.UTC()
	return &a, nil
}
