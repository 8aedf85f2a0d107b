package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// WebhookStore keeps webhooks and their deliveries. Its writes return
// [apperr.Unavailable] (details.retryAfterSeconds) if another process
// holds the write lock past the busy timeout.
type WebhookStore struct {
	db    *DB
	queue *Queue
}

var _ webhook.Store = (*WebhookStore)(nil)

// Webhooks returns the store of webhooks; its Requeue queues on q.
func (q *Queue) Webhooks() *WebhookStore { return &WebhookStore{db: q.db, queue: q} }

// Webhook returns the account's webhook, or [apperr.NotFound].
func (s *WebhookStore) Webhook(ctx context.Context, accountID string) (*webhook.Config, error) {
	return scanWebhook(s.db.read.QueryRowContext(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE account_id = ?`, accountID))
}

const webhookColumns = `account_id, url, enabled, secret, created_at, updated_at`

func scanWebhook(row scanner) (*webhook.Config, error) {
	var c webhook.Config
	var created, updated string
	err := row.Scan(&c.AccountID, &c.URL, &c.Enabled, &c.Secret, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "no webhook").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: webhook: %w", err)
	}
	if c.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if c.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	return &c, nil
}

// SaveWebhook creates or replaces the account's webhook; it returns
// [apperr.NotFound] when the account is unknown.
func (s *WebhookStore) SaveWebhook(ctx context.Context, c *webhook.Config) error {
	_, err := s.db.write.ExecContext(ctx, `INSERT INTO webhooks(`+webhookColumns+`) VALUES(?, ?, ?, ?, ?, ?)
		ON CONFLICT(account_id) DO UPDATE SET url = excluded.url, enabled = excluded.enabled,
			secret = excluded.secret, updated_at = excluded.updated_at`,
		c.AccountID, c.URL, c.Enabled, c.Secret, formatTime(c.CreatedAt), formatTime(c.UpdatedAt))
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: save webhook: %w", err)
	}
	return nil
}

const deliveryColumns = `id, account_id, event, project_id, ir_revision, export_id, body, status, attempts,
	last_status_code, last_error, last_attempt_at, next_attempt_at, delivered_at, created_at, window_start, run`

// Delivery returns the delivery, or [apperr.NotFound].
func (s *WebhookStore) Delivery(ctx context.Context, id string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.read.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = ?`, id))
}

// LastDelivery returns the account's newest delivery, or
// [apperr.NotFound].
func (s *WebhookStore) LastDelivery(ctx context.Context, accountID string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.read.QueryRowContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`, accountID))
}

// Deliveries returns up to limit of the account's deliveries, newest
// first.
func (s *WebhookStore) Deliveries(ctx context.Context, accountID string, limit int) ([]webhook.Delivery, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`, accountID, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: deliveries: %w", err)
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
	return list, rows.Err()
}

func scanDelivery(row scanner) (*webhook.Delivery, error) {
	var d webhook.Delivery
	var project, export, lastErr, lastAt, nextAt, deliveredAt sql.NullString
	var rev, code sql.NullInt64
	var status, created, window string
	err := row.Scan(&d.ID, &d.AccountID, &d.Event, &project, &rev, &export, &d.Body, &status, &d.Attempts,
		&code, &lastErr, &lastAt, &nextAt, &deliveredAt, &created, &window, &d.Run)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: delivery: %w", err)
	}
	d.Status = webhook.Status(status)
	d.ProjectID, d.ExportID, d.LastError = project.String, export.String, lastErr.String
	d.IRRevision, d.LastStatusCode = int(rev.Int64), int(code.Int64)
	for _, f := range []struct {
		s  sql.NullString
		to *time.Time
	}{{lastAt, &d.LastAttemptAt}, {nextAt, &d.NextAttemptAt}, {deliveredAt, &d.DeliveredAt},
		{sql.NullString{String: created, Valid: true}, &d.CreatedAt}, {sql.NullString{String: window, Valid: true}, &d.WindowStart}} {
		t, err := parseNullTime(f.s)
		if err != nil {
			return nil, err
		}
		if t != nil {
			*f.to = *t
		}
	}
	return &d, nil
}

// InsertDelivery records d without queuing it.
func (s *WebhookStore) InsertDelivery(ctx context.Context, d *webhook.Delivery) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error { return tx.insertDelivery(ctx, d) })
}

func (t *Tx) insertDelivery(ctx context.Context, d *webhook.Delivery) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO webhook_deliveries(`+deliveryColumns+`)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.AccountID, d.Event, nullString(d.ProjectID), nullInt(d.IRRevision), nullString(d.ExportID), d.Body,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), nullTime(d.LastAttemptAt),
		nullTime(d.NextAttemptAt), nullTime(d.DeliveredAt), formatTime(d.CreatedAt), formatTime(d.WindowStart), d.Run)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: insert delivery %s: %w", d.ID, err)
	}
	return nil
}

