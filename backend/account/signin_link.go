package account

import (
	"context"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// SignInLinkTTL is how long a one-time sign-in link may be used after it
// is made.
const SignInLinkTTL = 15 * time.Minute

// OwnerLinkCommand is the command that prints a new sign-in link for the
// owner account; messages about dead links name it.
const OwnerLinkCommand = "captionqa owner link"

// linkFailedMessage is the one answer to a link that cannot be used,
// whatever was wrong with it, and says how to get a new one.
const linkFailedMessage = "this sign-in link is unknown, already used or expired; run '" + OwnerLinkCommand +
	"' on the server's machine for a new one (it is valid for 15 minutes)"

// SignInLink is a one-time sign-in link as the store keeps it: whose it
// is and how long it lives. Its token is handed out once by
// [Service.CreateSignInLink]; only the token's SHA-256 is stored.
type SignInLink struct {
	AccountID string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// CreateSignInLink makes a one-time sign-in link for the account with
// this id, usable for [SignInLinkTTL], and returns its token (32 random
// bytes, base64url: 43 characters) with the link. The account's earlier
// links stop working. It returns [apperr.NotFound] if no account has the
// id.
func (s *Service) CreateSignInLink(ctx context.Context, accountID string) (string, *SignInLink, error) {
	now := s.clock()
	token, hash := newSessionToken()
	link := &SignInLink{AccountID: accountID, CreatedAt: now, ExpiresAt: now.Add(SignInLinkTTL)}
	if err := s.store.CreateSignInLink(ctx, link, hash); err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return "", nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
		}
		return "", nil, fmt.Errorf("account: create sign-in link: %w", err)
	}
	return token, link, nil
}

// UseSignInLink uses the sign-in link of token once: it sets the
// account's dashboard password as [Service.SetPassword] does (signing
// the account out of its other sessions) and opens a session as
// [Service.Login] does, returning the session and its token. The link
// is consumed atomically, so of two uses of one token only one succeeds.
// It returns [apperr.Unauthorized], with one message that says how to
// get a new link, for a token that is unknown, used or expired, and
// [apperr.BadRequest] (details "field": "password") for a password
// [Service.SetPassword] would refuse; a refused password leaves the link
// usable.
func (s *Service) UseSignInLink(ctx context.Context, token, password string) (*Session, string, error) {
	fail := apperr.New(apperr.Unauthorized, linkFailedMessage)
	if len(token) != linkTokenLen {
		return nil, "", fail
	}
	hash := hashSecret(token)
	// A look first, so a dead token costs no argon2 work and the holder
	// of one learns it before choosing a password.
	link, err := s.store.SignInLinkByTokenHash(ctx, hash)
	switch {
	case apperr.KindOf(err) == apperr.NotFound:
		return nil, "", fail
	case err != nil:
		return nil, "", fmt.Errorf("account: sign-in link: %w", err)
	case !s.clock().Before(link.ExpiresAt):
		return nil, "", fail
	}
	if err := checkPassword(password); err != nil {
		return nil, "", err
	}
	phc := hashPassword(password)
	now := s.clock()
	a, err := s.store.UseSignInLink(ctx, hash, now, phc)
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, "", fail
		}
		return nil, "", fmt.Errorf("account: use sign-in link: %w", err)
	}
	return s.openSession(ctx, a, now)
}

// SignInWithLink is [Service.UseSignInLink] for a client at address,
// throttled by [Options.Throttle] per address: each dead token a client
// tries counts as a failure, so tokens cannot be guessed quickly. It
// returns [apperr.RateLimited] (details "retryAfterSeconds") while the
// address must wait, and otherwise what UseSignInLink returns.
func (s *Service) SignInWithLink(ctx context.Context, token, password, address string) (*Session, string, error) {
	if s.throttle == nil {
		return s.UseSignInLink(ctx, token, password)
	}
	key := "link:" + address
	if err := s.throttle.Check(key); err != nil {
		return nil, "", err
	}
	sess, tok, err := s.UseSignInLink(ctx, token, password)
	switch {
	case err == nil:
		s.throttle.Succeed(key)
	case apperr.KindOf(err) == apperr.Unauthorized:
		s.throttle.Fail(key)
	}
	return sess, tok, err
}

// Owner returns the owner account: the oldest one, which the first
// start created ([Service.EnsureOwner]). It returns [apperr.NotFound] if
// there is no account yet.
func (s *Service) Owner(ctx context.Context) (*Account, error) {
	list, err := s.store.ListAccounts(ctx)
	if err != nil {
		return nil, fmt.Errorf("account: owner: %w", err)
	}
	if len(list) == 0 {
		return nil, apperr.New(apperr.NotFound, "there is no owner account yet: start 'captionqa serve' once to create it")
	}
	return &list[0], nil
}

// linkTokenLen is the length of a link's token: 32 bytes in unpadded
// base64url.
const linkTokenLen = (sessionTokenBytes*8 + 5) / 6
