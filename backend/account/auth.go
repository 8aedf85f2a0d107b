package account

import (
	"context"
	"crypto/subtle"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// lastUsedGranularity throttles LastUsedAt writes: a key used again within
// this span keeps its recorded time, sparing the single writer a write per
// request.
const lastUsedGranularity = time.Minute

// Authenticate resolves a Bearer secret to its account and key. It returns
// [apperr.Unauthorized] for a missing, malformed or unknown secret,
// [apperr.APIKeyRevoked] for a revoked key and [apperr.APIKeyExpired] once
// the clock reaches the key's ExpiresAt. A disabled account still
// authenticates: the caller checks [Account.APIDisabled]. LastUsedAt is
// recorded best effort, at most once a minute per key. Error messages
// never contain the secret.
func (s *Service) Authenticate(ctx context.Context, secret string) (*Principal, error) {
	if secret == "" {
		return nil, apperr.New(apperr.Unauthorized, "missing API key")
	}
	prefix, ok := secretPrefix(secret)
	if !ok {
		return nil, unknownKey()
	}
	k, a, hash, err := s.store.KeyByPrefix(ctx, prefix)
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, unknownKey()
		}
		return nil, fmt.Errorf("account: authenticate: %w", err)
	}
	if subtle.ConstantTimeCompare(hash, hashSecret(secret)) != 1 {
		return nil, unknownKey()
	}
	now := s.now().UTC()
	if k.RevokedAt != nil {
		return nil, apperr.New(apperr.APIKeyRevoked, "API key was revoked").WithDetail("keyId", k.ID)
	}
	if !now.Before(k.ExpiresAt) {
		return nil, apperr.New(apperr.APIKeyExpired, "API key expired at %s", k.ExpiresAt.Format(time.RFC3339)).
			WithDetail("keyId", k.ID).WithDetail("expiresAt", k.ExpiresAt.Format(time.RFC3339))
	}
	if k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= lastUsedGranularity {
		at := now.Truncate(time.Second)
		// Best effort: a failed write must not fail the request.
		if s.store.TouchKey(ctx, k.ID, at) == nil {
			k.LastUsedAt = &at
		}
	}
	return &Principal{Account: *a, Key: k}, nil
}

func unknownKey() *apperr.Error {
	return apperr.New(apperr.Unauthorized, "unknown API key")
}
