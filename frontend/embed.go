// Package frontend embeds the built browser UI. dist/ holds the output of
// the esbuild bundler (go run ./frontend/bundle); only dist/.gitkeep is
// committed, so the embed pattern always matches and `go test` works before
// the UI is built.
package frontend

import (
	"embed"
	"io/fs"
)

// dist is the bundler's output folder, read-only.
//
//go:embed all:dist
var dist embed.FS

// Dist returns the built UI rooted at dist/ (index.html at its top), or
// an empty tree holding only .gitkeep before the UI is built.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("frontend: " + err.Error()) // cannot happen: "dist" is a valid path
	}
	return sub
}
