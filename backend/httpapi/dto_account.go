package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/quota"
)

// meResponse is the account profile (the OpenAPI operation getProfile).
type meResponse struct {
	UserKey  string   `json:"userKey"`
	Tier     string   `json:"tier"`
	Email    string   `json:"email"`
	Features []string `json:"features"`
	Quotas   struct {
		V1DailySuccessCap int `json:"v1DailySuccessCap"`
		RemainingToday    int `json:"remainingToday"`
	} `json:"quotas"`
}

func newMeResponse(a *account.Account, u quota.Usage) meResponse {
	m := meResponse{UserKey: a.ID, Tier: a.Tier, Email: a.Email, Features: nonNil(a.Features)}
	m.Quotas.V1DailySuccessCap = u.Cap
	m.Quotas.RemainingToday = u.Remaining
	return m
}

// usageResponse is the usage (the OpenAPI operation getUsage).
type usageResponse struct {
	Cap            int        `json:"cap"`
	UsedToday      int        `json:"usedToday"`
	RemainingToday int        `json:"remainingToday"`
	ResetsAt       time.Time  `json:"resetsAt"`
	Keys           []usageKey `json:"keys"`
	Storage        storageDTO `json:"storage"`
}

// storageDTO is the contract's StorageUsage.
type storageDTO struct {
	UsedBytes      int64 `json:"usedBytes"`
	QuotaBytes     int64 `json:"quotaBytes"`
	ArtifactsBytes int64 `json:"artifactsBytes"`
	MediaBytes     int64 `json:"mediaBytes"`
	RevisionsBytes int64 `json:"revisionsBytes"`
}

func newStorageDTO(s account.Storage) storageDTO {
	return storageDTO{UsedBytes: s.Used(), QuotaBytes: s.Quota, ArtifactsBytes: s.Artifacts, MediaBytes: s.Media,
		RevisionsBytes: s.Revisions}
}

// usageKey is a key as /usage lists it: masked, never the secret.
type usageKey struct {
	KeyID  string `json:"keyId"`
	Prefix string `json:"prefix"`
	Name   string `json:"name"`
}

func newUsageResponse(u quota.Usage, keys []account.Key, st account.Storage) usageResponse {
	out := usageResponse{Cap: u.Cap, UsedToday: u.Used, RemainingToday: u.Remaining,
		ResetsAt: u.ResetsAt.UTC(), Keys: []usageKey{}, Storage: newStorageDTO(st)}
	for i := range keys {
		k := &keys[i]
		out.Keys = append(out.Keys, usageKey{KeyID: k.ID, Prefix: account.Masked(k), Name: k.Name})
	}
	return out
}
