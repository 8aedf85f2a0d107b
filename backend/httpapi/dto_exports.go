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

// exportCreated is the 201 body of an export: its id, the revision it
// was made from, the receipt (spec 2.10's shape, as the export webhook
// will carry it) and each artifact with its id.
type exportCreated struct {
	ExportID              string         `json:"exportId"`
	ProjectID             string         `json:"projectId"`
	IRRevision            int            `json:"irRevision"`
	CreatedAt             time.Time      `json:"createdAt"`
	Receipt               exportReceipt  `json:"receipt"`
	Artifacts             []exportedFile `json:"artifacts"`
	RemainingAPIRunsToday int            `json:"remainingApiRunsToday"`
}

type exportReceipt struct {
	Version    int               `json:"version"`
	Kind       string            `json:"kind"`
	ProjectID  string            `json:"projectId"`
	IRRevision int               `json:"irRevision"`
	Artifacts  []receiptArtifact `json:"artifacts"`
}

type receiptArtifact struct {
	Preset   string `json:"preset"`
	ExportID string `json:"exportId"`
	Filename string `json:"filename"`
}

// exportedFile is one artifact of an export; fetch its download link
// with GET /api/v1/artifacts/{artifactId}.
type exportedFile struct {
	ArtifactID  string `json:"artifactId"`
	Preset      string `json:"preset"`
	Filename    string `json:"filename"`
	ContentType string `json:"contentType"`
	Bytes       int64  `json:"bytes"`
	SHA256      string `json:"sha256"`
}

func newExportCreated(e *project.Export) exportCreated {
	out := exportCreated{ExportID: e.ID, ProjectID: e.ProjectID, IRRevision: e.IRRevision, CreatedAt: e.CreatedAt.UTC(),
		RemainingAPIRunsToday: e.RemainingRuns,
		Receipt: exportReceipt{Version: receiptVersion, Kind: "single_export", ProjectID: e.ProjectID, IRRevision: e.IRRevision,
			Artifacts: make([]receiptArtifact, 0, len(e.Artifacts))},
		Artifacts: make([]exportedFile, 0, len(e.Artifacts))}
	for _, a := range e.Artifacts {
		out.Receipt.Artifacts = append(out.Receipt.Artifacts, receiptArtifact{Preset: a.Preset, ExportID: e.ID, Filename: a.Filename})
		out.Artifacts = append(out.Artifacts, exportedFile{ArtifactID: a.ID, Preset: a.Preset, Filename: a.Filename,
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
