package jobs

// WebhookJobKind is the kind of the job that attempts a webhook delivery.
const WebhookJobKind = "captionqa.webhook_delivery"

// WebhookJob is the job that makes the attempts of one run of a webhook
// delivery.
type WebhookJob struct {
	DeliveryID string `json:"deliveryId"`
	Run        int    `json:"run"`
}

// Kind names the job's worker.
func (WebhookJob) Kind() string { return WebhookJobKind }

// WebhookJobOpts are the delivery job's: it runs in [WebhookQueue] and
// keeps the delivery's own schedule by snoozing ([HandleSnoozing]);
// River's retries, on its default policy, only cover failures of the
// store.
func WebhookJobOpts() *EnqueueOpts { return &EnqueueOpts{MaxAttempts: 25, Queue: WebhookQueue} }
