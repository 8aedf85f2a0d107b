package e2e

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// hit is one request a receiver got.
type hit struct {
	header http.Header
	body   []byte
}

// receiver is a real HTTPS endpoint for webhook deliveries, answering
// with status (200 unless changed).
type receiver struct {
	ts     *httptest.Server
	status atomic.Int32
	mu     sync.Mutex
	hits   []hit
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{}
	r.status.Store(http.StatusOK)
	r.ts = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.hits = append(r.hits, hit{header: req.Header.Clone(), body: b})
		r.mu.Unlock()
		w.WriteHeader(int(r.status.Load()))
	}))
	t.Cleanup(r.ts.Close)
	return r
}

func (r *receiver) got() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

// caFile writes the receiver's certificate as a PEM file for
// server.Config.WebhookCAFile.
func (r *receiver) caFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "receiver-ca.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.ts.Certificate().Raw})
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// newWebhookEnv is newEnv with the receiver's certificate trusted, a
// quick retry schedule, and the server running as `captionqa serve` runs
// it (Server.Run on a loopback port), so its job queue works the queued
// deliveries: export_complete and redeliveries.
func newWebhookEnv(t *testing.T, caFile string) *env {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.WebhookCAFile = caFile
	// The receiver listens on loopback, which the destination policy
	// refuses unless allowed (docs/webhooks.md, Destinations).
	cfg.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
	cfg.WebhookTimeout = 5 * time.Second
	cfg.WebhookSchedule = webhook.Schedule{First: 2 * time.Second, Cap: 2 * time.Second, Window: 3 * time.Second}
	cfg.JobPollInterval = 100 * time.Millisecond
	srv := server.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	if err := srv.Open(ctx); err != nil {
		cancel()
		t.Fatalf("open server: %v", err)
	}
	if _, err := srv.Accounts().SetPassword(ctx, ownerEmail, ownerPassword); err != nil {
		cancel()
		_ = srv.Close()
		t.Fatalf("set password: %v", err)
	}
	if err := srv.Listen(); err != nil {
		cancel()
		_ = srv.Close()
		t.Fatalf("listen: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server run: %v", err)
		}
	})
	// env's callers use only ts.URL.
	return &env{srv: srv, ts: &httptest.Server{URL: srv.URL()}, secret: srv.Owner().Secret}
}

// narrowShots captures the page at a phone's width (390 px) into
// SHOTS_DIR/name-390x844.png, and its full length, then restores 1280x800.
func (b *tab) narrowShots(name string) {
	b.t.Helper()
	dir := os.Getenv("SHOTS_DIR")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	b.viewport(390, 844)
	for _, full := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
		var png []byte
		var err error
		suffix := ""
		if full {
			png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
			suffix = "-full"
		} else {
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}
		cancel()
		if err != nil {
			b.t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-390x844%s.png", name, suffix)), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	b.viewport(1280, 800)
}

// refreshUntil clicks the log's Refresh until expr holds.
func (b *tab) refreshUntil(what, expr string) {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b.waitJS("log loaded", `document.getElementById("deliveries-area").getAttribute("aria-busy") === "false"`)
		if eval[bool](b, expr) {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: never true after refreshing: %s\nlog: %s", what, expr, eval[string](b, `document.getElementById("deliveries-area").innerText`))
		}
		time.Sleep(300 * time.Millisecond)
		b.run("refresh", click("#deliveries-refresh"))
	}
}

