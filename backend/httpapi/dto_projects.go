package httpapi

import (
	"encoding/json"
	"time"

	"github.com/captionqa/captionqa/backend/drift"
	"github.com/captionqa/captionqa/backend/project"
)

// MaxIRBodyBytes bounds the JSON body of a route that carries IR text
// (create, put ir, diff): IR of [project.MaxIRBytes] escaped inside a
// JSON string grows (every quote and newline takes two bytes), so the
// body may be twice the IR and a little more. The IR itself is held to
// project.MaxIRBytes once decoded.
const MaxIRBodyBytes = 2*project.MaxIRBytes + 64<<10

// createProjectRequest is the JSON body of POST /api/v1/projects.
type createProjectRequest struct {
	Name string `json:"name"`
	// IR is IR v1 JSON text; absent makes an empty project.
	IR *string `json:"ir"`
}

// putIRRequest is the body of PUT /api/v1/projects/{id}/ir. Both fields
// are required; pointers tell absent from zero.
type putIRRequest struct {
	IR           *string `json:"ir"`
	BaseRevision *int    `json:"baseRevision"`
}

// ProjectView is a project as the API shows it.
type ProjectView struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Status     string    `json:"status"`
	IRRevision int       `json:"irRevision"`
	CueCount   int       `json:"cueCount"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// NewProjectView returns p as the API shows it.
func NewProjectView(p *project.Project) ProjectView {
	return ProjectView{ID: p.ID, Name: p.Name, Status: p.Status(), IRRevision: p.IRRevision, CueCount: p.CueCount,
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC()}
}

// projectList is the body of GET /api/v1/projects.
type projectList struct {
	Projects []ProjectView `json:"projects"`
	// NextCursor continues the listing (query cursor); null on the last
	// page.
	NextCursor *string `json:"nextCursor"`
}

func newProjectList(page *project.Page) projectList {
	out := projectList{Projects: make([]ProjectView, 0, len(page.Projects))}
	for i := range page.Projects {
		out.Projects = append(out.Projects, NewProjectView(&page.Projects[i]))
	}
	if page.NextCursor != "" {
		out.NextCursor = &page.NextCursor
	}
	return out
}

// projectDetail is the body of GET /api/v1/projects/{id}: the project
// and its current timeline as an IR v1 object, null while it is empty.
type projectDetail struct {
	ProjectView
	IR json.RawMessage `json:"ir"`
}

func newProjectDetail(d *project.Detail) projectDetail {
	out := projectDetail{ProjectView: NewProjectView(&d.Project)}
	if d.IR != "" {
		// Stored IR is compact JSON the service wrote: sent as it is.
		out.IR = json.RawMessage(d.IR)
	}
	return out
}

// revisionView is one kept revision.
type revisionView struct {
	IRRevision int       `json:"irRevision"`
	CueCount   int       `json:"cueCount"`
	CreatedAt  time.Time `json:"createdAt"`
}

// revisionList is the body of GET /api/v1/projects/{id}/revisions.
type revisionList struct {
	ProjectID         string         `json:"projectId"`
	CurrentIRRevision int            `json:"currentIrRevision"`
	Revisions         []revisionView `json:"revisions"`
}

func newRevisionList(p *project.Project, revs []project.Revision) revisionList {
	out := revisionList{ProjectID: p.ID, CurrentIRRevision: p.IRRevision, Revisions: make([]revisionView, 0, len(revs))}
	for _, r := range revs {
		out.Revisions = append(out.Revisions, revisionView{IRRevision: r.Number, CueCount: r.CueCount, CreatedAt: r.CreatedAt.UTC()})
	}
	return out
}

// projectDeleted is the body of DELETE /api/v1/projects/{id}.
type projectDeleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// diffRequest is the body of POST /api/v1/projects/{id}/diff.
type diffRequest struct {
	IR *string `json:"ir"`
	// AfterIR is an alias of IR (the OpenAPI operation diffProject takes
	// both).
	AfterIR        *string `json:"afterIr"`
	BaseIRRevision *int    `json:"baseIrRevision"`
}

// driftDiff is the 200 body of the diff (docs/api.md, Drift): drift's
// result, whose JSON shape package drift fixes, plus the revision
// compared against.
type driftDiff struct {
	drift.Result
	CurrentIRRevision int `json:"currentIrRevision"`
}
