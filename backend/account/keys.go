package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/google/uuid"
)

// SecretTag opens every API key secret, so that a key pasted where it
// does not belong (a query string, a log) can be recognised.
//
// Secret layout: SecretTag + 12 lowercase hex characters (the lookup
// prefix) + "_" + 43 base64url characters (32 random bytes).
const (
	SecretTag     = "cqa_"
	prefixHexLen  = 12
	bodyBytes     = 32
	prefixLen     = len(SecretTag) + prefixHexLen
	secretLen     = prefixLen + 1 + 43
	maskShownHex  = 6
	maxKeyNameLen = 100
	// mintAttempts bounds retries when a random prefix collides.
	mintAttempts = 3
)

// CreateKey mints a key for the account and returns it with its secret,
// which is shown this once: only its SHA-256 is stored. Scopes are sorted
// and deduplicated; no scopes make a legacy key, which carries
// process:write only (see [Key.HasScope]). A nil ExpiresAt means
// [Options.DefaultKeyTTL] from now, cut to [MaxKeyLifetime] and to the
// expiry of in.Parent. It returns:
//   - [apperr.BadRequest] for a name [name.Check] refuses, an unknown
//     scope, or an expiry not in the future, more than [MaxKeyLifetime]
//     away, or after in.Parent's expiry (details "field", "value" for a
//     scope, "reason" and "notAfter" for an expiry);
//   - [apperr.Forbidden] with details "missingScope" when in.Parent lacks
//     a scope the new key asks for;
//   - [apperr.Conflict] with details "reason" "key_limit" and "limit"
//     when the account already holds [MaxActiveKeys] active keys;
//   - [apperr.NotFound] if the account does not exist.
func (s *Service) CreateKey(ctx context.Context, accountID string, in NewKey) (*Key, string, error) {
	keyName, err := name.Check("name", in.Name, maxKeyNameLen)
	if err != nil {
		return nil, "", err
	}
	scopes, err := normalizeScopes(in.Scopes)
	if err != nil {
		return nil, "", err
	}
	if len(scopes) == 0 {
		// A key stored without scopes is a legacy key, limited to
		// process:write; a new key names what it may do.
		return nil, "", badField("scopes", "a key needs at least one scope")
	}
	if in.Parent != nil {
		for _, sc := range scopes {
			if !in.Parent.HasScope(sc) {
				return nil, "", apperr.New(apperr.Forbidden, "a key cannot grant the scope %s, which it lacks", sc).
					WithDetail("missingScope", sc)
			}
		}
	}
	now := s.clock()
	expires, err := s.keyExpiry(now, in)
	if err != nil {
		return nil, "", err
	}
	for attempt := 1; ; attempt++ {
		k, secret, hash, err := mintKey(accountID, keyName, scopes, now, expires)
		if err != nil {
			return nil, "", err
		}
		err = s.store.CreateKeyWithin(ctx, k, hash, MaxActiveKeys)
		switch {
		case err == nil:
			return k, secret, nil
		case errors.Is(err, ErrTooManyKeys):
			return nil, "", apperr.New(apperr.Conflict,
				"the account already holds %d active API keys, the most it may; revoke one before creating another", MaxActiveKeys).
				WithDetail("reason", "key_limit").WithDetail("limit", MaxActiveKeys).Wrap(err)
		case apperr.KindOf(err) == apperr.NotFound:
			return nil, "", apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case apperr.KindOf(err) == apperr.Conflict && attempt < mintAttempts:
			continue // a random prefix collided: draw another
		default:
			return nil, "", fmt.Errorf("account: create key: %w", err)
		}
	}
}

// keyExpiry returns when a key created at now expires: in.ExpiresAt, or
// the default lifetime cut to the latest expiry allowed, which is
// [MaxKeyLifetime] from now or, if earlier, in.Parent's expiry.
func (s *Service) keyExpiry(now time.Time, in NewKey) (time.Time, error) {
	notAfter, reason := now.Add(MaxKeyLifetime), "max_lifetime"
	if in.Parent != nil && in.Parent.ExpiresAt.Before(notAfter) {
		notAfter, reason = in.Parent.ExpiresAt.UTC(), "parent_expiry"
	}
	expires := now.Add(s.keyTTL)
	if expires.After(notAfter) {
		expires = notAfter
	}
	if in.ExpiresAt != nil {
		expires = in.ExpiresAt.UTC().Truncate(time.Second)
	}
	if !expires.After(now) {
		// Only an explicit time gets here: a parent that authenticated
		// has not expired.
		return time.Time{}, badField("expiresAt", "expiresAt must be in the future").WithDetail("reason", "past")
	}
	if !expires.After(notAfter) {
		return expires, nil
	}
	limit := notAfter.Format(time.RFC3339)
	e := badField("expiresAt", "expiresAt may be at most %d days after the key's creation: %s at the latest",
		int(MaxKeyLifetime/(24*time.Hour)), limit)
	if reason == "parent_expiry" {
		e = badField("expiresAt", "a key cannot outlive the key that creates it: expiresAt may be %s at the latest, when that key expires", limit)
	}
	return time.Time{}, e.WithDetail("reason", reason).WithDetail("notAfter", limit)
}

// KeyPage is one page of [Service.ListKeys].
type KeyPage struct {
	Keys []Key
	// NextCursor continues the listing; "" on the last page.
	NextCursor string
}

