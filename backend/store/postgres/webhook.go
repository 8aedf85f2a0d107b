package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// WebhookStore keeps webhooks and their deliveries. Its methods return
// [apperr.Unavailable] (details.retryAfterSeconds) when the database
// cannot be reached.
type WebhookStore struct {
	db    *DB
	queue *Queue
}

var _ webhook.Store = (*WebhookStore)(nil)

// Webhooks returns the store of webhooks; its Requeue queues on q.
func (q *Queue) Webhooks() *WebhookStore { return &WebhookStore{db: q.db, queue: q} }

const webhookColumns = `account_id, url, enabled, secret, created_at, updated_at`

// Webhook returns the account's webhook, or [apperr.NotFound].
func (s *WebhookStore) Webhook(ctx context.Context, accountID string) (*webhook.Config, error) {
	var c webhook.Config
	err := s.db.pool.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE account_id = $1`, accountID).
		Scan(&c.AccountID, &c.URL, &c.Enabled, &c.Secret, &c.CreatedAt, &c.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "no webhook").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: webhook: %w", err))
	}
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return &c, nil
}

// SaveWebhook creates or replaces the account's webhook; it returns
// [apperr.NotFound] when the account is unknown.
func (s *WebhookStore) SaveWebhook(ctx context.Context, c *webhook.Config) error {
	_, err := s.db.pool.Exec(ctx, `INSERT INTO webhooks(`+webhookColumns+`) VALUES($1, $2, $3, $4, $5, $6)
		ON CONFLICT(account_id) DO UPDATE SET url = excluded.url, enabled = excluded.enabled,
			secret = excluded.secret, updated_at = excluded.updated_at`,
		c.AccountID, c.URL, c.Enabled, c.Secret, second(c.CreatedAt), second(c.UpdatedAt))
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return unavailable(fmt.Errorf("postgres: save webhook: %w", err))
	}
	return nil
}

const deliveryColumns = `id, account_id, event, project_id, ir_revision, export_id, body, status, attempts,
	last_status_code, last_error, last_attempt_at, next_attempt_at, delivered_at, created_at, window_start, run`

// Delivery returns the delivery, or [apperr.NotFound].
func (s *WebhookStore) Delivery(ctx context.Context, id string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = $1`, id))
}

// LastDelivery returns the account's newest delivery, or
// [apperr.NotFound].
func (s *WebhookStore) LastDelivery(ctx context.Context, accountID string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.pool.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = $1 ORDER BY created_at DESC, seq DESC LIMIT 1`, accountID))
}

// Deliveries returns up to limit of the account's deliveries, newest
// first.
func (s *WebhookStore) Deliveries(ctx context.Context, accountID string, limit int) ([]webhook.Delivery, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`, accountID, limit)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: deliveries: %w", err))
	}
	defer rows.Close()
	list := []webhook.Delivery{}
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *d)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: deliveries: %w", err))
	}
	return list, nil
}

func scanDelivery(row pgx.Row) (*webhook.Delivery, error) {
	var d webhook.Delivery
	var project, export, lastErr *string
	var rev, code *int
	var lastAt, nextAt, deliveredAt *time.Time
	var status string
	err := row.Scan(&d.ID, &d.AccountID, &d.Event, &project, &rev, &export, &d.Body, &status, &d.Attempts,
		&code, &lastErr, &lastAt, &nextAt, &deliveredAt, &d.CreatedAt, &d.WindowStart, &d.Run)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: delivery: %w", err))
	}
	d.Status = webhook.Status(status)
	d.ProjectID, d.ExportID, d.LastError = deref(project), deref(export), deref(lastErr)
	d.IRRevision, d.LastStatusCode = deref(rev), deref(code)
	d.LastAttemptAt, d.NextAttemptAt, d.DeliveredAt = utcOrZero(lastAt), utcOrZero(nextAt), utcOrZero(deliveredAt)
	d.CreatedAt, d.WindowStart = d.CreatedAt.UTC(), d.WindowStart.UTC()
	return &d, nil
}

// InsertDelivery records d without queuing it; an unknown account is
// [apperr.NotFound].
func (s *WebhookStore) InsertDelivery(ctx context.Context, d *webhook.Delivery) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error { return tx.insertDelivery(ctx, d) })
}

