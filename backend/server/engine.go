package server

import (
	"fmt"
	"io/fs"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// newEngine loads the embedded presets and standards.
func newEngine(maxInput int) (*engine.Engine, error) {
	presetFS, err := fs.Sub(assets.FS, "presets")
	if err != nil {
		return nil, err
	}
	presets, err := preset.Load(presetFS)
	if err != nil {
		return nil, fmt.Errorf("server: loading presets: %w", err)
	}
	stdFS, err := fs.Sub(assets.FS, "standards")
	if err != nil {
		return nil, err
	}
	standards, err := standard.Load(stdFS)
	if err != nil {
		return nil, fmt.Errorf("server: loading standards: %w", err)
	}
	return engine.New(engine.Options{Presets: presets, Standards: standards, MaxInputBytes: maxInput}), nil
}
