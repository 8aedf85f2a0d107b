//go:build desktop

package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	gosignal "os/signal"
	"sync"
	"syscall"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/captionqa/captionqa/backend/server"
)

// Built reports whether this binary includes the desktop window.
const Built = true

// Run opens the CaptionQA window and blocks until it is closed or ctx is
// done. srv must be new (made by server.New, not yet opened): nothing
// happens before wails.Run. In OnStartup the server is opened, its
// localhost listener bound and served in a goroutine (integrations keep
// working while the window is open), and the window's requests are let
// through to the server's desktop handler. In OnShutdown the listener
// shuts down gracefully and the server is closed. Run returns the first
// error of the window or of the server.
func Run(ctx context.Context, srv *server.Server, opts Options) error {
	if !HasDisplay(os.Getenv) {
		return ErrNoDisplay
	}
	w := &window{ctx: ctx, srv: srv, opts: opts, log: opts.logger(), gate: newGate(), shell: &Shell{}}
	err := wails.Run(&options.App{
		Title:            Title,
		Width:            Width,
		Height:           Height,
		MinWidth:         MinWidth,
		MinHeight:        MinHeight,
		BackgroundColour: &options.RGBA{R: 255, G: 255, B: 255, A: 255},
		// No Assets: every request of the page, GET or POST, goes to the
		// server's router, which serves the embedded UI at / and the API.
		AssetServer: &assetserver.Options{Handler: w.gate},
		OnStartup:   w.startup,
		OnShutdown:  w.shutdown,
		Bind:        []any{w.shell},
		Logger:      wailsLogger{w.log},
		Linux: &linux.Options{
			ProgramName: "captionqa",
			// Wails' own default when Linux is nil; software rendering
			// works everywhere, including Xvfb and remote X.
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	return errors.Join(err, w.result())
}

// window is one run of the desktop window: the server's lifecycle tied to
// Wails' OnStartup and OnShutdown.
type window struct {
	ctx   context.Context
	srv   *server.Server
	opts  Options
	log   *slog.Logger
	gate  *gate
	shell *Shell

	mu      sync.Mutex
	err     error         // the first startup or serve error
	served  chan error    // receives Serve's result; nil until serving
	stop    func()        // cancels Serve's context
	stopped chan struct{} // closed at shutdown, ends the ctx watcher
}

// startup runs in its own goroutine while the window loads (Wails'
// OnStartup): it opens and starts the server, then lets the window's
// requests through. A failure is shown in the window and returned by Run.
func (w *window) startup(wctx context.Context) {
	w.shell.setContext(wctx)
	w.mu.Lock()
	w.stopped = make(chan struct{})
	stopped := w.stopped
	w.mu.Unlock()
	// SIGINT/SIGTERM close the window like the close button, through one
	// Quit. Wails' own handler (installed by wails.Run, before this)
	// quits GTK from its goroutine too, and two gtk_main_quit at once
	// crashed the window now and then (SIGSEGV, exit 2, in the desktop
	// smoke test): the signals are taken back from it here, which also
	// stops them reaching main's ctx, so this goroutine listens to both.
	gosignal.Reset(os.Interrupt, syscall.SIGTERM)
	sigs := make(chan os.Signal, 1)
	gosignal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer gosignal.Stop(sigs)
		select {
		case <-w.ctx.Done():
			runtime.Quit(wctx)
		case <-sigs:
			runtime.Quit(wctx)
		case <-stopped:
		}
	}()
	if err := w.startServer(); err != nil {
		w.setErr(err)
		w.log.Error("the server did not start", "err", err)
		w.gate.fail(err)
		return
	}
	w.gate.open(w.srv.DesktopHandler())
}

func (w *window) startServer() error {
	if err := w.srv.Open(w.ctx); err != nil {
		return err
	}
	if err := w.srv.Listen(); err != nil {
		return err
	}
	serveCtx, stop := context.WithCancel(context.WithoutCancel(w.ctx))
	served := make(chan error, 1)
	w.mu.Lock()
	w.served, w.stop = served, stop
	w.mu.Unlock()
	if w.opts.Started != nil {
		w.opts.Started()
	}
	w.log.Info("serving", "url", w.srv.URL())
	go func() {
		// Run also works the job queue and closes the store when done.
		err := w.srv.Run(serveCtx)
		if err != nil {
			w.setErr(err)
			w.log.Error("the localhost listener stopped", "err", err)
		}
		served <- err
	}()
	return nil
}

// shutdown runs after the window has closed (Wails' OnShutdown): the
// listener finishes in-flight requests, then the database is closed.
func (w *window) shutdown(context.Context) {
	w.mu.Lock()
	served, stop, stopped := w.served, w.stop, w.stopped
	w.mu.Unlock()
	if stopped != nil {
		close(stopped)
	}
	// The window is gone; release any request still held at the gate.
	w.gate.fail(errors.New("the window is closing"))
	if stop != nil {
		stop()
		<-served
	}
	if err := w.srv.Close(); err != nil {
		w.setErr(err)
	}
}

func (w *window) setErr(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

func (w *window) result() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// wailsLogger sends Wails' log lines to slog.
type wailsLogger struct{ log *slog.Logger }

var _ logger.Logger = wailsLogger{}

func (l wailsLogger) Print(m string)   { l.log.Info(m, "src", "wails") }
func (l wailsLogger) Trace(m string)   { l.log.Debug(m, "src", "wails") }
func (l wailsLogger) Debug(m string)   { l.log.Debug(m, "src", "wails") }
func (l wailsLogger) Info(m string)    { l.log.Info(m, "src", "wails") }
func (l wailsLogger) Warning(m string) { l.log.Warn(m, "src", "wails") }
func (l wailsLogger) Error(m string)   { l.log.Error(m, "src", "wails") }

// Fatal is Wails giving up; its own logger exits too.
func (l wailsLogger) Fatal(m string) {
	l.log.Error(m, "src", "wails")
	fmt.Fprintln(os.Stderr, "captionqa: wails: "+m)
	os.Exit(1)
}
