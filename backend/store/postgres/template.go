package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// TemplateStore keeps export templates. Each method returns
// [apperr.Unavailable] (details.retryAfterSeconds) when the database
// cannot be reached.
type TemplateStore struct{ db *DB }

var _ exporttpl.Store = (*TemplateStore)(nil)

// Templates returns the store of export templates.
func (db *DB) Templates() *TemplateStore { return &TemplateStore{db: db} }

const templateSummary = `id, account_id, name, revision, filename_pattern, content_type, created_at, updated_at`

// CreateTemplate inserts t unless the account holds max templates (an
// error wrapping [exporttpl.ErrTooManyTemplates]); the count and the
// insert run under the account's row lock, so creators on several nodes
// stay within max. [apperr.NotFound] when the account is unknown.
func (s *TemplateStore) CreateTemplate(ctx context.Context, t *exporttpl.Template, max int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		if err := lockAccount(ctx, tx, t.AccountID); err != nil {
			return err
		}
		var held int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM export_templates WHERE account_id = $1`, t.AccountID).Scan(&held); err != nil {
			return fmt.Errorf("postgres: create template %s: %w", t.ID, err)
		}
		if held >= max {
			return fmt.Errorf("postgres: create template %s: %d held: %w", t.ID, max, exporttpl.ErrTooManyTemplates)
		}
		_, err := tx.Exec(ctx, `INSERT INTO export_templates(`+templateSummary+`, source, js)
			VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			t.ID, t.AccountID, t.Name, t.Revision, t.FilenamePattern, t.ContentType, second(t.CreatedAt),
			second(t.UpdatedAt), t.Source, t.JS)
		if err != nil {
			return fmt.Errorf("postgres: create template %s: %w", t.ID, err)
		}
		return nil
	})
}

// ListTemplates returns the account's templates, newest first, without
// their scripts.
func (s *TemplateStore) ListTemplates(ctx context.Context, accountID string) ([]exporttpl.Template, error) {
	rows, err := s.db.pool.Query(ctx, `SELECT `+templateSummary+` FROM export_templates
		WHERE account_id = $1 ORDER BY created_at DESC, id DESC`, accountID)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: templates: %w", err))
	}
	defer rows.Close()
	list := []exporttpl.Template{}
	for rows.Next() {
		var t exporttpl.Template
		if err := scanTemplate(rows, &t); err != nil {
			return nil, unavailable(err)
		}
		list = append(list, t)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: templates: %w", err))
	}
	return list, nil
}

// Template returns the account's template, or [apperr.NotFound].
func (s *TemplateStore) Template(ctx context.Context, accountID, id string) (*exporttpl.Template, error) {
	var t exporttpl.Template
	err := scanTemplate(s.db.pool.QueryRow(ctx, `SELECT `+templateSummary+`, source, js FROM export_templates
		WHERE id = $1 AND account_id = $2`, id, accountID), &t, &t.Source, &t.JS)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export template not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(err)
	}
	return &t, nil
}

// scanTemplate reads the templateSummary columns into t, then any more
// destinations; no row is pgx.ErrNoRows, unwrapped.
func scanTemplate(row pgx.Row, t *exporttpl.Template, more ...any) error {
	dest := append([]any{&t.ID, &t.AccountID, &t.Name, &t.Revision, &t.FilenamePattern, &t.ContentType, &t.CreatedAt, &t.UpdatedAt}, more...)
	if err := row.Scan(dest...); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		return fmt.Errorf("postgres: template: %w", err)
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.UTC(), t.UpdatedAt.UTC()
	return nil
}

// UpdateTemplate stores t if its stored revision is base, or returns a
// *[exporttpl.StaleRevisionError] or [apperr.NotFound]. The row is
// locked while checked, so of two updates from the same base on
// different nodes one wins and the other is stale.
func (s *TemplateStore) UpdateTemplate(ctx context.Context, t *exporttpl.Template, base int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		var current int
		err := tx.QueryRow(ctx, `SELECT revision FROM export_templates WHERE id = $1 AND account_id = $2 FOR UPDATE`,
			t.ID, t.AccountID).Scan(&current)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return apperr.New(apperr.NotFound, "export template not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("postgres: update template %s: %w", t.ID, err)
		case current != base:
			return &exporttpl.StaleRevisionError{Current: current}
		}
		_, err = tx.Exec(ctx, `UPDATE export_templates SET name = $1, source = $2, js = $3, revision = $4,
			filename_pattern = $5, content_type = $6, updated_at = $7 WHERE id = $8`,
			t.Name, t.Source, t.JS, t.Revision, t.FilenamePattern, t.ContentType, second(t.UpdatedAt), t.ID)
		if err != nil {
			return fmt.Errorf("postgres: update template %s: %w", t.ID, err)
		}
		return nil
	})
}

// DeleteTemplate deletes the account's template, or returns
// [apperr.NotFound].
func (s *TemplateStore) DeleteTemplate(ctx context.Context, accountID, id string) error {
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM export_templates WHERE id = $1 AND account_id = $2`, id, accountID)
	if err != nil {
		return unavailable(fmt.Errorf("postgres: delete template %s: %w", id, err))
	}
	if tag.RowsAffected() == 0 {
		return apperr.New(apperr.NotFound, "export template not found")
	}
	return nil
}
