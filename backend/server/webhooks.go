package server

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// webhookWorker is the queue's worker of webhook deliveries: it is
// registered before the queue exists, and the service it calls needs
// the queue's store, so the service is set once both are built.
type webhookWorker struct{ svc *webhook.Service }

// register adds the delivery job's worker to ws: each run makes one
// attempt, and a failed one snoozes the job until the delivery's next
// time on the webhook schedule.
func (w *webhookWorker) register(ws *jobs.Workers) {
	jobs.HandleSnoozing(ws, func(ctx context.Context, j jobs.WebhookJob) (time.Duration, error) {
		return w.svc.Attempt(ctx, j.DeliveryID, j.Run)
	})
}

// newWebhooks returns the webhook service over q: deliveries trust the
// system's roots plus [Config.WebhookCAFile]'s, and follow
// [Config.WebhookTimeout] and [Config.WebhookSchedule], and connect
// only where [Config.WebhookAllow] and [Config.WebhookAllowPrivate]
// let them; [Config.WebhookPerAccount] and the breaker's settings bound
// what one account's or one receiver's deliveries hold.
func newWebhooks(q store.Queue, cfg *Config) (*webhook.Service, error) {
	var ca []byte
	if cfg.WebhookCAFile != "" {
		b, err := os.ReadFile(cfg.WebhookCAFile)
		if err != nil {
			return nil, fmt.Errorf("server: webhook CA: %w", err)
		}
		ca = b
	}
	policy := webhook.Policy{Allow: cfg.WebhookAllow, AllowPrivate: cfg.WebhookAllowPrivate}
	client, err := webhook.NewClient(ca, cfg.WebhookTimeout, policy)
	if err != nil {
		return nil, fmt.Errorf("server: webhook CA %s: %w", cfg.WebhookCAFile, err)
	}
	return webhook.NewService(q.Webhooks(), webhook.Options{Client: client, Schedule: cfg.WebhookSchedule,
		Now: cfg.Now, Logger: cfg.logger().With("component", "webhook"), Policy: policy,
		PerAccount: cfg.WebhookPerAccount, BreakerFailures: cfg.WebhookBreakerFailures, BreakerCoolDown: cfg.WebhookBreakerCoolDown}), nil
}
