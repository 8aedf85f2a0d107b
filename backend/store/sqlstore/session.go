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

// SetPasswordHash stores the account's password hash and revokes its
// sessions in one transaction. It returns [apperr.NotFound] if no account
// has the email.
func (s *AccountStore) SetPasswordHash(ctx context.Context, email, hash string) (*account.Account, error) {
	var a *account.Account
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		var err error
		if a, err = tx.accountByEmail(ctx, email); err != nil {
			return err
		}
		return tx.setPassword(ctx, a.ID, hash)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// setPassword sets the account's password hash and revokes its sessions.
func (t *Tx) setPassword(ctx context.Context, accountID, hash string) error {
	if _, err := t.exec(ctx, `UPDATE accounts SET password_hash = $1 WHERE id = $2`, hash, accountID); err != nil {
		return fmt.Errorf("store: set password of %s: %w", accountID, err)
	}
	if _, err := t.exec(ctx, `UPDATE sessions SET revoked = true WHERE account_id = $1`, accountID); err != nil {
		return fmt.Errorf("store: revoke sessions of %s: %w", accountID, err)
	}
	return nil
}

// PasswordHash returns the account with this email and its password hash
// ("" when none is set), or [apperr.NotFound].
func (s *AccountStore) PasswordHash(ctx context.Context, email string) (*account.Account, string, error) {
	var hash sql.NullString
	a, err := s.db.scanAccount(s.db.read.queryRow(ctx,
		`SELECT `+accountColumns+`, password_hash FROM accounts WHERE email = $1`, email), &hash)
	if err != nil {
		return nil, "", err
	}
	return a, hash.String, nil
}

// CreateSession inserts sess with the hash of its token. It returns
// [apperr.NotFound] if the account does not exist.
func (s *AccountStore) CreateSession(ctx context.Context, sess *account.Session, tokenHash []byte) error {
	_, err := s.db.write.exec(ctx, `INSERT INTO sessions(id, account_id, token_hash, csrf_token, created_at, expires_at, revoked)
		VALUES($1, $2, $3, $4, $5, $6, $7)`,
		sess.ID, sess.AccountID, tokenHash, sess.CSRFToken, s.db.ts(sess.CreatedAt), s.db.ts(sess.ExpiresAt), sess.Revoked)
	switch {
	case s.db.d.ForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("store: create session %s: %w", sess.ID, err)
	}
	return nil
}

// SessionByTokenHash returns the session with this token hash and its
// account's email, or [apperr.NotFound].
func (s *AccountStore) SessionByTokenHash(ctx context.Context, tokenHash []byte) (*account.Session, error) {
	var sess account.Session
	err := s.db.read.queryRow(ctx, `SELECT s.id, s.account_id, a.email, s.csrf_token, s.created_at, s.expires_at, s.revoked
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1`, tokenHash).
		Scan(&sess.ID, &sess.AccountID, &sess.Email, &sess.CSRFToken, at(&sess.CreatedAt), at(&sess.ExpiresAt), &sess.Revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "session not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: session: %w", err)
	}
	return &sess, nil
}

// RevokeSession marks the session with this token hash revoked; an
// unknown hash changes nothing.
func (s *AccountStore) RevokeSession(ctx context.Context, tokenHash []byte) error {
	if _, err := s.db.write.exec(ctx, `UPDATE sessions SET revoked = true WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("store: revoke session: %w", err)
	}
	return nil
}

// DeleteSessionsBefore deletes the sessions that expired before at, and
// the revoked ones created before it.
func (s *AccountStore) DeleteSessionsBefore(ctx context.Context, at time.Time) error {
	if _, err := s.db.write.exec(ctx, `DELETE FROM sessions WHERE expires_at < $1 OR (revoked AND created_at < $1)`, s.db.ts(at)); err != nil {
		return fmt.Errorf("store: delete old sessions: %w", err)
	}
	return nil
}
