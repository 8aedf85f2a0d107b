package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
)

// sessionTokenBytes is the randomness of a session token and of its CSRF
// token; both travel base64url-encoded (43 characters).
const sessionTokenBytes = 32

// loginFailedMessage is the one answer to a failed sign-in, whatever
// failed, so the response does not tell which emails have accounts.
const loginFailedMessage = "invalid email or password"

// SetPassword sets the dashboard password of the account with this email,
// stored as an argon2id hash under a fresh random salt (see
// [hashPassword]), and signs the account out of every session. It returns
// [apperr.BadRequest] (details "field") for a bad email or a password
// shorter than [MinPasswordLen] characters or longer than
// [MaxPasswordLen] bytes, and [apperr.NotFound] if no account has the
// email.
func (s *Service) SetPassword(ctx context.Context, email, password string) (*Account, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if err := checkPassword(password); err != nil {
		return nil, err
	}
	a, err := s.store.SetPasswordHash(ctx, email, hashPassword(password))
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.New(apperr.NotFound, "no account with email %s", email).Wrap(err)
		}
		return nil, fmt.Errorf("account: set password: %w", err)
	}
	return a, nil
}

// Throttle slows down guessing: [Service.SignIn] checks a key before it
// tries a password, and reports the outcome. quota.Failures implements
// it.
type Throttle interface {
	// Check returns [apperr.RateLimited] while the key must wait.
	Check(key string) error
	// Fail and Succeed report an attempt's outcome.
	Fail(key string)
	Succeed(key string)
}

// SignIn is [Service.Login] for a client at address, throttled by
// [Options.Throttle] per account and address: failures from one address
// slow down attempts on that account from that address only, so neither
// a guesser elsewhere nor one at the same address guessing other accounts
// holds the owner up, and a correct password waits at most the
// throttle's longest pause. It returns [apperr.RateLimited] (details
// "retryAfterSeconds") while the pair must wait, whatever the password,
// and otherwise what Login returns.
func (s *Service) SignIn(ctx context.Context, email, password, address string) (*Session, string, error) {
	if s.throttle == nil {
		return s.Login(ctx, email, password)
	}
	key := signInKey(email, address)
	if err := s.throttle.Check(key); err != nil {
		return nil, "", err
	}
	sess, token, err := s.Login(ctx, email, password)
	switch {
	case err == nil:
		s.throttle.Succeed(key)
	case apperr.KindOf(err) == apperr.Unauthorized:
		s.throttle.Fail(key)
	}
	return sess, token, err
}

// signInKey names the throttle's key of an attempt: the email as the
// store would look it up (the raw text when it is no valid address, which
// no account has) and the address.
func signInKey(email, address string) string {
	if norm, err := NormalizeEmail(email); err == nil {
		email = norm
	}
	return "login:" + email + "|" + address
}

// Login checks email and password and opens a dashboard session lasting
// [Options.SessionTTL]. It returns the session and its token, which the
// caller hands to the browser (only its SHA-256 is stored). An unknown
// email, an account without a password and a wrong password all return
// [apperr.Unauthorized] with the same message, and cost the same argon2id
// work. Expired sessions are pruned on the way, best effort.
func (s *Service) Login(ctx context.Context, email, password string) (*Session, string, error) {
	fail := apperr.New(apperr.Unauthorized, loginFailedMessage)
	a, hash := (*Account)(nil), ""
	if norm, err := NormalizeEmail(email); err == nil && len(password) <= MaxPasswordLen {
		a, hash, err = s.store.PasswordHash(ctx, norm)
		if err != nil && apperr.KindOf(err) != apperr.NotFound {
			return nil, "", fmt.Errorf("account: login: %w", err)
		}
	}
	if a == nil || hash == "" {
		_, _ = verifyPassword(dummyHash, password)
		return nil, "", fail
	}
	ok, err := verifyPassword(hash, password)
	if err != nil {
		return nil, "", fmt.Errorf("account: login %s: %w", a.ID, err)
	}
	if !ok {
		return nil, "", fail
	}
	return s.openSession(ctx, a, s.clock())
}

// openSession opens a dashboard session of a, lasting
// [Options.SessionTTL] from now, and returns it with its token. Expired
// sessions are pruned on the way, best effort.
func (s *Service) openSession(ctx context.Context, a *Account, now time.Time) (*Session, string, error) {
	_ = s.store.DeleteSessionsBefore(ctx, now) // housekeeping must not fail a sign-in
	token, tokenHash := newSessionToken()
	csrf, _ := newSessionToken()
	sess := &Session{ID: uuid.NewString(), AccountID: a.ID, Email: a.Email, CSRFToken: csrf,
		CreatedAt: now, ExpiresAt: now.Add(s.sessTTL)}
	if err := s.store.CreateSession(ctx, sess, tokenHash); err != nil {
		return nil, "", fmt.Errorf("account: open session of %s: %w", a.ID, err)
	}
	return sess, token, nil
}

// SessionPrincipal resolves a session token to its account, as a
// [Principal] with a nil Key (a session carries every scope of its
// account; entitlements still apply), and returns the session's CSRF
// token. It returns [apperr.Unauthorized] for an empty, unknown, revoked
// or expired token. The token never appears in an error.
func (s *Service) SessionPrincipal(ctx context.Context, token string) (*Principal, string, error) {
	sess, err := s.session(ctx, token)
	if err != nil {
		return nil, "", err
	}
	a, err := s.store.AccountByID(ctx, sess.AccountID)
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, "", noSession()
		}
		return nil, "", fmt.Errorf("account: session principal: %w", err)
	}
	return &Principal{Account: *a}, sess.CSRFToken, nil
}

// session returns the live session of token, or [apperr.Unauthorized].
func (s *Service) session(ctx context.Context, token string) (*Session, error) {
	if token == "" || len(token) > 128 {
		return nil, noSession()
	}
	sess, err := s.store.SessionByTokenHash(ctx, hashSecret(token))
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, noSession()
		}
		return nil, fmt.Errorf("account: session: %w", err)
	}
	if sess.Revoked || !s.now().UTC().Before(sess.ExpiresAt) {
		return nil, noSession()
	}
	return sess, nil
}

// Logout revokes the session of token. An unknown, revoked or expired
// token is not an error: signing out twice is fine.
func (s *Service) Logout(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return nil
	}
	if err := s.store.RevokeSession(ctx, hashSecret(token)); err != nil {
		return fmt.Errorf("account: logout: %w", err)
	}
	return nil
}

// newSessionToken returns a random token and its SHA-256.
func newSessionToken() (string, []byte) {
	b := make([]byte, sessionTokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	token := base64.RawURLEncoding.EncodeToString(b)
	return token, hashSecret(token)
}

func noSession() *apperr.Error {
	return apperr.New(apperr.Unauthorized, "not signed in, or the session expired")
}
