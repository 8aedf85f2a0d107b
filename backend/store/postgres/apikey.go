package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

const keyColumns = `id, account_id, name, prefix, scopes, created_at, expires_at, revoked_at, last_used_at`

// CreateKey inserts k with the hash of its secret. It returns
// [apperr.NotFound] if the account does not exist and [apperr.Conflict] if
// the id or prefix is taken.
func (s *AccountStore) CreateKey(ctx context.Context, k *account.Key, hash []byte) error {
	return unavailable(createKey(ctx, s.db.pool, k, hash))
}

func createKey(ctx context.Context, q querier, k *account.Key, hash []byte) error {
	_, err := q.Exec(ctx, `INSERT INTO api_keys(`+keyColumns+`, hash) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		keyArgs(k, hash)...)
	return keyInsertError(k, err)
}

// keyArgs are the values of keyColumns and hash for k.
func keyArgs(k *account.Key, hash []byte) []any {
	return []any{k.ID, k.AccountID, k.Name, k.Prefix, textList(k.Scopes), second(k.CreatedAt),
		second(k.ExpiresAt), secondPtr(k.RevokedAt), secondPtr(k.LastUsedAt), hash}
}

// keyInsertError classifies the failure of inserting k.
func keyInsertError(k *account.Key, err error) error {
	switch {
	case isUnique(err):
		return apperr.New(apperr.Conflict, "api key already exists").Wrap(err)
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("postgres: create api key %s: %w", k.ID, err)
	}
	return nil
}

// CreateKeyWithin inserts k with the hash of its secret unless the
// account already holds maxActive keys that are neither revoked nor
// expired at k.CreatedAt; then it inserts nothing and returns an error
// wrapping [account.ErrTooManyKeys]. One statement would count from a
// snapshot taken before it waited, so the transaction first locks the
// account row (lockAccount): concurrent callers on any node count one
// after the other. Other errors are those of CreateKey.
func (s *AccountStore) CreateKeyWithin(ctx context.Context, k *account.Key, hash []byte, maxActive int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, k.AccountID); err != nil {
			return err
		}
		args := append(keyArgs(k, hash), maxActive)
		tag, err := tx.Exec(ctx, `INSERT INTO api_keys(`+keyColumns+`, hash)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
			WHERE (SELECT count(*) FROM api_keys WHERE account_id = $2 AND revoked_at IS NULL AND expires_at > $6) < $11`,
			args...)
		if err := keyInsertError(k, err); err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("postgres: create api key %s: %d active: %w", k.ID, maxActive, account.ErrTooManyKeys)
		}
		return nil
	})
}

// KeyByPrefix returns the key with this prefix and its hash, or
// [apperr.NotFound].
func (s *AccountStore) KeyByPrefix(ctx context.Context, prefix string) (*account.Key, []byte, error) {
	var hash []byte
	k, err := scanKey(s.db.pool.QueryRow(ctx, `SELECT `+keyColumns+`, hash FROM api_keys WHERE prefix = $1`, prefix), &hash)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	return k, hash, nil
}

// ListKeys returns the account's keys, oldest first (insertion order
// within a second).
func (s *AccountStore) ListKeys(ctx context.Context, accountID string) ([]account.Key, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE account_id = $1 ORDER BY created_at, seq`, accountID)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list api keys: %w", err))
	}
	defer rows.Close()
	list := []account.Key{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *k)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list api keys: %w", err))
	}
	return list, nil
}

// RevokeKey marks the account's key revoked at at, keeping an earlier
// revocation. It returns [apperr.NotFound] if the key does not exist or
// belongs to another account.
func (s *AccountStore) RevokeKey(ctx context.Context, accountID, keyID string, at time.Time) error {
	tag, err := s.db.pool.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 AND account_id = $3`,
		second(at), keyID, accountID)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: revoke api key %s: %w", keyID, err))
	}
	if tag.RowsAffected() == 0 {
		return apperr.New(apperr.NotFound, "api key not found")
	}
	return nil
}

// TouchKey records at as the key's last use.
func (s *AccountStore) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	if _, err := s.db.pool.Exec(ctx, `UPDATE api_keys SET last_used_at = $1 WHERE id = $2`, second(at), keyID); err != nil {
		return unavailable(fmt.Errorf("postgres: touch api key %s: %w", keyID, err))
	}
	return nil
}

// scanKey reads the keyColumns, then any extra destinations; no row is
// [apperr.NotFound].
func scanKey(row pgx.Row, extra ...any) (*account.Key, error) {
	var k account.Key
	dest := append([]any{&k.ID, &k.AccountID, &k.Name, &k.Prefix, &k.Scopes, &k.CreatedAt, &k.ExpiresAt, &k.RevokedAt, &k.LastUsedAt}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "api key not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan api key: %w", err)
	}
	if len(k.Scopes) == 0 {
		k.Scopes = nil // a legacy key
	}
	k.CreatedAt, k.ExpiresAt = k.CreatedAt.UTC(), k.ExpiresAt.UTC()
	k.RevokedAt, k.LastUsedAt = utcPtr(k.RevokedAt), utcPtr(k.LastUsedAt)
	return &k, nil
}
