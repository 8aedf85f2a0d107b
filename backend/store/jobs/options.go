package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/captionqa/captionqa/backend/blob"
)

// Defaults of [QueueOptions] and [SweepOptions].
const (
	DefaultMaxWorkers   = 4
	DefaultPollInterval = time.Second
	DefaultSweepEvery   = 10 * time.Minute
	DefaultSweepOlder   = time.Hour
	DefaultSweepPrefix  = "artifacts/"
	// UpkeepTimeout bounds one run of a periodic task or sweep.
	UpkeepTimeout = 10 * time.Minute
	// RescueAfter is when a job still running is taken for the job of a
	// process that died (kill -9, power loss) and run again: above the
	// longest job timeout (the sweep's), well below River's default hour,
	// so a webhook delivery interrupted by a crash goes out soon after.
	// Video jobs and webhook deliveries have rescuers of their own that
	// act sooner (heartbeats, attempt timeouts).
	RescueAfter = 15 * time.Minute
	// DefaultQueue is River's default queue's name.
	DefaultQueue = river.QueueDefault
	// WebhookQueue is the queue of webhook deliveries, apart from the
	// default queue's jobs and the upkeep so that receivers that hang
	// (an attempt may take its whole timeout) hold only delivery slots;
	// WebhookWorkers of them run at once on each node, and the webhook
	// service caps how many one account holds (docs/webhooks.md,
	// Delivery queue).
	WebhookQueue   = "webhooks"
	WebhookWorkers = 8
	// UpkeepQueue is the queue of the periodic upkeep (the sweepers, the
	// pruner, the rescuers, the [Task]s): a burst of deliveries or jobs
	// never delays the rescue of what a crash left. UpkeepWorkers of them
	// run at once on each node.
	UpkeepQueue   = "upkeep"
	UpkeepWorkers = 2
)

// QueueOptions configure a store's job queue (OpenQueue of either
// adapter).
type QueueOptions struct {
	// Logger receives River's logs; nil discards them.
	Logger *slog.Logger
	// Now is the clock the sweeper dates objects by; nil is the store's.
	Now func() time.Time
	// Workers are the job kinds this process works; nil works only the
	// sweeper (if any). A queue with neither only inserts jobs (an API
	// node of a cluster).
	Workers *Workers
	// MaxWorkers bounds the jobs of the default queue worked at once
	// (default 4); deliveries ([WebhookQueue]) and the upkeep
	// ([UpkeepQueue]) have queues, and bounds, of their own.
	MaxWorkers int
	// PollInterval is how often an idle queue looks for new jobs (default
	// 1 s; at least 100 ms, River's fetch cooldown). On SQLite River
	// polls; Postgres also wakes it at once with LISTEN/NOTIFY.
	PollInterval time.Duration
	// Sweep, if set, runs the orphan-blob sweeper as a periodic job.
	Sweep *SweepOptions
	// KeepDeliveries, if set, deletes every hour the webhook deliveries
	// that are no longer pending and were created longer ago than this.
	KeepDeliveries time.Duration
	// RescueDeliveriesAfter, if set, restarts every after/2 the pending
	// webhook deliveries whose job has been running longer than this: a
	// process that died mid-attempt. It must exceed the delivery job's
	// timeout.
	RescueDeliveriesAfter time.Duration
	// Queues are named queues beside the default one and the two every
	// working queue has ([WebhookQueue], [UpkeepQueue]), each with the
	// most jobs it works at once (the video lanes); a job goes to one
	// with [EnqueueOpts.Queue].
	Queues map[string]int
	// Tasks run periodically on one process at a time, and once when the
	// queue starts (the media sweeper, the video job rescuer).
	Tasks []Task
}

// Task is a periodic piece of upkeep: Run every Every (and once at the
// start, when what a crash left is found), with at most one run pending
// across processes. Its ctx ends after [UpkeepTimeout].
type Task struct {
	// Name identifies the task across processes and restarts.
	Name  string
	Every time.Duration
	Run   func(ctx context.Context) error
}

// SweepOptions configure the orphan-blob sweeper: every Every it deletes
// the objects under Prefix older than OlderThan that Known does not
// report ([blob.Sweep]): bytes whose row never committed, after a crash
// between a put and its transaction. It also runs once when the queue
// starts, since a crash is when orphans appear.
type SweepOptions struct {
	Blobs blob.Store
	// Known reports which keys a row refers to; the composition root
	// hands in the artifact store's lookup.
	Known blob.Known
	// Prefix is the part of the store swept (default "artifacts/").
	Prefix string
	// Every is the period (default 10 minutes).
	Every time.Duration
	// OlderThan protects objects whose row is not committed yet (default
	// 1 hour, far above any put-then-commit).
	OlderThan time.Duration
}
