package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/project"
)

// exportRequest is the body of POST /api/v1/projects/{id}/exports.
type exportRequest struct {
	Presets    []string `json:"presets"`
	FixProfile string   `json:"fixProfile"`
	Standard   string   `json:"standard"`
}

// receiptVersion is the version of the export receipt (spec 2.10).
const receiptVersion = 1

// ExportCreated is the 201 body of an export, and what
// "captionqa project export --json" prints: its id, the revision it
// was made from, the receipt (spec 2.10's shape, as the export webhook
// will carry it) and each artifact with its id.
type ExportCreated struct {
	ExportID              string         `json:"exportId"`
	ProjectID             string         `json:"projectId"`
	IRRevision            int            `json:"irRevision"`
	CreatedAt             time.Time      `json:"createdAt"`
	Receipt               ExportReceipt  `json:"receipt"`
	Artifacts             []ExportedFile `json:"artifacts"`
	RemainingAPIRunsToday int            `json:"remainingApiRunsToday"`
}

// ExportReceipt is spec 2.10's receipt of an export.
type ExportReceipt struct {
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

// ExportedFile is one artifact of an export; fetch its download link
// with GET /api/v1/artifacts/{artifactId}.
type ExportedFile struct {
	ArtifactID  string `json:"artifactId"`
	Preset      string `json:"preset"`
	Filename    string `json:"filename"`
	ContentType string `json:"contentType"`
	Bytes       int64  `json:"bytes"`
	SHA256      string `json:"sha256"`
}

// NewExportCreated returns the 201 body of e.
func NewExportCreated(e *project.Export) ExportCreated {
	out := ExportCreated{ExportID: e.ID, ProjectID: e.ProjectID, IRRevision: e.IRRevision, CreatedAt: e.CreatedAt.UTC(),
		RemainingAPIRunsToday: e.RemainingRuns,
		Receipt: ExportReceipt{Version: receiptVersion, Kind: "single_export", ProjectID: e.ProjectID, IRRevision: e.IRRevision,
			Artifacts: make([]ReceiptArtifact, 0, len(e.Artifacts))},
		Artifacts: make([]ExportedFile, 0, len(e.Artifacts))}
	for _, a := range e.Artifacts {
		out.Receipt.Artifacts = append(out.Receipt.Artifacts, ReceiptArtifact{Preset: a.Preset, ExportID: e.ID, Filename: a.Filename})
		out.Artifacts = append(out.Artifacts, ExportedFile{ArtifactID: a.ID, Preset: a.Preset, Filename: a.Filename,
			ContentType: a.ContentType, Bytes: a.Bytes, SHA256: a.SHA256})
	}
	return out
}

// artifactURL is the body of GET /api/v1/artifacts/{artifactId} (spec
// 2.9).
type artifactURL struct {
	ArtifactID  string    `json:"artifactId"`
	URL         string    `json:"url"`
	ExpiresAt   time.Time `json:"expiresAt"`
	Filename    string    `json:"filename"`
	ContentType string    `json:"contentType"`
	Bytes       int64     `json:"bytes"`
}
