package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/server"
)

const testSRT = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n"

// browser is an anonymous browser on the homepage converter: it holds the
// CSRF token and cookie one server handed out.
type browser struct {
	token  string
	cookie *http.Cookie
}

func newBrowser(t *testing.T, url string) browser {
	t.Helper()
	res, err := http.Get(url + "/api/csrf")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b browser
	var body struct{ Token string } // httpapi's csrfResponse is unexported
	_ = json.NewDecoder(res.Body).Decode(&body)
	b.token = body.Token
	for _, c := range res.Cookies() {
		if c.Name == httpapi.CSRFCookie {
			b.cookie = c
		}
	}
	if b.token == "" || b.cookie == nil {
		t.Fatalf("GET /api/csrf: %d, no token", res.StatusCode)
	}
	return b
}

// convert posts a caption file to url's homepage converter and returns
// the status, the error code and remainingToday.
func (b browser) convert(t *testing.T, url string) (status int, code string, remaining float64) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "in.srt")
	_, _ = fw.Write([]byte(testSRT))
	_ = w.Close()
	req, _ := http.NewRequest("POST", url+"/api/process", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Origin", url)
	req.Header.Set(httpapi.CSRFHeader, b.token)
	req.AddCookie(b.cookie)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	// One view of either answer: the converter's result (httpapi's
	// processResponse is unexported) or the error envelope.
	var out struct {
		RemainingToday float64 `json:"remainingToday"`
		Error          struct{ Code string }
	}
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out.Error.Code, out.RemainingToday
}

// TestInstallSecret: the first start writes a 32-byte install.key (0600);
// the keys derived from it outlive a restart, so a homepage CSRF token
// issued before the restart is still good after it and an anonymous
// client's daily pool carries on rather than starting afresh.
func TestInstallSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := server.New(testConfig(t, dir))
	start(t, first)
	keyFile := filepath.Join(dir, server.InstallKeyFile)
	info, err := os.Stat(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() != 32 || info.Mode().Perm() != 0o600 {
		t.Errorf("install.key: %d bytes, mode %04o; want 32 bytes, 0600", info.Size(), info.Mode().Perm())
	}
	key, _ := os.ReadFile(keyFile)
	b := newBrowser(t, first.URL())
	if status, code, remaining := b.convert(t, first.URL()); status != 200 || remaining != 4 {
		t.Fatalf("first run: %d %s, remainingToday %v", status, code, remaining)
	}

	second := server.New(testConfig(t, dir))
	start(t, second)
	if again, _ := os.ReadFile(keyFile); !bytes.Equal(again, key) {
		t.Error("install.key changed on restart")
	}
	status, code, remaining := b.convert(t, second.URL())
	if status != 200 || remaining != 3 {
		t.Errorf("after a restart: %d %s, remainingToday %v; want 200 with 3 left (same token, same pool)", status, code, remaining)
	}
}

// TestInstallSecretDamaged: an install.key of the wrong size stops the
// start with an error saying what to do.
func TestInstallSecretDamaged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, server.InstallKeyFile), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := server.New(testConfig(t, dir)).Open(context.Background())
	if err == nil || !strings.Contains(err.Error(), "install.key holds 5 bytes") || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("Open: %v", err)
	}
}

// TestOpenDatabaseDrawsSecret: a server given an open database (tests)
// touches no install.key and draws a secret of its own, so the token of
// one such server is refused by another.
func TestOpenDatabaseDrawsSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := testkit.MustOpenDB(t)
	var urls []string
	for range 2 {
		cfg := testConfig(t, dir)
		cfg.DB = db
		srv := server.New(cfg)
		start(t, srv)
		urls = append(urls, srv.URL())
	}
	if _, err := os.Stat(filepath.Join(dir, server.InstallKeyFile)); err == nil {
		t.Error("install.key written with Config.DB set")
	}
	b := newBrowser(t, urls[0])
	if status, code, _ := b.convert(t, urls[1]); status != 403 || code != "forbidden" {
		t.Errorf("another server's token: %d %s, want 403 forbidden", status, code)
	}
}