func (t *Tx) insertDelivery(ctx context.Context, d *webhook.Delivery) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO webhook_deliveries(`+deliveryColumns+`)
		VALUES($1, $2, $3, NULLIF($4, ''), NULLIF($5, 0), NULLIF($6, ''), $7, $8, $9, NULLIF($10, 0), NULLIF($11, ''),
			$12, $13, $14, $15, $16, $17)`,
		d.ID, d.AccountID, d.Event, d.ProjectID, d.IRRevision, d.ExportID, d.Body,
		string(d.Status), d.Attempts, d.LastStatusCode, d.LastError, secondOrNull(d.LastAttemptAt),
		secondOrNull(d.NextAttemptAt), secondOrNull(d.DeliveredAt), second(d.CreatedAt), second(d.WindowStart), d.Run)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("postgres: insert delivery %s: %w", d.ID, err)
	}
	return nil
}

// RecordAttempt stores d's outcome fields if d's run is still the
// delivery's, or returns [apperr.NotFound].
func (s *WebhookStore) RecordAttempt(ctx context.Context, d *webhook.Delivery) error {
	tag, err := s.db.pool.Exec(ctx, `UPDATE webhook_deliveries SET status = $1, attempts = $2, last_status_code = NULLIF($3, 0),
		last_error = NULLIF($4, ''), last_attempt_at = $5, next_attempt_at = $6, delivered_at = $7 WHERE id = $8 AND run = $9`,
		string(d.Status), d.Attempts, d.LastStatusCode, d.LastError, secondOrNull(d.LastAttemptAt),
		secondOrNull(d.NextAttemptAt), secondOrNull(d.DeliveredAt), d.ID, d.Run)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: record attempt of %s: %w", d.ID, err))
	}
	if tag.RowsAffected() == 0 {
		return apperr.New(apperr.NotFound, "delivery not found")
	}
	return nil
}

// Requeue stores d as pending in a new window and a new run, and queues
// the run's job, in one transaction, or returns [apperr.NotFound]. A job
// of an older run, waiting or running on any node, then finds its run
// gone and records nothing.
func (s *WebhookStore) Requeue(ctx context.Context, d *webhook.Delivery) error {
	return s.queue.WriteTx(ctx, func(tx *Tx) error { return tx.requeue(ctx, d) })
}

// requeue starts d's next run. The UPDATE locks the row, so requeues on
// several nodes take turns and each gets a run of its own.
func (t *Tx) requeue(ctx context.Context, d *webhook.Delivery) error {
	err := t.tx.QueryRow(ctx, `UPDATE webhook_deliveries SET status = $1, window_start = $2, next_attempt_at = $3,
		run = run + 1 WHERE id = $4 RETURNING run`,
		string(d.Status), second(d.WindowStart), secondOrNull(d.NextAttemptAt), d.ID).Scan(&d.Run)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("postgres: requeue delivery %s: %w", d.ID, err)
	}
	_, err = t.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: d.Run}, jobs.WebhookJobOpts())
	return err
}

// QueueExportWebhook records the export_complete delivery of e and
// queues its first attempt, in this transaction, when e's account has
// an enabled webhook; otherwise it does nothing. It returns [ErrNoQueue]
// in a transaction without a queue when there is a delivery to queue.
func (t *Tx) QueueExportWebhook(ctx context.Context, e *project.Export) error {
	var enabled bool
	err := t.tx.QueryRow(ctx, `SELECT enabled FROM webhooks WHERE account_id = $1`, e.AccountID).Scan(&enabled)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && !enabled {
		return nil
	}
	if err != nil {
		return fmt.Errorf("postgres: webhook of %s: %w", e.AccountID, err)
	}
	d := webhook.NewExportDelivery(e, e.CreatedAt)
	if _, err := t.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: d.Run}, jobs.WebhookJobOpts()); err != nil {
		return err
	}
	return t.insertDelivery(ctx, d)
}

// secondOrNull is t as the store keeps it ([second]), or NULL for the
// zero time.
func secondOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	s := second(t)
	return &s
}

// utcOrZero is a nullable time column as the domain keeps it: UTC, or
// the zero time for NULL.
func utcOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// deref is a nullable column's value, or T's zero for NULL.
func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

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
		_, err := db.pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < $1`,
			second(now().Add(-keep)))
		if err != nil {
			return unavailable(fmt.Errorf("postgres: prune deliveries: %w", err))
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
// left running by a dead node back only after [jobs.RescueAfter], which
// the longest jobs need; a webhook attempt is bounded by its timeout, so
// a delivery job running for longer than after (which the caller sets
// well above it) belongs to a node that died mid-attempt. The rescuer
// starts a new run of each such pending delivery (as a redeliver does,
// keeping its window); the old job, when River hands it back, finds its
// run gone.
func addDeliveryRescuer(ws *jobs.Workers, q *Queue, after time.Duration, now func() time.Time) (*river.PeriodicJob, error) {
	return jobs.AddPeriodic(ws, rescueDeliveries{}, max(after/2, time.Second), func(ctx context.Context) error {
		return q.WriteTx(ctx, func(tx *Tx) error {
			n, err := tx.rescueDeliveries(ctx, now().Add(-after))
			if n > 0 {
				q.log.Warn("restarted webhook deliveries whose attempt a stopped node cut off", "deliveries", n)
			}
			return err
		})
	})
}

// rescueDeliveries requeues the pending deliveries whose current run's
// job has been running since before cutoff, and returns how many. The
// deliveries it finds stay locked until the transaction ends, and a
// rescuer that waited for them reads them again: of two rescuers, the
// second no longer finds a delivery the first restarted (its run moved
// on), so each stuck delivery gets one new run.
func (t *Tx) rescueDeliveries(ctx context.Context, cutoff time.Time) (int, error) {
	// The run is compared as text: args of other kinds may hold anything
	// under "run", and a cast would fail on them.
	rows, err := t.tx.Query(ctx, `SELECT d.id, d.status, d.window_start
		FROM river_job j JOIN webhook_deliveries d ON d.id = j.args->>'deliveryId' AND d.run::text = j.args->>'run'
		WHERE j.kind = $1 AND j.state = 'running' AND j.attempted_at < $2 AND d.status = 'pending'
		ORDER BY d.id FOR UPDATE OF d`,
		jobs.WebhookJobKind, cutoff)
	if err != nil {
		return 0, fmt.Errorf("postgres: stuck deliveries: %w", err)
	}
	stuck, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*webhook.Delivery, error) {
		var d webhook.Delivery
		var status string
		if err := row.Scan(&d.ID, &status, &d.WindowStart); err != nil {
			return nil, err
		}
		d.Status = webhook.Status(status)
		return &d, nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: stuck deliveries: %w", err)
	}
	for _, d := range stuck {
		d.NextAttemptAt = t.now
		if err := t.requeue(ctx, d); err != nil {
			return 0, err
		}
	}
	return len(stuck), nil
}
