package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// TemplateStore keeps export templates. Its writes return
// [apperr.Unavailable] (details.retryAfterSeconds) if another process
// holds the write lock past the busy timeout.
type TemplateStore struct{ db *DB }

var _ exporttpl.Store = (*TemplateStore)(nil)

// Templates returns the store of export templates.
func (db *DB) Templates() *TemplateStore { return &TemplateStore{db: db} }

const templateSummary = `id, account_id, name, revision, filename_pattern, content_type, created_at, updated_at`

// CreateTemplate inserts t unless the account holds max templates; the
// count and the insert are one statement under the write lock.
func (s *TemplateStore) CreateTemplate(ctx context.Context, t *exporttpl.Template, max int) error {
	res, err := s.db.write.ExecContext(ctx, `INSERT INTO export_templates(`+templateSummary+`, source, js)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
		WHERE (SELECT COUNT(*) FROM export_templates WHERE account_id = ?) < ?`,
		t.ID, t.AccountID, t.Name, t.Revision, t.FilenamePattern, t.ContentType, formatTime(t.CreatedAt),
		formatTime(t.UpdatedAt), t.Source, t.JS, t.AccountID, max)
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: create template %s: %w", t.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: create template %s: %w", t.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("sqlite: create template %s: %d held: %w", t.ID, max, exporttpl.ErrTooManyTemplates)
	}
	return nil
}

// ListTemplates returns the account's templates, newest first, without
// their scripts.
func (s *TemplateStore) ListTemplates(ctx context.Context, accountID string) ([]exporttpl.Template, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+templateSummary+` FROM export_templates
		WHERE account_id = ? ORDER BY created_at DESC, id DESC`, accountID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: templates: %w", err)
	}
	defer rows.Close()
	list := []exporttpl.Template{}
	for rows.Next() {
		var t exporttpl.Template
		if err := scanTemplate(rows, &t); err != nil {
			return nil, err
		}
		list = append(list, t)
	}
	return list, rows.Err()
}

// Template returns the account's template, or [apperr.NotFound].
func (s *TemplateStore) Template(ctx context.Context, accountID, id string) (*exporttpl.Template, error) {
	var t exporttpl.Template
	err := scanTemplate(s.db.read.QueryRowContext(ctx, `SELECT `+templateSummary+`, source, js FROM export_templates
		WHERE id = ? AND account_id = ?`, id, accountID), &t, &t.Source, &t.JS)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export template not found").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func scanTemplate(row scanner, t *exporttpl.Template, more ...any) error {
	var created, updated string
	dest := append([]any{&t.ID, &t.AccountID, &t.Name, &t.Revision, &t.FilenamePattern, &t.ContentType, &created, &updated}, more...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return fmt.Errorf("sqlite: template: %w", err)
	}
	var err error
	if t.CreatedAt, err = parseTime(created); err != nil {
		return err
	}
	t.UpdatedAt, err = parseTime(updated)
	return err
}

// UpdateTemplate stores t if its stored revision is base.
func (s *TemplateStore) UpdateTemplate(ctx context.Context, t *exporttpl.Template, base int) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		var current int
		err := tx.tx.QueryRowContext(ctx, `SELECT revision FROM export_templates WHERE id = ? AND account_id = ?`,
			t.ID, t.AccountID).Scan(&current)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return apperr.New(apperr.NotFound, "export template not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("sqlite: update template %s: %w", t.ID, err)
		case current != base:
			return &exporttpl.StaleRevisionError{Current: current}
		}
		_, err = tx.tx.ExecContext(ctx, `UPDATE export_templates SET name = ?, source = ?, js = ?, revision = ?,
			filename_pattern = ?, content_type = ?, updated_at = ? WHERE id = ?`,
			t.Name, t.Source, t.JS, t.Revision, t.FilenamePattern, t.ContentType, formatTime(t.UpdatedAt), t.ID)
		if err != nil {
			return fmt.Errorf("sqlite: update template %s: %w", t.ID, err)
		}
		return nil
	})
}

// DeleteTemplate deletes the account's template, or returns
// [apperr.NotFound].
func (s *TemplateStore) DeleteTemplate(ctx context.Context, accountID, id string) error {
	res, err := s.db.write.ExecContext(ctx, `DELETE FROM export_templates WHERE id = ? AND account_id = ?`, id, accountID)
	if err != nil {
		return fmt.Errorf("sqlite: delete template %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: delete template %s: %w", id, err)
	}
	if n == 0 {
		return apperr.New(apperr.NotFound, "export template not found")
	}
	return nil
}
