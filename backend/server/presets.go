package server

import (
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/userpreset"
)

// newUserPresets is the accounts' own presets, derived from the engine's
// built-ins (docs/presets.md, Your own presets).
func newUserPresets(db store.DB, eng *engine.Engine, cfg *Config) *userpreset.Service {
	return userpreset.NewService(db.UserPresets(), eng.Presets(), cfg.Now)
}

// UserPresets returns the service of accounts' own presets for the admin
// commands (captionqa preset).
func (a *Admin) UserPresets(cfg Config) (*userpreset.Service, error) {
	eng, err := NewEngine(cfg.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	return newUserPresets(a.db, eng, &cfg), nil
}
