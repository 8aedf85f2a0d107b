// Package store declares what the server needs of a store adapter: the
// domain stores, the job queue, readiness and the keys every node must
// share. Two adapters implement it, sqlite (one file, the embedded
// default) and postgres (several nodes); the composition root picks one
// from the --store flag and nothing else knows which is in use. The
// conformance suite in store/storetest runs against both.
package store

import (
	"context"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/userpreset"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/webhook"
)

// DB is an open store. Methods are safe for concurrent use; errors are
// the domain's (apperr kinds) as each interface documents, and
// [apperr.Unavailable] when the database cannot be reached or is busy.
type DB interface {
	Accounts() account.Store
	Quotas() quota.Store
	// Buckets keeps the burst limits' token buckets: in process memory
	// for the single-node SQLite store, in the database for Postgres so
	// that every node draws from the same bucket.
	Buckets() quota.Buckets
	// Admission admits a request: its burst tokens and its pools' counts,
	// in one round trip where the database allows.
	Admission() quota.Admission
	Projects() ProjectStore
	Templates() exporttpl.Store
	// UserPresets keeps accounts' own presets.
	UserPresets() userpreset.Store
	Uploads() media.Store
	// KnownBlobs reports which of keys an artifact row names (the
	// orphan-blob sweeper's lookup).
	KnownBlobs(ctx context.Context, keys []string) (map[string]bool, error)
	// SharedSecret returns the secret every node of a cluster derives its
	// signing keys from, creating it on first use, or ok false when the
	// store keeps none (SQLite: the data folder's install.key holds it).
	SharedSecret(ctx context.Context) (secret []byte, ok bool, err error)
	// OpenQueue migrates the queue's tables and returns the job queue,
	// not started.
	OpenQueue(ctx context.Context, opts jobs.QueueOptions) (Queue, error)
	// Ready reports whether the store can take a write now.
	Ready(ctx context.Context) error
	Close() error
}

// ProjectStore keeps projects and their revisions: the project service's
// store and the video jobs' timelines.
type ProjectStore interface {
	project.Store
	video.Timelines
}

// Queue is the job queue on a store, and the stores whose writes enqueue
// jobs in the same transaction (the transactional outbox).
type Queue interface {
	// Start starts working jobs (a queue without workers only inserts).
	Start(ctx context.Context) error
	// Stop stops fetching jobs and waits for the running ones, canceling
	// them when ctx ends first.
	Stop(ctx context.Context) error
	Exports() project.ExportStore
	Videos() video.Store
	Webhooks() webhook.Store
}
