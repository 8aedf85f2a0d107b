package project

import (
	"context"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
)

// DraftCheck is what [Exporter.CheckDraft] is asked: an editor's draft of
// a project's timeline, as IR v1 JSON text, and what to check it for.
type DraftCheck struct {
	IR       string
	Preset   string // "" is youtube
	Standard string // "" grades none
}

// CheckDraft runs the engine on a draft of the account's project, warn
// only, against the project's analysed media when there is one, and
// stores and counts nothing: it is what an editor runs after each edit
// (docs/ui.md, The editor), so it holds one of the engine's slots but no
// run of the daily pool; the per-key burst limit bounds it. It returns
// [apperr.NotFound] for an unknown project or another account's,
// [apperr.BadRequest] for a bad id, preset or standard (details.field),
// [apperr.RequestTooLarge] (details.limitBytes) past [MaxIRBytes], and
// the engine's errors for a draft it cannot read.
func (x *Exporter) CheckDraft(ctx context.Context, accountID, projectID string, in DraftCheck) (*engine.Result, error) {
	id, err := checkID(projectID)
	if err != nil {
		return nil, err
	}
	if len(in.IR) > MaxIRBytes {
		return nil, apperr.New(apperr.RequestTooLarge, "the draft is %d bytes; a timeline holds at most %d", len(in.IR), MaxIRBytes).
			WithDetail("field", "ir").WithDetail("limitBytes", MaxIRBytes)
	}
	req := engine.Request{Filename: "draft.json", From: format.JSON, Data: []byte(in.IR), Preset: in.Preset, Standard: in.Standard}
	if err := x.resolvePreset(ctx, accountID, &req); err != nil {
		return nil, err
	}
	if err := x.o.Engine.Validate(req); err != nil {
		return nil, err
	}
	// The revisions' list, not the IR: only whether the project is the
	// account's matters here.
	if _, _, err := x.o.Projects.Revisions(ctx, accountID, id); err != nil {
		return nil, notFound(err, id, "check")
	}
	var programme *analysis.Analysis
	if x.o.Analyses != nil {
		if programme, err = x.o.Analyses.ProjectMediaAnalysis(ctx, accountID, id); err != nil {
			return nil, err
		}
	}
	req.Media = programme
	if x.o.EngineSlots != nil {
		if err := x.o.EngineSlots.Take(ctx); err != nil {
			return nil, err
		}
		defer x.o.EngineSlots.Give()
	}
	return x.o.Engine.Process(ctx, req)
}
