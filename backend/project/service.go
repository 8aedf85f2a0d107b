package project

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/name"
)

// Options configure a [Service]. Zero fields take their defaults.
type Options struct {
	// Blobs, when set, is where a deleted project's artifacts are
	// deleted from at once; without it the orphan sweeper deletes them.
	Blobs blob.Store
	// Now returns the current time; default time.Now.
	Now func() time.Time
}

// Service manages an account's projects and their revisions. It is safe
// for concurrent use.
type Service struct {
	store Store
	blobs blob.Store
	now   func() time.Time
}

// NewService returns a [Service] over store.
func NewService(store Store, opts Options) *Service {
	s := &Service{store: store, blobs: opts.Blobs, now: opts.Now}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// clock returns the current time as the store keeps it: UTC, whole
// seconds.
func (s *Service) clock() time.Time { return s.now().UTC().Truncate(time.Second) }

// New is what [Service.Create] needs. At most one of IR and File may be
// set; neither makes an empty project.
type New struct {
	Name string
	// IR is IR v1 JSON text, read strictly (see [Service.Create]).
	IR *string
	// File is a caption file in any format the engine reads.
	File *File
}

// File is an uploaded caption file.
type File struct {
	Name string // the client's file name: a hint for format detection
	Data []byte
}

// Create stores a new project, with its timeline as revision 1 when in
// carries one. It returns:
//   - [apperr.BadRequest] for a name [name.Check] refuses (details
//     "field" "name", "reason"), or both an IR and a file (details.field
//     "ir");
//   - [apperr.RequestTooLarge] when the IR text, the file or the IR read
//     from it exceeds [MaxIRBytes] (details "field", "limitBytes");
//   - [apperr.ProcessingFailed] when the timeline cannot be stored: a
//     file or IR that yields no cues, or IR text with errors (details
//     "field", "diagnostics", "omittedDiagnostics");
//   - [apperr.Conflict] with details "reason" "project_limit" and "limit"
//     when the account already holds [MaxProjects] projects;
//   - [apperr.NotFound] if the account does not exist.
func (s *Service) Create(ctx context.Context, accountID string, in New) (*Project, error) {
	projectName, err := name.Check("name", in.Name, MaxNameLen)
	if err != nil {
		return nil, err
	}
	if in.IR != nil && in.File != nil {
		return nil, apperr.New(apperr.BadRequest, "send the timeline as ir or as a file, not both").WithDetail("field", "ir")
	}
	var tl *timeline
	switch {
	case in.IR != nil:
		tl, err = readIR("ir", *in.IR)
	case in.File != nil:
		tl, err = readFile("file", in.File)
	}
	if err != nil {
		return nil, err
	}
	now := s.clock()
	p := &Project{ID: uuid.NewString(), AccountID: accountID, Name: projectName, CreatedAt: now, UpdatedAt: now}
	var first *Revision
	if tl != nil {
		first = &Revision{Number: 1, CueCount: tl.cues, CreatedAt: now, IR: tl.ir}
		p.IRRevision, p.CueCount = 1, tl.cues
	}
	err = s.store.CreateProject(ctx, p, first, MaxProjects)
	switch {
	case err == nil:
		return p, nil
	case errors.Is(err, ErrTooManyProjects):
		return nil, apperr.New(apperr.Conflict,
			"the account already holds %d projects, the most it may; delete one before creating another", MaxProjects).
			WithDetail("reason", "project_limit").WithDetail("limit", MaxProjects).Wrap(err)
	case apperr.KindOf(err) == apperr.NotFound:
		return nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	return nil, fmt.Errorf("project: create: %w", err)
}

// Get returns the project with its current timeline. It returns
// [apperr.BadRequest] (details.field "id") for an id that is not a UUID
// and [apperr.NotFound] when the project is unknown or another
// account's.
func (s *Service) Get(ctx context.Context, accountID, id string) (*Detail, error) {
	id, err := checkID(id)
	if err != nil {
		return nil, err
	}
	d, err := s.store.ProjectIR(ctx, accountID, id)
	if err != nil {
		return nil, notFound(err, id, "get")
	}
	return d, nil
}

// Revisions returns the project and its kept revisions, newest first,
// without their IR. Errors are those of [Service.Get].
func (s *Service) Revisions(ctx context.Context, accountID, id string) (*Project, []Revision, error) {
	id, err := checkID(id)
	if err != nil {
		return nil, nil, err
	}
	p, revs, err := s.store.Revisions(ctx, accountID, id)
	if err != nil {
		return nil, nil, notFound(err, id, "revisions")
	}
	return p, revs, nil
}

// PutIR stores ir (IR v1 JSON text, read as [Service.Create] reads it)
// as the project's next revision, if base is its current revision (0 for
// an empty project), prunes the revisions beyond [KeptRevisions] and
// returns the project as updated. It returns the errors of
// [Service.Get], those of Create for the IR, [apperr.BadRequest]
// (details.field "baseRevision") for a negative base, and
// [apperr.Conflict] with details "reason" "stale_revision" and
// "currentIrRevision" when base is not the current revision: someone
// stored another revision since the caller read base.
func (s *Service) PutIR(ctx context.Context, accountID, id, ir string, base int) (*Project, error) {
	return s.put(ctx, accountID, id, base, func() (*timeline, error) { return readIR("ir", ir) })
}

// PutFile is [Service.PutIR] for a caption file in any format the engine
// reads, read as [Service.Create] reads one (details.field "file").
func (s *Service) PutFile(ctx context.Context, accountID, id string, f *File, base int) (*Project, error) {
	return s.put(ctx, accountID, id, base, func() (*timeline, error) { return readFile("file", f) })
}

// put stores the timeline read returns as the revision after base.
func (s *Service) put(ctx context.Context, accountID, id string, base int, read func() (*timeline, error)) (*Project, error) {
	id, err := checkID(id)
	if err != nil {
		return nil, err
	}
	if base < 0 {
		return nil, apperr.New(apperr.BadRequest, "baseRevision must be 0 or more").WithDetail("field", "baseRevision")
	}
	tl, err := read()
	if err != nil {
		return nil, err
	}
	now := s.clock()
	rev := &Revision{Number: base + 1, CueCount: tl.cues, CreatedAt: now, IR: tl.ir}
	p, err := s.store.AddRevision(ctx, accountID, id, base, rev, KeptRevisions)
	var stale *StaleRevisionError
	if errors.As(err, &stale) {
		return nil, staleError(base, stale.Current).Wrap(err)
	}
	if err != nil {
		return nil, notFound(err, id, "put ir")
	}
	return p, nil
}

// staleError is the conflict of a base revision that is not current.
func staleError(base, current int) *apperr.Error {
	return apperr.New(apperr.Conflict,
		"the project's current revision is %d, not %d: read it again and apply the change to it", current, base).
		WithDetail("reason", "stale_revision").WithDetail("currentIrRevision", current)
}

// Delete deletes the project with its revisions, its exports and their
// files, and its media (docs/api.md, Storage): the account's storage
// usage drops at once; the artifacts' bytes are deleted now (what a
// failure leaves, the orphan sweeper deletes), the media's by the media
// sweeper within its period. Errors are those of [Service.Get].
func (s *Service) Delete(ctx context.Context, accountID, id string) error {
	id, err := checkID(id)
	if err != nil {
		return err
	}
	keys, err := s.store.DeleteProject(ctx, accountID, id)
	if err != nil {
		return notFound(err, id, "delete")
	}
	deleteBlobs(ctx, s.blobs, keys)
	return nil
}

// deleteBlobs deletes keys from blobs (nil: nothing), best effort on a
// context of its own, since the rows are gone already and what it misses
// the orphan sweeper deletes.
func deleteBlobs(ctx context.Context, blobs blob.Store, keys []string) {
	if blobs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	for _, k := range keys {
		_ = blobs.Delete(ctx, k)
	}
}

// checkID returns id in its canonical form (lowercase, hyphenated) or
// [apperr.BadRequest]: only the 36-character form is accepted, so one
// project has one spelling in URLs and logs.
func checkID(id string) (string, error) {
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 {
		return "", apperr.New(apperr.BadRequest, "the project id must be a UUID such as 7d444840-9dc0-11d1-b245-5ffdce74fad2").
			WithDetail("field", "id").WithDetail("reason", "invalid_uuid")
	}
	return strings.ToLower(u.String()), nil
}

// notFound gives a missing project the caller's message; other errors
// keep their kind.
func notFound(err error, id, op string) error {
	if apperr.KindOf(err) == apperr.NotFound {
		return apperr.New(apperr.NotFound, "project not found").WithDetail("id", id).Wrap(err)
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	return fmt.Errorf("project: %s %s: %w", op, id, err)
}

// Check returns nil when the account has the project, [apperr.NotFound]
// when it does not, and [apperr.BadRequest] (details.field "projectId")
// for an id that is not a uuid: other resources (media uploads, video
// jobs) name a project in their bodies.
func (s *Service) Check(ctx context.Context, accountID, id string) error {
	id, err := checkID(id)
	if err != nil {
		if ae, ok := apperr.As(err); ok {
			ae.Details["field"] = "projectId"
		}
		return err
	}
	if _, _, err := s.store.Revisions(ctx, accountID, id); err != nil {
		return notFound(err, id, "check")
	}
	return nil
}
