package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/userpreset"
)

// UserPresetStore keeps accounts' own presets. Each method may return
// [apperr.Unavailable] (details.retryAfterSeconds) when the database is
// busy or cannot be reached.
type UserPresetStore struct{ db *DB }

var _ userpreset.Store = (*UserPresetStore)(nil)

// UserPresets returns the store of accounts' presets.
func (db *DB) UserPresets() *UserPresetStore { return &UserPresetStore{db: db} }

// PutPreset inserts or replaces the account's preset p.Name; a new one
// only while the account holds fewer than max (else an error wrapping
// [userpreset.ErrTooManyPresets]). The check and the write run under the
// account's row lock, so writers in several processes stay within max.
// [apperr.NotFound] when the account is unknown.
func (s *UserPresetStore) PutPreset(ctx context.Context, p *userpreset.Stored, max int) (bool, error) {
	created := false
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		if err := tx.lockAccount(ctx, p.AccountID); err != nil {
			return err
		}
		res, err := tx.exec(ctx, `UPDATE user_presets SET file = $1, updated_at = $2 WHERE account_id = $3 AND name = $4`,
			string(p.File), s.db.ts(p.UpdatedAt), p.AccountID, p.Name)
		if err != nil {
			return fmt.Errorf("store: put preset %q: %w", p.Name, err)
		}
		if n, err := affected(res); err != nil || n == 1 {
			return err
		}
		var held int
		if err := tx.queryRow(ctx, `SELECT count(*) FROM user_presets WHERE account_id = $1`, p.AccountID).Scan(&held); err != nil {
			return fmt.Errorf("store: put preset %q: %w", p.Name, err)
		}
		if held >= max {
			return fmt.Errorf("store: put preset %q: %d held: %w", p.Name, held, userpreset.ErrTooManyPresets)
		}
		if _, err := tx.exec(ctx, `INSERT INTO user_presets(account_id, name, file, created_at, updated_at) VALUES($1, $2, $3, $4, $5)`,
			p.AccountID, p.Name, string(p.File), s.db.ts(p.CreatedAt), s.db.ts(p.UpdatedAt)); err != nil {
			return fmt.Errorf("store: put preset %q: %w", p.Name, err)
		}
		created = true
		return nil
	})
	return created, err
}

const userPresetColumns = `account_id, name, file, created_at, updated_at`

// ListPresets returns the account's presets, by name.
func (s *UserPresetStore) ListPresets(ctx context.Context, accountID string) ([]userpreset.Stored, error) {
	return collect(ctx, s.db.read, func(r scanner) (userpreset.Stored, error) {
		var p userpreset.Stored
		return p, scanUserPreset(r, &p)
	}, `SELECT `+userPresetColumns+` FROM user_presets WHERE account_id = $1 ORDER BY name`, accountID)
}

// Preset returns the account's preset name, or [apperr.NotFound].
func (s *UserPresetStore) Preset(ctx context.Context, accountID, name string) (*userpreset.Stored, error) {
	var p userpreset.Stored
	err := scanUserPreset(s.db.read.queryRow(ctx, `SELECT `+userPresetColumns+` FROM user_presets
		WHERE account_id = $1 AND name = $2`, accountID, name), &p)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "preset not found").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

func scanUserPreset(r scanner, p *userpreset.Stored) error {
	var file string
	err := r.Scan(&p.AccountID, &p.Name, &file, at(&p.CreatedAt), at(&p.UpdatedAt))
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: preset: %w", err)
	}
	p.File = []byte(file)
	return err
}

// DeletePreset deletes the account's preset name, or returns
// [apperr.NotFound].
func (s *UserPresetStore) DeletePreset(ctx context.Context, accountID, name string) error {
	return changeOne(ctx, s.db.write, "preset", `DELETE FROM user_presets WHERE account_id = $1 AND name = $2`, accountID, name)
}
