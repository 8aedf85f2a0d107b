package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/exporttpl"
)

// MaxTemplateBodyBytes bounds a template request's body: a script at
// its limit, each byte escaped at worst to six (\u00XX), and the other
// fields.
const MaxTemplateBodyBytes = 6*exporttpl.MaxScriptBytes + 64<<10

// templateDraft is the body of POST /api/v1/export-templates.
type templateDraft struct {
	Name            string `json:"name"`
	ScriptSource    string `json:"scriptSource"`
	FilenamePattern string `json:"filenamePattern"`
	ContentType     string `json:"contentType"`
}

// templateChange is the body of PUT /api/v1/export-templates/{id};
// absent fields keep their value.
type templateChange struct {
	Name            *string `json:"name"`
	ScriptSource    *string `json:"scriptSource"`
	FilenamePattern *string `json:"filenamePattern"`
	ContentType     *string `json:"contentType"`
	Revision        *int    `json:"revision"`
}

// templateCheck is the body of the validate and test routes.
type templateCheck struct {
	ScriptSource string `json:"scriptSource"`
	Mode         string `json:"mode"`
	ProjectID    string `json:"projectId"`
}

// TemplateView is an export template (docs/templates.md); the list leaves out
// scriptSource.
type TemplateView struct {
	ID              string    `json:"id"`
	Name            string    `json:"name"`
	ScriptSource    *string   `json:"scriptSource,omitempty"`
	Revision        int       `json:"revision"`
	FilenamePattern string    `json:"filenamePattern"`
	ContentType     string    `json:"contentType"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

func newTemplateView(t *exporttpl.Template, withSource bool) TemplateView {
	v := TemplateView{ID: t.ID, Name: t.Name, Revision: t.Revision, FilenamePattern: t.FilenamePattern,
		ContentType: t.ContentType, CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC()}
	if withSource {
		v.ScriptSource = &t.Source
	}
	return v
}

// templateList is the body of GET /api/v1/export-templates.
type templateList struct {
	Templates []TemplateView `json:"templates"`
}

// templateDeleted is the body of DELETE /api/v1/export-templates/{id}.
type templateDeleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// TemplateRunResult is the body of the validate and test routes.
type TemplateRunResult struct {
	Mode                  string           `json:"mode"`
	Validate              *templatePhase   `json:"validate"`
	Test                  *templateTestRun `json:"test"`
	RemainingAPIRunsToday int              `json:"remainingApiRunsToday"`
}

type templatePhase struct {
	OK         bool  `json:"ok"`
	DurationMs int64 `json:"durationMs"`
}

type templateTestRun struct {
	templatePhase
	Output      string `json:"output"`
	OutputBytes int    `json:"outputBytes"`
	Truncated   bool   `json:"truncated"`
	Filename    string `json:"filename"`
	ContentType string `json:"contentType"`
}

func newTemplateRunResult(r *exporttpl.RunResult) TemplateRunResult {
	out := TemplateRunResult{Mode: r.Mode, RemainingAPIRunsToday: r.RemainingRuns}
	if r.Validate != nil {
		out.Validate = &templatePhase{OK: true, DurationMs: r.Validate.Duration.Milliseconds()}
	}
	if t := r.Test; t != nil {
		out.Test = &templateTestRun{templatePhase: templatePhase{OK: true, DurationMs: t.Duration.Milliseconds()},
			Output: t.Preview, OutputBytes: t.OutputBytes, Truncated: t.Truncated, Filename: t.Filename, ContentType: t.ContentType}
	}
	return out
}
