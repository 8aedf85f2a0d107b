// Package storetest is the store conformance suite: one set of scenarios
// that every adapter of [store.DB] (sqlite, postgres) must pass, written
// against the interfaces only, so that the server behaves the same
// whichever store the --store flag picks. Each adapter's tests call [Run]
// with a function that opens a fresh, empty store. Only tests import it.
//
// Expectations come from the domain interfaces' doc comments and from
// what the SQLite store, the reference, does; errors are compared by
// [apperr.KindOf] or [errors.Is], never by text.
package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
)

// Opener opens a fresh, empty, migrated store for t whose clock is now,
// and closes it when t ends (the suite never calls Close).
type Opener func(t *testing.T, now func() time.Time) store.DB

// Run runs every scenario as a parallel subtest of t, each on a store of
// its own from open.
func Run(t *testing.T, open Opener) {
	groups := []struct {
		name      string
		scenarios []scenario
	}{
		{"accounts", accountScenarios()},
		{"keys", keyScenarios()},
		{"sessions", sessionScenarios()},
		{"signin_links", signInLinkScenarios()},
		{"quotas", quotaScenarios()},
		{"buckets", bucketScenarios()},
		{"shared_secret", secretScenarios()},
		{"projects", projectScenarios()},
		{"templates", templateScenarios()},
		{"user_presets", userPresetScenarios()},
		{"uploads", uploadScenarios()},
		{"exports", exportScenarios()},
		{"storage", storageScenarios()},
		{"videos", videoScenarios()},
		{"webhooks", webhookScenarios()},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			for _, sc := range g.scenarios {
				t.Run(sc.name, func(t *testing.T) {
					t.Parallel()
					clk := &clock{now: t0}
					sc.run(&env{t: t, ctx: t.Context(), db: open(t, clk.Now), clock: clk})
				})
			}
		})
	}
}

// scenario is one subtest: a store's behaviour, end to end.
type scenario struct {
	name string
	run  func(e *env)
}

// env is one scenario's store, its clock and the fixtures built on it.
type env struct {
	t     *testing.T
	ctx   context.Context
	db    store.DB
	clock *clock
	q     store.Queue
}

// queue opens the store's job queue, not started: its stores insert jobs
// that no worker runs.
func (e *env) queue() store.Queue {
	e.t.Helper()
	if e.q == nil {
		q, err := e.db.OpenQueue(e.ctx, jobs.QueueOptions{})
		if err != nil {
			e.t.Fatalf("open queue: %v", err)
		}
		e.q = q
	}
	return e.q
}

// now is the store's clock reading as the domain hands times to stores:
// UTC, whole seconds.
func (e *env) now() time.Time { return e.clock.Now().UTC().Truncate(time.Second) }

// t0 starts every scenario's clock (read-only): far from the machine's
// time, so a store that reads the wall clock or the database's now()
// instead of the injected one shows.
var t0 = time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)

// clock is a scenario's injected time; safe for concurrent use.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
