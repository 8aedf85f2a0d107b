package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// createKeyRequest is the body of POST /api/v1/api-keys (the OpenAPI
// operation createAPIKey).
type createKeyRequest struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	// ExpiresAt is optional; absent means the default lifetime, cut to
	// [account.MaxKeyLifetime] and to the expiry of the key making the
	// request. It is parsed by expires, so a bad time is refused naming
	// the field.
	ExpiresAt *string `json:"expiresAt"`
}

// expires returns ExpiresAt as a time, nil when absent. It returns
// [apperr.BadRequest] with details.field "expiresAt" when it is not an
// RFC 3339 time.
func (r *createKeyRequest) expires() (*time.Time, error) {
	if r.ExpiresAt == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, *r.ExpiresAt)
	if err != nil {
		return nil, apperr.New(apperr.BadRequest, "expiresAt: %q is not an RFC 3339 time such as 2027-01-31T00:00:00Z", *r.ExpiresAt).
			WithDetail("field", "expiresAt").Wrap(err)
	}
	return &t, nil
}

// Key states, as listings show them (docs/api.md, API keys).
const (
	KeyActive  = "active"
	KeyRevoked = "revoked"
	KeyExpired = "expired"
)

// KeyView is a key as the API shows it: masked, never the secret.
type KeyView struct {
	KeyID      string     `json:"keyId"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	Scopes     []string   `json:"scopes"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"createdAt"`
	ExpiresAt  time.Time  `json:"expiresAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// NewKeyView returns k as listings show it at time now.
func NewKeyView(k *account.Key, now time.Time) KeyView {
	v := KeyView{KeyID: k.ID, Name: k.Name, Prefix: account.Masked(k), Scopes: nonNil(k.Scopes),
		Status: KeyActive, CreatedAt: k.CreatedAt.UTC(), ExpiresAt: k.ExpiresAt.UTC(),
		LastUsedAt: utc(k.LastUsedAt), RevokedAt: utc(k.RevokedAt)}
	switch {
	case k.RevokedAt != nil:
		v.Status = KeyRevoked
	case !now.Before(k.ExpiresAt):
		v.Status = KeyExpired
	}
	return v
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// keyList is the body of GET /api/v1/api-keys.
type keyList struct {
	Keys []KeyView `json:"keys"`
	// NextCursor continues the listing (query cursor); null on the last
	// page.
	NextCursor *string `json:"nextCursor"`
	// GrantableScopes are the scopes the caller may give a key it
	// creates, so a form offers only those.
	GrantableScopes []string `json:"grantableScopes"`
}

// newKeyList lists a page of keys, newest first as the page holds them.
func newKeyList(page *account.KeyPage, grantable []string, now time.Time) keyList {
	out := keyList{Keys: make([]KeyView, 0, len(page.Keys)), GrantableScopes: grantable}
	for i := range page.Keys {
		out.Keys = append(out.Keys, NewKeyView(&page.Keys[i], now))
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	return out
}

// KeyCreated is the 201 body of POST /api/v1/api-keys, and what
// "captionqa key create --json" prints: the key and its one-time secret.
type KeyCreated struct {
	KeyView
	Secret string `json:"secret"`
}

// NewKeyCreated returns the creation body of k with its secret.
func NewKeyCreated(k *account.Key, secret string, now time.Time) KeyCreated {
	return KeyCreated{KeyView: NewKeyView(k, now), Secret: secret}
}

// Revocation is the body of DELETE /api/v1/api-keys/{keyId}.
type Revocation struct {
	KeyID     string    `json:"keyId"`
	Revoked   bool      `json:"revoked"`
	RevokedAt time.Time `json:"revokedAt"`
}

// NewRevocation returns the body of a revocation of k, which is revoked;
// the CLI's key revoke --json prints the same.
func NewRevocation(k *account.Key) Revocation {
	out := Revocation{KeyID: k.ID, Revoked: true}
	if k.RevokedAt != nil {
		out.RevokedAt = k.RevokedAt.UTC()
	}
	return out
}
