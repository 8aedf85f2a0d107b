package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// WebhookStore keeps webhooks and their deliveries. Its methods may
// return [apperr.Unavailable] (details.retryAfterSeconds) when the
// database is busy or cannot be reached.
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
	err := s.db.read.queryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE account_id = $1`, accountID).
		Scan(&c.AccountID, &c.URL, &c.Enabled, &c.Secret, at(&c.CreatedAt), at(&c.UpdatedAt))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "no webhook").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: webhook: %w", err)
	}
	return &c, nil
}

// SaveWebhook creates or replaces the account's webhook; it returns
// [apperr.NotFound] when the account is unknown.
func (s *WebhookStore) SaveWebhook(ctx context.Context, c *webhook.Config) error {
	_, err := s.db.write.exec(ctx, `INSERT INTO webhooks(`+webhookColumns+`) VALUES($1, $2, $3, $4, $5, $6)
		ON CONFLICT(account_id) DO UPDATE SET url = excluded.url, enabled = excluded.enabled,
			secret = excluded.secret, updated_at = excluded.updated_at`,
		c.AccountID, c.URL, c.Enabled, c.Secret, s.db.ts(c.CreatedAt), s.db.ts(c.UpdatedAt))
	switch {
	case s.db.d.ForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("store: save webhook: %w", err)
	}
	return nil
}

const deliveryColumns = `id, account_id, event, project_id, ir_revision, export_id, body, status, attempts,
	last_status_code, last_error, last_attempt_at, next_attempt_at, delivered_at, created_at, window_start, run`

// Delivery returns the delivery, or [apperr.NotFound].
func (s *WebhookStore) Delivery(ctx context.Context, id string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.read.queryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE id = $1`, id))
}

// LastDelivery returns the account's newest delivery, or
// [apperr.NotFound].
func (s *WebhookStore) LastDelivery(ctx context.Context, accountID string) (*webhook.Delivery, error) {
	return scanDelivery(s.db.read.queryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = $1 ORDER BY created_at DESC, `+s.db.d.Seq+` DESC LIMIT 1`, accountID))
}

// Deliveries returns up to limit of the account's deliveries, newest
// first.
func (s *WebhookStore) Deliveries(ctx context.Context, accountID string, limit int) ([]webhook.Delivery, error) {
	return collect(ctx, s.db.read, func(r scanner) (webhook.Delivery, error) {
		d, err := scanDelivery(r)
		if err != nil {
			return webhook.Delivery{}, err
		}
		return *d, nil
	}, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE account_id = $1 ORDER BY created_at DESC, `+s.db.d.Seq+` DESC LIMIT $2`, accountID, limit)
}

func scanDelivery(r scanner) (*webhook.Delivery, error) {
	var d webhook.Delivery
	var project, export, lastErr sql.NullString
	var rev, code sql.NullInt64
	var status string
	err := r.Scan(&d.ID, &d.AccountID, &d.Event, &project, &rev, &export, &d.Body, &status, &d.Attempts,
		&code, &lastErr, atOrZero(&d.LastAttemptAt), atOrZero(&d.NextAttemptAt), atOrZero(&d.DeliveredAt),
		at(&d.CreatedAt), at(&d.WindowStart), &d.Run)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: delivery: %w", err)
	}
	d.Status = webhook.Status(status)
	d.ProjectID, d.ExportID, d.LastError = project.String, export.String, lastErr.String
	d.IRRevision, d.LastStatusCode = int(rev.Int64), int(code.Int64)
	return &d, nil
}

// InsertDelivery records d without queuing it.
func (s *WebhookStore) InsertDelivery(ctx context.Context, d *webhook.Delivery) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error { return tx.insertDelivery(ctx, d) })
}

func (t *Tx) insertDelivery(ctx context.Context, d *webhook.Delivery) error {
	db := t.db
	_, err := t.exec(ctx, `INSERT INTO webhook_deliveries(`+deliveryColumns+`)
		VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		d.ID, d.AccountID, d.Event, nullString(d.ProjectID), nullInt(d.IRRevision), nullString(d.ExportID), d.Body,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), db.zeroNull(d.LastAttemptAt),
		db.zeroNull(d.NextAttemptAt), db.zeroNull(d.DeliveredAt), db.ts(d.CreatedAt), db.ts(d.WindowStart), d.Run)
	switch {
	case db.d.ForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("store: insert delivery %s: %w", d.ID, err)
	}
	return nil
}

// RecordAttempt stores d's outcome fields if d's run is still the
// delivery's, or returns [apperr.NotFound].
func (s *WebhookStore) RecordAttempt(ctx context.Context, d *webhook.Delivery) error {
	return changeOne(ctx, s.db.write, "delivery", `UPDATE webhook_deliveries SET status = $1, attempts = $2, last_status_code = $3,
		last_error = $4, last_attempt_at = $5, next_attempt_at = $6, delivered_at = $7 WHERE id = $8 AND run = $9`,
		string(d.Status), d.Attempts, nullInt(d.LastStatusCode), nullString(d.LastError), s.db.zeroNull(d.LastAttemptAt),
		s.db.zeroNull(d.NextAttemptAt), s.db.zeroNull(d.DeliveredAt), d.ID, d.Run)
}

// Requeue stores d as pending in a new window and a new run, and queues
// the run's job, in one transaction. A job of an older run, waiting or
// running, then finds its run gone and records nothing.
func (s *WebhookStore) Requeue(ctx context.Context, d *webhook.Delivery) error {
	return s.queue.WriteTx(ctx, func(tx *Tx) error { return tx.requeue(ctx, d) })
}

func (t *Tx) requeue(ctx context.Context, d *webhook.Delivery) error {
	err := t.queryRow(ctx, `UPDATE webhook_deliveries SET status = $1, window_start = $2, next_attempt_at = $3,
		run = run + 1 WHERE id = $4 RETURNING run`,
		string(d.Status), t.db.ts(d.WindowStart), t.db.zeroNull(d.NextAttemptAt), d.ID).Scan(&d.Run)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "delivery not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("store: requeue delivery %s: %w", d.ID, err)
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
	err := t.queryRow(ctx, `SELECT enabled FROM webhooks WHERE account_id = $1`, e.AccountID).Scan(&enabled)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !enabled {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: webhook of %s: %w", e.AccountID, err)
	}
	d := webhook.NewExportDelivery(e, e.CreatedAt)
	if _, err := t.Enqueue(ctx, jobs.WebhookJob{DeliveryID: d.ID, Run: d.Run}, jobs.WebhookJobOpts()); err != nil {
		return err
	}
	return t.insertDelivery(ctx, d)
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func nullInt(n int) sql.NullInt64 { return sql.NullInt64{Int64: int64(n), Valid: n != 0} }

// zeroNull is the value of a nullable time column kept as a value: the
// zero time is NULL.
func (db *DB) zeroNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return db.ts(t)
}
