package cli

import (
	"context"
	"crypto/tls"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/webhook"
)

const hookSecret = "whsec_listen-test-secret"

// hookExport is an export_complete body as the deliverer sends it, one of
// its files named with a space.
const hookExport = `{"event":"export_complete","receipt":{"version":1,"kind":"single_export","projectId":"p-1","irRevision":3,` +
	`"artifacts":[{"preset":"youtube","exportId":"e-1","filename":"talk.youtube.srt"},{"preset":"vimeo","exportId":"e-1","filename":"talk vimeo.vtt"}]}}`

// startListen runs "captionqa webhook listen" on a free loopback port with
// the extra flags, waits until it prints its address, and stops it when
// the test ends, expecting a clean exit. It returns the address and the
// command's standard output and error.
func startListen(t *testing.T, extra ...string) (url string, stdout, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, append([]string{"webhook", "listen", "--addr", "127.0.0.1:0"}, extra...),
			Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != ExitOK {
				t.Errorf("webhook listen exited with %d\n%s", code, stderr)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("webhook listen did not stop")
		}
	})
	re := regexp.MustCompile(`listening on (https?://127\.0\.0\.1:[0-9]+)\n`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stdout, stderr
		}
		select {
		case code := <-done:
			done <- code
			t.Fatalf("webhook listen exited with %d\n%s", code, stderr)
		default:
		}
	}
	t.Fatalf("webhook listen did not start\n%s", stderr)
	return "", nil, nil
}

// deliver POSTs body to url as the deliverer does, with the signature
// header sig (none when empty) and the other headers from h.
func deliver(t *testing.T, client *http.Client, url, body, sig string, h map[string]string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/hooks/captionqa", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if sig != "" {
		req.Header.Set(webhook.HeaderSignature, sig)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// lastLine returns the last line of s without the time that opens it,
// after checking that time is RFC 3339 UTC.
func lastLine(t *testing.T, s string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	at, rest, _ := strings.Cut(lines[len(lines)-1], " ")
	if _, err := time.Parse(time.RFC3339, at); err != nil || !strings.HasSuffix(at, "Z") {
		t.Errorf("line %q does not open with an RFC 3339 UTC time", lines[len(lines)-1])
	}
	return rest
}

// TestWebhookListenVerifies: a signature is checked as docs/webhooks.md
// says (the prefix optional and in any case, over the raw body), 204 when
// it holds and 401 when not, and each delivery prints one line.
func TestWebhookListenVerifies(t *testing.T) {
	t.Parallel()
	url, stdout, _ := startListen(t, "--secret", hookSecret)
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	sig := webhook.Sign(hookSecret, []byte(hookExport))
	hexSig := strings.TrimPrefix(sig, "sha256=")
	testBody := `{"event":"test","deliveryId":"d-2","sentAt":"2026-03-03T10:00:00Z"}`
	exportHeaders := map[string]string{webhook.HeaderEvent: "export_complete", webhook.HeaderDelivery: "d-1", webhook.HeaderAttempt: "2"}
	const exportLine = `export_complete delivery=d-1 attempt=2 project=p-1 irRevision=3 files=talk.youtube.srt,"talk vimeo.vtt"`
	tests := []struct {
		name, body, sig string
		headers         map[string]string
		wantStatus      int
		wantLine        string
	}{
		{"signed", hookExport, sig, exportHeaders, 204, "OK " + exportLine},
		{"upper-case prefix", hookExport, "SHA256=" + hexSig, exportHeaders, 204, "OK " + exportLine},
		{"no prefix", hookExport, hexSig, exportHeaders, 204, "OK " + exportLine},
		{"test event", testBody, webhook.Sign(hookSecret, []byte(testBody)),
			map[string]string{webhook.HeaderEvent: "test", webhook.HeaderDelivery: "d-2", webhook.HeaderAttempt: "1"}, 204, "OK test delivery=d-2 attempt=1"},
		{"the event is the signed body's", hookExport, sig,
			map[string]string{webhook.HeaderEvent: "test", webhook.HeaderDelivery: "d-1", webhook.HeaderAttempt: "2"}, 204, "OK " + exportLine},
		{"no headers but the signature", hookExport, sig, nil, 204, "OK export_complete delivery=- attempt=- project=p-1 irRevision=3 files=talk.youtube.srt,\"talk vimeo.vtt\""},
		{"signed but not JSON", "not json", webhook.Sign(hookSecret, []byte("not json")), exportHeaders, 204,
			"OK export_complete delivery=d-1 attempt=2 (the body is not a delivery's JSON)"},
		{"wrong secret", hookExport, webhook.Sign("whsec_another", []byte(hookExport)), exportHeaders, 401, "BAD SIGNATURE export_complete delivery=d-1 attempt=2"},
		{"tampered body", strings.Replace(hookExport, `"irRevision":3`, `"irRevision":4`, 1), sig, exportHeaders, 401, "BAD SIGNATURE export_complete delivery=d-1 attempt=2"},
		{"no signature", hookExport, "", exportHeaders, 401, "BAD SIGNATURE export_complete delivery=d-1 attempt=2"},
		{"not hex", hookExport, "sha256=" + strings.Repeat("z", 64), exportHeaders, 401, "BAD SIGNATURE export_complete delivery=d-1 attempt=2"},
		{"another algorithm", hookExport, "sha1=" + hexSig, exportHeaders, 401, "BAD SIGNATURE export_complete delivery=d-1 attempt=2"},
		{"a forged header is escaped", hookExport, "", map[string]string{webhook.HeaderEvent: "x\u202ey", webhook.HeaderDelivery: "a b"}, 401,
			`BAD SIGNATURE x\u202ey delivery="a b" attempt=-`},
	}
	// One listener for every case: they run in order, and each one's
	// line is the last printed when its answer arrives.
	for i, tt := range tests {
		if got := deliver(t, client, url, tt.body, tt.sig, tt.headers); got != tt.wantStatus {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.wantStatus)
		}
		out := stdout.String()
		if n := strings.Count(out, "\n"); n != i+1 {
			t.Fatalf("%s: %d lines printed after %d deliveries:\n%s", tt.name, n, i+1, out)
		}
		if got := lastLine(t, out); got != tt.wantLine {
			t.Errorf("%s: line\n%s\nwant\n%s", tt.name, got, tt.wantLine)
		}
	}
}

