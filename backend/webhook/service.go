package webhook

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Limits of the delivery log.
const (
	DefaultListLimit = 50
	MaxListLimit     = 100
	// LogRetention is how long a delivery that is no longer pending stays
	// in the log after its creation.
	LogRetention = 30 * 24 * time.Hour
)

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Client sends the attempts; required (see [NewClient]).
	Client Doer
	// Schedule is the retry schedule (default [DefaultSchedule]).
	Schedule Schedule
	// Now returns the current time; default time.Now.
	Now func() time.Time
	// Logger receives a line per failed attempt, with its details;
	// nil discards them.
	Logger *slog.Logger
	// Policy is the destination policy the client enforces at dial time
	// ([NewClient]); Put also refuses, up front, a URL whose host is a
	// literal address or localhost that it refuses.
	Policy Policy
	// PerAccount bounds the attempts of one account's deliveries made at
	// once by this process (default [DefaultPerAccount]).
	PerAccount int
	// BreakerFailures failed attempts in a row to a URL open its circuit
	// (default [DefaultBreakerFailures]) for BreakerCoolDown (default
	// [DefaultBreakerCoolDown]).
	BreakerFailures int
	BreakerCoolDown time.Duration
}

// Service configures an account's webhook and delivers its events. It is
// safe for concurrent use.
type Service struct {
	store    Store
	client   Doer
	schedule Schedule
	now      func() time.Time
	log      *slog.Logger
	policy   Policy
	limits   limits
}

// NewService returns a [Service] over store; it panics without a client
// (a wiring defect of the composition root).
func NewService(store Store, o Options) *Service {
	if o.Client == nil {
		panic("webhook: NewService needs a Client")
	}
	s := &Service{store: store, client: o.Client, schedule: o.Schedule, now: o.Now, log: o.Logger, policy: o.Policy}
	if s.schedule == (Schedule{}) {
		s.schedule = DefaultSchedule()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.limits = newLimits(o, s.now)
	return s
}

func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Second) }

// View is what GET shows of an account's webhook: its configuration
// (nil when there is none) and its newest delivery (nil when none).
type View struct {
	Config *Config
	Last   *Delivery
}

// Get returns the account's webhook and its newest delivery.
func (s *Service) Get(ctx context.Context, accountID string) (*View, error) {
	c, err := s.store.Webhook(ctx, accountID)
	if apperr.KindOf(err) == apperr.NotFound {
		return &View{}, nil
	}
	if err != nil {
		return nil, err
	}
	v := &View{Config: c}
	last, err := s.store.LastDelivery(ctx, accountID)
	switch {
	case err == nil:
		v.Last = last
	case apperr.KindOf(err) != apperr.NotFound:
		return nil, err
	}
	return v, nil
}

// Update is a PUT of the webhook: nil fields keep their value.
type Update struct {
	URL          *string
	Enabled      *bool
	RotateSecret bool
}

// Put creates or changes the account's webhook. A new webhook gets a
// secret and is enabled unless Enabled says otherwise; RotateSecret
// replaces the secret, and every attempt made after it is signed with
// the new one. revealed is true when the secret was made by this call:
// the only time it is shown in full. It returns [apperr.BadRequest]
// (details.field "url") for a URL [CheckURL] refuses, one whose host
// the destination policy refuses up front (details.reason
// "destination_refused", [Policy.CheckHost]), or when the first PUT
// names none.
func (s *Service) Put(ctx context.Context, accountID string, in Update) (c *Config, revealed bool, err error) {
	c, err = s.store.Webhook(ctx, accountID)
	switch {
	case apperr.KindOf(err) == apperr.NotFound:
		if in.URL == nil {
			_, err := CheckURL("")
			return nil, false, err
		}
		now := s.clock()
		c = &Config{AccountID: accountID, Enabled: true, Secret: NewSecret(), CreatedAt: now}
		revealed = true
	case err != nil:
		return nil, false, err
	}
	if in.URL != nil {
		if c.URL, err = CheckURL(*in.URL); err != nil {
			return nil, false, err
		}
		if err := s.checkDestination(c.URL); err != nil {
			return nil, false, err
		}
	}
	if in.Enabled != nil {
		c.Enabled = *in.Enabled
	}
	if in.RotateSecret && !revealed {
		c.Secret, revealed = NewSecret(), true
	}
	c.UpdatedAt = s.clock()
	if err := s.store.SaveWebhook(ctx, c); err != nil {
		return nil, false, err
	}
	return c, revealed, nil
}