// ListKeys returns a page of the account's keys, revoked and expired
// ones included, newest first. limit is 1 to [MaxKeyListLimit]; cursor ""
// starts at the newest, otherwise it is a [KeyPage.NextCursor] of an
// earlier call. Keys created or revoked between pages never make a page
// repeat or skip another key. An unknown account has no keys. It returns
// [apperr.BadRequest] (details "field" "limit" or "cursor") for a limit
// out of range or a cursor it did not issue.
func (s *Service) ListKeys(ctx context.Context, accountID string, limit int, cursor string) (*KeyPage, error) {
	if limit < 1 || limit > MaxKeyListLimit {
		return nil, apperr.New(apperr.BadRequest, "limit must be 1 to %d", MaxKeyListLimit).
			WithDetail("field", "limit").WithDetail("reason", "out_of_range")
	}
	var pos *KeyPosition
	if cursor != "" {
		p, err := decodeKeyCursor(cursor)
		if err != nil {
			return nil, apperr.New(apperr.BadRequest, "cursor is not one this server issued; start again without it").
				WithDetail("field", "cursor").WithDetail("reason", "invalid_cursor").Wrap(err)
		}
		pos = p
	}
	keys, next, err := s.store.ListKeys(ctx, accountID, pos, limit)
	if err != nil {
		return nil, fmt.Errorf("account: list keys: %w", err)
	}
	page := &KeyPage{Keys: keys}
	if next != nil {
		page.NextCursor = encodeKeyCursor(*next)
	}
	return page, nil
}

// ActiveKeys returns the account's keys that are neither revoked nor
// expired, oldest first: at most [MaxActiveKeys] for keys made by
// [Service.CreateKey], however many the account has revoked or let
// expire. An unknown account has none.
func (s *Service) ActiveKeys(ctx context.Context, accountID string) ([]Key, error) {
	keys, err := s.store.ActiveKeys(ctx, accountID, s.clock())
	if err != nil {
		return nil, fmt.Errorf("account: active keys: %w", err)
	}
	return keys, nil
}

// keyCursorTag opens every key cursor, so a future layout can be told
// from this one.
const keyCursorTag = "k1"

// encodeKeyCursor writes pos as opaque text: base64url of
// "k1.<unix seconds>.<seq>".
func encodeKeyCursor(pos KeyPosition) string {
	raw := keyCursorTag + "." + strconv.FormatInt(pos.CreatedAt.Unix(), 10) + "." + strconv.FormatInt(pos.Seq, 10)
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeKeyCursor(s string) (*KeyPosition, error) {
	if len(s) > 128 {
		return nil, fmt.Errorf("account: key cursor too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("account: key cursor: %w", err)
	}
	parts := strings.Split(string(b), ".")
	if len(parts) != 3 || parts[0] != keyCursorTag {
		return nil, fmt.Errorf("account: key cursor: bad layout")
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("account: key cursor: %w", err)
	}
	seq, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || seq < 0 {
		return nil, fmt.Errorf("account: key cursor: bad seq %q", parts[2])
	}
	return &KeyPosition{CreatedAt: time.Unix(sec, 0).UTC(), Seq: seq}, nil
}

// RevokeKey revokes the key now and returns it as stored, with the time
// of its revocation; later use fails with [apperr.APIKeyRevoked]. Revoking
// a revoked key succeeds and keeps the first revocation time. It returns
// [apperr.NotFound] if the key is unknown or belongs to another account.
func (s *Service) RevokeKey(ctx context.Context, accountID, keyID string) (*Key, error) {
	if err := s.store.RevokeKey(ctx, accountID, keyID, s.clock()); err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.New(apperr.NotFound, "api key not found").WithDetail("keyId", keyID).Wrap(err)
		}
		return nil, fmt.Errorf("account: revoke key %s: %w", keyID, err)
	}
	k, err := s.store.KeyByID(ctx, accountID, keyID)
	if err != nil {
		return nil, fmt.Errorf("account: revoked key %s: %w", keyID, err)
	}
	return k, nil
}

// Masked returns the key's display form: the tag and the first six
// characters of its prefix followed by an ellipsis, e.g. "cqa_3f9a2b…".
func Masked(k *Key) string {
	p := k.Prefix
	if len(p) > len(SecretTag)+maskShownHex {
		p = p[:len(SecretTag)+maskShownHex]
	}
	return p + "…"
}

// mintKey draws a new secret and returns the key, the secret and its hash.
func mintKey(accountID, name string, scopes []string, now, expires time.Time) (*Key, string, []byte, error) {
	var raw [prefixHexLen/2 + bodyBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, "", nil, fmt.Errorf("account: mint key: %w", err)
	}
	prefix := SecretTag + hex.EncodeToString(raw[:prefixHexLen/2])
	secret := prefix + "_" + base64.RawURLEncoding.EncodeToString(raw[prefixHexLen/2:])
	k := &Key{ID: uuid.NewString(), AccountID: accountID, Name: name, Prefix: prefix,
		Scopes: scopes, CreatedAt: now, ExpiresAt: expires}
	return k, secret, hashSecret(secret), nil
}

func hashSecret(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

// secretPrefix returns the lookup prefix of a well-formed secret.
func secretPrefix(secret string) (string, bool) {
	if len(secret) != secretLen || !strings.HasPrefix(secret, SecretTag) || secret[prefixLen] != '_' {
		return "", false
	}
	for _, c := range []byte(secret[len(SecretTag):prefixLen]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	for _, c := range []byte(secret[prefixLen+1:]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return "", false
		}
	}
	return secret[:prefixLen], true
}
