package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// TemplateStore keeps export templates. Each method may return
// [apperr.Unavailable] (details.retryAfterSeconds) when the database is
// busy or cannot be reached.
type TemplateStore struct{ db *DB }

var _ exporttpl.Store = (*TemplateStore)(nil)

// Templates returns the store of export templates.
func (db *DB) Templates() *TemplateStore { return &TemplateStore{db: db} }

const templateSummary = `id, account_id, name, revision, filename_pattern, content_type, created_at, updated_at`

// CreateTemplate inserts t unless the account holds max templates (an
// error wrapping [exporttpl.ErrTooManyTemplates]); the count and the
// insert run under the account's row lock, so creators in several
// processes stay within max. [apperr.NotFound] when the account is
// unknown.
func (s *TemplateStore) CreateTemplate(ctx context.Context, t *exporttpl.Template, max int) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := tx.lockAccount(ctx, t.AccountID); err != nil {
			return err
		}
		var held int
		if err := tx.queryRow(ctx, `SELECT count(*) FROM export_templates WHERE account_id = $1`, t.AccountID).Scan(&held); err != nil {
			return fmt.Errorf("store: create template %s: %w", t.ID, err)
		}
		if held >= max {
			return fmt.Errorf("store: create template %s: %d held: %w", t.ID, max, exporttpl.ErrTooManyTemplates)
		}
		_, err := tx.exec(ctx, `INSERT INTO export_templates(`+templateSummary+`, source, js)
			VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			t.ID, t.AccountID, t.Name, t.Revision, t.FilenamePattern, t.ContentType, s.db.ts(t.CreatedAt),
			s.db.ts(t.UpdatedAt), t.Source, t.JS)
		if err != nil {
			return fmt.Errorf("store: create template %s: %w", t.ID, err)
		}
		return nil
	})
}

// ListTemplates returns the account's templates, newest first, without
// their scripts.
func (s *TemplateStore) ListTemplates(ctx context.Context, accountID string) ([]exporttpl.Template, error) {
	return collect(ctx, s.db.read, func(r scanner) (exporttpl.Template, error) {
		var t exporttpl.Template
		return t, scanTemplate(r, &t)
	}, `SELECT `+templateSummary+` FROM export_templates WHERE account_id = $1 ORDER BY created_at DESC, id DESC`, accountID)
}

// Template returns the account's template, or [apperr.NotFound].
func (s *TemplateStore) Template(ctx context.Context, accountID, id string) (*exporttpl.Template, error) {
	var t exporttpl.Template
	err := scanTemplate(s.db.read.queryRow(ctx, `SELECT `+templateSummary+`, source, js FROM export_templates
		WHERE id = $1 AND account_id = $2`, id, accountID), &t, &t.Source, &t.JS)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export template not found").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func scanTemplate(r scanner, t *exporttpl.Template, more ...any) error {
	dest := append([]any{&t.ID, &t.AccountID, &t.Name, &t.Revision, &t.FilenamePattern, &t.ContentType,
		at(&t.CreatedAt), at(&t.UpdatedAt)}, more...)
	err := r.Scan(dest...)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: template: %w", err)
	}
	return err
}

// UpdateTemplate stores t if its stored revision is base, or returns a
// *[exporttpl.StaleRevisionError] or [apperr.NotFound]. The row is
// locked while checked, so of two updates from the same base in
// different processes one wins and the other is stale.
func (s *TemplateStore) UpdateTemplate(ctx context.Context, t *exporttpl.Template, base int) error {
	return s.db.WriteTx(ctx, func(tx *Tx) error {
		var current int
		err := tx.queryRow(ctx, `SELECT revision FROM export_templates WHERE id = $1 AND account_id = $2 `+s.db.d.ForUpdate,
			t.ID, t.AccountID).Scan(&current)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return apperr.New(apperr.NotFound, "export template not found").Wrap(err)
		case err != nil:
			return fmt.Errorf("store: update template %s: %w", t.ID, err)
		case current != base:
			return &exporttpl.StaleRevisionError{Current: current}
		}
		_, err = tx.exec(ctx, `UPDATE export_templates SET name = $1, source = $2, js = $3, revision = $4,
			filename_pattern = $5, content_type = $6, updated_at = $7 WHERE id = $8`,
			t.Name, t.Source, t.JS, t.Revision, t.FilenamePattern, t.ContentType, s.db.ts(t.UpdatedAt), t.ID)
		if err != nil {
			return fmt.Errorf("store: update template %s: %w", t.ID, err)
		}
		return nil
	})
}

// DeleteTemplate deletes the account's template, or returns
// [apperr.NotFound].
func (s *TemplateStore) DeleteTemplate(ctx context.Context, accountID, id string) error {
	return changeOne(ctx, s.db.write, "export template", `DELETE FROM export_templates WHERE id = $1 AND account_id = $2`, id, accountID)
}
