package cli

import (
	"fmt"
	"io/fs"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// newEngine loads the embedded presets and standards. A broken data file
// is reported by name: it is a defect of the build, not of the input.
func newEngine() (*engine.Engine, error) {
	presetFS, err := fs.Sub(assets.FS, "presets")
	if err != nil {
		return nil, err
	}
	presets, err := preset.Load(presetFS)
	if err != nil {
		return nil, fmt.Errorf("loading presets: %w", err)
	}
	stdFS, err := fs.Sub(assets.FS, "standards")
	if err != nil {
		return nil, err
	}
	standards, err := standard.Load(stdFS)
	if err != nil {
		return nil, fmt.Errorf("loading standards: %w", err)
	}
	// The command line reads local files: the API's request limit does not
	// apply, only the guard against non-caption files in readInput.
	return engine.New(engine.Options{Presets: presets, Standards: standards, MaxInputBytes: maxInput}), nil
}
