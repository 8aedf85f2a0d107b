package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/standard"
)

// problemSRT breaks several rules of the generic preset: overlapping
// cues, a fast cue, a long line, too many lines, styling.
const problemSRT = `1
00:00:01,000 --> 00:00:03,200
Welcome back to the harbour show.

2
00:00:03,400 --> 00:00:05,000
<i>Tonight we talk about the tide tables, the night ferries and the old lighthouse keeper's cottage.</i>

3
00:00:04,800 --> 00:00:07,500
[WAVES CRASHING]

4
00:00:07,600 --> 00:00:08,100
- Marta, are you there?
- I'm here, I'm here, I'm right here!
- Good.

5
00:00:09,000 --> 00:00:12,000
The ferry leaves at <b>six</b> &amp; returns at nine.
`

func TestSignInNavigateAndSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)

	b.open("/")
	b.run("sign-in page", chromedp.WaitVisible(chromedp.CSS("#signin-form")), chromedp.WaitVisible(chromedp.CSS("#quick-section")))
	b.shots("01-signin")

	// A wrong password shows the envelope's message.
	b.run("wrong password",
		chromedp.SendKeys(chromedp.CSS("#signin-email"), ownerEmail),
		chromedp.SendKeys(chromedp.CSS("#signin-password"), "not the password"),
		click("#signin-submit"),
	)
	b.waitJS("sign-in error", `!document.getElementById("signin-error").hidden`)
	if got := b.text("#signin-error"); got == "" || strings.Contains(got, "401") {
		t.Errorf("sign-in error = %q, want the envelope's message", got)
	}

	b.signIn()
	if got := b.text("#user-email"); got != ownerEmail {
		t.Errorf("#user-email = %q, want %q", got, ownerEmail)
	}
	b.run("run page", chromedp.WaitVisible(chromedp.CSS("#qa-form")))
	if got := eval[string](b, `document.getElementById("nav-run").getAttribute("aria-current")`); got != "page" {
		t.Errorf("nav-run aria-current = %q", got)
	}
	b.shots("02-run-qa")

	b.run("account", click("#nav-account"), chromedp.WaitVisible(chromedp.CSS("#usage-bar")))
	if got := b.text("#account-tier"); got != "Pro" {
		t.Errorf("tier = %q, want Pro", got)
	}
	if got := b.text("#usage-text"); !strings.Contains(got, "0 of ") {
		t.Errorf("usage text = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#account-features li").length`); n == 0 {
		t.Error("no entitlements listed")
	}
	// The owner is pro: 5 GiB, and nothing stored yet but what earlier
	// steps kept.
	if got := b.text("#storage-text"); !strings.Contains(got, "of 5\u00a0GiB stored") {
		t.Errorf("storage text = %q; want the pro quota", got)
	}
	b.shots("06-account")

	// Reload keeps the session (cookie) and the route.
	b.run("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#usage-bar")))

	b.run("sign out", click("#sign-out"), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	b.run("reload signed out", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#signin-form")))
	if n := eval[int](b, `document.querySelectorAll("#user-email").length`); n != 0 {
		t.Error("still signed in after sign-out and reload")
	}
}

func TestRunQAReportTimelineClausesDownload(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	file := fixture(t, "harbour show.srt", problemSRT)
	b.run("fill form",
		chromedp.WaitVisible(chromedp.CSS("#qa-form")),
		chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}),
		chromedp.SetValue(chromedp.CSS("#qa-preset"), "generic"),
		chromedp.SetValue(chromedp.CSS("#qa-fix"), "auto-split-cps"),
		chromedp.SetValue(chromedp.CSS("#qa-standard"), "fcc-79.1"),
	)
	// SetValue does not fire change: tell the page.
	eval[bool](b, `["qa-preset","qa-fix","qa-standard"].forEach(id => document.getElementById(id).dispatchEvent(new Event("change"))), true`)
	b.waitJS("file name", `document.getElementById("qa-file-name").textContent.includes("harbour show.srt")`)
	b.run("run", click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))

	// The same request through the API with a key, to compare.
	ct, body := multipartForm(t, "harbour show.srt", []byte(problemSRT), map[string]string{"preset": "generic", "fixProfile": "auto-split-cps", "standard": "fcc-79.1"})
	status, raw := e.api(t, "POST", "/api/v1/process", ct, body, "")
	if status != 200 {
		t.Fatalf("API process: %d %s", status, raw)
	}
	var want engine.Result
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	// Absent, the report and its standard read as empty ones.
	if want.Report == nil {
		want.Report = &engine.Report{}
	}
	if want.Report.Standard == nil {
		want.Report.Standard = &standard.Report{}
	}

	if got := eval[string](b, `document.getElementById("delivery-status").dataset.status`); got != string(want.DeliveryStatus) {
		t.Errorf("delivery status = %q, want %q", got, want.DeliveryStatus)
	}
	if got := b.text("#delivery-status"); !regexp.MustCompile(`Ready|Will adapt|Needs attention`).MatchString(got) {
		t.Errorf("delivery badge text = %q: status needs words, not colour only", got)
	}
	b.text("#aided-status")
	if got := b.text("#summary"); got != want.Report.Summary {
		t.Errorf("summary = %q, want %q", got, want.Report.Summary)
	}
	// The uploaded file's findings; styling removals are listed with the changes.
	wantRows := 0
	for _, d := range want.Report.Diagnostics {
		if d.Code != "strip_styling" {
			wantRows++
		}
	}
	rows := eval[int](b, `document.querySelectorAll("#diag-body tr[data-code]").length`)
	if rows != wantRows || rows == 0 {
		t.Errorf("diagnostic rows = %d, want %d (> 0)", rows, wantRows)
	}
	// The timeline shows the delivery, and the uploaded file on demand.
	if n := eval[int](b, `document.querySelectorAll("#timeline rect.cue").length`); n != want.Report.OutputCues || n != 7 {
		t.Errorf("delivery timeline cues = %d, want %d", n, want.Report.OutputCues)
	}
	b.run("source timeline", click("#tl-view-source"))
	if n := eval[int](b, `document.querySelectorAll("#timeline rect.cue").length`); n != 5 {
		t.Errorf("source timeline cues = %d, want 5", n)
	}
	markers := eval[int](b, `document.querySelectorAll("#timeline .marker").length`)
	if markers == 0 {
		t.Error("timeline has no problem markers")
	}
	if got := eval[string](b, `document.getElementById("timeline-title").textContent`); got == "" {
		t.Error("timeline has no accessible title")
	}
	if n := eval[int](b, `document.querySelectorAll("#clauses li.clause").length`); n != len(want.Report.Standard.Clauses) || n == 0 {
		t.Errorf("clause rows = %d, want %d", n, len(want.Report.Standard.Clauses))
	}
	if got := eval[string](b, `(document.querySelector('#clauses li[data-status="not_evaluated"]')||{}).textContent||""`); !strings.Contains(got, "Not evaluated") {
		t.Errorf("fcc-79.1 should show a not-evaluated clause with words; got %q", got)
	}
	b.shots("03-run-qa-result")

	// Sorting the uploaded file's findings: click the Cue header twice.
	b.run("sort", click(`#diag-table button.sort[data-sort="cue"]`))
	if got := eval[string](b, `document.querySelector('#diag-table th[data-col="cue"]').getAttribute("aria-sort")`); got != "ascending" {
		t.Errorf("aria-sort after one click = %q", got)
	}
	b.run("sort desc", click(`#diag-table button.sort[data-sort="cue"]`))
	// Cue 5's only finding is its styling, which is among the changes: cue 4 comes first.
	first := eval[string](b, `document.querySelector("#diag-body tr[data-cue]").dataset.cue`)
	if first != "3" {
		t.Errorf("first row cue after descending sort = %s, want 3", first)
	}
	// Filter by severity, then by rule.
	eval[bool](b, `(s => (s.value = "error", s.dispatchEvent(new Event("change")), true))(document.getElementById("diag-filter-severity"))`)
	if n := eval[int](b, `[...document.querySelectorAll("#diag-body tr[data-code]")].filter(r => !r.className.includes("sev-row-error")).length`); n != 0 {
		t.Errorf("%d non-error rows under the error filter", n)
	}
	eval[bool](b, `(s => (s.value = "", s.dispatchEvent(new Event("change")), true))(document.getElementById("diag-filter-severity"))`)
	eval[bool](b, `(s => (s.value = "overlapping_cues", s.dispatchEvent(new Event("change")), true))(document.getElementById("diag-filter-rule"))`)
	if got := eval[[]string](b, `[...new Set([...document.querySelectorAll("#diag-body tr[data-code]")].map(r => r.dataset.code))]`); len(got) != 1 || got[0] != "overlapping_cues" {
		t.Errorf("rule filter rows = %v", got)
	}
	eval[bool](b, `(s => (s.value = "", s.dispatchEvent(new Event("change")), true))(document.getElementById("diag-filter-rule"))`)

	// Clicking a row shows its cue.
	b.run("row click", click(`#diag-body tr[data-cue="3"]`), chromedp.WaitVisible(chromedp.CSS("#cue-detail-text")))
	if got := b.text("#cue-detail-text"); !strings.Contains(got, "Marta, are you there?") {
		t.Errorf("cue detail text = %q", got)
	}
	if got := b.text("#cue-detail-times"); !strings.Contains(got, "00:07.600") || !strings.Contains(got, "00:08.100") {
		t.Errorf("cue detail times = %q", got)
	}
	// Clicking a timeline marker selects its cue.
	b.run("marker click", click(`#timeline .marker[data-cue="1"]`))
	b.waitJS("cue 2 detail", `document.getElementById("cue-detail-title").textContent === "Cue 2"`)
	if got := b.text("#cue-detail-text"); !strings.Contains(got, "tide tables") {
		t.Errorf("cue detail after marker = %q", got)
	}
	if !eval[bool](b, `document.querySelector('#timeline rect.cue[data-cue="1"]').classList.contains("selected")`) {
		t.Error("the selected cue is not highlighted on the timeline")
	}
	b.shots("04-run-qa-cue")

	// Download the delivery output through the browser.
	dl := t.TempDir()
	b.allowDownloads(dl)
	name := eval[string](b, `document.getElementById("download-output").dataset.filename`)
	if name != "harbour show.srt" {
		t.Errorf("download name = %q, want %q", name, "harbour show.srt")
	}
	b.run("download", click("#download-output"))
	p, err := waitFile(dl, name, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != want.Output {
		t.Errorf("downloaded output differs from the API's output:\n got %q\nwant %q", got, want.Output)
	}
	if !want.AidedSameAsDelivery {
		aname := eval[string](b, `document.getElementById("download-aided").dataset.filename`)
		if aname != "harbour show.aided.srt" {
			t.Errorf("aided download name = %q", aname)
		}
		b.run("download aided", click("#download-aided"))
		p, err := waitFile(dl, aname, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); string(got) != want.AidedOutput {
			t.Errorf("aided download differs from the API's aidedOutput")
		}
	} else if n := eval[int](b, `document.querySelectorAll("#download-aided").length`); n != 0 {
		t.Error("aided download offered although aidedSameAsDelivery is true")
	}
	if n := eval[int](b, `document.querySelectorAll("#fixes li").length`); n == 0 {
		t.Error("auto-split-cps made no fixes listed")
	}
}

func TestAPIKeysCreateShowOnceRevoke(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("keys page", click("#nav-keys"), chromedp.WaitVisible(chromedp.CSS("#keys-table")))
	before := eval[int](b, `document.querySelectorAll("#keys-table tbody tr").length`)
	b.shots("05-keys")

	b.run("create",
		chromedp.SendKeys(chromedp.CSS("#key-name"), "render farm"),
		click("#key-scope-account-read"),
		click("#key-create"),
		chromedp.WaitVisible(chromedp.CSS("#key-secret")),
	)
	secret := eval[string](b, `document.getElementById("key-secret").value`)
	if !regexp.MustCompile(`^cqa_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$`).MatchString(secret) {
		t.Fatalf("secret %q does not look like a key", secret)
	}
	b.waitJS("new row", fmt.Sprintf(`document.querySelectorAll("#keys-table tbody tr").length === %d`, before+1))
	if got := b.text("#key-secret-panel"); !strings.Contains(got, "only once") {
		t.Errorf("no show-once warning: %q", got)
	}
	b.run("copy", click("#key-secret-copy"))
	b.waitJS("copy status", `document.getElementById("key-secret-status").textContent !== ""`)
	b.shots("07-key-secret")

	// The new key works with exactly its scopes.
	if status, raw := e.api(t, "GET", "/api/v1/me", "", nil, secret); status != 200 {
		t.Errorf("new key on /me: %d %s", status, raw)
	}

	// After a reload the secret is gone and the list is masked.
	b.run("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#keys-table")))
	if n := eval[int](b, `document.querySelectorAll("#key-secret").length`); n != 0 {
		t.Error("secret still shown after reload")
	}
	if html := eval[string](b, `document.body.innerText`); strings.Contains(html, secret) || strings.Contains(html, secret[17:]) {
		t.Error("the page shows the secret after reload")
	}
	row := `#keys-table tbody tr:first-child`
	if got := b.text(row + " .key-name"); got != "render farm" {
		t.Errorf("newest key name = %q", got)
	}
	if got := b.text(row + " .scopes"); got != "process:write, account:read" && got != "account:read, process:write" {
		t.Errorf("scopes = %q", got)
	}

	// Revoke with the dialog, by keyboard.
	b.focusPress(row+" button.revoke", kb.Enter)
	b.run("dialog", chromedp.WaitVisible(chromedp.CSS("#revoke-dialog")))
	if id := b.activeID(); id != "revoke-cancel" {
		t.Errorf("focus in dialog = %q, want revoke-cancel", id)
	}
	b.shots("08-revoke-dialog")
	b.pressOn("#revoke-cancel", kb.Escape)
	b.run("dialog closed", chromedp.WaitNotVisible(chromedp.CSS("#revoke-dialog")))
	b.focusPress(row+" button.revoke", kb.Enter)
	b.run("dialog", chromedp.WaitVisible(chromedp.CSS("#revoke-dialog")))
	b.pressOn("#revoke-cancel", kb.Tab)
	if id := b.activeID(); id != "revoke-confirm" {
		t.Errorf("Tab in dialog went to %q, want revoke-confirm", id)
	}
	b.pressOn("#revoke-confirm", kb.Enter)
	b.waitJS("revoked", `document.querySelector("#keys-table tbody tr:first-child").dataset.status === "revoked"`)
	if status, _ := e.api(t, "GET", "/api/v1/me", "", nil, secret); status != 401 {
		t.Errorf("revoked key on /me: %d, want 401", status)
	}
}

