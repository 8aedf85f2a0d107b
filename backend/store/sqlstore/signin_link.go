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

// CreateSignInLink inserts link with the hash of its token, deleting the
// account's earlier links and every expired one in the same transaction.
// It returns [apperr.NotFound] if the account does not exist.
func (s *AccountStore) CreateSignInLink(ctx context.Context, link *account.SignInLink, tokenHash []byte) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec(ctx, `DELETE FROM signin_links WHERE account_id = $1 OR expires_at <= $2`,
			link.AccountID, s.db.ts(link.CreatedAt)); err != nil {
			return fmt.Errorf("store: replace sign-in links of %s: %w", link.AccountID, err)
		}
		_, err := tx.exec(ctx, `INSERT INTO signin_links(token_hash, account_id, created_at, expires_at) VALUES($1, $2, $3, $4)`,
			tokenHash, link.AccountID, s.db.ts(link.CreatedAt), s.db.ts(link.ExpiresAt))
		switch {
		case s.db.d.ForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("store: create sign-in link of %s: %w", link.AccountID, err)
		}
		return nil
	})
}

// SignInLinkByTokenHash returns the link with this token hash, expired or
// not, or [apperr.NotFound].
func (s *AccountStore) SignInLinkByTokenHash(ctx context.Context, tokenHash []byte) (*account.SignInLink, error) {
	var link account.SignInLink
	err := s.db.read.queryRow(ctx, `SELECT account_id, created_at, expires_at FROM signin_links WHERE token_hash = $1`, tokenHash).
		Scan(&link.AccountID, at(&link.CreatedAt), at(&link.ExpiresAt))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: sign-in link: %w", err)
	}
	return &link, nil
}

// UseSignInLink consumes the link with this token hash if it is live at
// at, sets its account's password hash and revokes the account's
// sessions, in one transaction. Consuming is one DELETE, so one caller
// at most gets the row, on any node. It returns [apperr.NotFound] and
// changes nothing if no live link has the hash.
func (s *AccountStore) UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time, passwordHash string) (*account.Account, error) {
	var a *account.Account
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		var accountID string
		err := tx.queryRow(ctx, `DELETE FROM signin_links WHERE token_hash = $1 AND expires_at > $2 RETURNING account_id`,
			tokenHash, s.db.ts(at)).Scan(&accountID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("store: consume sign-in link: %w", err)
		}
		if a, err = s.db.scanAccount(tx.queryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, accountID)); err != nil {
			return err
		}
		return tx.setPassword(ctx, a.ID, passwordHash)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}
