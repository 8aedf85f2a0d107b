package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store"
)

// Support of the ExplainAI tests (explain_test.go).

// explainEnv is an in-process server of one ExplainAI configuration, over
// real HTTP on loopback. The servers of a test share one real SQLite file
// (as an admin command shares a running server's): its migrations, the
// costliest part of a start under -race, run once. Each test keeps to
// accounts of its own, whose pools are theirs alone.
type explainEnv struct {
	name string
	srv  *server.Server
	url  string
	c    *contract.Contract
}

// explainEpoch is the servers' day: noon UTC, far from either midnight,
// so that no daily pool turns over mid-test.
var explainEpoch = time.Date(2031, 3, 14, 12, 0, 0, 0, time.UTC)

// explainClock is the servers' clock: explainEpoch plus the real time
// elapsed.
var explainClock = func() func() time.Time {
	began := time.Now()
	return func() time.Time { return explainEpoch.Add(time.Since(began)) }
}()

// openExplainDB opens the store the servers of t share, closed when t
// ends.
func openExplainDB(t *testing.T) store.DB {
	t.Helper()
	return testkit.MustOpenDBAt(t, explainClock)
}

// newExplainEnv runs a server named name on db until t ends; edit, when
// set, adjusts its configuration. Video and templates are off (not under
// test); burst and upload limits are out of the way of the concurrent
// calls.
func newExplainEnv(t *testing.T, db store.DB, name string, edit func(*server.Config)) *explainEnv {
	t.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir, cfg.DB = "127.0.0.1:0", "", db
	// Above net/http's 5 s: a connection a client dialled but never
	// used counts as busy for that long, and a shutdown bound of 5 s
	// then failed now and then on a loaded machine.
	cfg.ShutdownTimeout = 15 * time.Second
	cfg.VideoOff, cfg.TemplatesOff = true, true
	cfg.MaxUploads, cfg.MaxUploadsPerClient = 100, 100
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	cfg.Now = explainClock
	log := withLog(&cfg)
	if edit != nil {
		edit(&cfg)
	}
	srv := server.New(cfg)
	start(t, srv)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server %s log (end):\n%s", name, tail(log.String(), 4000))
		}
	})
	return &explainEnv{name: name, srv: srv, url: srv.URL(), c: contract.Load(t)}
}

// email is the address of e's account label: the servers share accounts.
func (e *explainEnv) email(label string) string { return label + "@" + e.name + ".example.com" }

// account creates e's account label of tier with features (nil: the
// tier's) and dailyCap (0: the tier's) and returns a key of it with every
// scope.
func (e *explainEnv) account(t testing.TB, label, tier string, features []string, dailyCap int) string {
	t.Helper()
	ctx := context.Background()
	a, err := e.srv.Accounts().CreateAccount(ctx, account.NewAccount{Email: e.email(label), Tier: tier, Features: features, DailyCap: dailyCap})
	if err != nil {
		t.Fatalf("create %s: %v", e.email(label), err)
	}
	_, secret, err := e.srv.Accounts().CreateKey(ctx, a.ID, account.NewKey{Name: "explain test", Scopes: account.Scopes()})
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

// without returns every entitlement but the one named.
func without(feature string) []string {
	var out []string
	for _, f := range account.Features() {
		if f != feature {
			out = append(out, f)
		}
	}
	return out
}

// send sends req with key as the Bearer token and returns the answer,
// failing t on a transport error; a v1 answer is checked against the
// served contract.
func (e *explainEnv) send(t testing.TB, key string, req *http.Request) response {
	t.Helper()
	r, err := e.sendTry(t, key, req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sendTry is send that returns a transport error, for goroutines other
// than the test's.
func (e *explainEnv) sendTry(t testing.TB, key string, req *http.Request) (response, error) {
	req.Header.Set("Authorization", "Bearer "+key)
	var sent []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return response{}, err
		}
		sent = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	e.c.ValidateExchange(t, req, sent, res.StatusCode, res.Header, b)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}, nil
}

// try sends a JSON body to path (/api/v1/...) without failing t on a
// transport error.
func (e *explainEnv) try(t testing.TB, key, method, path, body string) (response, error) {
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	return e.sendTry(t, key, req)
}

// process posts file (an SRT) to POST /api/v1/process with fields.
func (e *explainEnv) process(t testing.TB, key, file string, fields map[string]string) response {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "in.srt")
	_, _ = fw.Write([]byte(file))
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	_ = w.Close()
	req, err := http.NewRequest("POST", e.url+"/api/v1/process", &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return e.send(t, key, req)
}

// processOK is process that fails t unless the answer is 200, and
// decodes it.
func (e *explainEnv) processOK(t testing.TB, key, file string, fields map[string]string) processResult {
	t.Helper()
	r := e.process(t, key, file, fields)
	if r.Status != 200 {
		t.Fatalf("POST /api/v1/process: %d %s", r.Status, r.Body)
	}
	var p processResult
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatalf("process result: %v", err)
	}
	if err := json.Unmarshal(r.Body, &p.raw); err != nil {
		t.Fatal(err)
	}
	return p
}

