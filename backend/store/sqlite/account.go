package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// AccountStore keeps accounts, their API keys and sessions. Each write
// returns [apperr.Unavailable] (details.retryAfterSeconds) if another
// process holds the write lock past the busy timeout.
type AccountStore struct{ db *DB }

var _ account.Store = (*AccountStore)(nil)

const accountColumns = `id, email, tier, features, api_disabled, daily_cap, created_at`

// CreateAccount inserts a. It returns [apperr.Conflict] if the email is
// taken.
func (s *AccountStore) CreateAccount(ctx context.Context, a *account.Account) error {
	return createAccount(ctx, s.db.write, a)
}

// execer is what both a pool and a transaction offer for writing.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func createAccount(ctx context.Context, ex execer, a *account.Account) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO accounts(`+accountColumns+`) VALUES(?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.Email, a.Tier, encodeList(a.Features), a.APIDisabled, a.DailyCap, formatTime(a.CreatedAt))
	if isUnique(err) {
		return apperr.New(apperr.Conflict, "account already exists").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create account %s: %w", a.ID, err)
	}
	return nil
}

// EnsureFirstAccount inserts a and its key k in one transaction if the
// accounts table is empty; otherwise it returns the oldest account.
func (s *AccountStore) EnsureFirstAccount(ctx context.Context, a *account.Account, k *account.Key, hash []byte) (*account.Account, bool, error) {
	var first *account.Account
	created := false
	err := s.db.inTx(ctx, func(tx *sql.Tx) error {
		old, err := scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, rowid LIMIT 1`))
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

// UpdateAccount loads the account with this email, applies update and
// saves it in one write transaction. It returns [apperr.NotFound] if no
// account has the email, and update's error as is.
func (s *AccountStore) UpdateAccount(ctx context.Context, email string, update func(*account.Account) error) (*account.Account, error) {
	var a *account.Account
	err := s.db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = ?`, email))
		if err != nil {
			return err
		}
		if err := update(a); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE accounts SET tier = ?, features = ?, api_disabled = ?, daily_cap = ? WHERE id = ?`,
			a.Tier, encodeList(a.Features), a.APIDisabled, a.DailyCap, a.ID)
		if err != nil {
			return fmt.Errorf("sqlite: update account %s: %w", a.ID, err)
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
	return scanAccount(s.db.stmts.accountByID.QueryRowContext(ctx, id))
}

// AccountByEmail returns [apperr.NotFound] if no account has the email.
func (s *AccountStore) AccountByEmail(ctx context.Context, email string) (*account.Account, error) {
	return scanAccount(s.db.read.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = ?`, email))
}

// ListAccounts returns every account, oldest first.
func (s *AccountStore) ListAccounts(ctx context.Context) ([]account.Account, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts ORDER BY created_at, rowid`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list accounts: %w", err)
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
		return nil, fmt.Errorf("sqlite: list accounts: %w", err)
	}
	return list, nil
}

type scanner interface{ Scan(dest ...any) error }

// scanAccount reads the accountColumns, then any extra destinations.
func scanAccount(row scanner, extra ...any) (*account.Account, error) {
	var a account.Account
	var features, created string
	dest := append([]any{&a.ID, &a.Email, &a.Tier, &features, &a.APIDisabled, &a.DailyCap, &created}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan account: %w", err)
	}
	if a.Features, err = decodeList(features); err != nil {
		return nil, err
	}
	if a.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &a, nil
}