// RecordAttempt stores d's outcome fields if d's run is still the
// delivery's, or returns [apperr.NotFound].
func (s *WebhookStore) RecordAttempt(ctx context.Context, d *webhook.Delivery) error {
	res, err := s.db.write.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_status_code = ?,
		last_error = ?, last_attempt_at = ?, next_attempt_at = ?, delivered_at = ? WHERE id = ? AND run = ?`,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), nullTime(d.LastAttemptAt),
		nullTime(d.NextAttemptAt), nullTime(d.DeliveredAt), d.ID, d.Run)
	if err != nil {
		return fmt.Errorf("sqlite: record attempt of %s: %w", d.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: record attempt of %s: %w", d.ID, err)
	}
	if n == 0 {
		return apperr.New(apperr.NotFound, "delivery not found")
	}
	return nil
}

// Requeue stores d as pending in a new window and a new run, and queues
// the run's job, in one transaction. A job of an older run, waiting or
// running, then finds its run gone and records nothing.
func (s *WebhookStore) Requeue(ctx context.Context, d *webhook.Delivery) error {
	return s.queue.WriteTx(ctx, func(tx *Tx) error { return tx.requeue(ctx, d) })
}

func (t *Tx) requeue(ctx context.Context, d *webhook.Delivery) error {
	err := t.tx.QueryRowContext(ctx, `UPDATE webhook_deliveries SET status = ?, window_start = ?, next_attempt_at = ?,
		run = run + 1 WHERE id = ? RETURNING run`,
		string(d.Status), formatTime(d.WindowStart), nullTime(d.NextAttemptAt), d.ID).Scan(&d.Run)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("sqlite: requeue delivery %s: %w", d.ID, err)
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
	err := t.tx.QueryRowContext(ctx, `SELECT enabled FROM webhooks WHERE account_id = ?`, e.AccountID).Scan(&enabled)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !enabled {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: webhook of %s: %w", e.AccountID, err)
	}
	d := webhook.NewExportDelivery(e, e.CreatedAt)
	if _, err := t.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: d.Run}, jobs.WebhookJobOpts()); err != nil {
		return err
	}
	return t.insertDelivery(ctx, d)
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func nullInt(n int) sql.NullInt64 { return sql.NullInt64{Int64: int64(n), Valid: n != 0} }

func nullTime(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: formatTime(t), Valid: true}
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
		_, err := db.write.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?`,
			formatTime(now().Add(-keep)))
		if err != nil {
			return fmt.Errorf("sqlite: prune deliveries: %w", err)
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
// left running by a dead process back only after [jobs.RescueAfter], which
// the longest jobs need; a webhook attempt is bounded by its timeout, so
// a delivery job running for longer than after (which the caller sets
// well above it) belongs to a process that died mid-attempt. The rescuer starts a new run of
// each such pending delivery (as a redeliver does, keeping its window);
// the old job, when River hands it back, finds its run gone.
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
// job has been running since before cutoff, and returns how many.
func (t *Tx) rescueDeliveries(ctx context.Context, cutoff time.Time) (int, error) {
	// River keeps times as "2006-01-02 15:04:05.000" text and ours as RFC
	// 3339; julianday reads both.
	rows, err := t.tx.QueryContext(ctx, `SELECT d.id, d.status, d.window_start, d.next_attempt_at
		FROM river_job j JOIN webhook_deliveries d
			ON d.id = json_extract(j.args, '$.deliveryId') AND d.run = json_extract(j.args, '$.run')
		WHERE j.kind = ? AND j.state = 'running' AND julianday(j.attempted_at) < julianday(?) AND d.status = 'pending'`,
		jobs.WebhookJobKind, cutoff.UTC().Format(time.RFC3339))
	if err != nil {
		return 0, fmt.Errorf("sqlite: stuck deliveries: %w", err)
	}
	var stuck []*webhook.Delivery
	for rows.Next() {
		var d webhook.Delivery
		var status, window string
		var next sql.NullString
		if err := rows.Scan(&d.ID, &status, &window, &next); err != nil {
			rows.Close()
			return 0, fmt.Errorf("sqlite: stuck deliveries: %w", err)
		}
		d.Status = webhook.Status(status)
		if d.WindowStart, err = parseTime(window); err != nil {
			rows.Close()
			return 0, err
		}
		stuck = append(stuck, &d)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("sqlite: stuck deliveries: %w", err)
	}
	for _, d := range stuck {
		d.NextAttemptAt = t.now
		if err := t.requeue(ctx, d); err != nil {
			return 0, err
		}
	}
	return len(stuck), nil
}
