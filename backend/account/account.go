// Package account holds accounts, their tier and entitlements, and their
// API keys: minting (the secret is shown once, only a hash is kept),
// masking, scopes, expiry, revocation, and authenticating a Bearer secret;
// dashboard passwords (argon2id) and cookie sessions with their CSRF
// token; and one-time sign-in links that set a password and open a
// session.
// It knows nothing of HTTP or SQL; it declares the [Store] it needs.
package account

import (
	"slices"
	"time"
)

// Tiers (see docs/api.md, Limits and quotas).
const (
	TierFreePlus = "free_plus"
	TierPro      = "pro"
)

// Entitlements, as /me lists them in features (see docs/api.md, Scopes
// and entitlements).
const (
	FeatureAPIV1           = "API_V1"
	FeatureAPIKeys         = "API_KEYS"
	FeatureProWorkspace    = "PRO_WORKSPACE"
	FeatureAdvancedExports = "ADVANCED_EXPORTS"
	FeatureCaptionDrift    = "caption_drift"
	FeatureCaptionExtract  = "caption_extract"
	FeatureCaptionRender   = "caption_render"
	// FeatureExplainAI is the entitlement ExplainAI needs, with
	// FeatureProWorkspace.
	FeatureExplainAI = "explain_ai"
)

// Features lists every entitlement.
func Features() []string {
	return []string{FeatureAPIV1, FeatureAPIKeys, FeatureProWorkspace, FeatureAdvancedExports,
		FeatureCaptionDrift, FeatureCaptionExtract, FeatureCaptionRender, FeatureExplainAI}
}

// Scopes of API keys (see docs/api.md, Scopes and entitlements).
const (
	ScopeProcessWrite  = "process:write"
	ScopeAccountRead   = "account:read"
	ScopeUsageRead     = "usage:read"
	ScopeKeysRead      = "keys:read"
	ScopeKeysWrite     = "keys:write"
	ScopeWebhooksRead  = "webhooks:read"
	ScopeWebhooksWrite = "webhooks:write"
	ScopeExportsRead   = "exports:read"
	ScopeExportsWrite  = "exports:write"
)

// Scopes lists every scope.
func Scopes() []string {
	return []string{ScopeProcessWrite, ScopeAccountRead, ScopeUsageRead, ScopeKeysRead, ScopeKeysWrite,
		ScopeWebhooksRead, ScopeWebhooksWrite, ScopeExportsRead, ScopeExportsWrite}
}

// Daily caps of successful v1 runs (see docs/api.md, Limits and quotas).
const (
	FreePlusDailyCap = 10
	MaxProDailyCap   = 9999
)

// Account is one customer of the v1 API.
type Account struct {
	ID    string // uuid
	Email string
	Tier  string
	// Features are the account's entitlements, sorted.
	Features []string
	// APIDisabled turns the v1 API off for the account (403 forbidden).
	APIDisabled bool
	// DailyCap is the number of successful v1 runs per UTC day: 10 for
	// free_plus, configurable up to 9,999 for pro.
	DailyCap int
	// StorageQuota overrides the tier's storage quota in bytes (the admin
	// CLI's --storage-quota); 0 keeps the tier's ([Account.StorageLimit]).
	StorageQuota int64
	CreatedAt    time.Time
}

// Has reports whether the account holds the entitlement.
func (a *Account) Has(feature string) bool { return slices.Contains(a.Features, feature) }

// Key is an API key. The secret itself is never stored.
type Key struct {
	ID        string // keyId, a uuid
	AccountID string
	Name      string
	// Prefix is the visible start of the secret, used to look the key up
	// and shown masked in listings.
	Prefix string
	// Scopes granted at creation; empty for a legacy key (see HasScope).
	Scopes     []string
	CreatedAt  time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time
	LastUsedAt *time.Time
}

// Active reports whether the key is neither revoked nor expired at now.
func (k *Key) Active(now time.Time) bool {
	return k.RevokedAt == nil && now.Before(k.ExpiresAt)
}

// HasScope reports whether the key carries scope. A legacy key, stored
// with no recorded scopes, carries process:write only (see docs/api.md,
// Authentication).
func (k *Key) HasScope(scope string) bool {
	if len(k.Scopes) == 0 {
		return scope == ScopeProcessWrite
	}
	return slices.Contains(k.Scopes, scope)
}

// Principal is who a request acts for: the account and, for Bearer
// requests, the key used.
type Principal struct {
	Account Account
	// Key is nil for a dashboard session (cookie), which carries every
	// scope of its account.
	Key *Key
}

// Session is a dashboard sign-in: the browser holds its token in a
// cookie, the store only the token's SHA-256. Mutating requests made with
// it must carry CSRFToken: the dashboard manages keys through the
// session; integrations use Bearer keys only (see docs/security.md,
// Sessions).
type Session struct {
	ID        string // uuid
	AccountID string
	// Email is the account's, for display.
	Email string
	// CSRFToken must accompany every mutating request of the session.
	CSRFToken string
	CreatedAt time.Time
	ExpiresAt time.Time
	Revoked   bool
}

// NewAccount is the input of Service.CreateAccount.
type NewAccount struct {
	Email    string
	Tier     string
	Features []string // nil: the tier's defaults
	// AddFeatures are added to Features (or the tier's defaults), and
	// DropFeatures then taken out: the admin command's --features and
	// --without.
	AddFeatures, DropFeatures []string
	DailyCap                  int // 0: the tier's default
}

// AccountUpdate is the input of Service.UpdateAccount; nil fields keep
// their value.
type AccountUpdate struct {
	Tier        *string
	Features    *[]string
	DailyCap    *int
	APIDisabled *bool
	// StorageQuota sets the storage quota override in bytes; 0 returns
	// to the tier's.
	StorageQuota *int64
}

// NewKey is the input of Service.CreateKey.
type NewKey struct {
	Name   string
	Scopes []string
	// ExpiresAt nil means the default lifetime from now, cut to what
	// [MaxKeyLifetime] and Parent allow.
	ExpiresAt *time.Time
	// Parent is the key that asks for this one, when a key mints a key
	// (POST /api/v1/api-keys with a Bearer key). The new key may carry
	// only scopes Parent has, so keys:write alone is no way to every
	// scope, and may not outlive Parent, so a key cannot extend its own
	// life by minting a successor. Nil when the owner acts directly (a
	// dashboard session, the desktop window, the CLI).
	Parent *Key
}
