package project

import (
	"context"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
)

// RevisionCheck is what [Exporter.CheckRevision] is asked: a kept
// revision of a project and what to check it for.
type RevisionCheck struct {
	// Revision is the revision's number; 0 is the newest.
	Revision   int
	Preset     string // "" is youtube
	FixProfile string // "" is warn-only
	Standard   string // "" grades none
}

// CheckedRevision is a kept revision and the engine's result on it.
type CheckedRevision struct {
	Project  Project
	Revision int
	// IR is the revision's timeline, the file the engine checked.
	IR string
	// Media is the project's analysed media the check ran against, nil
	// when none was analysed.
	Media  *analysis.Analysis
	Result *engine.Result
}

// CheckRevision runs the engine on a kept revision of the account's
// project, against the project's newest media analysis when there is
// one, as an export would, and stores and counts nothing: it is what a
// QC report shows (docs/api.md, QC report). It holds one of the engine's
// slots as [Exporter.CheckDraft] does. It returns [apperr.BadRequest]
// for a bad id, a negative revision (details.field "revision"), or a
// bad preset, fix profile or standard (details.field); [apperr.NotFound]
// for an unknown project or another account's, and for a revision the
// project does not keep (details.field "revision"); [apperr.Conflict]
// with details.reason "project_empty" when it has no timeline; and the
// engine's errors.
func (x *Exporter) CheckRevision(ctx context.Context, accountID, projectID string, in RevisionCheck) (*CheckedRevision, error) {
	id, err := checkID(projectID)
	if err != nil {
		return nil, err
	}
	if in.Revision < 0 {
		return nil, apperr.New(apperr.BadRequest, "revision must be 1 or more").WithDetail("field", "revision").WithDetail("reason", "out_of_range")
	}
	req := engine.Request{Filename: "timeline.json", From: format.JSON, Preset: in.Preset, FixProfile: in.FixProfile, Standard: in.Standard}
	// A preset of the account's own is as good here as in an export.
	if err := x.resolvePreset(ctx, accountID, &req); err != nil {
		return nil, err
	}
	if err := x.o.Engine.Validate(req); err != nil {
		return nil, err
	}
	d, err := x.o.Projects.ProjectIR(ctx, accountID, id)
	if err != nil {
		return nil, notFound(err, id, "check")
	}
	if d.IRRevision == 0 {
		return nil, apperr.New(apperr.Conflict, "the project has no timeline yet to check; store one with PUT .../ir first").
			WithDetail("reason", "project_empty").WithDetail("currentIrRevision", 0)
	}
	out := &CheckedRevision{Project: d.Project, Revision: d.IRRevision, IR: d.IR}
	if in.Revision != 0 && in.Revision != d.IRRevision {
		ir, err := x.o.Projects.RevisionIR(ctx, accountID, id, in.Revision)
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.New(apperr.NotFound, "the project keeps no revision %d (its newest is %d)", in.Revision, d.IRRevision).
				WithDetail("field", "revision").WithDetail("currentIrRevision", d.IRRevision).Wrap(err)
		}
		if err != nil {
			return nil, err
		}
		out.Revision, out.IR = in.Revision, ir
	}
	if x.o.Analyses != nil {
		if out.Media, err = x.o.Analyses.ProjectMediaAnalysis(ctx, accountID, id); err != nil {
			return nil, err
		}
	}
	req.Data, req.Media = []byte(out.IR), out.Media
	if x.o.EngineSlots != nil {
		if err := x.o.EngineSlots.Take(ctx); err != nil {
			return nil, err
		}
		defer x.o.EngineSlots.Give()
	}
	if out.Result, err = x.o.Engine.Process(ctx, req); err != nil {
		return nil, err
	}
	return out, nil
}
