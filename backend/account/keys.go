package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/apperr"
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
// [Options.DefaultKeyTTL] from now. It returns [apperr.BadRequest] for an
// empty or over-long name, an unknown scope or an expiry not in the future
// (details "field", and "value" for a scope), and [apperr.NotFound] if the
// account does not exist.
func (s *Service) CreateKey(ctx context.Context, accountID string, in NewKey) (*Key, string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return nil, "", badField("name", "key name is required")
	}
	if utf8.RuneCountInString(name) > maxKeyNameLen {
		return nil, "", badField("name", "key name is longer than %d characters", maxKeyNameLen)
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
	now := s.clock()
	expires := now.Add(s.keyTTL)
	if in.ExpiresAt != nil {
		expires = in.ExpiresAt.UTC().Truncate(time.Second)
		if !expires.After(now) {
			return nil, "", badField("expiresAt", "expiresAt must be in the future")
		}
	}
	for attempt := 1; ; attempt++ {
		k, secret, hash, err := mintKey(accountID, name, scopes, now, expires)
		if err != nil {
			return nil, "", err
		}
		err = s.store.CreateKey(ctx, k, hash)
		switch {
		case err == nil:
			return k, secret, nil
		case apperr.KindOf(err) == apperr.NotFound:
			return nil, "", apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case apperr.KindOf(err) == apperr.Conflict && attempt < mintAttempts:
			continue // a random prefix collided: draw another
		default:
			return nil, "", fmt.Errorf("account: create key: %w", err)
		}
	}
}

// ListKeys returns the account's keys, revoked and expired ones included,
// oldest first. An unknown account has no keys.
func (s *Service) ListKeys(ctx context.Context, accountID string) ([]Key, error) {
	keys, err := s.store.ListKeys(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("account: list keys: %w", err)
	}
	return keys, nil
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
	keys, err := s.ListKeys(ctx, accountID)
	if err != nil {
		return nil, err
	}
	for i := range keys {
		if keys[i].ID == keyID {
			return &keys[i], nil
		}
	}
	return nil, fmt.Errorf("account: revoked key %s is not listed", keyID)
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
