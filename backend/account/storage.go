package account

import "github.com/captionqa/captionqa/backend/apperr"

// Storage quotas by tier: the bytes an account may keep stored
// (artifacts, media, timeline revisions; docs/api.md, Storage).
const (
	FreePlusStorageQuota int64 = 1 << 30 // 1 GiB
	ProStorageQuota      int64 = 5 << 30 // 5 GiB
)

// StorageQuotaOf is the quota of an account of tier with override
// (StorageQuota, 0 for the tier's).
func StorageQuotaOf(tier string, override int64) int64 {
	switch {
	case override > 0:
		return override
	case tier == TierPro:
		return ProStorageQuota
	}
	return FreePlusStorageQuota
}

// StorageLimit is the account's storage quota in bytes.
func (a *Account) StorageLimit() int64 { return StorageQuotaOf(a.Tier, a.StorageQuota) }

// Storage is what an account keeps stored, in bytes, against its quota.
type Storage struct {
	// Artifacts are export and video job files, Media uploaded media
	// (open upload sessions count what they declared), Revisions the
	// timeline revisions kept.
	Artifacts, Media, Revisions int64
	Quota                       int64
}

// Used is the account's stored bytes.
func (s Storage) Used() int64 { return s.Artifacts + s.Media + s.Revisions }

// Fits reports whether adding bytes keeps the account within its quota.
func (s Storage) Fits(adding int64) bool { return s.Used()+adding <= s.Quota }

// StorageFull is the refusal of a write that would take the account past
// its quota: 413 payload_too_large with details.reason "storage_quota",
// usedBytes, quotaBytes and neededBytes, so a client can tell what to
// delete (docs/api.md, Storage).
func StorageFull(s Storage, adding int64) *apperr.Error {
	return apperr.New(apperr.InputTooLarge,
		"the account stores %d of its %d bytes; %d more do not fit: delete exports, media or projects first",
		s.Used(), s.Quota, adding).
		WithDetail("reason", "storage_quota").WithDetail("usedBytes", s.Used()).
		WithDetail("quotaBytes", s.Quota).WithDetail("neededBytes", adding)
}
