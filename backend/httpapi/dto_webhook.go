package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/webhook"
)

// webhookRequest is the body of PUT /api/v1/webhook (the OpenAPI
// operation putWebhook); absent
// fields keep their value.
type webhookRequest struct {
	URL          *string `json:"url"`
	Enabled      *bool   `json:"enabled"`
	RotateSecret bool    `json:"rotateSecret"`
}

// WebhookView is the body of GET and PUT /api/v1/webhook: the
// configuration with its secret masked, except in the PUT response that
// made the secret (SecretRevealed), and the newest delivery. Without a
// webhook, Configured and Enabled are false, URL and Secret null.
type WebhookView struct {
	Configured     bool          `json:"configured"`
	URL            *string       `json:"url"`
	Enabled        bool          `json:"enabled"`
	Secret         *string       `json:"secret"`
	SecretRevealed bool          `json:"secretRevealed"`
	CreatedAt      *time.Time    `json:"createdAt"`
	UpdatedAt      *time.Time    `json:"updatedAt"`
	Events         []string      `json:"events"`
	LastDelivery   *DeliveryView `json:"lastDelivery"`
}

func newWebhookView(c *webhook.Config, last *webhook.Delivery, revealed bool) WebhookView {
	v := WebhookView{Events: []string{}}
	if c != nil {
		v.Configured, v.Events = true, []string{webhook.EventExportComplete}
		secret := webhook.Mask(c.Secret)
		if revealed {
			secret = c.Secret
		}
		v.URL, v.Enabled, v.Secret, v.SecretRevealed = &c.URL, c.Enabled, &secret, revealed
		v.CreatedAt, v.UpdatedAt = timeOrNil(c.CreatedAt), timeOrNil(c.UpdatedAt)
	}
	if last != nil {
		d := newDeliveryView(last)
		v.LastDelivery = &d
	}
	return v
}

// DeliveryView is one delivery in the log.
type DeliveryView struct {
	DeliveryID     string     `json:"deliveryId"`
	Event          string     `json:"event"`
	ProjectID      *string    `json:"projectId"`
	IRRevision     *int       `json:"irRevision"`
	ExportID       *string    `json:"exportId"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	LastStatusCode *int       `json:"lastStatusCode"`
	LastError      *string    `json:"lastError"`
	LastAttemptAt  *time.Time `json:"lastAttemptAt"`
	NextAttemptAt  *time.Time `json:"nextAttemptAt"`
	DeliveredAt    *time.Time `json:"deliveredAt"`
	CreatedAt      time.Time  `json:"createdAt"`
}

func newDeliveryView(d *webhook.Delivery) DeliveryView {
	v := DeliveryView{DeliveryID: d.ID, Event: d.Event, Status: string(d.Status), Attempts: d.Attempts,
		LastAttemptAt: timeOrNil(d.LastAttemptAt), NextAttemptAt: timeOrNil(d.NextAttemptAt),
		DeliveredAt: timeOrNil(d.DeliveredAt), CreatedAt: d.CreatedAt.UTC()}
	if d.ProjectID != "" {
		v.ProjectID, v.IRRevision = &d.ProjectID, &d.IRRevision
	}
	if d.ExportID != "" {
		v.ExportID = &d.ExportID
	}
	if d.LastStatusCode != 0 {
		v.LastStatusCode = &d.LastStatusCode
	}
	if d.LastError != "" {
		v.LastError = &d.LastError
	}
	return v
}

// deliveryList is the body of GET /api/v1/webhook/deliveries.
type deliveryList struct {
	Deliveries []DeliveryView `json:"deliveries"`
}

// deliveryResult is the body of the test and redeliver routes.
type deliveryResult struct {
	Delivery DeliveryView `json:"delivery"`
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
