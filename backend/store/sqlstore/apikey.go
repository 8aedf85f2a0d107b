package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

const keyColumns = `id, account_id, name, prefix, scopes, created_at, expires_at, revoked_at, last_used_at`

// CreateKey inserts k with the hash of its secret. It returns
// [apperr.NotFound] if the account does not exist and [apperr.Conflict] if
// the id or prefix is taken.
func (s *AccountStore) CreateKey(ctx context.Context, k *account.Key, hash []byte) error {
	return s.db.createKey(ctx, s.db.write, k, hash)
}

func (db *DB) createKey(ctx context.Context, q querier, k *account.Key, hash []byte) error {
	_, err := q.exec(ctx, `INSERT INTO api_keys(`+keyColumns+`, hash) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		db.keyArgs(k, hash)...)
	return db.keyInsertError(k, err)
}

// keyArgs are the values of keyColumns and hash for k.
func (db *DB) keyArgs(k *account.Key, hash []byte) []any {
	return []any{k.ID, k.AccountID, k.Name, k.Prefix, db.list(k.Scopes), db.ts(k.CreatedAt),
		db.ts(k.ExpiresAt), db.optTimeArg(k.RevokedAt), db.optTimeArg(k.LastUsedAt), hash}
}

// keyInsertError classifies the failure of inserting k.
func (db *DB) keyInsertError(k *account.Key, err error) error {
	switch {
	case db.d.Unique(err):
		return apperr.New(apperr.Conflict, "api key already exists").Wrap(err)
	case db.d.ForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("store: create api key %s: %w", k.ID, err)
	}
	return nil
}

// CreateKeyWithin inserts k with the hash of its secret unless the
// account already holds maxActive keys that are neither revoked nor
// expired at k.CreatedAt; then it inserts nothing and returns an error
// wrapping [account.ErrTooManyKeys]. One statement would count from a
// snapshot taken before it waited (PostgreSQL), so the transaction first
// locks the account row ([Tx.lockAccount]): concurrent callers in any
// process count one after the other. Other errors are those of CreateKey.
func (s *AccountStore) CreateKeyWithin(ctx context.Context, k *account.Key, hash []byte, maxActive int) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := tx.lockAccount(ctx, k.AccountID); err != nil {
			return err
		}
		var active int
		if err := tx.queryRow(ctx, `SELECT count(*) FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
			k.AccountID, s.db.ts(k.CreatedAt)).Scan(&active); err != nil {
			return fmt.Errorf("store: create api key %s: %w", k.ID, err)
		}
		if active >= maxActive {
			return fmt.Errorf("store: create api key %s: %d active: %w", k.ID, maxActive, account.ErrTooManyKeys)
		}
		return s.db.createKey(ctx, tx, k, hash)
	})
}

// KeyByPrefix returns the key with this prefix, its account and its
// hash, in one statement (every API request runs it), or
// [apperr.NotFound].
func (s *AccountStore) KeyByPrefix(ctx context.Context, prefix string) (*account.Key, *account.Account, []byte, error) {
	var hash []byte
	var a account.Account
	k, err := s.db.scanKey(s.db.stmtRow(ctx, s.db.stmts.keyByPrefix, prefix), append([]any{&hash}, s.db.accountDest(&a)...)...)
	if err != nil {
		return nil, nil, nil, err
	}
	return k, &a, hash, nil
}

// ListKeys returns up to limit of the account's keys, newest first,
// after pos when it is set (keyset pagination), and the position of the
// last one when more follow. It reads one row more than asked to know.
func (s *AccountStore) ListKeys(ctx context.Context, accountID string, pos *account.KeyPosition, limit int) ([]account.Key, *account.KeyPosition, error) {
	seq := s.db.d.Seq
	q := `SELECT ` + keyColumns + `, ` + seq + ` FROM api_keys WHERE account_id = $1`
	args := []any{accountID}
	if pos != nil {
		// The row comparison takes (created_at, seq) as one key, which
		// the index api_keys_account_id serves in order, backwards (on
		// SQLite its rowid ends every index entry).
		q += ` AND (created_at, ` + seq + `) < ($2, $3)`
		args = append(args, s.db.ts(pos.CreatedAt), pos.Seq)
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, %s DESC LIMIT $%d`, seq, len(args)+1)
	type row struct {
		key account.Key
		seq int64
	}
	rows, err := collect(ctx, s.db.read, func(r scanner) (row, error) {
		var n int64
		k, err := s.db.scanKey(r, &n)
		if err != nil {
			return row{}, err
		}
		return row{*k, n}, nil
	}, q, append(args, limit+1)...)
	if err != nil {
		return nil, nil, err
	}
	var next *account.KeyPosition
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		next = &account.KeyPosition{CreatedAt: last.key.CreatedAt, Seq: last.seq}
	}
	keys := make([]account.Key, len(rows))
	for i := range rows {
		keys[i] = rows[i].key
	}
	return keys, next, nil
}

// ActiveKeys returns the account's keys neither revoked nor expired at
// now, oldest first (insertion order within a second).
func (s *AccountStore) ActiveKeys(ctx context.Context, accountID string, now time.Time) ([]account.Key, error) {
	return collect(ctx, s.db.read, func(r scanner) (account.Key, error) {
		k, err := s.db.scanKey(r)
		if err != nil {
			return account.Key{}, err
		}
		return *k, nil
	}, `SELECT `+keyColumns+` FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2
		ORDER BY created_at, `+s.db.d.Seq, accountID, s.db.ts(now))
}

// KeyByID returns the account's key, or [apperr.NotFound].
func (s *AccountStore) KeyByID(ctx context.Context, accountID, keyID string) (*account.Key, error) {
	return s.db.scanKey(s.db.read.queryRow(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id = $1 AND account_id = $2`, keyID, accountID))
}

// RevokeKey marks the account's key revoked at at, keeping an earlier
// revocation. It returns [apperr.NotFound] if the key does not exist or
// belongs to another account.
func (s *AccountStore) RevokeKey(ctx context.Context, accountID, keyID string, at time.Time) error {
	return changeOne(ctx, s.db.write, "api key", `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND account_id = $3`,
		s.db.ts(at), keyID, accountID)
}

// TouchKey records at as the key's last use.
func (s *AccountStore) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	if _, err := s.db.write.exec(ctx, `UPDATE api_keys SET last_used_at = $1 WHERE id = $2`, s.db.ts(at), keyID); err != nil {
		return fmt.Errorf("store: touch api key %s: %w", keyID, err)
	}
	return nil
}

// scanKey reads the keyColumns, then any extra destinations; no row is
// [apperr.NotFound].
func (db *DB) scanKey(r scanner, extra ...any) (*account.Key, error) {
	var k account.Key
	dest := append([]any{&k.ID, &k.AccountID, &k.Name, &k.Prefix, db.scanList(&k.Scopes), at(&k.CreatedAt), at(&k.ExpiresAt),
		atOpt(&k.RevokedAt), atOpt(&k.LastUsedAt)}, extra...)
	err := r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "api key not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: scan api key: %w", err)
	}
	if len(k.Scopes) == 0 {
		k.Scopes = nil // a legacy key
	}
	return &k, nil
}
