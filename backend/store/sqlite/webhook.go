package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/webhook"
)

// WebhookJobKind is the kind of the job that attempts a webhook delivery.
const WebhookJobKind = "captionqa.webhook_delivery"

// WebhookJob is the job that makes a webhook delivery's next attempt.
type WebhookJob struct {
	DeliveryID string `json:"deliveryId"`
}

// Kind names the job's worker.
func (WebhookJob) Kind() string { return WebhookJobKind }

// webhookJobOpts are the delivery job's: it keeps the delivery's own
// schedule by snoozing ([HandleSnoozing]); River's retries, on its
// default policy, only cover failures of the store.
func webhookJobOpts() *EnqueueOpts { return &EnqueueOpts{MaxAttempts: 25} }

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
	last_status_code, last_error, last_attempt_at, next_attempt_at, delivered_at, created_at, window_start`

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
		&code, &lastErr, &lastAt, &nextAt, &deliveredAt, &created, &window)
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
	return s.db.WriteTx(ctx, func(tx *Tx) error { return tx.insertDelivery(ctx, d, nil) })
}

func (t *Tx) insertDelivery(ctx context.Context, d *webhook.Delivery, jobID *int64) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO webhook_deliveries(`+deliveryColumns+`, river_job_id)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.AccountID, d.Event, nullString(d.ProjectID), nullInt(d.IRRevision), nullString(d.ExportID), d.Body,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), nullTime(d.LastAttemptAt),
		nullTime(d.NextAttemptAt), nullTime(d.DeliveredAt), formatTime(d.CreatedAt), formatTime(d.WindowStart), jobID)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: insert delivery %s: %w", d.ID, err)
	}
	return nil
}

// RecordAttempt stores d's outcome fields, or returns [apperr.NotFound].
func (s *WebhookStore) RecordAttempt(ctx context.Context, d *webhook.Delivery) error {
	res, err := s.db.write.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_status_code = ?,
		last_error = ?, last_attempt_at = ?, next_attempt_at = ?, delivered_at = ? WHERE id = ?`,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), nullTime(d.LastAttemptAt),
		nullTime(d.NextAttemptAt), nullTime(d.DeliveredAt), d.ID)
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

// Requeue stores d as pending in a new window and, in the same
// transaction, makes its job run at once: the job it last had, when
// River still holds it (a running one is left to finish), else a new
// one.
func (s *WebhookStore) Requeue(ctx context.Context, d *webhook.Delivery) error {
	return s.queue.WriteTx(ctx, func(tx *Tx) error {
		var jobID sql.NullInt64
		err := tx.tx.QueryRowContext(ctx, `UPDATE webhook_deliveries SET status = ?, window_start = ?, next_attempt_at = ?
			WHERE id = ? RETURNING river_job_id`,
			string(d.Status), formatTime(d.WindowStart), nullTime(d.NextAttemptAt), d.ID).Scan(&jobID)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
		}
		if err != nil {
			return fmt.Errorf("sqlite: requeue delivery %s: %w", d.ID, err)
		}
		if jobID.Valid {
			_, err := s.queue.client.JobRetryTx(ctx, tx.tx, jobID.Int64)
			if err == nil {
				return nil
			}
			if !errors.Is(err, rivertype.ErrNotFound) {
				return fmt.Errorf("sqlite: requeue delivery %s: %w", d.ID, err)
			}
		}
		id, err := tx.Enqueue(ctx, WebhookJob{DeliveryID: d.ID}, webhookJobOpts())
		if err != nil {
			return err
		}
		if _, err = tx.tx.ExecContext(ctx, `UPDATE webhook_deliveries SET river_job_id = ? WHERE id = ?`, id, d.ID); err != nil {
			return fmt.Errorf("sqlite: requeue delivery %s: %w", d.ID, err)
		}
		return nil
	})
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
	id, err := t.Enqueue(ctx, WebhookJob{DeliveryID: d.ID}, webhookJobOpts())
	if err != nil {
		return err
	}
	return t.insertDelivery(ctx, d, &id)
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
func addDeliveryPruner(ws *Workers, db *DB, keep time.Duration, now func() time.Time) (*river.PeriodicJob, error) {
	err := river.AddWorkerSafely(ws.w, river.WorkFunc(func(ctx context.Context, _ *river.Job[pruneDeliveries]) error {
		_, err := db.write.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE status != 'pending' AND created_at < ?`,
			formatTime(now().Add(-keep)))
		if err != nil {
			return fmt.Errorf("sqlite: prune deliveries: %w", err)
		}
		return nil
	}))
	if err != nil {
		return nil, fmt.Errorf("sqlite: delivery pruner: %w", err)
	}
	return river.NewPeriodicJob(river.PeriodicInterval(time.Hour),
		func() (river.JobArgs, *river.InsertOpts) {
			return pruneDeliveries{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: time.Hour}}
		},
		&river.PeriodicJobOpts{ID: pruneDeliveriesKind, RunOnStart: true}), nil
}
