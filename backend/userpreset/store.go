package userpreset

import (
	"context"
	"errors"
	"time"
)

// Stored is an account's preset as kept: its name and its file, as
// [preset.UserFile] JSON. Times are UTC, whole seconds.
type Stored struct {
	AccountID string
	Name      string
	File      []byte
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ErrTooManyPresets is returned, wrapped, by [Store.PutPreset] when a
// new preset would take the account past its most.
var ErrTooManyPresets = errors.New("userpreset: too many presets")

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error; another account's preset is [apperr.NotFound],
// as an unknown one is.
type Store interface {
	// PutPreset stores p under its account and name: a new name is
	// inserted (created true) unless the account holds max presets
	// already (then an error wrapping [ErrTooManyPresets]); a name the
	// account holds has its file and UpdatedAt replaced, its CreatedAt
	// kept. [apperr.NotFound] when the account is unknown.
	PutPreset(ctx context.Context, p *Stored, max int) (created bool, err error)
	// ListPresets returns the account's presets, by name.
	ListPresets(ctx context.Context, accountID string) ([]Stored, error)
	// Preset returns the account's preset name, or [apperr.NotFound].
	Preset(ctx context.Context, accountID, name string) (*Stored, error)
	// DeletePreset deletes the account's preset name, or returns
	// [apperr.NotFound].
	DeletePreset(ctx context.Context, accountID, name string) error
}
