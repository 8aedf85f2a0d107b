package webhook

import (
	"time"
)

// Events a delivery carries: export_complete after an export, and "test",
// the event POST /api/v1/webhook/test sends.
const (
	EventExportComplete = "export_complete"
	EventTest           = "test"
)

// Status is where a delivery stands.
type Status string

// Delivery statuses.
const (
	// Pending: queued, or waiting for its next attempt.
	Pending Status = "pending"
	// Delivered: the receiver answered 2xx.
	Delivered Status = "delivered"
	// Failed: no attempt succeeded within the retry window; a redeliver
	// starts a new window.
	Failed Status = "failed"
	// Disabled: the webhook was disabled or removed before an attempt;
	// nothing was sent.
	Disabled Status = "disabled"
)

// Config is an account's webhook. Times are UTC, whole seconds.
type Config struct {
	AccountID string
	// URL is where deliveries go: https only ([CheckURL]).
	URL     string
	Enabled bool
	// Secret keys the signatures ([Sign]): made by the server
	// ([NewSecret]), shown in full once, masked after ([Mask]).
	Secret    string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Delivery is one event for one account's webhook, and the outcome of
// its attempts so far. Every attempt sends the same Body; the URL and
// the secret are the webhook's at the time of the attempt, so a rotated
// secret signs every attempt after the rotation.
type Delivery struct {
	ID        string // uuid, sent as HeaderDelivery
	AccountID string
	Event     string
	// ProjectID, IRRevision and ExportID name the export of an
	// export_complete delivery; empty and zero for a test.
	ProjectID  string
	IRRevision int
	ExportID   string
	// Body is the exact JSON sent and signed.
	Body []byte

	Status         Status
	Attempts       int
	LastStatusCode int // 0: no HTTP answer (or no attempt yet)
	LastError      string
	LastAttemptAt  time.Time
	NextAttemptAt  time.Time // zero unless Pending
	DeliveredAt    time.Time
	CreatedAt      time.Time
	// WindowStart starts the retry window of the current run of attempts:
	// the delivery's creation, or its last redeliver.
	WindowStart time.Time
	// Run numbers the runs of attempts, from 1; each redeliver (or rescue
	// after a crash) starts the next. An attempt of an older run records
	// nothing.
	Run int
}
