package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store"
)

// start is the fake clock's first reading: mid-day UTC, so a test can
// cross midnight on purpose.
var start = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

const (
	readySRT = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n"
	// styledSRT breaks youtube's enforced plain-text rule, which
	// normalisation repairs: will_adapt.
	styledSRT = "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> there.\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n"
	noCuesVTT = "WEBVTT\n\nno cues here\n"
)

// testServer is the real server (real SQLite file, real services, real
// handler) behind a loopback listener.
type testServer struct {
	t        testing.TB
	URL      string
	srv      *server.Server
	clock    *testkit.Clock
	accounts *account.Service
	logs     *lockedBuffer
	// db is the server's database, for tests that reach the store directly.
	db store.DB
	// client validates every /api/v1 response against the contract; raw
	// does not (for requests the contract has no operation for).
	client, raw *http.Client
}

// newTestServer starts a server; edit adjusts its configuration. The
// default burst and upload limits are lifted so scenario tables and
// concurrency tests are not rate limited.
func newTestServer(t testing.TB, edit ...func(*server.Config)) *testServer {
	t.Helper()
	ts := &testServer{t: t, clock: testkit.NewClock(start), logs: &lockedBuffer{}}
	cfg := server.DefaultConfig()
	cfg.DataDir = ""
	cfg.DB = testkit.MustOpenDB(t)
	ts.db = cfg.DB
	cfg.Now = ts.clock.Now
	cfg.Logger = slog.New(slog.NewJSONHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	cfg.MaxUploads, cfg.MaxUploadsPerClient = 1000, 1000
	for _, f := range edit {
		f(&cfg)
	}
	ts.srv = server.New(cfg)
	if err := ts.srv.Open(context.Background()); err != nil {
		t.Fatalf("server.Open: %v", err)
	}
	t.Cleanup(func() { _ = ts.srv.Close() })
	hs := httptest.NewServer(ts.srv.Handler())
	t.Cleanup(hs.Close)
	ts.URL = hs.URL
	ts.accounts = ts.srv.Accounts()
	ts.raw = hs.Client()
	ts.client = &http.Client{Transport: &validating{t: t, c: contract.Load(t), next: hs.Client().Transport}}
	return ts
}

// validating checks every /api/v1 exchange against the contract
// ([contract.Contract.ValidateExchange]).
type validating struct {
	t    testing.TB
	c    *contract.Contract
	next http.RoundTripper
}

func (v *validating) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasPrefix(req.URL.Path, "/api/v1/") {
		return v.next.RoundTrip(req)
	}
	var sent []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		sent = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	res, err := v.next.RoundTrip(req)
	if err != nil {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	v.c.ValidateExchange(v.t, req, sent, res.StatusCode, res.Header, body)
	return res, nil
}

// response is a finished exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into a generic map.
func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object (status %d): %v\n%s", r.status, err, r.body)
	}
	return m
}

// apiError decodes the error envelope.
func (r response) apiError(t testing.TB) apperr.Body {
	t.Helper()
	var env apperr.Envelope
	if err := json.Unmarshal(r.body, &env); err != nil || env.Error.Code == "" {
		t.Fatalf("body is not an error envelope (status %d): %v\n%s", r.status, err, r.body)
	}
	return env.Error
}

// request is one call to the server.
type request struct {
	method, path string
	secret       string
	body         io.Reader
	contentType  string
	header       http.Header
	raw          bool // skip contract validation
}

func (ts *testServer) do(r request) response {
	ts.t.Helper()
	req, err := http.NewRequest(r.method, ts.URL+r.path, r.body)
	if err != nil {
		ts.t.Fatal(err)
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	if r.secret != "" {
		req.Header.Set("Authorization", "Bearer "+r.secret)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	return ts.send(req, r.raw)
}

func (ts *testServer) send(req *http.Request, raw bool) response {
	ts.t.Helper()
	c := ts.client
	if raw {
		c = ts.raw
	}
	res, err := c.Do(req)
	if err != nil {
		ts.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		ts.t.Fatalf("%s %s: reading body: %v", req.Method, req.URL.Path, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}

func (ts *testServer) get(path, secret string) response {
	ts.t.Helper()
	return ts.do(request{method: http.MethodGet, path: path, secret: secret})
}

// process posts a caption file to path with the given form fields.
func (ts *testServer) process(path, secret, file string, fields map[string]string) response {
	ts.t.Helper()
	body, ctype := form(ts.t, file, fields)
	return ts.do(request{method: http.MethodPost, path: path, secret: secret, body: body, contentType: ctype})
}

// form builds a process form: the text fields, then the file part.
func form(t testing.TB, file string, fields map[string]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := w.CreateFormFile("file", "in.srt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(fw, file); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

// account creates an account and a key on it with the scopes (none: every
// scope); no features means the tier's defaults.
func (ts *testServer) account(email, tier string, scopes []string, features ...string) (*account.Account, string) {
	ts.t.Helper()
	a := testkit.MustCreateAccount(ts.t, ts.accounts, email, tier, features...)
	if scopes == nil {
		scopes = account.Scopes()
	}
	_, secret := testkit.MustCreateKey(ts.t, ts.accounts, a.ID, scopes...)
	return a, secret
}

// pro returns a key with every scope on a pro account with every feature.
func (ts *testServer) pro(email string) string {
	ts.t.Helper()
	_, secret := ts.account(email, account.TierPro, nil)
	return secret
}

// lockedBuffer is a log sink safe for concurrent handlers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// wantError checks status and code of an error response.
func wantError(t testing.TB, r response, status int, code string) apperr.Body {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d; want %d\n%s", r.status, status, r.body)
	}
	e := r.apiError(t)
	if e.Code != code {
		t.Fatalf("code = %q; want %q (message %q)", e.Code, code, e.Message)
	}
	return e
}
