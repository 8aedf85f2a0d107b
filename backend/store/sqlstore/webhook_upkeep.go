package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// pruneDeliveries is the job that deletes old finished deliveries: no
// arguments, what it keeps is configured in the process.
type pruneDeliveries struct{}

func (pruneDeliveries) Kind() string { return pruneDeliveriesKind }

const pruneDeliveriesKind = "captionqa.prune_webhook_deliveries"

// addDeliveryPruner registers the pruner's worker in ws and returns its
// hourly periodic job: the delivery log keeps what is pending, and the
// rest for keep after its creation.
func addDeliveryPruner(ws *jobs.Workers, db *DB, keep time.Duration, now func() time.Time) (*river.PeriodicJob, error) {
	return jobs.AddPeriodic(ws, pruneDeliveries{}, time.Hour, func(ctx context.Context) error {
		_, err := db.write.exec(ctx, `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1`,
			db.ts(now().Add(-keep)))
		if err != nil {
			return fmt.Errorf("store: prune deliveries: %w", err)
		}
		return nil
	})
}

// rescueDeliveries is the job that restarts deliveries whose attempt a
// crash cut off: no arguments.
type rescueDeliveries struct{}

func (rescueDeliveries) Kind() string { return rescueDeliveriesKind }

const rescueDeliveriesKind = "captionqa.rescue_webhook_deliveries"

// addDeliveryRescuer registers the rescuer's worker in ws and returns
// its periodic job, every after/2 and once at start. River hands a job
// left running by a dead process back only after [jobs.RescueAfter],
// which the longest jobs need; a webhook attempt is bounded by its
// timeout, so a delivery job running for longer than after (which the
// caller sets well above it) belongs to a process that died mid-attempt.
// The rescuer starts a new run of each such pending delivery (as a
// redeliver does, keeping its window); the old job, when River hands it
// back, finds its run gone.
func addDeliveryRescuer(ws *jobs.Workers, q *Queue, after time.Duration, now func() time.Time) (*river.PeriodicJob, error) {
	return jobs.AddPeriodic(ws, rescueDeliveries{}, max(after/2, time.Second), func(ctx context.Context) error {
		return q.WriteTx(ctx, func(tx *Tx) error {
			n, err := tx.rescueDeliveries(ctx, now().Add(-after))
			if n > 0 {
				q.log.Warn("restarted webhook deliveries whose attempt a stopped process cut off", "deliveries", n)
			}
			return err
		})
	})
}

// rescueDeliveries requeues the pending deliveries whose current run's
// job has been running since before cutoff ([Dialect.StuckDeliveries]),
// and returns how many. On PostgreSQL the deliveries it finds stay
// locked until the transaction ends, and a rescuer that waited for them
// reads them again: of two rescuers, the second no longer finds a
// delivery the first restarted (its run moved on), so each stuck
// delivery gets one new run.
func (t *Tx) rescueDeliveries(ctx context.Context, cutoff time.Time) (int, error) {
	stuck, err := collect(ctx, t, func(r scanner) (*webhook.Delivery, error) {
		var d webhook.Delivery
		var status string
		if err := r.Scan(&d.ID, &status, at(&d.WindowStart)); err != nil {
			return nil, fmt.Errorf("store: stuck deliveries: %w", err)
		}
		d.Status = webhook.Status(status)
		return &d, nil
	}, t.db.d.StuckDeliveries, jobs.WebhookJobKind, t.db.ts(cutoff))
	if err != nil {
		return 0, err
	}
	for _, d := range stuck {
		d.NextAttemptAt = t.now
		if err := t.requeue(ctx, d); err != nil {
			return 0, err
		}
	}
	return len(stuck), nil
}