// Deliveries returns up to limit (0 is [DefaultListLimit], at most
// [MaxListLimit]) of the account's deliveries, newest first, or
// [apperr.BadRequest] (details.field "limit") for a limit out of range.
func (s *Service) Deliveries(ctx context.Context, accountID string, limit int) ([]Delivery, error) {
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, apperr.New(apperr.BadRequest, "limit: from 1 to %d", MaxListLimit).WithDetail("field", "limit")
	}
	return s.store.Deliveries(ctx, accountID, limit)
}

// Test records a test delivery and makes one signed attempt of it at
// once, enabled or not, so an integrator can check a receiver before
// turning deliveries on; it is not retried. It is not held back by the
// delivery limits, but its outcome counts in its URL's circuit: a
// receiver's fix, checked with a test, resumes its deliveries at once.
// It returns the delivery
// with the attempt's outcome, or [apperr.Conflict] (details.reason
// "no_webhook") when the account has no webhook.
func (s *Service) Test(ctx context.Context, accountID string) (*Delivery, error) {
	c, err := s.configOf(ctx, accountID)
	if err != nil {
		return nil, err
	}
	d := newTestDelivery(accountID, s.clock())
	if err := s.store.InsertDelivery(ctx, d); err != nil {
		return nil, err
	}
	out := send(ctx, s.client, c, d, 1, s.now())
	s.limits.breaker.done(c.URL, false, resultOf(ctx, out))
	s.record(d, out, false)
	if !out.ok {
		s.log.Info("webhook test delivery failed", "delivery", d.ID, "account", d.AccountID,
			"status", out.statusCode, "error", out.err, "detail", out.detail)
	}
	if err := s.store.RecordAttempt(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

// Redeliver queues a new run of attempts of the account's delivery,
// starting at once, with a new retry window; a pending delivery is
// attempted now instead of at its next time. It returns the delivery as
// queued, [apperr.NotFound] for an unknown id or another account's, or
// [apperr.Conflict] (details.reason "no_webhook" or "webhook_disabled").
func (s *Service) Redeliver(ctx context.Context, accountID, id string) (*Delivery, error) {
	d, err := s.store.Delivery(ctx, id)
	if err == nil && d.AccountID != accountID {
		err = apperr.New(apperr.NotFound, "delivery not found")
	}
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.New(apperr.NotFound, "delivery not found").WithDetail("deliveryId", id).Wrap(err)
		}
		return nil, err
	}
	c, err := s.configOf(ctx, accountID)
	if err != nil {
		return nil, err
	}
	if !c.Enabled {
		return nil, apperr.New(apperr.Conflict, "the webhook is disabled: enable it first").WithDetail("reason", "webhook_disabled")
	}
	now := s.clock()
	d.Status, d.WindowStart, d.NextAttemptAt = Pending, now, now
	if err := s.store.Requeue(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

// checkDestination refuses raw, a URL [CheckURL] took, when its host is
// one the policy refuses without resolving it: [apperr.BadRequest]
// details.field "url", details.reason "destination_refused".
func (s *Service) checkDestination(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return apperr.New(apperr.BadRequest, "url: not an absolute URL").WithDetail("field", "url").WithDetail("reason", "invalid")
	}
	if err := s.policy.CheckHost(u.Hostname()); err != nil {
		return apperr.New(apperr.BadRequest, "url: %v", err).WithDetail("field", "url").WithDetail("reason", "destination_refused")
	}
	return nil
}

// configOf returns the account's webhook or [apperr.Conflict]
// "no_webhook".
func (s *Service) configOf(ctx context.Context, accountID string) (*Config, error) {
	c, err := s.store.Webhook(ctx, accountID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, apperr.New(apperr.Conflict, "no webhook is configured: PUT /api/v1/webhook with its url first").
			WithDetail("reason", "no_webhook")
	}
	return c, err
}

// Attempt is the queue worker's step for run of a delivery: it makes
// the next attempt, with the webhook's URL and secret as they are now,
// and records the outcome. It returns how long to wait before the next
// attempt (0: none; the delivery is delivered, failed for good, or not
// to be sent). A delivery that is gone, no longer pending, or in a later
// run (a redeliver, or a rescue after a crash, queued a new job) is left
// alone; one whose webhook is disabled or removed is marked disabled,
// unsent. The delivery limits (docs/webhooks.md, Delivery queue) may hold
// the attempt back, unmade and uncounted: [BusyWait] while the account
// has its attempts at once in flight, and, while the URL's circuit is
// open, until the cool-down ends, which its nextAttemptAt then says (or
// for good, failed, when that is past its retry window). Its error is a
// store failure, after which the queue retries the step: the receiver
// may then get the delivery twice (at least once; the receipt's
// irRevision is the idempotency key).
func (s *Service) Attempt(ctx context.Context, deliveryID string, run int) (retryIn time.Duration, err error) {
	d, err := s.store.Delivery(ctx, deliveryID)
	if apperr.KindOf(err) == apperr.NotFound {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if d.Status != Pending || d.Run != run {
		return 0, nil
	}
	c, err := s.store.Webhook(ctx, d.AccountID)
	if err != nil && apperr.KindOf(err) != apperr.NotFound {
		return 0, err
	}
	if err != nil || !c.Enabled {
		d.Status, d.NextAttemptAt = Disabled, time.Time{}
		return 0, s.recordAttempt(ctx, d)
	}
	if !s.limits.accounts.Enter(d.AccountID) {
		// Nothing is recorded: a slot frees within an attempt's timeout.
		return BusyWait, nil
	}
	defer s.limits.accounts.Leave(d.AccountID)
	ok, probe, until := s.limits.breaker.allow(c.URL)
	if !ok {
		return s.holdBack(ctx, d, until)
	}
	// Whatever happens from here, the circuit hears how the attempt
	// ended: a probe left unreported would keep it half-open for good.
	res := abandoned
	defer func() { s.limits.breaker.done(c.URL, probe, res) }()
	now := s.now()
	out := send(ctx, s.client, c, d, d.Attempts+1, now)
	res = resultOf(ctx, out)
	s.record(d, out, true)
	if d.Status == Pending {
		retryIn = d.NextAttemptAt.Sub(now)
		s.log.Info("webhook delivery failed; will retry", "delivery", d.ID, "account", d.AccountID,
			"attempt", d.Attempts, "status", out.statusCode, "error", out.err, "detail", out.detail, "retryIn", retryIn.Round(time.Second))
	} else if d.Status == Failed {
		s.log.Warn("webhook delivery failed for good: its retry window is over", "delivery", d.ID,
			"account", d.AccountID, "attempts", d.Attempts, "error", out.err, "detail", out.detail)
	}
	if err := s.recordAttempt(ctx, d); err != nil {
		return 0, err
	}
	return max(retryIn, 0), nil
}

// holdBack keeps d pending without an attempt until until, when its
// URL's circuit lets one through, and records that as its next attempt;
// or, when until is past d's retry window (as the next attempt after a
// failure would be), marks it failed for good, its last attempt's
// outcome kept. It returns the wait, 0 for a failed delivery.
func (s *Service) holdBack(ctx context.Context, d *Delivery, until time.Time) (time.Duration, error) {
	if until.Sub(d.WindowStart) > s.schedule.Window {
		d.Status, d.NextAttemptAt = Failed, time.Time{}
		if d.LastError == "" {
			d.LastError = ReasonCircuitOpen
		}
		s.log.Warn("webhook delivery failed for good: its retry window ended while its receiver's circuit was open",
			"delivery", d.ID, "account", d.AccountID, "attempts", d.Attempts)
		return 0, s.recordAttempt(ctx, d)
	}
	d.NextAttemptAt = until
	if err := s.recordAttempt(ctx, d); err != nil {
		return 0, err
	}
	// Never 0, which would end the job with the delivery still pending.
	return max(until.Sub(s.now()), time.Millisecond), nil
}

// resultOf is how an attempt that got out ended, for the circuit: an
// attempt cut off by ctx (this process stopping) tells nothing of the
// receiver.
func resultOf(ctx context.Context, out outcome) result {
	switch {
	case out.ok:
		return succeeded
	case ctx.Err() != nil:
		return abandoned
	}
	return failed
}

func (s *Service) recordAttempt(ctx context.Context, d *Delivery) error {
	err := s.store.RecordAttempt(ctx, d)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil // a new run took over, or the account went with its deliveries
	}
	if err != nil {
		return fmt.Errorf("webhook: record attempt of %s: %w", d.ID, err)
	}
	return nil
}

// record applies an attempt's outcome to d: delivered, or, when retry is
// set and the window allows, pending with its next time, else failed.
func (s *Service) record(d *Delivery, out outcome, retry bool) {
	now := s.clock()
	d.Attempts++
	d.LastAttemptAt, d.LastStatusCode, d.LastError = now, out.statusCode, out.err
	d.NextAttemptAt = time.Time{}
	if out.ok {
		d.Status, d.DeliveredAt = Delivered, now
		return
	}
	d.Status = Failed
	if !retry {
		return
	}
	if at, ok := s.schedule.next(d.Attempts, d.WindowStart, s.now()); ok {
		d.Status, d.NextAttemptAt = Pending, at
	}
}
