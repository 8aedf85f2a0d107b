package quota_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/quota"
)

func TestAllow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type call struct {
		advance   time.Duration
		wantRetry int // 0: allowed
	}
	tests := []struct {
		name  string
		opts  quota.Options
		calls []call
	}{
		{
			name:  "defaults: burst of 20 then one every 200 ms",
			calls: append(repeat(20, call{}), call{wantRetry: 1}, call{advance: 200 * time.Millisecond}, call{wantRetry: 1}),
		},
		{
			name:  "slow refill rounds the wait up",
			opts:  quota.Options{BurstPerSecond: 0.25, Burst: 2},
			calls: []call{{}, {}, {wantRetry: 4}, {advance: time.Second, wantRetry: 3}, {advance: 2500 * time.Millisecond, wantRetry: 1}, {advance: 500 * time.Millisecond}},
		},
		{
			name:  "refused calls take no token",
			opts:  quota.Options{BurstPerSecond: 1, Burst: 1},
			calls: []call{{}, {wantRetry: 1}, {wantRetry: 1}, {wantRetry: 1}, {advance: time.Second}, {wantRetry: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			tt.opts.Now = clock.Now
			svc := quota.NewService(nil, tt.opts)
			for i, c := range tt.calls {
				clock.Advance(c.advance)
				err := svc.Allow(ctx, "key-1")
				if c.wantRetry == 0 {
					if err != nil {
						t.Fatalf("call %d: %v, want allowed", i, err)
					}
					continue
				}
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.RateLimited {
					t.Fatalf("call %d: %v, want rate_limited", i, err)
				}
				if got := e.Details["retryAfterSeconds"]; got != c.wantRetry {
					t.Fatalf("call %d: retryAfterSeconds = %#v, want %d", i, got, c.wantRetry)
				}
			}
		})
	}
}

func repeat[T any](n int, v T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestAllowKeysAreSeparate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	svc := quota.NewService(nil, quota.Options{Now: clock.Now, BurstPerSecond: 1, Burst: 1})
	if err := svc.Allow(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Allow(ctx, "a"); apperr.KindOf(err) != apperr.RateLimited {
		t.Fatalf("second call for a: %v, want rate_limited", err)
	}
	if err := svc.Allow(ctx, "b"); err != nil {
		t.Fatalf("first call for b: %v, want allowed", err)
	}
}

func TestAllowPrunesIdleBuckets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	svc := quota.NewService(nil, quota.Options{Now: clock.Now, BurstPerSecond: 1, Burst: 1})
	for i := range 1000 {
		_ = svc.Allow(ctx, fmt.Sprintf("key-%d", i))
	}
	if got := svc.Buckets(); got != 1000 {
		t.Fatalf("buckets = %d, want 1000", got)
	}
	clock.Advance(30 * time.Second)
	_ = svc.Allow(ctx, "key-0") // busy again for a second
	clock.Advance(45 * time.Second)
	_ = svc.Allow(ctx, "fresh")
	if got := svc.Buckets(); got != 1 {
		t.Errorf("buckets after the idle span = %d, want 1 (fresh: every other one has refilled)", got)
	}
	// A pruned key starts over with a full bucket: pruning loses nothing.
	if err := svc.Allow(ctx, "key-999"); err != nil {
		t.Errorf("pruned key: %v, want allowed", err)
	}
	for range 10 {
		clock.Advance(2 * time.Minute)
		for i := range 100 {
			_ = svc.Allow(ctx, fmt.Sprintf("churn-%d", i))
		}
	}
	if got := svc.Buckets(); got > 100 {
		t.Errorf("buckets after churn = %d, want at most the 100 recent keys", got)
	}
}

