package cli

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// useLink posts a link's token and a password to the server at base, as
// the sign-in page does, and returns the status.
func useLink(t *testing.T, base, link, password string) int {
	t.Helper()
	token := link[strings.Index(link, "link=")+len("link="):]
	req, _ := http.NewRequest("POST", base+"/api/session/link",
		strings.NewReader(`{"token":"`+token+`","password":"`+password+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", base)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// waitOutput waits until out matches re and returns the submatches.
func waitOutput(t *testing.T, out *syncBuffer, re *regexp.Regexp) []string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
	}
	t.Fatalf("no %s in the output:\n%s", re, out)
	return nil
}

// TestOwnerLink: the first start prints a sign-in link after the owner
// key; `owner link` prints a new one (while the server runs), which
// replaces it; both work against the server; a later start says how to
// replace the key and get a link.
func TestOwnerLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base, out, stop := serve(t, dir)
	m := waitOutput(t, out, regexp.MustCompile(`(?m)^Sign in to the UI within 15 minutes to set the owner's password: (http://127\.0\.0\.1:\d+/#/signin\?link=[A-Za-z0-9_-]{43})$`))
	first := m[1]
	if !strings.HasPrefix(first, base+"/#/signin?link=") {
		t.Errorf("first-start link %q is not on the server's address %s", first, base)
	}
	if i, j := strings.Index(out.String(), "Owner API key (shown once; store it now):"), strings.Index(out.String(), "Sign in to the UI"); i < 0 || j < i {
		t.Errorf("the link line must follow the owner key:\n%s", out)
	}

	// owner link --json: {url, expiresAt}, on the given base.
	code, js, errOut := admin(t, dir, "owner", "link", "--url", base, "--json")
	if code != 0 {
		t.Fatalf("owner link --json: %d %s", code, errOut)
	}
	link := decode[server.SignInLink](t, js)
	exp := link.ExpiresAt
	if !regexp.MustCompile(`^`+regexp.QuoteMeta(base)+`/#/signin\?link=[A-Za-z0-9_-]{43}$`).MatchString(link.URL) ||
		time.Until(exp) < 14*time.Minute || time.Until(exp) > 15*time.Minute+time.Second {
		t.Errorf("owner link --json = %s", js)
	}
	// The new link replaced the first start's.
	if s := useLink(t, base, first, "a password from the first link"); s != 401 {
		t.Errorf("the replaced first-start link: %d, want 401", s)
	}
	if s := useLink(t, base, link.URL, "a password from the cli link"); s != 200 {
		t.Fatalf("the cli's link: %d, want 200", s)
	}
	if s := useLink(t, base, link.URL, "a password from the cli link"); s != 401 {
		t.Errorf("the cli's link used twice: %d, want 401", s)
	}

	// The text form names the owner and prints the link on a line of its own.
	code, text, errOut := admin(t, dir, "owner", "link", "--url", base+"/")
	if code != 0 {
		t.Fatalf("owner link: %d %s", code, errOut)
	}
	tm := regexp.MustCompile(`^One-time sign-in link for the owner account owner@localhost, valid until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(15 minutes\); opening it sets the owner's password and signs you in:\n  (\S+)\n$`).FindStringSubmatch(text)
	if tm == nil || !strings.HasPrefix(tm[1], base+"/#/signin?link=") {
		t.Fatalf("owner link output:\n%s", text)
	}
	if s := useLink(t, base, tm[1], "a password from the text link"); s != 200 {
		t.Errorf("the text link: %d, want 200", s)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}

	// A later start prints no key and no link, but how to get both.
	_, out2, stop2 := serve(t, dir)
	later := waitOutput(t, out2, regexp.MustCompile(`(?m)^Lost the owner API key\? .*$`))[0]
	for _, want := range []string{
		"`captionqa key create --account owner@localhost --name owner --scopes process:write,account:read,",
		"--data " + dir + "`",
		"`captionqa owner link --data " + dir,
	} {
		if !strings.Contains(later, want) {
			t.Errorf("later-start line lacks %q:\n%s", want, later)
		}
	}
	if strings.Contains(out2.String(), "cqa_") || strings.Contains(out2.String(), "link=") {
		t.Errorf("a later start printed a secret:\n%s", out2)
	}
	if code := stop2(); code != 0 {
		t.Errorf("second serve exited with %d", code)
	}
}

func TestOwnerLinkUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"owner", "link", "--url", "127.0.0.1:8787"},
		{"owner", "link", "--url", "ftp://127.0.0.1:8787"},
		{"owner", "link", "--url", "http://127.0.0.1:8787/#/x"},
		{"owner", "link", "extra"},
		{"owner", "nothing"},
	} {
		if code, _, errOut := admin(t, dir, args...); code != 2 || !strings.Contains(errOut, "captionqa") {
			t.Errorf("%v: exit %d, %q; want 2", args, code, errOut)
		}
	}
	// A data folder without any account yet: the owner does not exist.
	code, _, errOut := admin(t, dir, "owner", "link")
	if code != 1 || !strings.Contains(errOut, "captionqa serve") {
		t.Errorf("no owner: exit %d, %q; want 1 saying to start serve", code, errOut)
	}
	if code, out, _ := run(t, "", "help"); code != 0 || !regexp.MustCompile(`(?m)^  owner +the owner account: link`).MatchString(out) {
		t.Errorf("help does not list owner:\n%s", out)
	}
	if code, out, _ := run(t, "", "owner", "--help"); code != 0 || !strings.Contains(out, "captionqa owner link [--data DIR | --store URL] [--url BASE] [--json]") {
		t.Errorf("owner --help:\n%s", out)
	}
}

func TestLaterStartLine(t *testing.T) {
	t.Parallel()
	got := laterStartLine("owner@localhost", "/srv/caption data", "https://captionqa.lan:8443")
	for _, want := range []string{
		"--data '/srv/caption data'`",
		"`captionqa owner link --data '/srv/caption data' --url https://captionqa.lan:8443`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("laterStartLine = %q; want it to contain %q", got, want)
		}
	}
	if got := shellQuote("it's"); got != `'it'\''s'` {
		t.Errorf("shellQuote = %s", got)
	}
}
