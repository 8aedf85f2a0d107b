package project

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrTooManyProjects is returned, wrapped, by [Store.CreateProject] when
// the account already holds its most projects.
var ErrTooManyProjects = errors.New("project: too many projects")

// StaleRevisionError is returned by [Store.AddRevision] when the base
// revision is not the project's current one.
type StaleRevisionError struct {
	Current int // the project's current revision
}

func (e *StaleRevisionError) Error() string {
	return fmt.Sprintf("project: stale base revision: current is %d", e.Current)
}

// Position is where a listing resumes: after the project created at
// CreatedAt with ID (listings run newest first, ties by id descending).
type Position struct {
	CreatedAt time.Time
	ID        string
}

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error; anything else is an internal failure. Every
// method that names a project by id takes the account too, and a project
// of another account is [apperr.NotFound], as an unknown one is. Times
// are UTC, truncated to the second.
type Store interface {
	// CreateProject inserts p and, when first is not nil, its first
	// revision, in one transaction, unless the account already holds max
	// projects: then it inserts nothing and returns an error wrapping
	// [ErrTooManyProjects]. The count and the insert are one atomic step.
	// It returns [apperr.NotFound] if p.AccountID names no account.
	CreateProject(ctx context.Context, p *Project, first *Revision, max int) error
	// ListProjects returns up to limit of the account's projects, newest
	// first (by CreatedAt, then ID, both descending), after pos when it
	// is not nil.
	ListProjects(ctx context.Context, accountID string, pos *Position, limit int) ([]Project, error)
	// ProjectIR returns the project and its current revision's IR text
	// ("" while it is empty), or [apperr.NotFound].
	ProjectIR(ctx context.Context, accountID, id string) (*Detail, error)
	// RevisionIR returns the IR text of the account's project at revision
	// number, or [apperr.NotFound] for an unknown project, another
	// account's, or a revision it does not keep.
	RevisionIR(ctx context.Context, accountID, id string, number int) (string, error)
	// Revisions returns the project and its kept revisions, newest first,
	// without their IR text, or [apperr.NotFound].
	Revisions(ctx context.Context, accountID, id string) (*Project, []Revision, error)
	// AddRevision stores rev as the project's revision base+1 if its
	// current revision is base, makes it current (IRRevision, CueCount,
	// UpdatedAt = rev.CreatedAt) and deletes the revisions older than the
	// newest keep, in one transaction. It returns the project as updated,
	// [apperr.NotFound], or a *[StaleRevisionError] when the current
	// revision is not base.
	AddRevision(ctx context.Context, accountID, id string, base int, rev *Revision, keep int) (*Project, error)
	// DeleteProject deletes the project, its revisions and its exports
	// with their artifacts, and hands its media to the media sweeper
	// (open upload sessions end, completed media expire now), in one
	// transaction. It returns the blob keys of the artifacts deleted, for
	// the caller to delete at once (the orphan sweeper deletes what it
	// misses), or [apperr.NotFound].
	DeleteProject(ctx context.Context, accountID, id string) (artifactKeys []string, err error)
}
