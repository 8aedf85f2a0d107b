package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/drift"
)

// DiffInput is what [Service.Diff] compares against a project's current
// timeline. IR and AfterIR are the same field under two names (the
// OpenAPI operation diffProject takes both); File is a caption file in
// any format the engine reads, read as [Service.Create] reads one.
// Exactly one of them is required (IR and AfterIR count as one when
// equal).
type DiffInput struct {
	IR, AfterIR *string
	File        *File
	// BaseIRRevision, when set, is the revision the candidate was derived
	// from: the diff is refused if the project has moved on since.
	BaseIRRevision *int
}

// DiffResult is a drift diff and the revision it compared against.
type DiffResult struct {
	drift.Result
	CurrentIRRevision int
}

// Diff compares the candidate timeline in in with the project's current
// one (see package drift for how cues are matched). It returns:
//   - [apperr.BadRequest] (details.field "ir", "reason" "required") when
//     neither IR, AfterIR nor File is set, (details.field "file", "reason"
//     "ambiguous") when File comes with IR or AfterIR, and the errors of
//     [Service.Get];
//   - [apperr.Conflict] with details.reason "ir_mismatch" when IR and
//     AfterIR are both set and differ (which one the caller meant cannot
//     be guessed), "project_empty" when the project has no timeline yet,
//     and "stale_revision" (with details.currentIrRevision) when
//     BaseIRRevision is set and not the current revision;
//   - [apperr.RequestTooLarge] and [apperr.ProcessingFailed] for a
//     candidate [Service.PutIR] would refuse.
//
// Nothing is stored.
func (s *Service) Diff(ctx context.Context, accountID, id string, in DiffInput) (*DiffResult, error) {
	field, text := "ir", in.IR
	switch {
	case in.File != nil && (in.IR != nil || in.AfterIR != nil):
		return nil, apperr.New(apperr.BadRequest, "send the candidate as a file or as IR, not both").
			WithDetail("field", "file").WithDetail("reason", "ambiguous")
	case in.File != nil:
	case in.IR == nil && in.AfterIR == nil:
		return nil, apperr.New(apperr.BadRequest, "ir (or its alias afterIr) is required").
			WithDetail("field", "ir").WithDetail("reason", "required")
	case in.IR == nil:
		field, text = "afterIr", in.AfterIR
	case in.AfterIR != nil && *in.AfterIR != *in.IR:
		return nil, apperr.New(apperr.Conflict, "ir and its alias afterIr hold different timelines; send one of them").
			WithDetail("reason", "ir_mismatch").WithDetail("field", "afterIr")
	}
	d, err := s.Get(ctx, accountID, id)
	if err != nil {
		return nil, err
	}
	if d.IRRevision == 0 {
		return nil, apperr.New(apperr.Conflict, "the project has no timeline yet to compare against; store one with PUT .../ir first").
			WithDetail("reason", "project_empty").WithDetail("currentIrRevision", 0)
	}
	if in.BaseIRRevision != nil && *in.BaseIRRevision != d.IRRevision {
		return nil, staleError(*in.BaseIRRevision, d.IRRevision)
	}
	candidate, err := readCandidate(field, text, in.File)
	if err != nil {
		return nil, err
	}
	// The stored IR was written by this package from a track it read,
	// so it reads back without errors.
	current, _, err := caption.ParseJSON(strings.NewReader(d.IR))
	if err != nil {
		return nil, fmt.Errorf("project: diff %s: read current ir: %w", d.ID, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := drift.Diff(current, candidate, drift.Options{})
	return &DiffResult{Result: res, CurrentIRRevision: d.IRRevision}, nil
}

// readCandidate reads a diff's candidate: IR text strictly, a caption file
// as a project's own file is read.
func readCandidate(field string, text *string, f *File) (*caption.Track, error) {
	if f == nil {
		return parseIR(field, *text)
	}
	t, err := readFile("file", f)
	if err != nil {
		return nil, err
	}
	return t.track, nil
}
