package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/server"
)

const (
	ownerEmail    = "editor@example.com"
	ownerPassword = "correct horse battery"
)

// distDir is the UI that TestMain built for this run.
var distDir string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "captionqa-e2e-ui-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	// Build from the sources, not the embedded dist, which was compiled
	// into the test binary before the bundler ran.
	cmd := exec.Command("go", "run", "./frontend/bundle", "-src", "frontend/src", "-dist", dir)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building the UI failed: %v\n%s", err, out)
		return 1
	}
	distDir = dir
	defer shared.close()
	return m.Run()
}

// shared is the one Chromium of this run: every test opens its tabs in it,
// each in a browser context of its own (cookies, storage, downloads and
// permissions apart) and in a window of its own (visible, so that it gets
// animation frames and timers at full rate). Starting a browser per test
// cost a second or more each and kept the tests serial.
var shared sharedBrowser

type sharedBrowser struct {
	once     sync.Once
	ctx      context.Context
	cancel   func()
	err      error
	userData string
}

// get starts the browser on first use; a start that failed fails every
// test that asks.
func (s *sharedBrowser) get(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	s.once.Do(func() {
		s.userData, s.err = os.MkdirTemp("", "captionqa-e2e-chromium-")
		if s.err != nil {
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.UserDataDir(s.userData),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			// Windows that are not in front keep their timers and frames.
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.WindowSize(1280, 800),
		)
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelC := chromedp.NewContext(actx)
		s.ctx, s.cancel = ctx, func() { cancelC(); cancelA() }
		s.err = chromedp.Do(ctx)
	})
	if s.err != nil {
		t.Fatalf("start chromium: %v", s.err)
	}
	return s.ctx
}

func (s *sharedBrowser) close() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.userData != "" {
		_ = os.RemoveAll(s.userData)
	}
}

// env is one server with a signed-up owner account.
type env struct {
	srv    *server.Server
	ts     *httptest.Server
	secret string // the owner key's Bearer secret
}

func newEnv(t *testing.T, desktop bool) *env {
	t.Helper()
	return newEnvWith(t, desktop, nil)
}

// newEnvWith is newEnv with the settings that mod makes (none when nil).
func newEnvWith(t *testing.T, desktop bool, mod func(*server.Config)) *env {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if mod != nil {
		mod(&cfg)
	}
	srv := server.New(cfg)
	ctx := context.Background()
	if err := srv.Open(ctx); err != nil {
		t.Fatalf("open server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	if _, err := srv.Accounts().SetPassword(ctx, ownerEmail, ownerPassword); err != nil {
		t.Fatalf("set password: %v", err)
	}
	h := srv.Handler()
	if desktop {
		h = srv.DesktopHandler()
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &env{srv: srv, ts: ts, secret: srv.Owner().Secret}
}

// apiJSON calls a v1 route with the owner's key and returns status and body.
func (e *env) api(t *testing.T, method, path, contentType string, body io.Reader, secret string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if secret == "" {
		secret = e.secret
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// chromiumPath returns the browser, or skips (fails under CI=true).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (/usr/bin/chromium); CI needs it: apt-get install chromium")
	}
	t.Skip("chromium is not installed (/usr/bin/chromium): skipping browser tests (CI=true makes this a failure)")
	return ""
}

// tab is one headless tab with its console watched.
type tab struct {
	t        *testing.T
	ctx      context.Context
	base     string
	mu       sync.Mutex
	problems []string
}

// newBrowser opens a tab on base in the shared browser, in a browser
// context of its own. The tests run in parallel: each has its own server
// and data folder, so they share nothing but the browser process.
func newBrowser(t *testing.T, base string) *tab {
	t.Helper()
	bctx := shared.get(t)
	b := &tab{t: t, base: base}
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(b.listen))
	b.ctx = ctx
	t.Cleanup(cancel)
	// The window in front is the only one the system focuses; every tab
	// behaves as focused, so that focus moves, :focus-visible and the
	// clipboard work in all of them at once.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("focus emulation: %v", err)
	}
	t.Cleanup(b.checkConsole)
	return b
}

// browserContext is the id of the tab's browser context, for the browser
// domain's calls (downloads, permissions) that would otherwise change every
// tab's.
func (b *tab) browserContext() cdp.BrowserContextID {
	return chromedp.FromContext(b.ctx).BrowserContextID
}

// allowDownloads saves this tab's downloads into dir.
func (b *tab) allowDownloads(dir string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, BrowserContextID: b.browserContext()}); err != nil {
		b.t.Fatalf("allow downloads: %v", err)
	}
}

// listen collects console errors and uncaught exceptions. It runs on the
// tab's reader goroutine, so it only appends under the lock.
func (b *tab) listen(ev any) {
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range e.Args {
				if len(a.Value) > 0 {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			b.mu.Lock()
			b.problems = append(b.problems, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			b.mu.Unlock()
		}
	case *runtime.EventExceptionThrown:
		msg := "exception"
		if d := e.ExceptionDetails; d != nil {
			msg = d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
		}
		b.mu.Lock()
		b.problems = append(b.problems, msg)
		b.mu.Unlock()
	}
}

func (b *tab) checkConsole() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("browser console: %s", p)
	}
}