func TestWebhookPage(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	e := newWebhookEnv(t, rcv.caFile(t))
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// The nav has Webhook as a page, not a "soon" item.
	later := eval[string](b, `[...document.querySelectorAll("#nav .later")].map(l => l.textContent).join("|")`)
	if strings.Contains(later, "Webhook") {
		t.Errorf("later nav items = %q, want no Webhook", later)
	}
	b.run("webhook page", click("#nav-webhook"), chromedp.WaitVisible(chromedp.CSS("#webhook-form")))
	if got := eval[string](b, `document.getElementById("nav-webhook").getAttribute("aria-current")`); got != "page" {
		t.Errorf("nav-webhook aria-current = %q", got)
	}
	if got := b.text("#page-title"); got != "Webhook" {
		t.Errorf("page title = %q", got)
	}
	b.run("empty", chromedp.WaitVisible(chromedp.CSS("#webhook-no-secret")), chromedp.WaitVisible(chromedp.CSS("#deliveries-empty")))
	if !eval[bool](b, `document.getElementById("webhook-enabled").checked && document.getElementById("webhook-rotate").hidden`) {
		t.Error("a new webhook should default to enabled, with no Rotate button before it exists")
	}
	// Labels and keyboard order: URL, the Enabled switch, Save, Send test event.
	if got := eval[string](b, `[...document.getElementById("webhook-url").labels].map(l => l.textContent).join()`); got != "Endpoint URL" {
		t.Errorf("URL label = %q", got)
	}
	if got := eval[string](b, `document.getElementById("webhook-enabled").getAttribute("role") + " " + [...document.getElementById("webhook-enabled").labels].map(l => l.textContent).join()`); got != "switch Enabled" {
		t.Errorf("enabled switch = %q", got)
	}
	b.run("focus url", chromedp.Focus(chromedp.CSS("#webhook-url")))
	var order []string
	for range 3 {
		b.press(kb.Tab)
		order = append(order, b.activeID())
	}
	if strings.Join(order, " ") != "webhook-enabled webhook-save webhook-test" {
		t.Errorf("Tab order from the URL = %v", order)
	}
	b.shots("30-webhook-empty")

	// Send test event before there is a webhook: said in the result area.
	b.run("test without webhook", click("#webhook-test"), chromedp.WaitVisible(chromedp.CSS("#webhook-test-error")))
	if got := b.text("#webhook-test-error"); !strings.Contains(got, "Save an endpoint URL first") || strings.Contains(got, "409") {
		t.Errorf("test without a webhook = %q", got)
	}

	// An http:// URL: the envelope's message, the field marked.
	b.run("http url",
		chromedp.SendKeys(chromedp.CSS("#webhook-url"), "http://hooks.example.com/captionqa"),
		click("#webhook-save"),
	)
	b.waitJS("url error", `!document.getElementById("webhook-error").hidden`)
	if got := b.text("#webhook-error"); !strings.Contains(got, "HTTPS") || strings.Contains(got, "400") {
		t.Errorf("url error = %q, want the envelope's message", got)
	}
	if id := b.activeID(); id != "webhook-url" {
		t.Errorf("focus after a bad URL = %q, want webhook-url", id)
	}
	if got := eval[string](b, `document.getElementById("webhook-url").getAttribute("aria-invalid")`); got != "true" {
		t.Errorf("aria-invalid = %q", got)
	}

	// The receiver's URL: the webhook is made and its secret shown once.
	eval[bool](b, `(document.getElementById("webhook-url").value = "", true)`)
	b.run("set url",
		chromedp.SendKeys(chromedp.CSS("#webhook-url"), rcv.ts.URL+"/hooks/captionqa"),
		click("#webhook-save"),
		chromedp.WaitVisible(chromedp.CSS("#webhook-secret-full")),
	)
	secret := eval[string](b, `document.getElementById("webhook-secret-full").value`)
	if !regexp.MustCompile(`^whsec_[A-Za-z0-9_-]{43}$`).MatchString(secret) {
		t.Fatalf("secret %q does not look like a webhook secret", secret)
	}
	if id := b.activeID(); id != "webhook-secret-full" {
		t.Errorf("focus after creating = %q, want the secret", id)
	}
	if got := b.text("#webhook-secret-panel"); !strings.Contains(got, "only once") {
		t.Errorf("no show-once warning: %q", got)
	}
	if !eval[bool](b, `document.getElementById("webhook-error").hidden`) {
		t.Error("the old URL error is still shown")
	}
	if got := b.text("#webhook-secret-masked"); got != webhook.Mask(secret) {
		t.Errorf("masked secret = %q, want %q", got, webhook.Mask(secret))
	}
	b.run("copy", click("#webhook-secret-copy"))
	b.waitJS("copy status", `document.getElementById("webhook-secret-status").textContent !== ""`)
	b.shots("31-webhook-secret")
	b.narrowShots("31-webhook-secret")
	b.run("done", click("#webhook-secret-done"))
	if n := eval[int](b, `document.querySelectorAll("#webhook-secret-full").length`); n != 0 {
		t.Error("the secret is still shown after Done")
	}
	if id := b.activeID(); id != "webhook-secret-h" {
		t.Errorf("focus after Done = %q, want webhook-secret-h", id)
	}

	// Send test event: delivered, signed with the secret.
	b.run("test", click("#webhook-test"), chromedp.WaitVisible(chromedp.CSS("#webhook-test-outcome")))
	if got := eval[string](b, `document.getElementById("webhook-test-outcome").dataset.status`); got != "delivered" {
		t.Fatalf("test outcome = %q (%s)", got, b.text("#webhook-test-outcome"))
	}
	if got := b.text("#webhook-test-outcome"); !strings.Contains(got, "Delivered") || !strings.Contains(got, "HTTP 200") {
		t.Errorf("test outcome text = %q", got)
	}
	if got := eval[string](b, `document.getElementById("webhook-test-result").getAttribute("aria-live")`); got != "polite" {
		t.Errorf("test result aria-live = %q", got)
	}
	hits := rcv.got()
	if len(hits) != 1 {
		t.Fatalf("receiver got %d requests, want 1", len(hits))
	}
	if h := hits[0]; h.header.Get(webhook.HeaderEvent) != "test" || !webhook.Verify(secret, h.body, h.header.Get(webhook.HeaderSignature)) {
		t.Errorf("test delivery: event %q, signature %q does not verify with the shown secret", h.header.Get(webhook.HeaderEvent), h.header.Get(webhook.HeaderSignature))
	}
	testID := hits[0].header.Get(webhook.HeaderDelivery)
	b.refreshUntil("test row", fmt.Sprintf(`!!document.querySelector('#deliveries-body tr[data-delivery-id="%s"][data-status="delivered"][data-event="test"]')`, testID))

	// A receiver answering 500: the test fails with the status shown.
	rcv.status.Store(http.StatusInternalServerError)
	b.run("failing test", click("#webhook-test"))
	b.waitJS("failed outcome", `(document.getElementById("webhook-test-outcome")||{dataset:{}}).dataset.status === "failed"`)
	if got := b.text("#webhook-test-outcome"); !strings.Contains(got, "Failed") || !strings.Contains(got, "HTTP 500") {
		t.Errorf("failed test outcome = %q", got)
	}
	failedID := eval[string](b, `document.getElementById("webhook-test-outcome").dataset.deliveryId`)
	rcv.status.Store(http.StatusOK)

	// An export sends export_complete; its row names the project and revision.
	ct, body := multipartForm(t, "harbour show.srt", []byte(projectSRT), map[string]string{"name": "harbour show"})
	status, raw := e.api(t, "POST", "/api/v1/projects", ct, body, "")
	var p httpapi.ProjectView
	if status != 201 && status != 200 || json.Unmarshal(raw, &p) != nil || p.ID == "" {
		t.Fatalf("create project: %d %s", status, raw)
	}
	if status, raw := e.api(t, "POST", "/api/v1/projects/"+p.ID+"/exports", "application/json", strings.NewReader(`{"presets":["youtube"]}`), ""); status >= 300 {
		t.Fatalf("export: %d %s", status, raw)
	}
	exportRow := `#deliveries-body tr[data-event="export_complete"]`
	b.refreshUntil("export row", fmt.Sprintf(`(document.querySelector('%s')||{dataset:{}}).dataset.status === "delivered"`, exportRow))
	if got := b.text(exportRow + " .delivery-project"); got != "harbour show" {
		t.Errorf("export row project = %q", got)
	}
	if got := eval[string](b, fmt.Sprintf(`document.querySelector('%s .delivery-project a').getAttribute("href")`, exportRow)); got != "#/projects/"+p.ID {
		t.Errorf("export row links to %q", got)
	}
	if got := eval[string](b, fmt.Sprintf(`document.querySelector('%s td:nth-child(4)').textContent`, exportRow)); got != "1" {
		t.Errorf("export row revision = %q", got)
	}

	// Redeliver the failed test with the keyboard: it is sent again.
	failedRow := fmt.Sprintf(`#deliveries-body tr[data-delivery-id="%s"]`, failedID)
	if got := eval[string](b, fmt.Sprintf(`document.querySelector('%s').dataset.status`, failedRow)); got != "failed" {
		t.Errorf("failed test row status = %q", got)
	}
	if got := b.text(failedRow + " .delivery-response"); !strings.Contains(got, "HTTP 500") {
		t.Errorf("failed row response = %q", got)
	}
	before := len(rcv.got())
	b.focusPress(failedRow+" button.redeliver", kb.Enter)
	b.waitJS("announced", `document.getElementById("live").textContent.includes("Redelivery")`)
	b.waitJS("focus kept on the row", fmt.Sprintf(`document.activeElement && document.activeElement.matches('%s button.redeliver')`, failedRow))
	b.refreshUntil("redelivered", fmt.Sprintf(`document.querySelector('%s').dataset.status === "delivered"`, failedRow))
	if n := len(rcv.got()); n <= before {
		t.Errorf("receiver got no redelivery (%d requests)", n)
	}
	b.shots("32-webhook-log")
	b.narrowShots("32-webhook-log")
	// At a phone's width the page does not scroll sideways: the table does, in its box.
	b.viewport(390, 844)
	// (1 px of slack: the header itself is 391 px wide at 390 on every page.)
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 391 {
		t.Errorf("the page is %d px wide at 390", w)
	}
	b.viewport(1280, 800)

	// Rotate: confirm in a dialog (keyboard), the new secret shown once.
	b.focusPress("#webhook-rotate", kb.Enter)
	b.run("dialog", chromedp.WaitVisible(chromedp.CSS("#rotate-dialog")))
	if id := b.activeID(); id != "rotate-cancel" {
		t.Errorf("focus in dialog = %q, want rotate-cancel", id)
	}
	b.shots("33-webhook-rotate")
	b.pressOn("#rotate-cancel", kb.Escape)
	b.run("dialog closed", chromedp.WaitNotVisible(chromedp.CSS("#rotate-dialog")))
	if id := b.activeID(); id != "webhook-rotate" {
		t.Errorf("focus after Escape = %q, want webhook-rotate", id)
	}
	b.pressOn("#webhook-rotate", kb.Enter)
	b.run("dialog again", chromedp.WaitVisible(chromedp.CSS("#rotate-dialog")))
	b.pressOn("#rotate-cancel", kb.Tab)
	if id := b.activeID(); id != "rotate-confirm" {
		t.Errorf("Tab in dialog went to %q, want rotate-confirm", id)
	}
	b.pressOn("#rotate-confirm", kb.Enter)
	b.run("new secret", chromedp.WaitVisible(chromedp.CSS("#webhook-secret-full")))
	b.waitJS("focus on the new secret", `document.activeElement && document.activeElement.id === "webhook-secret-full"`)
	rotated := eval[string](b, `document.getElementById("webhook-secret-full").value`)
	if rotated == secret || !strings.HasPrefix(rotated, "whsec_") {
		t.Errorf("rotated secret = %q (old %q)", rotated, secret)
	}
	if got := b.text("#webhook-secret-panel"); !strings.Contains(got, "only once") {
		t.Errorf("no show-once warning after rotating: %q", got)
	}
	b.run("test after rotate", click("#webhook-test"))
	b.waitJS("delivered again", `(() => { const o = document.getElementById("webhook-test-outcome"); return o && o.dataset.status === "delivered" && o.dataset.deliveryId !== "`+failedID+`"; })()`)
	last := rcv.got()[len(rcv.got())-1]
	if !webhook.Verify(rotated, last.body, last.header.Get(webhook.HeaderSignature)) || webhook.Verify(secret, last.body, last.header.Get(webhook.HeaderSignature)) {
		t.Error("after rotating, deliveries are not signed with the new secret alone")
	}

	// Turn it off: Save says so, and Redeliver answers the envelope's 409 message.
	b.run("switch off", chromedp.Focus(chromedp.CSS("#webhook-enabled")))
	b.press(" ")
	if eval[bool](b, `document.getElementById("webhook-enabled").checked`) {
		t.Fatal("Space did not turn the switch off")
	}
	b.run("save off", click("#webhook-save"))
	b.waitJS("saved off", `document.getElementById("webhook-save-status").textContent.includes("off")`)
	b.run("redeliver while off", click(`#deliveries-body tr:first-child button.redeliver`))
	b.waitJS("redeliver error", `!document.getElementById("deliveries-error").hidden`)
	if got := b.text("#deliveries-error"); !strings.Contains(got, "disabled") || strings.Contains(got, "409") {
		t.Errorf("redeliver while off = %q", got)
	}

	// After a reload no full secret is on the page; the masked one is.
	b.run("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#webhook-secret-masked")))
	text := eval[string](b, `document.body.innerText`)
	if strings.Contains(text, rotated) || strings.Contains(text, rotated[10:]) {
		t.Error("the page shows the secret after reload")
	}
	if got := b.text("#webhook-secret-masked"); got != webhook.Mask(rotated) {
		t.Errorf("masked after reload = %q, want %q", got, webhook.Mask(rotated))
	}
	if got := eval[string](b, `document.getElementById("webhook-url").value`); got != rcv.ts.URL+"/hooks/captionqa" {
		t.Errorf("URL after reload = %q", got)
	}
	if eval[bool](b, `document.getElementById("webhook-enabled").checked`) {
		t.Error("the switch is on after saving it off")
	}
}

func TestWebhookNeedsPro(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	tier := account.TierFreePlus
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), ownerEmail, account.AccountUpdate{Tier: &tier}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("webhook page", click("#nav-webhook"), chromedp.WaitVisible(chromedp.CSS("#webhook-pro")))
	if got := b.text("#webhook-pro"); !strings.Contains(got, "Pro") || strings.Contains(got, "403") {
		t.Errorf("Pro explanation = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#webhook-form, #webhook-error:not([hidden])").length`); n != 0 {
		t.Error("the page offers the form, or an error, without Pro")
	}
	b.shots("34-webhook-needs-pro")
}
