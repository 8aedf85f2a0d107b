package server

import (
	"fmt"
	"io/fs"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// NewEngine returns an engine with the embedded presets and standards that
// refuses inputs over maxInput bytes. The server and the command line share
// it; an error means a broken data file, a defect of the build rather than
// of any input.
func NewEngine(maxInput int) (*engine.Engine, error) {
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
