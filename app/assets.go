package app

import (
	"html"
	"net/http"
	"sync"
)

// gate is the handler Wails' AssetServer calls for every request of the
// window (no Assets are set, so GET and POST alike reach it). Wails runs
// OnStartup in a goroutine while the window loads its first page, so the
// server may not be open yet when the first request arrives: gate holds
// requests until [gate.open] or [gate.fail], then hands them to the
// server's handler, or answers with the startup error so the window shows
// why it is empty.
type gate struct {
	ready chan struct{} // closed by open or fail
	once  sync.Once
	h     http.Handler // set before ready is closed
	err   error        // set before ready is closed
}

func newGate() *gate { return &gate{ready: make(chan struct{})} }

// open lets requests through to h.
func (g *gate) open(h http.Handler) { g.once.Do(func() { g.h = h; close(g.ready) }) }

// fail answers every request with err.
func (g *gate) fail(err error) { g.once.Do(func() { g.err = err; close(g.ready) }) }

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-g.ready:
	case <-r.Context().Done():
		return
	}
	if g.err != nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(errorPage(g.err)))
		return
	}
	g.h.ServeHTTP(w, r)
}

func errorPage(err error) string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CaptionQA</title></head>` +
		`<body style="font-family:sans-serif;margin:2rem"><h1>CaptionQA could not start</h1><pre style="white-space:pre-wrap">` +
		html.EscapeString(err.Error()) + `</pre><p>Close this window; the details are in the log.</p></body></html>`
}
