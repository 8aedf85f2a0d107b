package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// ProjectStore keeps projects and their revisions. Each method may
// return [apperr.Unavailable] (details.retryAfterSeconds) when the
// database is busy or cannot be reached.
type ProjectStore struct{ db *DB }

var _ project.Store = (*ProjectStore)(nil)

// Projects returns the store of projects and their revisions.
func (db *DB) Projects() *ProjectStore { return &ProjectStore{db: db} }

const projectColumns = `id, account_id, name, ir_revision, cue_count, created_at, updated_at`

// CreateProject inserts p and its first revision in one transaction,
// unless the account holds max projects already (an error wrapping
// [project.ErrTooManyProjects]); the count and the insert run under the
// account's row lock. [apperr.NotFound] when the account is unknown,
// [apperr.Conflict] when the id is taken.
func (s *ProjectStore) CreateProject(ctx context.Context, p *project.Project, first *project.Revision, max int) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := tx.lockAccount(ctx, p.AccountID); err != nil {
			return err
		}
		var held int
		if err := tx.queryRow(ctx, `SELECT count(*) FROM projects WHERE account_id = $1`, p.AccountID).Scan(&held); err != nil {
			return fmt.Errorf("store: create project %s: %w", p.ID, err)
		}
		if held >= max {
			return fmt.Errorf("store: create project %s: %d held: %w", p.ID, max, project.ErrTooManyProjects)
		}
		if first != nil {
			if err := tx.fitStorage(ctx, p.AccountID, int64(len(first.IR))); err != nil {
				return err
			}
		}
		_, err := tx.exec(ctx, `INSERT INTO projects(`+projectColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7)`,
			p.ID, p.AccountID, p.Name, p.IRRevision, p.CueCount, s.db.ts(p.CreatedAt), s.db.ts(p.UpdatedAt))
		switch {
		case s.db.d.Unique(err):
			return apperr.New(apperr.Conflict, "project already exists").Wrap(err)
		case err != nil:
			return fmt.Errorf("store: create project %s: %w", p.ID, err)
		}
		if first != nil {
			return tx.insertRevision(ctx, p.ID, first)
		}
		return nil
	})
}

// insertRevision inserts revision r of the project and counts its
// bytes in the project's ir_bytes.
func (t *Tx) insertRevision(ctx context.Context, projectID string, r *project.Revision) error {
	_, err := t.exec(ctx, `INSERT INTO project_revisions(project_id, number, cue_count, created_at, ir) VALUES($1, $2, $3, $4, $5)`,
		projectID, r.Number, r.CueCount, t.db.ts(r.CreatedAt), r.IR)
	if err != nil {
		return fmt.Errorf("store: store revision %d of project %s: %w", r.Number, projectID, err)
	}
	_, err = t.exec(ctx, `UPDATE projects SET ir_bytes = ir_bytes + $1 WHERE id = $2`, int64(len(r.IR)), projectID)
	if err != nil {
		return fmt.Errorf("store: count revision %d of project %s: %w", r.Number, projectID, err)
	}
	return nil
}

// pruneRevisions deletes the project's revisions up to number and takes
// their bytes off its ir_bytes. octet_length reads a stored text's
// length without its content on both engines.
func (t *Tx) pruneRevisions(ctx context.Context, projectID string, upTo int) error {
	_, err := t.exec(ctx, `UPDATE projects SET ir_bytes = ir_bytes - (SELECT CAST(COALESCE(SUM(octet_length(ir)), 0) AS BIGINT)
		FROM project_revisions WHERE project_id = $1 AND number <= $2) WHERE id = $1`, projectID, upTo)
	if err != nil {
		return fmt.Errorf("store: uncount revisions of project %s: %w", projectID, err)
	}
	if _, err := t.exec(ctx, `DELETE FROM project_revisions WHERE project_id = $1 AND number <= $2`, projectID, upTo); err != nil {
		return fmt.Errorf("store: prune revisions of project %s: %w", projectID, err)
	}
	return nil
}

// ListProjects returns up to limit of the account's projects, newest
// first, after pos when it is set (keyset pagination).
func (s *ProjectStore) ListProjects(ctx context.Context, accountID string, pos *project.Position, limit int) ([]project.Project, error) {
	q := `SELECT ` + projectColumns + ` FROM projects WHERE account_id = $1`
	args := []any{accountID}
	if pos != nil {
		// The row comparison takes (created_at, id) as one key, which the
		// index serves in order (on SQLite, fixed-width UTC text sorts
		// as time).
		q += ` AND (created_at, id) < ($2, $3)`
		args = append(args, s.db.ts(pos.CreatedAt), pos.ID)
	}
	q += fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args)+1)
	return collect(ctx, s.db.read, func(r scanner) (project.Project, error) {
		p, err := scanProject(r)
		if err != nil {
			return project.Project{}, err
		}
		return *p, nil
	}, q, append(args, limit)...)
}

// ProjectIR returns the project and its current revision's IR, or
// [apperr.NotFound].
func (s *ProjectStore) ProjectIR(ctx context.Context, accountID, id string) (*project.Detail, error) {
	var ir sql.NullString
	p, err := scanProject(s.db.read.queryRow(ctx, `SELECT p.id, p.account_id, p.name, p.ir_revision, p.cue_count, p.created_at, p.updated_at, r.ir
		FROM projects p LEFT JOIN project_revisions r ON r.project_id = p.id AND r.number = p.ir_revision
		WHERE p.id = $1 AND p.account_id = $2`, id, accountID), &ir)
	if err != nil {
		return nil, err
	}
	if p.IRRevision > 0 && !ir.Valid {
		return nil, fmt.Errorf("store: project %s: current revision %d is missing", id, p.IRRevision)
	}
	return &project.Detail{Project: *p, IR: ir.String}, nil
}

// Revisions returns the project and its kept revisions, newest first,
// without their IR, or [apperr.NotFound]. One statement reads both, so
// the list matches the project (one snapshot).
func (s *ProjectStore) Revisions(ctx context.Context, accountID, id string) (*project.Project, []project.Revision, error) {
	type joined struct {
		p   *project.Project
		rev *project.Revision
	}
	rows, err := collect(ctx, s.db.read, func(r scanner) (joined, error) {
		var number, cues sql.NullInt64
		var created *time.Time
		p, err := scanProject(r, &number, &cues, atOpt(&created))
		if err != nil || !number.Valid { // not Valid: the LEFT JOIN's row of a project without revisions
			return joined{p: p}, err
		}
		return joined{p, &project.Revision{Number: int(number.Int64), CueCount: int(cues.Int64), CreatedAt: *created}}, nil
	}, `SELECT p.id, p.account_id, p.name, p.ir_revision, p.cue_count, p.created_at, p.updated_at,
			r.number, r.cue_count, r.created_at
		FROM projects p LEFT JOIN project_revisions r ON r.project_id = p.id
		WHERE p.id = $1 AND p.account_id = $2 ORDER BY r.number DESC`, id, accountID)
	if err != nil {
		return nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, apperr.New(apperr.NotFound, "project not found")
	}
	revs := []project.Revision{}
	for _, j := range rows {
		if j.rev != nil {
			revs = append(revs, *j.rev)
		}
	}
	return rows[len(rows)-1].p, revs, nil
}

// AddRevision stores rev as revision base+1 if base is current, makes it
// current and prunes all but the newest keep revisions, in one
// transaction. The project's row is locked first, so a concurrent
// AddRevision in another process waits, then reads the new current
// revision and is refused as stale. It returns [apperr.NotFound] or a
// *[project.StaleRevisionError].
func (s *ProjectStore) AddRevision(ctx context.Context, accountID, id string, base int, rev *project.Revision, keep int) (*project.Project, error) {
	var out *project.Project
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		// The account's lock first, as every writer that adds bytes takes
		// it, then the project's.
		if err := tx.fitStorage(ctx, accountID, int64(len(rev.IR))); err != nil {
			return err
		}
		p, err := scanProject(tx.queryRow(ctx, `SELECT `+projectColumns+` FROM projects WHERE id = $1 AND account_id = $2 `+s.db.d.ForUpdate, id, accountID))
		if err != nil {
			return err
		}
		if p.IRRevision != base {
			return &project.StaleRevisionError{Current: p.IRRevision}
		}
		r := *rev
		r.Number, r.CreatedAt = base+1, rev.CreatedAt.UTC().Truncate(time.Second)
		if err := tx.insertRevision(ctx, id, &r); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE projects SET ir_revision = $1, cue_count = $2, updated_at = $3 WHERE id = $4`,
			r.Number, r.CueCount, s.db.ts(r.CreatedAt), id); err != nil {
			return fmt.Errorf("store: update project %s: %w", id, err)
		}
		if err := tx.pruneRevisions(ctx, id, r.Number-keep); err != nil {
			return err
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

// DeleteProject deletes the project with its revisions (ON DELETE
// CASCADE) and its exports with their artifacts and its media's
// analyses, ends its open upload sessions and expires its media now, so
// the media sweeper deletes the bytes, in one transaction. It returns the artifacts' blob keys, or
// [apperr.NotFound].
func (s *ProjectStore) DeleteProject(ctx context.Context, accountID, id string) ([]string, error) {
	var keys []string
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := changeOne(ctx, tx, "project", `DELETE FROM projects WHERE id = $1 AND account_id = $2`, id, accountID); err != nil {
			return err
		}
		var err error
		keys, _, err = tx.deleteExports(ctx, `account_id = $1 AND project_id = $2`, accountID, id)
		if err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE uploads SET status = CASE WHEN status = 'pending' THEN 'rejected' ELSE status END,
			reject_reason = CASE WHEN status = 'pending' THEN 'project_deleted' ELSE reject_reason END,
			media_expires_at = CASE WHEN status = 'completed' THEN $3 ELSE media_expires_at END
			WHERE account_id = $1 AND project_id = $2 AND status IN ('pending', 'completed')`, accountID, id, s.db.ts(tx.now))
		if err != nil {
			return fmt.Errorf("store: expire the media of project %s: %w", id, err)
		}
		if _, err := tx.exec(ctx, `DELETE FROM media_analyses WHERE account_id = $1 AND project_id = $2`, accountID, id); err != nil {
			return fmt.Errorf("store: delete the analyses of project %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return keys, nil
}

// RevisionIR returns the IR text of the account's project at revision
// number, or [apperr.NotFound] when the project is unknown or the
// revision is no longer kept.
func (s *ProjectStore) RevisionIR(ctx context.Context, accountID, id string, number int) (string, error) {
	var ir string
	err := s.db.read.queryRow(ctx, `SELECT r.ir FROM project_revisions r JOIN projects p ON p.id = r.project_id
		WHERE r.project_id = $1 AND p.account_id = $2 AND r.number = $3`, id, accountID, number).Scan(&ir)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.NotFound, "revision %d of project %s is not kept", number, id).Wrap(err)
	}
	if err != nil {
		return "", fmt.Errorf("store: revision %d of project %s: %w", number, id, err)
	}
	return ir, nil
}

// scanProject reads the projectColumns, then any extra destinations;
// no row is [apperr.NotFound].
func scanProject(r scanner, extra ...any) (*project.Project, error) {
	var p project.Project
	dest := append([]any{&p.ID, &p.AccountID, &p.Name, &p.IRRevision, &p.CueCount, at(&p.CreatedAt), at(&p.UpdatedAt)}, extra...)
	err := r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "project not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: scan project: %w", err)
	}
	return &p, nil
}
