//go:build !desktop

package app

import (
	"context"

	"github.com/captionqa/captionqa/backend/server"
)

// Built reports whether this binary includes the desktop window.
const Built = false

// Run returns [ErrNotBuilt]: this binary has no window; captionqa serve
// runs the same server headless.
func Run(context.Context, *server.Server, Options) error { return ErrNotBuilt }
