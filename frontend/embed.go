// Package frontend embeds the built browser UI. dist/ holds the output of
// the esbuild bundler (go generate ./frontend); only dist/.gitkeep is
// committed, so the embed pattern always matches and `go test` works before
// the UI is built.
package frontend

import "embed"

// Dist is the built UI, read-only.
//
//go:embed all:dist
var Dist embed.FS
