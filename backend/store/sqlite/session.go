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

// SetPasswordHash stores the account's password hash and revokes its
// sessions in one transaction. It returns [apperr.NotFound] if no account
// has the email.
func (s *AccountStore) SetPasswordHash(ctx context.Context, email, hash string) (*account.Account, error) {
	var a *account.Account
	err := s.db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE email = ?`, email))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ?`, hash, a.ID); err != nil {
			return fmt.Errorf("sqlite: set password of %s: %w", a.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked = 1 WHERE account_id = ?`, a.ID); err != nil {
			return fmt.Errorf("sqlite: revoke sessions of %s: %w", a.ID, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// PasswordHash returns the account with this email and its password hash
// ("" when none is set), or [apperr.NotFound].
func (s *AccountStore) PasswordHash(ctx context.Context, email string) (*account.Account, string, error) {
	var hash sql.NullString
	a, err := scanAccount(s.db.read.QueryRowContext(ctx,
		`SELECT `+accountColumns+`, password_hash FROM accounts WHERE email = ?`, email), &hash)
	if err != nil {
		return nil, "", err
	}
	return a, hash.String, nil
}

// CreateSession inserts sess with the hash of its token. It returns
// [apperr.NotFound] if the account does not exist.
func (s *AccountStore) CreateSession(ctx context.Context, sess *account.Session, tokenHash []byte) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO sessions(id, account_id, token_hash, csrf_token, created_at, expires_at, revoked)
		VALUES(?, ?, ?, ?, ?, ?, ?)`,
		sess.ID, sess.AccountID, tokenHash, sess.CSRFToken, formatTime(sess.CreatedAt), formatTime(sess.ExpiresAt), sess.Revoked)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: create session %s: %w", sess.ID, err)
	}
	return nil
}

// SessionByTokenHash returns the session with this token hash and its
// account's email, or [apperr.NotFound].
func (s *AccountStore) SessionByTokenHash(ctx context.Context, tokenHash []byte) (*account.Session, error) {
	var sess account.Session
	var created, expires string
	err := s.db.read.QueryRowContext(ctx, `SELECT s.id, s.account_id, a.email, s.csrf_token, s.created_at, s.expires_at, s.revoked
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?`, tokenHash).
		Scan(&sess.ID, &sess.AccountID, &sess.Email, &sess.CSRFToken, &created, &expires, &sess.Revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "session not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: session: %w", err)
	}
	if sess.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if sess.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	return &sess, nil
}

// RevokeSession marks the session with this token hash revoked; an
// unknown hash changes nothing.
func (s *AccountStore) RevokeSession(ctx context.Context, tokenHash []byte) error {
	if _, err := s.db.write.ExecContext(ctx, `UPDATE sessions SET revoked = 1 WHERE token_hash = ?`, tokenHash); err != nil {
		return fmt.Errorf("sqlite: revoke session: %w", err)
	}
	return nil
}

// DeleteSessionsBefore deletes the sessions that expired before at, and
// the revoked ones created before it.
func (s *AccountStore) DeleteSessionsBefore(ctx context.Context, at time.Time) error {
	t := formatTime(at)
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at < ? OR (revoked = 1 AND created_at < ?)`, t, t); err != nil {
		return fmt.Errorf("sqlite: delete old sessions: %w", err)
	}
	return nil
}
