package engine

import (
	"os"
	"testing"

	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// newTestEngine loads the real presets and standards from assets/.
func newTestEngine(tb testing.TB) *Engine {
	tb.Helper()
	presets, err := preset.Load(os.DirFS("../../assets/presets"))
	if err != nil {
		tb.Fatal(err)
	}
	standards, err := standard.Load(os.DirFS("../../assets/standards"))
	if err != nil {
		tb.Fatal(err)
	}
	return New(Options{Presets: presets, Standards: standards})
}
