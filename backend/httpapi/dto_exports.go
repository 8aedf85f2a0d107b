package httpapi

import (
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/standard"
	"github.com/captionqa/captionqa/backend/webhook"
)

// exportRequest is the body of POST /api/v1/projects/{id}/exports.
type exportRequest struct {
	Presets     []string `json:"presets"`
	TemplateIDs []string `json:"templateIds"`
	FixProfile  string   `json:"fixProfile"`
	Standard    string   `json:"standard"`
}

// ExportCreated is the 201 body of an export, and what
// "captionqa project export --json" prints: its id, the revision it
// was made from, the receipt (as the export webhook carries it) and each
// artifact with its id.
type ExportCreated struct {
	ExportID              string          `json:"exportId"`
	ProjectID             string          `json:"projectId"`
	IRRevision            int             `json:"irRevision"`
	CreatedAt             time.Time       `json:"createdAt"`
	Receipt               webhook.Receipt `json:"receipt"`
	Artifacts             []ExportedFile  `json:"artifacts"`
	RemainingAPIRunsToday int             `json:"remainingApiRunsToday"`
}

// ExportedFile is one artifact of an export; fetch its download link
// with GET /api/v1/artifacts/{artifactId}.
type ExportedFile struct {
	ArtifactID string `json:"artifactId"`
	Preset     string `json:"preset"`
	// TemplateID names the export template that made the file; null for
	// a preset's file.
	TemplateID  *string `json:"templateId"`
	Filename    string  `json:"filename"`
	ContentType string  `json:"contentType"`
	Bytes       int64   `json:"bytes"`
	SHA256      string  `json:"sha256"`
	// Verdict is what the engine found of a preset's file; absent for a
	// template's.
	Verdict *ExportVerdict `json:"verdict,omitempty"`
}

// ExportVerdict is the verdict of one exported file (the contract's
// ExportVerdict).
type ExportVerdict struct {
	DeliveryStatus string           `json:"deliveryStatus"`
	Problems       int              `json:"problems"`
	Suggestions    int              `json:"suggestions"`
	Standard       *StandardVerdict `json:"standard,omitempty"`
}

// StandardVerdict is a graded file's clause summary.
type StandardVerdict struct {
	ID      string           `json:"id"`
	Title   string           `json:"title"`
	Summary standard.Summary `json:"summary"`
}

func newExportVerdict(v *project.Verdict) *ExportVerdict {
	if v == nil {
		return nil
	}
	out := &ExportVerdict{DeliveryStatus: string(v.Status), Problems: v.Problems, Suggestions: v.Suggestions}
	if s := v.Standard; s != nil {
		out.Standard = &StandardVerdict{ID: s.ID, Title: s.Title, Summary: s.Summary}
	}
	return out
}

// NewExportCreated returns the 201 body of e.
func NewExportCreated(e *project.Export) ExportCreated {
	out := ExportCreated{ExportID: e.ID, ProjectID: e.ProjectID, IRRevision: e.IRRevision, CreatedAt: e.CreatedAt.UTC(),
		RemainingAPIRunsToday: e.RemainingRuns,
		Receipt:               webhook.NewReceipt(e),
		Artifacts:             make([]ExportedFile, 0, len(e.Artifacts))}
	for _, a := range e.Artifacts {
		f := ExportedFile{ArtifactID: a.ID, Preset: a.Preset, Filename: a.Filename,
			ContentType: a.ContentType, Bytes: a.Bytes, SHA256: a.SHA256, Verdict: newExportVerdict(a.Verdict)}
		if id, ok := strings.CutPrefix(a.Preset, project.TemplatePresetPrefix); ok {
			f.TemplateID = &id
		}
		out.Artifacts = append(out.Artifacts, f)
	}
	return out
}

// artifactURL is the body of GET /api/v1/artifacts/{artifactId} (the
// OpenAPI operation getArtifactURL).
type artifactURL struct {
	ArtifactID  string    `json:"artifactId"`
	URL         string    `json:"url"`
	ExpiresAt   time.Time `json:"expiresAt"`
	Filename    string    `json:"filename"`
	ContentType string    `json:"contentType"`
	Bytes       int64     `json:"bytes"`
}