// TestWebhookListenRefuses: only POSTs are deliveries, and a body over
// the cap is refused unread; neither prints a delivery line.
func TestWebhookListenRefuses(t *testing.T) {
	t.Parallel()
	url, stdout, stderr := startListen(t, "--secret", hookSecret)
	res, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 405 || res.Header.Get("Allow") != "POST" {
		t.Errorf("GET: %d, Allow %q; want 405, POST", res.StatusCode, res.Header.Get("Allow"))
	}
	big := `{"event":"test","pad":"` + strings.Repeat("x", maxWebhookBody) + `"}`
	if got := deliver(t, http.DefaultClient, url, big, webhook.Sign(hookSecret, []byte(big)), map[string]string{webhook.HeaderDelivery: "d-big"}); got != 413 {
		t.Errorf("body over %d bytes: %d, want 413", maxWebhookBody, got)
	}
	if out := stdout.String(); out != "" {
		t.Errorf("printed %q", out)
	}
	if !strings.Contains(stderr.String(), "delivery=d-big attempt=- refused: the body is over 1048576 bytes") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestWebhookListenJSON: --json prints each verified body on one line,
// escaped for the terminal, and keeps the others off standard output.
func TestWebhookListenJSON(t *testing.T) {
	t.Parallel()
	url, stdout, stderr := startListen(t, "--secret", hookSecret, "--json")
	pretty := "{\n  \"event\": \"test\",\n  \"deliveryId\": \"d-\u202e3\",\n  \"sentAt\": \"2026-03-03T10:00:00Z\"\n}\n"
	for _, d := range []struct{ body, sig string }{
		{hookExport, webhook.Sign(hookSecret, []byte(hookExport))},
		{hookExport, webhook.Sign("whsec_another", []byte(hookExport))},
		{pretty, webhook.Sign(hookSecret, []byte(pretty))},
		{"not json", webhook.Sign(hookSecret, []byte("not json"))},
	} {
		deliver(t, http.DefaultClient, url, d.body, d.sig, map[string]string{webhook.HeaderEvent: "export_complete"})
	}
	want := hookExport + "\n" + `{"event":"test","deliveryId":"d-\u202e3","sentAt":"2026-03-03T10:00:00Z"}` + "\n"
	if got := stdout.String(); got != want {
		t.Errorf("stdout\n%s\nwant\n%s", got, want)
	}
	for _, w := range []string{"BAD SIGNATURE export_complete", "OK export_complete delivery=- attempt=-: the body is not JSON, not printed"} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}

// TestWebhookListenTLS: with a certificate and its key the listener
// speaks HTTPS, to a client that trusts the certificate.
func TestWebhookListenTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := writeCert(t)
	url, stdout, _ := startListen(t, "--secret", hookSecret, "--tls-cert", certFile, "--tls-key", keyFile)
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("listening on %s, want https", url)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	if got := deliver(t, client, url, hookExport, webhook.Sign(hookSecret, []byte(hookExport)), nil); got != 204 {
		t.Errorf("signed delivery over TLS: %d, want 204", got)
	}
	if got := lastLine(t, stdout.String()); !strings.HasPrefix(got, "OK export_complete ") {
		t.Errorf("line %q", got)
	}
}

