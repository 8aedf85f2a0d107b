package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// ProjectStore keeps projects and their revisions. Each method returns
// [apperr.Unavailable] (details.retryAfterSeconds) when the database
// cannot be reached.
type ProjectStore struct{ db *DB }

var _ project.Store = (*ProjectStore)(nil)

// Projects returns the store of projects and their revisions.
func (db *DB) Projects() *ProjectStore { return &ProjectStore{db: db} }

const projectColumns = `id, account_id, name, ir_revision, cue_count, created_at, updated_at`

// CreateProject inserts p and its first revision, if any, in one
// transaction, unless the account holds max projects already (an error
// wrapping [project.ErrTooManyProjects]). [apperr.NotFound] when the
// account is unknown, [apperr.Conflict] when the id is taken.
func (s *ProjectStore) CreateProject(ctx context.Context, p *project.Project, first *project.Revision, max int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, p.AccountID); err != nil {
			return err
		}
		var held int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM projects WHERE account_id = $1`, p.AccountID).Scan(&held); err != nil {
			return fmt.Errorf("postgres: create project %s: %w", p.ID, err)
		}
		if held >= max {
			return fmt.Errorf("postgres: create project %s: %d held: %w", p.ID, max, project.ErrTooManyProjects)
		}
		_, err := tx.Exec(ctx, `INSERT INTO projects(`+projectColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7)`,
			p.ID, p.AccountID, p.Name, p.IRRevision, p.CueCount, second(p.CreatedAt), second(p.UpdatedAt))
		switch {
		case isUnique(err):
			return apperr.New(apperr.Conflict, "project already exists").Wrap(err)
		case err != nil:
			return fmt.Errorf("postgres: create project %s: %w", p.ID, err)
		}
		if first != nil {
			return insertRevision(ctx, tx, p.ID, first)
		}
		return nil
	})
}

// lockAccount takes the account's row lock until the transaction ends,
// or returns [apperr.NotFound]. Writers that count an account's rows
// under a limit take it first: on several nodes a count is only exact
// while no other transaction can add to it, and the account row is the
// one parent every such count has. FOR NO KEY UPDATE excludes the other
// counters but not the key-share locks of foreign keys, so inserts of an
// account's other rows (keys, sessions) do not wait.
func lockAccount(ctx context.Context, tx pgx.Tx, accountID string) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE`, accountID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("postgres: lock account %s: %w", accountID, err)
	}
	return nil
}

// insertRevision inserts revision r of the project through q (a
// transaction that also writes the project, for other stores too).
func insertRevision(ctx context.Context, q querier, projectID string, r *project.Revision) error {
	_, err := q.Exec(ctx, `INSERT INTO project_revisions(project_id, number, cue_count, created_at, ir) VALUES($1, $2, $3, $4, $5)`,
		projectID, r.Number, r.CueCount, second(r.CreatedAt), r.IR)
	if err != nil {
		return fmt.Errorf("postgres: store revision %d of project %s: %w", r.Number, projectID, err)
	}
	return nil
}

// ListProjects returns up to limit of the account's projects, newest
// first, after pos when it is not nil.
func (s *ProjectStore) ListProjects(ctx context.Context, accountID string, pos *project.Position, limit int) ([]project.Project, error) {
	q := `SELECT ` + projectColumns + ` FROM projects WHERE account_id = $1`
	args := []any{accountID}
	if pos != nil {
		// The row comparison takes (created_at, id) as one key, which
		// the index serves in order.
		q += ` AND (created_at, id) < ($2, $3)`
		args = append(args, second(pos.CreatedAt), pos.ID)
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args)+1)
	args = append(args, limit)
	rows, err := s.db.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list projects: %w", err))
	}
	defer rows.Close()
	list := []project.Project{}
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, unavailable(err)
		}
		list = append(list, *p)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: list projects: %w", err))
	}
	return list, nil
}

// ProjectIR returns the project and its current revision's IR, or
// [apperr.NotFound].
func (s *ProjectStore) ProjectIR(ctx context.Context, accountID, id string) (*project.Detail, error) {
	var ir *string
	p, err := scanProject(s.db.pool.QueryRow(ctx, `SELECT p.id, p.account_id, p.name, p.ir_revision, p.cue_count, p.created_at, p.updated_at, r.ir
		FROM projects p LEFT JOIN project_revisions r ON r.project_id = p.id AND r.number = p.ir_revision
		WHERE p.id = $1 AND p.account_id = $2`, id, accountID), &ir)
	if err != nil {
		return nil, unavailable(err)
	}
	d := &project.Detail{Project: *p}
	switch {
	case ir != nil:
		d.IR = *ir
	case p.IRRevision > 0:
		return nil, fmt.Errorf("postgres: project %s: current revision %d is missing", id, p.IRRevision)
	}
	return d, nil
}

// Revisions returns the project and its kept revisions, newest first,
// without their IR, or [apperr.NotFound]. One statement reads both, so
// the list matches the project (one snapshot).
func (s *ProjectStore) Revisions(ctx context.Context, accountID, id string) (*project.Project, []project.Revision, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT p.id, p.account_id, p.name, p.ir_revision, p.cue_count, p.created_at, p.updated_at,
			r.number, r.cue_count, r.created_at
		FROM projects p LEFT JOIN project_revisions r ON r.project_id = p.id
		WHERE p.id = $1 AND p.account_id = $2 ORDER BY r.number DESC`, id, accountID)
	if err != nil {
		return nil, nil, unavailable(fmt.Errorf("postgres: revisions of project %s: %w", id, err))
	}
	defer rows.Close()
	var p *project.Project
	revs := []project.Revision{}
	for rows.Next() {
		var number, cues *int
		var created *time.Time
		row, err := scanProject(rows, &number, &cues, &created)
		if err != nil {
			return nil, nil, unavailable(err)
		}
		p = row
		if number != nil { // nil: the LEFT JOIN's row of a project without revisions
			revs = append(revs, project.Revision{Number: *number, CueCount: *cues, CreatedAt: created.UTC()})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, unavailable(fmt.Errorf("postgres: revisions of project %s: %w", id, err))
	}
	if p == nil {
		return nil, nil, apperr.New(apperr.NotFound, "project not found")
	}
	return p, revs, nil
}

