package e2e

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/server"
)

// newFreshEnv is a server as the first start leaves it: the owner
// account exists with its key, but has no password yet.
func newFreshEnv(t *testing.T) *env {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.OwnerEmail = ownerEmail
	cfg.UI = os.DirFS(distDir)
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := server.New(cfg)
	if err := srv.Open(context.Background()); err != nil {
		t.Fatalf("open server: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return &env{srv: srv, ts: ts, secret: srv.Owner().Secret}
}

// ownerLink makes a one-time sign-in link for the owner on the test
// server, as `captionqa owner link` does, and returns its path.
func (e *env) ownerLink(t *testing.T) string {
	t.Helper()
	link, err := server.NewOwnerSignInLink(context.Background(), e.srv.Accounts(), e.ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(link.URL, e.ts.URL)
}

// TestSignInLinkSetsPasswordAndSignsIn: a new owner without a password
// sees who the owner is and how to get a link; the link (pasted into the
// open tab) asks for a password, signs in and lands on Run QA with the
// token gone from the address; the owner's first key warns before it is
// revoked; a used link says how to get a new one.
func TestSignInLinkSetsPasswordAndSignsIn(t *testing.T) {
	t.Parallel()
	e := newFreshEnv(t)
	b := newBrowser(t, e.ts.URL)

	b.open("/")
	b.run("sign-in page", chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	b.waitJS("owner named", `!document.getElementById("signin-owner").hidden`)
	if got := b.text("#signin-owner"); got != "The owner account is "+ownerEmail+"." {
		t.Errorf("#signin-owner = %q", got)
	}
	if got := b.text("#signin-no-password"); got != "No password yet? Run captionqa owner link on this machine for a one-time sign-in link." {
		t.Errorf("#signin-no-password = %q", got)
	}
	b.shots("signin-owner")

	// The link, pasted into the open tab: the page follows the address.
	link := e.ownerLink(t)
	b.run("open link", chromedp.Navigate(e.ts.URL+link), chromedp.WaitVisible(chromedp.CSS("#link-form")))
	if got := b.text("#link-h"); got != "Set a password for the owner account" {
		t.Errorf("heading = %q", got)
	}
	b.waitJS("owner in intro", `document.getElementById("link-intro").textContent.includes("`+ownerEmail+`")`)
	if id := b.activeID(); id != "link-password" {
		t.Errorf("focus = %q, want link-password", id)
	}
	b.shots("signin-link")

	// Checked in the page before anything is sent: the link stays usable.
	b.run("too short", chromedp.SendKeys(chromedp.CSS("#link-password"), "short"), click("#link-submit"))
	b.waitJS("short error", `!document.getElementById("link-error").hidden`)
	if got := b.text("#link-error"); !strings.Contains(got, "at least 10 characters") {
		t.Errorf("short password error = %q", got)
	}
	b.run("mismatch",
		chromedp.SetValue(chromedp.CSS("#link-password"), ownerPassword),
		chromedp.SetValue(chromedp.CSS("#link-confirm"), ownerPassword+"!"),
		click("#link-submit"),
	)
	b.waitJS("mismatch error", `document.getElementById("link-error").textContent.includes("differ")`)

	b.run("set password",
		chromedp.SetValue(chromedp.CSS("#link-confirm"), ownerPassword),
		click("#link-submit"),
		chromedp.WaitVisible(chromedp.CSS("#user-email")),
		chromedp.WaitVisible(chromedp.CSS("#qa-form")),
	)
	if got := b.text("#user-email"); got != ownerEmail {
		t.Errorf("#user-email = %q, want %q", got, ownerEmail)
	}
	if got := eval[string](b, `document.getElementById("nav-run").getAttribute("aria-current")`); got != "page" {
		t.Errorf("nav-run aria-current = %q", got)
	}
	if href := eval[string](b, `location.href`); strings.Contains(href, "link=") || !strings.HasSuffix(href, "#/run") {
		t.Errorf("address after sign-in = %q; want #/run without the token", href)
	}
	b.shots("signin-link-done")

	// The owner's first key asks for a second confirmation.
	b.run("keys", click("#nav-keys"), chromedp.WaitVisible(chromedp.CSS("#keys-table")))
	b.run("revoke owner key", click(`#keys-table tbody tr:last-child button.revoke`), chromedp.WaitVisible(chromedp.CSS("#revoke-dialog")))
	if got := b.text("#revoke-owner-warning"); !strings.Contains(got, "This is the owner key printed at the first start; integrations using it stop working, and the desktop window is unaffected.") {
		t.Errorf("owner warning = %q", got)
	}
	if !eval[bool](b, `document.getElementById("revoke-confirm").disabled`) {
		t.Error("revoke is enabled before the owner warning is acknowledged")
	}
	b.shots("signin-link-owner-key")
	b.run("acknowledge", click("#revoke-owner-ack"))
	if eval[bool](b, `document.getElementById("revoke-confirm").disabled`) {
		t.Error("revoke is still disabled after the acknowledgement")
	}
	b.run("cancel", click("#revoke-cancel"), chromedp.WaitNotVisible(chromedp.CSS("#revoke-dialog")))
	if status, raw := e.api(t, "GET", "/api/v1/me", "", nil, ""); status != 200 {
		t.Errorf("owner key after cancel: %d %s", status, raw)
	}

	// The password the link set signs in as usual.
	b.run("sign out", click("#sign-out"), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	b.signIn()

	// A used link shows the server's message, which says how to get a new one.
	b.run("sign out again", click("#sign-out"), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	b.open(link)
	b.run("used link",
		chromedp.WaitVisible(chromedp.CSS("#link-form")),
		chromedp.SetValue(chromedp.CSS("#link-password"), "another password"),
		chromedp.SetValue(chromedp.CSS("#link-confirm"), "another password"),
		click("#link-submit"),
	)
	b.waitJS("dead link error", `!document.getElementById("link-error").hidden`)
	if got := b.text("#link-error"); !strings.Contains(got, "already used or expired") || !strings.Contains(got, "captionqa owner link") {
		t.Errorf("used link error = %q", got)
	}
	if href := eval[string](b, `location.href`); strings.Contains(href, "link=") {
		t.Errorf("address after a dead link = %q; want the token gone", href)
	}
	b.shots("signin-link-used")
	b.run("back to the password form", click("#link-cancel"), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
}
