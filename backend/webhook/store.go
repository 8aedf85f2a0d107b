package webhook

import "context"

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error; anything else is an internal failure. Times are
// UTC, whole seconds.
//
// Deliveries of exports are not created here: the export store records
// each with its export, in the export's transaction, and queues its
// first attempt there (the outbox), when the account's webhook is
// enabled.
type Store interface {
	// Webhook returns the account's webhook, or [apperr.NotFound].
	Webhook(ctx context.Context, accountID string) (*Config, error)
	// SaveWebhook creates or replaces the account's webhook.
	SaveWebhook(ctx context.Context, c *Config) error
	// Delivery returns the delivery whoever owns it, or [apperr.NotFound].
	Delivery(ctx context.Context, id string) (*Delivery, error)
	// Deliveries returns up to limit of the account's deliveries, newest
	// first.
	Deliveries(ctx context.Context, accountID string, limit int) ([]Delivery, error)
	// LastDelivery returns the account's newest delivery, or
	// [apperr.NotFound] when it has none.
	LastDelivery(ctx context.Context, accountID string) (*Delivery, error)
	// InsertDelivery records d without queuing it (a test delivery,
	// attempted at once by its caller).
	InsertDelivery(ctx context.Context, d *Delivery) error
	// RecordAttempt stores d's outcome fields (Status, Attempts, Last*,
	// NextAttemptAt, DeliveredAt) and returns [apperr.NotFound] when d is
	// gone (its account was deleted) or d.Run is no longer its run.
	RecordAttempt(ctx context.Context, d *Delivery) error
	// Requeue stores d (Status pending, a new WindowStart and
	// NextAttemptAt) in the next run, setting d.Run, and queues the run's
	// first attempt at once, in one transaction.
	Requeue(ctx context.Context, d *Delivery) error
}
