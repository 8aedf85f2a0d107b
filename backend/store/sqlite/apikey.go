package sqlite

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
// the prefix is taken.
func (s *AccountStore) CreateKey(ctx context.Context, k *account.Key, hash []byte) error {
	return createKey(ctx, s.db.write, k, hash)
}

func createKey(ctx context.Context, ex execer, k *account.Key, hash []byte) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO api_keys(id, account_id, name, prefix, hash, scopes, created_at, expires_at, revoked_at, last_used_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.AccountID, k.Name, k.Prefix, hash, encodeList(k.Scopes), formatTime(k.CreatedAt),
		formatTime(k.ExpiresAt), formatNullTime(k.RevokedAt), formatNullTime(k.LastUsedAt))
	return keyInsertError(k, err)
}

// keyInsertError classifies the failure of inserting k.
func keyInsertError(k *account.Key, err error) error {
	switch {
	case isUnique(err):
		return apperr.New(apperr.Conflict, "api key already exists").Wrap(err)
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: create api key %s: %w", k.ID, err)
	}
	return nil
}

// CreateKeyWithin inserts k with the hash of its secret unless the
// account already holds maxActive keys that are neither revoked nor
// expired at k.CreatedAt; then it inserts nothing and returns an error
// wrapping [account.ErrTooManyKeys]. Counting and inserting are one
// statement, which SQLite runs under its write lock, so concurrent
// callers, in this process or another on the same file, never take the
// account past maxActive. Other errors are those of CreateKey.
func (s *AccountStore) CreateKeyWithin(ctx context.Context, k *account.Key, hash []byte, maxActive int) error {
	// Times are stored as fixed-width RFC 3339 UTC text, so comparing the
	// text compares the instants.
	res, err := s.db.write.ExecContext(ctx, `INSERT INTO api_keys(id, account_id, name, prefix, hash, scopes, created_at, expires_at, revoked_at, last_used_at)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE (SELECT COUNT(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL AND expires_at > ?) < ?`,
		k.ID, k.AccountID, k.Name, k.Prefix, hash, encodeList(k.Scopes), formatTime(k.CreatedAt),
		formatTime(k.ExpiresAt), formatNullTime(k.RevokedAt), formatNullTime(k.LastUsedAt),
		k.AccountID, formatTime(k.CreatedAt), maxActive)
	if err := keyInsertError(k, err); err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: create api key %s: %w", k.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: create api key %s: %d active: %w", k.ID, maxActive, account.ErrTooManyKeys)
	}
	return nil
}

// KeyByPrefix returns the key with this prefix and its hash, or
// [apperr.NotFound].
func (s *AccountStore) KeyByPrefix(ctx context.Context, prefix string) (*account.Key, []byte, error) {
	var hash []byte
	k, err := scanKey(s.db.stmts.keyByPrefix.QueryRowContext(ctx, prefix), &hash)
	if err != nil {
		return nil, nil, err
	}
	return k, hash, nil
}

// ListKeys returns the account's keys, oldest first.
func (s *AccountStore) ListKeys(ctx context.Context, accountID string) ([]account.Key, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE account_id = ? ORDER BY created_at, rowid`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list api keys: %w", err)
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
		return nil, fmt.Errorf("sqlite: list api keys: %w", err)
	}
	return list, nil
}

// RevokeKey marks the account's key revoked at at, keeping an earlier
// revocation. It returns [apperr.NotFound] if the key does not exist or
// belongs to another account.
func (s *AccountStore) RevokeKey(ctx context.Context, accountID, keyID string, at time.Time) error {
	res, err := s.db.write.ExecContext(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND account_id = ?`,
		formatTime(at), keyID, accountID)
	if err != nil {
		return fmt.Errorf("sqlite: revoke api key %s: %w", keyID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: revoke api key %s: %w", keyID, err)
	}
	if n == 0 {
		return apperr.New(apperr.NotFound, "api key not found")
	}
	return nil
}

// TouchKey records at as the key's last use.
func (s *AccountStore) TouchKey(ctx context.Context, keyID string, at time.Time) error {
	if _, err := s.db.write.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?`, formatTime(at), keyID); err != nil {
		return fmt.Errorf("sqlite: touch api key %s: %w", keyID, err)
	}
	return nil
}

// scanKey reads the keyColumns, then any extra destinations.
func scanKey(row scanner, extra ...any) (*account.Key, error) {
	var k account.Key
	var scopes, created, expires string
	var revoked, lastUsed sql.NullString
	dest := append([]any{&k.ID, &k.AccountID, &k.Name, &k.Prefix, &scopes, &created, &expires, &revoked, &lastUsed}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "api key not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan api key: %w", err)
	}
	if k.Scopes, err = decodeList(scopes); err != nil {
		return nil, err
	}
	if len(k.Scopes) == 0 {
		k.Scopes = nil // a legacy key
	}
	if k.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if k.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	if k.RevokedAt, err = parseNullTime(revoked); err != nil {
		return nil, err
	}
	if k.LastUsedAt, err = parseNullTime(lastUsed); err != nil {
		return nil, err
	}
	return &k, nil
}
