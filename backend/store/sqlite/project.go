package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// ProjectStore keeps projects and their revisions. Each write returns
// [apperr.Unavailable] (details.retryAfterSeconds) if another process
// holds the write lock past the busy timeout.
type ProjectStore struct{ db *DB }

var _ project.Store = (*ProjectStore)(nil)

// Projects returns the store of projects and their revisions.
func (db *DB) Projects() *ProjectStore { return &ProjectStore{db: db} }

const projectColumns = `id, account_id, name, ir_revision, cue_count, created_at, updated_at`

// CreateProject inserts p and its first revision, if any, in one
// transaction, unless the account holds max projects already.
func (s *ProjectStore) CreateProject(ctx context.Context, p *project.Project, first *project.Revision, max int) error {
	return s.db.inTx(ctx, func(tx *sql.Tx) error {
		// Counting and inserting in one statement, under the write lock
		// the IMMEDIATE transaction holds, keeps concurrent creators
		// (other processes included) within max.
		res, err := tx.ExecContext(ctx, `INSERT INTO projects(`+projectColumns+`)
			SELECT ?, ?, ?, ?, ?, ?, ?
			WHERE (SELECT COUNT(*) FROM projects WHERE account_id = ?) < ?`,
			p.ID, p.AccountID, p.Name, p.IRRevision, p.CueCount, formatTime(p.CreatedAt), formatTime(p.UpdatedAt),
			p.AccountID, max)
		switch {
		case isForeignKey(err):
			return apperr.New(apperr.NotFound, "account not found").Wrap(err)
		case isUnique(err):
			return apperr.New(apperr.Conflict, "project already exists").Wrap(err)
		case err != nil:
			return fmt.Errorf("sqlite: create project %s: %w", p.ID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlite: create project %s: %w", p.ID, err)
		}
		if n == 0 {
			return fmt.Errorf("sqlite: create project %s: %d held: %w", p.ID, max, project.ErrTooManyProjects)
		}
		if first != nil {
			return insertRevision(ctx, tx, p.ID, first)
		}
		return nil
	})
}

func insertRevision(ctx context.Context, tx *sql.Tx, projectID string, r *project.Revision) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO project_revisions(project_id, number, cue_count, created_at, ir) VALUES(?, ?, ?, ?, ?)`,
		projectID, r.Number, r.CueCount, formatTime(r.CreatedAt), r.IR)
	if err != nil {
		return fmt.Errorf("sqlite: store revision %d of project %s: %w", r.Number, projectID, err)
	}
	return nil
}

// ListProjects returns up to limit of the account's projects, newest
// first, after pos when it is not nil.
func (s *ProjectStore) ListProjects(ctx context.Context, accountID string, pos *project.Position, limit int) ([]project.Project, error) {
	q := `SELECT ` + projectColumns + ` FROM projects WHERE account_id = ?`
	args := []any{accountID}
	if pos != nil {
		// Row values compare (created_at, id) as one key; timestamps are
		// fixed-width UTC text, so text order is time order.
		q += ` AND (created_at, id) < (?, ?)`
		args = append(args, formatTime(pos.CreatedAt), pos.ID)
	}
	q += ` ORDER BY created_at DESC, id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.db.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list projects: %w", err)
	}
	defer rows.Close()
	list := []project.Project{}
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list projects: %w", err)
	}
	return list, nil
}

// ProjectIR returns the project and its current revision's IR.
func (s *ProjectStore) ProjectIR(ctx context.Context, accountID, id string) (*project.Detail, error) {
	var ir sql.NullString
	p, err := scanProject(s.db.read.QueryRowContext(ctx, `SELECT p.id, p.account_id, p.name, p.ir_revision, p.cue_count, p.created_at, p.updated_at, r.ir
		FROM projects p LEFT JOIN project_revisions r ON r.project_id = p.id AND r.number = p.ir_revision
		WHERE p.id = ? AND p.account_id = ?`, id, accountID), &ir)
	if err != nil {
		return nil, err
	}
	if p.IRRevision > 0 && !ir.Valid {
		return nil, fmt.Errorf("sqlite: project %s: current revision %d is missing", id, p.IRRevision)
	}
	return &project.Detail{Project: *p, IR: ir.String}, nil
}

