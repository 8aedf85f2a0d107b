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

// CreateSignInLink inserts link with the hash of its token, deleting the
// account's earlier links and every expired one in the same transaction.
// It returns [apperr.NotFound] if the account does not exist.
func (s *AccountStore) CreateSignInLink(ctx context.Context, link *account.SignInLink, tokenHash []byte) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM signin_links WHERE account_id = $1 OR expires_at <= $2`,
			link.AccountID, second(link.CreatedAt)); err != nil {
			return fmt.Errorf("postgres: replace sign-in links of %s: %w", link.AccountID, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO signin_links(token_hash, account_id, created_at, expires_at) VALUES($1, $2, $3, $4)`,
			tokenHash, link.AccountID, second(link.CreatedAt), second(link.ExpiresAt))
		switch {
		case isForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("postgres: create sign-in link of %s: %w", link.AccountID, err)
		}
		return nil
	})
}

// SignInLinkByTokenHash returns the link with this token hash, expired or
// not, or [apperr.NotFound].
func (s *AccountStore) SignInLinkByTokenHash(ctx context.Context, tokenHash []byte) (*account.SignInLink, error) {
	var link account.SignInLink
	err := s.db.pool.QueryRow(ctx, `SELECT account_id, created_at, expires_at FROM signin_links WHERE token_hash = $1`, tokenHash).
		Scan(&link.AccountID, &link.CreatedAt, &link.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: sign-in link: %w", err))
	}
	link.CreatedAt, link.ExpiresAt = link.CreatedAt.UTC(), link.ExpiresAt.UTC()
	return &link, nil
}

// UseSignInLink consumes the link with this token hash if it is live at
// at, sets its account's password hash and revokes the account's
// sessions, in one transaction. Consuming is one DELETE: of concurrent
// callers on any node, the others wait on its row lock and then find it
// gone, so one at most gets the row. It returns [apperr.NotFound] and
// changes nothing if no live link has the hash.
func (s *AccountStore) UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time, passwordHash string) (*account.Account, error) {
	var a *account.Account
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var accountID string
		err := tx.QueryRow(ctx, `DELETE FROM signin_links WHERE token_hash = $1 AND expires_at > $2 RETURNING account_id`,
			tokenHash, second(at)).Scan(&accountID)
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.New(apperr.NotFound, "sign-in link not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("postgres: consume sign-in link: %w", err)
		}
		if a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = $1`, accountID)); err != nil {
			return err
		}
		return setPassword(ctx, tx, a.ID, passwordHash)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}
