package server

import (
	"context"
	"fmt"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/webhook"
)

// openQueue migrates River's tables in db and returns the job queue
// working ws, not started. With blobs and known both set it runs the
// orphan-blob sweeper over "artifacts/" every 10 minutes, deleting
// objects over an hour old that known does not report
// ([sqlite.SweepOptions]); known is the artifact store's lookup, and
// without one nothing is swept (an object could not be told from an
// orphan). Finished webhook deliveries leave the log after
// [webhook.LogRetention].
func openQueue(ctx context.Context, db *sqlite.DB, ws *sqlite.Workers, blobs blob.Store, known blob.Known, cfg *Config) (*sqlite.Queue, error) {
	opts := sqlite.QueueOptions{Logger: cfg.logger().With("component", "queue"), Now: cfg.Now, Workers: ws,
		PollInterval: cfg.JobPollInterval, KeepDeliveries: webhook.LogRetention}
	if blobs != nil && known != nil {
		opts.Sweep = &sqlite.SweepOptions{
			Blobs: blobs, Known: known,
			Prefix: sqlite.DefaultSweepPrefix, Every: sqlite.DefaultSweepEvery, OlderThan: sqlite.DefaultSweepOlder,
		}
	}
	q, err := db.OpenQueue(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("server: open job queue: %w", err)
	}
	return q, nil
}
