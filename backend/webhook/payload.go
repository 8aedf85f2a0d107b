package webhook

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/project"
)

// ReceiptVersion is the version of the export receipt.
const ReceiptVersion = 1

// Payload is the body of an export_complete delivery (docs/webhooks.md,
// What a delivery looks like). The
// export's 201 response carries the same receipt.
type Payload struct {
	Event   string  `json:"event"`
	Receipt Receipt `json:"receipt"`
}

// Receipt is the receipt of an export: the contract's ExportReceipt.
type Receipt struct {
	Version    int               `json:"version"`
	Kind       string            `json:"kind"`
	ProjectID  string            `json:"projectId"`
	IRRevision int               `json:"irRevision"`
	Artifacts  []ReceiptArtifact `json:"artifacts"`
}

// ReceiptArtifact names one file of a receipt.
type ReceiptArtifact struct {
	Preset   string `json:"preset"`
	ExportID string `json:"exportId"`
	Filename string `json:"filename"`
}

// NewReceipt returns e's receipt.
func NewReceipt(e *project.Export) Receipt {
	r := Receipt{Version: ReceiptVersion, Kind: "single_export", ProjectID: e.ProjectID, IRRevision: e.IRRevision,
		Artifacts: make([]ReceiptArtifact, 0, len(e.Artifacts))}
	for _, a := range e.Artifacts {
		r.Artifacts = append(r.Artifacts, ReceiptArtifact{Preset: a.Preset, ExportID: e.ID, Filename: a.Filename})
	}
	return r
}

// TestPayload is the body of a test delivery: not an export, so a
// receiver that handles export_complete only can tell it apart by event.
type TestPayload struct {
	Event      string    `json:"event"`
	DeliveryID string    `json:"deliveryId"`
	SentAt     time.Time `json:"sentAt"`
}

// NewExportDelivery returns the pending export_complete delivery of e,
// made at now, its body fixed for every attempt.
func NewExportDelivery(e *project.Export, now time.Time) *Delivery {
	body, _ := json.Marshal(Payload{Event: EventExportComplete, Receipt: NewReceipt(e)}) // plain strings and ints
	return &Delivery{ID: uuid.NewString(), AccountID: e.AccountID, Event: EventExportComplete,
		ProjectID: e.ProjectID, IRRevision: e.IRRevision, ExportID: e.ID, Body: body,
		Status: Pending, CreatedAt: now, WindowStart: now, NextAttemptAt: now, Run: 1}
}

// newTestDelivery returns the test delivery of accountID, made at now.
func newTestDelivery(accountID string, now time.Time) *Delivery {
	id := uuid.NewString()
	body, _ := json.Marshal(TestPayload{Event: EventTest, DeliveryID: id, SentAt: now})
	return &Delivery{ID: id, AccountID: accountID, Event: EventTest, Body: body,
		Status: Pending, CreatedAt: now, WindowStart: now, NextAttemptAt: now, Run: 1}
}
