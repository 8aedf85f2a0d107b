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

// CreateSignInLink inserts link with the hash of its token, deleting the
// account's earlier links and every expired one in the same transaction.
// It returns [apperr.NotFound] if the account does not exist.
func (s *AccountStore) CreateSignInLink(ctx context.Context, link *account.SignInLink, tokenHash []byte) error {
	return s.db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM signin_links WHERE account_id = ? OR expires_at <= ?`,
			link.AccountID, formatTime(link.CreatedAt)); err != nil {
			return fmt.Errorf("sqlite: replace sign-in links of %s: %w", link.AccountID, err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO signin_links(token_hash, account_id, created_at, expires_at) VALUES(?, ?, ?, ?)`,
			tokenHash, link.AccountID, formatTime(link.CreatedAt), formatTime(link.ExpiresAt))
		switch {
		case isForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("sqlite: create sign-in link of %s: %w", link.AccountID, err)
		}
		return nil
	})
}

// SignInLinkByTokenHash returns the link with this token hash, expired or
// not, or [apperr.NotFound].
func (s *AccountStore) SignInLinkByTokenHash(ctx context.Context, tokenHash []byte) (*account.SignInLink, error) {
	var link account.SignInLink
	var created, expires string
	err := s.db.read.QueryRowContext(ctx, `SELECT account_id, created_at, expires_at FROM signin_links WHERE token_hash = ?`, tokenHash).
		Scan(&link.AccountID, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: sign-in link: %w", err)
	}
	if link.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if link.ExpiresAt, err = parseTime(expires); err != nil {
		return nil, err
	}
	return &link, nil
}

// UseSignInLink consumes the link with this token hash if it is live at
// at, sets its account's password hash and revokes the account's
// sessions, in one transaction. Consuming is one DELETE under the write
// lock, so one caller at most gets the row. It returns [apperr.NotFound]
// and changes nothing if no live link has the hash.
func (s *AccountStore) UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time, passwordHash string) (*account.Account, error) {
	var a *account.Account
	err := s.db.inTx(ctx, func(tx *sql.Tx) error {
		var accountID string
		// Times are fixed-width RFC 3339 UTC text: comparing the text
		// compares the instants.
		err := tx.QueryRowContext(ctx, `DELETE FROM signin_links WHERE token_hash = ? AND expires_at > ? RETURNING account_id`,
			tokenHash, formatTime(at)).Scan(&accountID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("sqlite: consume sign-in link: %w", err)
		}
		if a, err = scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, accountID)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET password_hash = ? WHERE id = ?`, passwordHash, a.ID); err != nil {
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