// TestWebhookListenSecretFromEnv: CAPTIONQA_WEBHOOK_SECRET stands in for
// --secret, and --secret wins over it.
func TestWebhookListenSecretFromEnv(t *testing.T) {
	t.Setenv(envWebhookSecret, "whsec_from-env")
	tests := []struct {
		name       string
		flags      []string
		wantStatus int
	}{
		{"environment", nil, 204},
		{"flag wins", []string{"--secret", hookSecret}, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, _, _ := startListen(t, tt.flags...)
			if got := deliver(t, http.DefaultClient, url, hookExport, webhook.Sign("whsec_from-env", []byte(hookExport)), nil); got != tt.wantStatus {
				t.Errorf("status %d, want %d", got, tt.wantStatus)
			}
		})
	}
}

// TestWebhookListenUsage: what cannot work is refused before listening,
// and --help never shows the secret from the environment.
func TestWebhookListenUsage(t *testing.T) {
	certFile, keyFile, _ := writeCert(t)
	t.Setenv(envWebhookSecret, "")
	tests := []struct {
		name     string
		env      string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no secret", "", []string{"webhook", "listen"}, ExitUsage, "needs --secret or " + envWebhookSecret},
		{"cert without key", "", []string{"webhook", "listen", "--secret", "s", "--tls-cert", certFile}, ExitUsage, "--tls-cert and --tls-key go together"},
		{"key without cert", "", []string{"webhook", "listen", "--secret", "s", "--tls-key", keyFile}, ExitUsage, "--tls-cert and --tls-key go together"},
		{"argument", "", []string{"webhook", "listen", "--secret", "s", "extra"}, ExitUsage, `unexpected argument "extra"`},
		{"unknown flag", "", []string{"webhook", "listen", "--port", "1"}, ExitUsage, "flag provided but not defined"},
		{"unknown verb", "", []string{"webhook", "send"}, ExitUsage, `unknown webhook command "send"`},
		{"no verb", "", []string{"webhook"}, ExitUsage, "captionqa webhook listen --secret S"},
		{"cert and key mismatch", "", []string{"webhook", "listen", "--secret", "s", "--addr", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", certFile}, 1, "TLS certificate"},
		{"bad address", "", []string{"webhook", "listen", "--secret", "s", "--addr", "127.0.0.1"}, 1, "missing port"},
		{"help hides the secret", "whsec_do-not-print", []string{"webhook", "listen", "--help"}, ExitOK, "--secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(envWebhookSecret, tt.env)
			code, out, errOut := run(t, "", tt.args...)
			if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d saying %q", code, errOut, tt.wantCode, tt.wantErr)
			}
			if tt.env != "" && strings.Contains(out+errOut, tt.env) {
				t.Errorf("printed the secret:\n%s%s", out, errOut)
			}
		})
	}
}
