package account

import (
	"context"
	"errors"
	"time"
)

// ErrTooManyKeys is returned, wrapped, by [Store.CreateKeyWithin] when
// the account already holds its most active keys.
var ErrTooManyKeys = errors.New("account: too many active keys")

// KeyPosition is where a listing of keys resumes: after the key created
// at CreatedAt that the store inserted as Seq. Listings run newest first;
// Seq, the store's insertion order, breaks ties of CreatedAt, which holds
// whole seconds.
type KeyPosition struct {
	CreatedAt time.Time
	Seq       int64
}

// Store is the persistence [Service] needs. The SQLite adapter implements
// it; errors a caller may see come back as *apperr.Error, anything else is
// an internal failure. Times handed to the store are UTC, truncated to the
// second.
type Store interface {
	// CreateAccount inserts a. It returns [apperr.Conflict] if the email
	// is taken.
	CreateAccount(ctx context.Context, a *Account) error
	// EnsureFirstAccount inserts a and its key k (with the secret's hash)
	// in one transaction if no account exists yet, and returns a with
	// created true. Otherwise it inserts nothing and returns the oldest
	// account with created false.
	EnsureFirstAccount(ctx context.Context, a *Account, k *Key, hash []byte) (first *Account, created bool, err error)
	// UpdateAccount loads the account with this (normalised) email, lets
	// update change it and saves it, all in one write transaction. An
	// error from update is returned as is and nothing is saved. It
	// returns [apperr.NotFound] if no account has the email.
	UpdateAccount(ctx context.Context, email string, update func(*Account) error) (*Account, error)
	// AccountByID returns [apperr.NotFound] if no account has the id.
	AccountByID(ctx context.Context, id string) (*Account, error)
	// AccountByEmail returns [apperr.NotFound] if no account has the
	// (normalised) email.
	AccountByEmail(ctx context.Context, email string) (*Account, error)
	// ListAccounts returns every account, oldest first.
	ListAccounts(ctx context.Context) ([]Account, error)
	// Storage returns what the account keeps stored against its quota,
	// or [apperr.NotFound].
	Storage(ctx context.Context, accountID string) (Storage, error)
	// AccountBlobs returns the blob keys the account's rows name (its
	// artifacts and media) and the prefixes under which its upload
	// sessions' parts are stored.
	AccountBlobs(ctx context.Context, accountID string) (keys, prefixes []string, err error)
	// DeleteAccount deletes the account and every row it owns (ON DELETE
	// CASCADE), or returns [apperr.NotFound].
	DeleteAccount(ctx context.Context, accountID string) error

	// CreateKey inserts k with the SHA-256 hash of its secret. It returns
	// [apperr.NotFound] if k.AccountID names no account and
	// [apperr.Conflict] if the prefix is taken.
	CreateKey(ctx context.Context, k *Key, hash []byte) error
	// CreateKeyWithin inserts k as CreateKey does, unless the account
	// already holds maxActive keys that are neither revoked nor expired
	// at k.CreatedAt: then it inserts nothing and returns an error
	// wrapping [ErrTooManyKeys]. The count and the insert are one atomic
	// step, so concurrent callers (other processes included) never take
	// an account past maxActive.
	CreateKeyWithin(ctx context.Context, k *Key, hash []byte, maxActive int) error
	// KeyByPrefix returns the key with this prefix, its account and its
	// stored hash (one read: every API request authenticates), or
	// [apperr.NotFound].
	KeyByPrefix(ctx context.Context, prefix string) (*Key, *Account, []byte, error)
	// ListKeys returns up to limit of the account's keys, revoked and
	// expired ones included, newest first (by CreatedAt, then by the order
	// the store inserted them in), after pos when it is set. next is the
	// position of the last key returned when more keys follow it, else
	// nil.
	ListKeys(ctx context.Context, accountID string, pos *KeyPosition, limit int) (keys []Key, next *KeyPosition, err error)
	// ActiveKeys returns the account's keys neither revoked nor expired
	// at now, oldest first (insertion order within a second).
	ActiveKeys(ctx context.Context, accountID string, now time.Time) ([]Key, error)
	// KeyByID returns the account's key, or [apperr.NotFound] if it does
	// not exist or belongs to another account: one row, however many
	// keys the account has revoked.
	KeyByID(ctx context.Context, accountID, keyID string) (*Key, error)
	// RevokeKey marks the key revoked at at; revoking a revoked key keeps
	// its first time. It returns [apperr.NotFound] if the key does not
	// exist or belongs to another account.
	RevokeKey(ctx context.Context, accountID, keyID string, at time.Time) error
	// TouchKey records at as the key's last use.
	TouchKey(ctx context.Context, keyID string, at time.Time) error

	// SetPasswordHash stores the password hash (a PHC string) of the
	// account with this (normalised) email and revokes the account's
	// sessions, in one transaction. It returns [apperr.NotFound] if no
	// account has the email.
	SetPasswordHash(ctx context.Context, email, hash string) (*Account, error)
	// PasswordHash returns the account with this (normalised) email and
	// its password hash, "" when none is set. It returns
	// [apperr.NotFound] if no account has the email.
	PasswordHash(ctx context.Context, email string) (*Account, string, error)
	// CreateSession inserts s with the SHA-256 hash of its token. It
	// returns [apperr.NotFound] if s.AccountID names no account.
	CreateSession(ctx context.Context, s *Session, tokenHash []byte) error
	// SessionByTokenHash returns the session (revoked and expired ones
	// included) with its account's email, or [apperr.NotFound].
	SessionByTokenHash(ctx context.Context, tokenHash []byte) (*Session, error)
	// RevokeSession marks the session with this token hash revoked; an
	// unknown hash is not an error.
	RevokeSession(ctx context.Context, tokenHash []byte) error
	// DeleteSessionsBefore deletes the sessions that expired before at
	// (and revoked ones created before it).
	DeleteSessionsBefore(ctx context.Context, at time.Time) error

	// CreateSignInLink inserts link with the SHA-256 hash of its token
	// and, in the same transaction, deletes the account's earlier links
	// and every link expired at link.CreatedAt. It returns
	// [apperr.NotFound] if link.AccountID names no account.
	CreateSignInLink(ctx context.Context, link *SignInLink, tokenHash []byte) error
	// SignInLinkByTokenHash returns the link with this token hash,
	// expired ones included, or [apperr.NotFound].
	SignInLinkByTokenHash(ctx context.Context, tokenHash []byte) (*SignInLink, error)
	// UseSignInLink, in one transaction, deletes the link with this token
	// hash if it is live at at (at before its expiry), stores
	// passwordHash as its account's password hash, revokes the account's
	// sessions, and returns the account. If no such link is live it
	// changes nothing and returns [apperr.NotFound]: of concurrent
	// callers with one token, one at most succeeds.
	UseSignInLink(ctx context.Context, tokenHash []byte, at time.Time, passwordHash string) (*Account, error)
}