// AddRevision stores rev as revision base+1 if base is current, makes it
// current and prunes all but the newest keep revisions, in one
// transaction. The project's row is locked first, so a concurrent
// AddRevision on another node waits, then reads the new current revision
// and is refused as stale. It returns [apperr.NotFound] or a
// *[project.StaleRevisionError].
func (s *ProjectStore) AddRevision(ctx context.Context, accountID, id string, base int, rev *project.Revision, keep int) (*project.Project, error) {
	var out *project.Project
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		p, err := scanProject(tx.QueryRow(ctx, `SELECT `+projectColumns+` FROM projects WHERE id = $1 AND account_id = $2 FOR UPDATE`, id, accountID))
		if err != nil {
			return err
		}
		if p.IRRevision != base {
			return &project.StaleRevisionError{Current: p.IRRevision}
		}
		r := *rev
		r.Number, r.CreatedAt = base+1, second(rev.CreatedAt)
		if err := insertRevision(ctx, tx, id, &r); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE projects SET ir_revision = $1, cue_count = $2, updated_at = $3 WHERE id = $4`,
			r.Number, r.CueCount, r.CreatedAt, id); err != nil {
			return fmt.Errorf("postgres: update project %s: %w", id, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM project_revisions WHERE project_id = $1 AND number <= $2`, id, r.Number-keep); err != nil {
			return fmt.Errorf("postgres: prune revisions of project %s: %w", id, err)
		}
		p.IRRevision, p.CueCount, p.UpdatedAt = r.Number, r.CueCount, r.CreatedAt
		out = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteProject deletes the project, or returns [apperr.NotFound]; its
// revisions go with it (ON DELETE CASCADE).
func (s *ProjectStore) DeleteProject(ctx context.Context, accountID, id string) error {
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM projects WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: delete project %s: %w", id, err))
	}
	if tag.RowsAffected() == 0 {
		return apperr.New(apperr.NotFound, "project not found")
	}
	return nil
}

// RevisionIR returns the IR text of the account's project at revision
// number, or [apperr.NotFound] when the project is unknown or the
// revision is no longer kept.
func (s *ProjectStore) RevisionIR(ctx context.Context, accountID, id string, number int) (string, error) {
	var ir string
	err := s.db.pool.QueryRow(ctx, `SELECT r.ir FROM project_revisions r JOIN projects p ON p.id = r.project_id
		WHERE r.project_id = $1 AND p.account_id = $2 AND r.number = $3`, id, accountID, number).Scan(&ir)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", apperr.New(apperr.NotFound, "revision %d of project %s is not kept", number, id).Wrap(err)
	}
	if err != nil {
		return "", unavailable(fmt.Errorf("postgres: revision %d of project %s: %w", number, id, err))
	}
	return ir, nil
}

// scanProject reads the projectColumns, then any extra destinations;
// no row is [apperr.NotFound].
func scanProject(row pgx.Row, extra ...any) (*project.Project, error) {
	var p project.Project
	dest := append([]any{&p.ID, &p.AccountID, &p.Name, &p.IRRevision, &p.CueCount, &p.CreatedAt, &p.UpdatedAt}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "project not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: scan project: %w", err)
	}
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return &p, nil
}

// second is t as the store keeps it: UTC, whole seconds (what package
// sqlite's text timestamps hold, so both stores return the same times).
func second(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
