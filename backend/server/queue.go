package server

import (
	"context"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// webhookRescueAfter is when a delivery job still running is taken for
// one a dead process left: twice the attempt's timeout plus 10 s for its
// reads and its write (30 s by default). A live but slow attempt taken
// for dead is sent again, which at-least-once delivery allows.
func webhookRescueAfter(cfg *Config) time.Duration {
	timeout := cfg.WebhookTimeout
	if timeout <= 0 {
		timeout = webhook.DefaultTimeout
	}
	return 2*timeout + 10*time.Second
}

// openQueue migrates River's tables in db and returns the job queue
// working ws, not started. With blobs and known both set it runs the
// orphan-blob sweeper over "artifacts/" every 10 minutes, deleting
// objects over an hour old that known does not report
// ([jobs.SweepOptions]); known is the artifact store's lookup, and
// without one nothing is swept (an object could not be told from an
// orphan). lanes are the video queues and tasks the periodic upkeep
// (media retention, video job rescue). Finished webhook deliveries leave the log after
// [webhook.LogRetention], and deliveries whose attempt a crash cut off
// start again after [webhookRescueAfter].
func openQueue(ctx context.Context, db store.DB, ws *jobs.Workers, blobs blob.Store, known blob.Known, cfg *Config,
	lanes map[string]int, tasks []jobs.Task) (store.Queue, error) {
	opts := jobs.QueueOptions{Logger: cfg.logger().With("component", "queue"), Now: cfg.Now, Workers: ws,
		PollInterval: cfg.JobPollInterval, Queues: lanes, Tasks: tasks}
	if ws != nil {
		opts.KeepDeliveries, opts.RescueDeliveriesAfter = webhook.LogRetention, webhookRescueAfter(cfg)
	}
	if blobs != nil && known != nil {
		opts.Sweep = &jobs.SweepOptions{
			Blobs: blobs, Known: known,
			Prefix: jobs.DefaultSweepPrefix, Every: jobs.DefaultSweepEvery, OlderThan: jobs.DefaultSweepOlder,
		}
	}
	q, err := db.OpenQueue(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("server: open job queue: %w", err)
	}
	return q, nil
}