// run runs actions with a time limit, failing the test on error.
func (b *tab) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JS expression into T.
func eval[T any](b *tab, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitJS waits until a JS expression is truthy.
func (b *tab) waitJS(what, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(25*time.Second))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

func (b *tab) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (b *tab) open(path string) {
	b.t.Helper()
	b.run("open "+path, chromedp.Navigate(b.base+path))
}

// signIn fills the sign-in form and waits for the signed-in frame.
func (b *tab) signIn() {
	b.t.Helper()
	b.open("/")
	b.run("sign in",
		chromedp.WaitVisible(chromedp.CSS("#signin-email")),
		chromedp.SendKeys(chromedp.CSS("#signin-email"), ownerEmail),
		chromedp.SendKeys(chromedp.CSS("#signin-password"), ownerPassword),
		click("#signin-submit"),
		chromedp.WaitVisible(chromedp.CSS("#user-email")),
	)
}

// activeID is the id of the focused element.
func (b *tab) activeID() string {
	return eval[string](b, `document.activeElement ? (document.activeElement.id || document.activeElement.tagName + "." + (document.activeElement.getAttribute("class")||"")) : ""`)
}

// viewport sets the tab's size and waits until the page has drawn a frame
// at it, so that what a test measures or captures next is laid out anew.
func (b *tab) viewport(w, h int64) {
	b.t.Helper()
	b.run(fmt.Sprintf("viewport %dx%d", w, h), chromedp.EmulateViewport(w, h))
	b.waitJS("resized", fmt.Sprintf(`innerWidth === %d && innerHeight === %d`, w, h))
	eval[bool](b, `new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
}

// usable is a JS expression of an element e: there, enabled and not inert,
// so that a click or a key sent to it takes effect.
const usable = `!!e && !e.disabled && !e.closest("[inert]")`

// click waits until sel is visible and enabled, then clicks it: a click on
// a disabled or inert control does nothing, and the test would then wait for
// an effect that never comes.
func click(sel string) chromedp.Action[chromedp.Void] {
	ready := fmt.Sprintf(`(e => %s)(document.querySelector(%q))`, usable, sel)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := chromedp.Poll[chromedp.Void](ready)(ctx, t); err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s to be enabled: %w", sel, err)
		}
		return chromedp.Click(chromedp.CSS(sel))(ctx, t)
	}
}

// press sends one key (kb constant) to the focused element.
func (b *tab) press(key string) {
	b.t.Helper()
	b.run("press key", chromedp.KeyEvent(key))
}

// pressOn waits until the element sel has the focus and is enabled (a key
// sent before then would land elsewhere, or on a control that ignores it),
// then sends key to it.
func (b *tab) pressOn(sel, key string) {
	b.t.Helper()
	b.waitJS("focus on "+sel, fmt.Sprintf(`(e => %s && e.matches(%q))(document.activeElement)`, usable, sel))
	b.press(key)
}

// focusPress moves the focus to sel as a Tab would, then presses key on it.
func (b *tab) focusPress(sel, key string) {
	b.t.Helper()
	b.run("focus "+sel, chromedp.Focus(chromedp.CSS(sel)))
	b.pressOn(sel, key)
}

// shots captures the page at 1280x800 and 800x900 into SHOTS_DIR/name-W.png,
// then restores 1280x800. Without SHOTS_DIR it does nothing.
func (b *tab) shots(name string) {
	b.t.Helper()
	dir := os.Getenv("SHOTS_DIR")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	for _, sz := range [][2]int64{{1280, 800}, {800, 900}} {
		b.viewport(sz[0], sz[1])
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		cancel()
		if err != nil {
			b.t.Fatalf("screenshot %s: %v", name, err)
		}
		file := filepath.Join(dir, fmt.Sprintf("%s-%dx%d.png", name, sz[0], sz[1]))
		if err := os.WriteFile(file, png, 0o644); err != nil {
			b.t.Fatal(err)
		}
		// A page longer than the viewport also gets a full-length shot.
		if eval[bool](b, fmt.Sprintf(`document.documentElement.scrollHeight > %d`, sz[1])) {
			ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			cancel()
			if err != nil {
				b.t.Fatalf("full screenshot %s: %v", name, err)
			}
			file := filepath.Join(dir, fmt.Sprintf("%s-%dx%d-full.png", name, sz[0], sz[1]))
			if err := os.WriteFile(file, png, 0o644); err != nil {
				b.t.Fatal(err)
			}
		}
	}
	b.viewport(1280, 800)
}

// fixture writes a caption file into a temp folder and returns its path.
func fixture(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// multipart builds a process form for the API.
func multipartForm(t *testing.T, name string, content []byte, fields map[string]string) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(content); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), &buf
}

// waitFile waits for a finished download in dir and returns its path.
func waitFile(dir, name string, limit time.Duration) (string, error) {
	deadline := time.Now().Add(limit)
	p := filepath.Join(dir, name)
	for time.Now().Before(deadline) {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			return p, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return "", errors.New("no download " + name + " in " + dir + " (found: " + strings.Join(names, ", ") + ")")
}