// explainCall posts body (a string as is, anything else marshalled) to
// POST /api/v1/explain.
func (e *explainEnv) explainCall(t testing.TB, key string, body any) response {
	t.Helper()
	b, ok := body.(string)
	if !ok {
		j, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		b = string(j)
	}
	r, err := e.try(t, key, "POST", "/api/v1/explain", b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// explainOK is explainCall that fails t unless the answer is 200, and
// decodes it.
func (e *explainEnv) explainOK(t testing.TB, key string, body any) explainResult {
	t.Helper()
	r := e.explainCall(t, key, body)
	if r.Status != 200 {
		t.Fatalf("POST /api/v1/explain: %d %s", r.Status, r.Body)
	}
	var x explainResult
	if err := json.Unmarshal(r.Body, &x); err != nil {
		t.Fatalf("explain result: %v", err)
	}
	return x
}

// usedToday reads the account's daily runs from GET /api/v1/usage.
func (e *explainEnv) usedToday(t testing.TB, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", e.url+"/api/v1/usage", nil)
	r := e.send(t, key, req)
	// Part of the usage body (httpapi's usageResponse is unexported); the
	// pointer tells a missing usedToday from 0.
	var u struct {
		UsedToday *int `json:"usedToday"`
	}
	if err := json.Unmarshal(r.Body, &u); r.Status != 200 || err != nil || u.UsedToday == nil {
		t.Fatalf("GET /api/v1/usage: %d %s", r.Status, r.Body)
	}
	return *u.UsedToday
}

// explainResult is the answer of POST /api/v1/explain: the explanation
// and the runs left. httpapi's explainResponse is unexported; the pointer
// tells a missing remainingApiRunsToday from 0.
type explainResult struct {
	explain.Explanation
	RemainingAPIRunsToday *int `json:"remainingApiRunsToday"`
}

// processResult is a process result: the engine's result and the
// members httpapi's processResponse (unexported) adds to it, the pointers
// telling an absent member from a zero one; raw keeps every member, as
// sent, for an explain call's body and for checking which members are
// absent.
type processResult struct {
	engine.Result
	RemainingAPIRunsToday int                  `json:"remainingApiRunsToday"`
	ExplainAvailable      *bool                `json:"explainAvailable"`
	Explain               *explain.Explanation `json:"explain"`
	ExplainSkippedReason  *string              `json:"explainSkippedReason"`

	raw map[string]json.RawMessage
}

// explainBody is the body of POST /api/v1/explain for this result's
// parts (report, aidedReport, aidedSameAsDelivery, aidedOutput), with
// cues (nil: none sent), and with suggestions and omitted when
// withSuggestions is set.
func (p processResult) explainBody(cues []map[string]any, withSuggestions bool) map[string]any {
	body := map[string]any{}
	for _, k := range []string{"report", "aidedReport", "aidedSameAsDelivery", "aidedOutput"} {
		body[k] = p.raw[k]
	}
	if withSuggestions {
		body["suggestions"] = p.raw["suggestions"]
		if o, ok := p.raw["omitted"]; ok {
			body["omitted"] = o
		}
	}
	if cues != nil {
		body["cues"] = cues
	}
	return body
}