// TestAdmitKey: the keys of one account share a bucket twice the size
// of a key's, so minting more keys buys no more requests.
func TestAdmitKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type call struct {
		account, key string
		advance      time.Duration
		wantRetry    int    // 0: allowed
		wantLimit    string // details.bucket of a refusal
	}
	tests := []struct {
		name  string
		opts  quota.Options
		calls []call
	}{
		{
			name: "defaults: one key bursts 20, the account 40",
			calls: append(append(append(repeat(20, call{account: "a", key: "k1"}),
				call{account: "a", key: "k1", wantRetry: 1}),
				repeat(20, call{account: "a", key: "k2"})...),
				call{account: "a", key: "k3", wantRetry: 1, wantLimit: "account"},
				call{account: "b", key: "k4"}),
		},
		{
			name: "many keys share the account's burst",
			opts: quota.Options{BurstPerSecond: 1, Burst: 2},
			calls: []call{
				{account: "a", key: "k1"}, {account: "a", key: "k2"}, {account: "a", key: "k3"}, {account: "a", key: "k4"},
				{account: "a", key: "k5", wantRetry: 1, wantLimit: "account"},
				{account: "a", key: "k6", wantRetry: 1, wantLimit: "account"},
				{account: "a", key: "k5", advance: time.Second / 2},
				{account: "a", key: "k6", wantRetry: 1, wantLimit: "account"},
			},
		},
		{
			name: "a refusal by the key takes nothing from the account",
			opts: quota.Options{BurstPerSecond: 0.5, Burst: 1, AccountBurstPerSecond: 0.5, AccountBurst: 2},
			calls: []call{
				{account: "a", key: "k1"},
				{account: "a", key: "k1", wantRetry: 2}, {account: "a", key: "k1", wantRetry: 2},
				{account: "a", key: "k2"},
				{account: "a", key: "k3", wantRetry: 2, wantLimit: "account"},
			},
		},
		{
			name: "a refusal by the account takes nothing from the key",
			opts: quota.Options{BurstPerSecond: 1, Burst: 2, AccountBurstPerSecond: 1, AccountBurst: 2},
			calls: []call{
				{account: "a", key: "k1"}, {account: "a", key: "k1"},
				{account: "a", key: "k2", wantRetry: 1, wantLimit: "account"},
				{account: "a", key: "k2", advance: 2 * time.Second},
				{account: "a", key: "k2"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			tt.opts.Now = clock.Now
			svc := quota.NewService(nil, tt.opts)
			for i, c := range tt.calls {
				clock.Advance(c.advance)
				_, err := svc.AdmitKey(ctx, c.account, c.key)
				if c.wantRetry == 0 {
					if err != nil {
						t.Fatalf("call %d (%s/%s): %v, want allowed", i, c.account, c.key, err)
					}
					continue
				}
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.RateLimited {
					t.Fatalf("call %d (%s/%s): %v, want rate_limited", i, c.account, c.key, err)
				}
				if got := e.Details["retryAfterSeconds"]; got != c.wantRetry {
					t.Errorf("call %d: retryAfterSeconds = %#v, want %d", i, got, c.wantRetry)
				}
				if got, _ := e.Details["bucket"].(string); got != c.wantLimit {
					t.Errorf("call %d: details.bucket = %q, want %q", i, got, c.wantLimit)
				}
			}
		})
	}
}

func TestAdmitKeyPrunesIdleAccounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	svc := quota.NewService(nil, quota.Options{Now: clock.Now, BurstPerSecond: 1, Burst: 1})
	for i := range 100 {
		_, _ = svc.AdmitKey(ctx, fmt.Sprintf("account-%d", i), fmt.Sprintf("key-%d", i))
	}
	if got := svc.AccountBuckets(); got != 100 {
		t.Fatalf("account buckets = %d, want 100", got)
	}
	clock.Advance(2 * time.Minute)
	_, _ = svc.AdmitKey(ctx, "fresh", "fresh-key")
	if got, keys := svc.AccountBuckets(), svc.Buckets(); got != 1 || keys != 1 {
		t.Errorf("after the idle span: %d account and %d key buckets, want 1 and 1", got, keys)
	}
}
