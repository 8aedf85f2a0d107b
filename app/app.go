// Package app is the desktop shell, the only package that imports Wails
// (docs/architecture.md, The shells). It opens a native window whose page
// and API requests reach the server's HTTP handler in-process, through
// Wails' AssetServer, while the server's localhost listener stays up for
// integrations.
//
// The window is built only with the tags desktop,production,webkit2_41
// (cgo, GTK 3, WebKitGTK 4.1); without them [Run] returns [ErrNotBuilt], so
// the default build, go vet and go test need no cgo. This file and
// assets.go are shared by both builds.
package app

import (
	"errors"
	"log/slog"
)

// Window geometry and title.
const (
	Title     = "CaptionQA"
	Width     = 1280
	Height    = 800
	MinWidth  = 800
	MinHeight = 600
)

// Errors of [Run].
var (
	// ErrNotBuilt is what Run returns in a binary built without the
	// desktop tags.
	ErrNotBuilt = errors.New("this binary was built without the desktop window (build tags desktop,production,webkit2_41); run captionqa serve")
	// ErrNoDisplay is what Run returns when neither DISPLAY nor
	// WAYLAND_DISPLAY is set: GTK would panic on start.
	ErrNoDisplay = errors.New("no display: neither DISPLAY nor WAYLAND_DISPLAY is set")
)

// Options configures [Run].
type Options struct {
	// Logger receives the window's logs and Wails' own; nil discards them.
	Logger *slog.Logger
	// Started, if set, runs once the server is open and listening, before
	// the window's first request is served: main prints the address and,
	// on the first start, the owner key there.
	Started func()
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

// HasDisplay reports whether a window can be opened: an X11 (DISPLAY) or
// Wayland (WAYLAND_DISPLAY) display is set in the environment getenv
// reads (os.Getenv in main).
func HasDisplay(getenv func(string) string) bool {
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}
