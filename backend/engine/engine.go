// Package engine runs one QA pass over a caption file: read, check every
// rule of the preset, fix under the chosen profile, normalise for the
// output format, grade against a standard, write the delivery and the
// aided output, and decide the delivery status. It is pure: no HTTP, no
// SQL, no clock; the API and the CLI both call [Engine.Process].
package engine

import (
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// DefaultMaxInputBytes is the largest file [Engine.Process] accepts unless
// configured otherwise: 4.25 MiB, the API's request limit (docs/security.md,
// Limits).
const DefaultMaxInputBytes = 4_456_448

// Options configures an [Engine].
type Options struct {
	Presets   *preset.Set
	Standards *standard.Set
	// MaxInputBytes bounds the input; 0 means [DefaultMaxInputBytes].
	MaxInputBytes int
}

// Engine processes caption files. It is safe for concurrent use.
type Engine struct {
	presets   *preset.Set
	standards *standard.Set
	maxInput  int
}

// New returns an engine over loaded presets and standards.
func New(opts Options) *Engine {
	max := opts.MaxInputBytes
	if max <= 0 {
		max = DefaultMaxInputBytes
	}
	return &Engine{presets: opts.Presets, standards: opts.Standards, maxInput: max}
}

// Presets returns the presets the engine knows.
func (e *Engine) Presets() *preset.Set { return e.presets }

// Standards returns the standards the engine grades against.
func (e *Engine) Standards() *standard.Set { return e.standards }