// TestAPIKeysOlderPage: past a page of keys, Show older keys appends the
// next page; the owner key, the oldest, is on it and only then asks for
// the owner confirmation.
func TestAPIKeysOlderPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	ctx, accounts := context.Background(), e.srv.Accounts()
	owner, err := accounts.Owner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The owner key and 100 more: 101 keys, no more than 100 of them
	// active. The oldest of the 100, last on the first page, is named as
	// the owner key is: only the last page can tell which is the owner's.
	var namesake string
	for i := range account.MaxKeyListLimit {
		name := fmt.Sprint("bulk ", i)
		if i == 0 {
			name = "owner"
		}
		k, _, err := accounts.CreateKey(ctx, owner.ID, account.NewKey{Name: name, Scopes: []string{account.ScopeUsageRead}})
		if err != nil {
			t.Fatal(err)
		}
		switch i {
		case 0:
			namesake = k.ID
		case 50:
			if _, err := accounts.RevokeKey(ctx, owner.ID, k.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("keys page", click("#nav-keys"), chromedp.WaitVisible(chromedp.CSS("#keys-more")))
	if n := eval[int](b, `document.querySelectorAll("#keys-table tbody tr").length`); n != account.MaxKeyListLimit {
		t.Errorf("first page: %d rows; want %d", n, account.MaxKeyListLimit)
	}
	if got := eval[string](b, `document.querySelector("#keys-table tbody tr:last-child").dataset.keyId`); got != namesake {
		t.Errorf("last row of the first page = %s; want the key named owner, %s", got, namesake)
	}
	b.run("revoke the oldest shown", click(`#keys-table tbody tr:last-child button.revoke`), chromedp.WaitVisible(chromedp.CSS("#revoke-dialog")))
	if !eval[bool](b, `document.getElementById("revoke-owner-warning").hidden`) {
		t.Error("a key of the first page named owner is taken for the owner key")
	}
	b.run("cancel", click("#revoke-cancel"), chromedp.WaitNotVisible(chromedp.CSS("#revoke-dialog")))

	b.run("older", click("#keys-more"), chromedp.WaitNotVisible(chromedp.CSS("#keys-more")))
	b.waitJS("older row", fmt.Sprintf(`document.querySelectorAll("#keys-table tbody tr").length === %d`, account.MaxKeyListLimit+1))
	if got := eval[string](b, `document.querySelector("#keys-table tbody tr:last-child").dataset.keyId`); got == namesake || b.text("#keys-table tbody tr:last-child .key-name") != "owner" {
		t.Errorf("oldest key = %s; want the owner key", got)
	}
	b.run("revoke owner key", click(`#keys-table tbody tr:last-child button.revoke`), chromedp.WaitVisible(chromedp.CSS("#revoke-dialog")))
	if eval[bool](b, `document.getElementById("revoke-owner-warning").hidden`) {
		t.Error("the owner key on the last page has no owner warning")
	}
}

func TestQuickConverterSignedOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.open("/")
	b.run("page", chromedp.WaitVisible(chromedp.CSS("#quick-section")))
	if got := b.text("#quick-remaining"); !strings.Contains(got, "5") {
		t.Errorf("quick remaining before = %q", got)
	}
	file := fixture(t, "clip.srt", problemSRT)
	b.run("run", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}), click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
	if got := b.text("#quick-remaining"); got != "4 free runs left today" {
		t.Errorf("quick remaining after = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#diag-body tr[data-code]").length`); n == 0 {
		t.Error("no diagnostics on the quick converter")
	}
	b.shots("09-quick-converter")
}

func TestAPIErrorShowsEnvelopeMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// The server's own answer for a file with no cues.
	const junk = "this is not a caption file\n"
	ct, body := multipartForm(t, "notes.srt", []byte(junk), map[string]string{"preset": "youtube", "fixProfile": "warn-only"})
	status, raw := e.api(t, "POST", "/api/v1/process", ct, body, "")
	var env apperr.Envelope
	if err := json.Unmarshal(raw, &env); err != nil || status < 400 || env.Error.Message == "" {
		t.Fatalf("API answer for junk: %d %s", status, raw)
	}

	file := fixture(t, "notes.srt", junk)
	b.run("run junk", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}), click("#qa-run"))
	b.waitJS("error", `!document.getElementById("qa-error").hidden`)
	got := b.text("#qa-error")
	if !strings.Contains(got, env.Error.Message) {
		t.Errorf("error shown = %q, want the envelope's message %q", got, env.Error.Message)
	}
	if regexp.MustCompile(`\b(4\d\d|5\d\d)\b`).MatchString(strings.ReplaceAll(got, env.Error.Message, "")) {
		t.Errorf("error shows a raw status: %q", got)
	}
	b.shots("10-api-error")

	// A key without a name: 400 bad_request, message from the envelope.
	b.run("keys", click("#nav-keys"), chromedp.WaitVisible(chromedp.CSS("#key-form")), click("#key-create"))
	b.waitJS("key error", `!document.getElementById("keys-error").hidden`)
	if got := b.text("#keys-error"); got == "" || strings.Contains(got, "400") {
		t.Errorf("key error = %q", got)
	}
}

func TestKeyboardOnlyRunQA(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.open("/")
	b.run("page", chromedp.WaitVisible(chromedp.CSS("#signin-email")))

	// First Tab: the skip link.
	b.press(kb.Tab)
	if id := b.activeID(); id != "skip-link" {
		t.Fatalf("first Tab focused %q, want skip-link", id)
	}
	tabTo := func(id string, max int) []string {
		t.Helper()
		var seen []string
		for range max {
			b.press(kb.Tab)
			cur := b.activeID()
			seen = append(seen, cur)
			if cur == id {
				return seen
			}
		}
		t.Fatalf("Tab never reached #%s; visited %v", id, seen)
		return nil
	}
	tabTo("signin-email", 10)
	b.run("type email", chromedp.KeyEvent(ownerEmail))
	b.press(kb.Tab)
	b.run("type password", chromedp.KeyEvent(ownerPassword))
	b.press(kb.Enter)
	b.run("signed in", chromedp.WaitVisible(chromedp.CSS("#user-email")))

	// Signed in, the page's title has the focus; the nav is behind it.
	b.waitJS("title focused", `document.activeElement && document.activeElement.id === "page-title"`)
	var back []string
	for range 12 {
		b.run("shift+tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		back = append(back, b.activeID())
		if back[len(back)-1] == "nav-run" {
			break
		}
	}
	for _, id := range []string{"nav-run", "nav-keys", "nav-account"} {
		if !strings.Contains(strings.Join(back, " "), id) {
			t.Errorf("Shift+Tab skipped #%s: %v", id, back)
		}
	}
	// The file dialog cannot be driven by keys; set the file on the
	// focused input, then continue with the keyboard.
	file := fixture(t, "keys.srt", problemSRT)
	tabTo("qa-file", 20)
	if !eval[bool](b, `getComputedStyle(document.getElementById("qa-drop")).outlineStyle !== "none"`) {
		t.Error("the drop zone shows no focus ring while its file input has focus")
	}
	b.run("file", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}))
	seen := tabTo("qa-run", 6)
	for _, id := range []string{"qa-preset", "qa-fix", "qa-standard"} {
		if !strings.Contains(strings.Join(seen, " "), id) {
			t.Errorf("Tab skipped #%s: %v", id, seen)
		}
	}
	if !eval[bool](b, `getComputedStyle(document.activeElement).outlineStyle !== "none"`) {
		t.Error("the Run button shows no focus ring")
	}
	b.pressOn("#qa-run", kb.Enter)
	b.run("result", chromedp.WaitVisible(chromedp.CSS("#result")))
	b.waitJS("focus on result", `document.activeElement && document.activeElement.id === "result-heading"`)

	// Tab to the first problem row (the delivery's come first) and open its cue with Enter.
	for range 40 {
		b.press(kb.Tab)
		if eval[bool](b, `document.activeElement.matches("#delivery-body tr[data-cue], #diag-body tr[data-cue]")`) {
			break
		}
	}
	if !eval[bool](b, `document.activeElement.matches("#delivery-body tr[data-cue]")`) {
		t.Fatalf("Tab never reached a row of the delivery's problems (at %q)", b.activeID())
	}
	cue := eval[string](b, `document.activeElement.dataset.cue`)
	b.press(kb.Enter)
	b.waitJS("cue detail", fmt.Sprintf(`document.getElementById("cue-detail-title") && document.getElementById("cue-detail-title").textContent === "Cue %d"`, atoi(cue)+1))
	b.shots("11-keyboard-focus")
}

func TestDesktopWindowIsSignedIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	b := newBrowser(t, e.ts.URL)
	b.open("/")
	b.run("signed in", chromedp.WaitVisible(chromedp.CSS("#qa-form")), chromedp.WaitVisible(chromedp.CSS("#nav")))
	if n := eval[int](b, `document.querySelectorAll("#signin-form, #sign-out").length`); n != 0 {
		t.Error("the desktop window offers sign-in or sign-out")
	}
	if got := b.text("#user-email"); got != ownerEmail {
		t.Errorf("user = %q", got)
	}
	file := fixture(t, "desk.srt", problemSRT)
	b.run("run", chromedp.SetUploadFiles(chromedp.CSS("#qa-file"), []string{file}), click("#qa-run"), chromedp.WaitVisible(chromedp.CSS("#result")))
	b.run("account", click("#nav-account"), chromedp.WaitVisible(chromedp.CSS("#usage-bar")))
	if got := b.text("#usage-text"); !strings.HasPrefix(got, "1 of ") {
		t.Errorf("usage after one run = %q", got)
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscanf(s, "%d", &n)
	return n
}