// Revisions returns the project and its kept revisions, newest first,
// without their IR. The two reads share one read transaction, so the
// list matches the project.
func (s *ProjectStore) Revisions(ctx context.Context, accountID, id string) (*project.Project, []project.Revision, error) {
	tx, err := s.db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: revisions of project %s: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	p, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectColumns+` FROM projects WHERE id = ? AND account_id = ?`, id, accountID))
	if err != nil {
		return nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT number, cue_count, created_at FROM project_revisions WHERE project_id = ? ORDER BY number DESC`, id)
	if err != nil {
		return nil, nil, fmt.Errorf("sqlite: revisions of project %s: %w", id, err)
	}
	defer rows.Close()
	revs := []project.Revision{}
	for rows.Next() {
		var r project.Revision
		var created string
		if err := rows.Scan(&r.Number, &r.CueCount, &created); err != nil {
			return nil, nil, fmt.Errorf("sqlite: scan revision: %w", err)
		}
		if r.CreatedAt, err = parseTime(created); err != nil {
			return nil, nil, err
		}
		revs = append(revs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("sqlite: revisions of project %s: %w", id, err)
	}
	return p, revs, nil
}

// AddRevision stores rev as revision base+1 if base is current, makes it
// current and prunes all but the newest keep revisions, in one write
// transaction: the check and the write see the same state.
func (s *ProjectStore) AddRevision(ctx context.Context, accountID, id string, base int, rev *project.Revision, keep int) (*project.Project, error) {
	var out *project.Project
	err := s.db.inTx(ctx, func(tx *sql.Tx) error {
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT `+projectColumns+` FROM projects WHERE id = ? AND account_id = ?`, id, accountID))
		if err != nil {
			return err
		}
		if p.IRRevision != base {
			return &project.StaleRevisionError{Current: p.IRRevision}
		}
		r := *rev
		r.Number = base + 1
		if err := insertRevision(ctx, tx, id, &r); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE projects SET ir_revision = ?, cue_count = ?, updated_at = ? WHERE id = ?`,
			r.Number, r.CueCount, formatTime(r.CreatedAt), id); err != nil {
			return fmt.Errorf("sqlite: update project %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM project_revisions WHERE project_id = ? AND number <= ?`, id, r.Number-keep); err != nil {
			return fmt.Errorf("sqlite: prune revisions of project %s: %w", id, err)
		}
		p.IRRevision, p.CueCount, p.UpdatedAt = r.Number, r.CueCount, r.CreatedAt.UTC()
		out = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteProject deletes the project; its revisions go with it (ON DELETE
// CASCADE).
func (s *ProjectStore) DeleteProject(ctx context.Context, accountID, id string) error {
	res, err := s.db.write.ExecContext(ctx, `DELETE FROM projects WHERE id = ? AND account_id = ?`, id, accountID)
	if err != nil {
		return fmt.Errorf("sqlite: delete project %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: delete project %s: %w", id, err)
	}
	if n == 0 {
		return apperr.New(apperr.NotFound, "project not found")
	}
	return nil
}

// scanProject reads the projectColumns, then any extra destinations.
func scanProject(row scanner, extra ...any) (*project.Project, error) {
	var p project.Project
	var created, updated string
	dest := append([]any{&p.ID, &p.AccountID, &p.Name, &p.IRRevision, &p.CueCount, &created, &updated}, extra...)
	err := row.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "project not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan project: %w", err)
	}
	if p.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if p.UpdatedAt, err = parseTime(updated); err != nil {
		return nil, err
	}
	return &p, nil
}

// RevisionIR returns the IR text of the account's project at revision
// number, or [apperr.NotFound] when the project is unknown or the
// revision is no longer kept.
func (s *ProjectStore) RevisionIR(ctx context.Context, accountID, id string, number int) (string, error) {
	var ir string
	err := s.db.read.QueryRowContext(ctx, `SELECT r.ir FROM project_revisions r JOIN projects p ON p.id = r.project_id
		WHERE r.project_id = ? AND p.account_id = ? AND r.number = ?`, id, accountID, number).Scan(&ir)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.NotFound, "revision %d of project %s is not kept", number, id).Wrap(err)
	}
	if err != nil {
		return "", fmt.Errorf("sqlite: revision %d of project %s: %w", number, id, err)
	}
	return ir, nil
}
