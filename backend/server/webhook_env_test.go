package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// logWait bounds every wait for the delivery log or the receiver to
// reach a state that takes well under a second: generous, so a loaded
// machine (-race, parallel tests) does not fail a correct build.
const logWait = 30 * time.Second

// hookDelivery is one entry of GET /api/v1/webhook/deliveries: the API's
// DeliveryView, with the accessors and the String the tests' messages use.
type hookDelivery struct {
	httpapi.DeliveryView
}

// code is lastStatusCode, 0 when null.
func (d hookDelivery) code() int {
	if d.LastStatusCode == nil {
		return 0
	}
	return *d.LastStatusCode
}

// errText is lastError, "" when null.
func (d hookDelivery) errText() string { return orEmpty(d.LastError) }

// exportID is exportId, "" when null.
func (d hookDelivery) exportID() string { return orEmpty(d.ExportID) }

// irRevision is irRevision, 0 when null.
func (d hookDelivery) irRevision() int {
	if d.IRRevision == nil {
		return 0
	}
	return *d.IRRevision
}

// orEmpty is *s, "" when s is nil.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (d hookDelivery) String() string {
	return fmt.Sprintf("{%s %s export=%s status=%s attempts=%d code=%d error=%q next=%v delivered=%v}",
		d.DeliveryID, d.Event, d.exportID(), d.Status, d.Attempts, d.code(), d.errText(), d.NextAttemptAt, d.DeliveredAt)
}

// hookEnv is a running server, on its own data folder, whose owner has a
// 3-cue project, and a receiver its webhook deliveries may go to.
type hookEnv struct {
	srv       *server.Server
	base      string // the server's /api/v1
	key       string // the owner key's secret
	rcv       *receiver
	secret    string // the webhook's secret, once configured
	projectID string
	dir       string // the data folder
}

// startHookServer starts a receiver and a server trusting it, with
// fastWebhooks and then adjust applied to the configuration; the owner
// has a project but no webhook yet.
func startHookServer(t testing.TB, adjust func(*server.Config)) *hookEnv {
	t.Helper()
	e := &hookEnv{rcv: newReceiver(t)}
	cfg := server.DefaultConfig()
	e.dir = t.TempDir()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", e.dir
	// Above net/http's 5 s: a connection a client dialled but never
	// used counts as busy for that long, and a shutdown bound of 5 s
	// then failed now and then on a loaded machine.
	cfg.ShutdownTimeout = 15 * time.Second
	// The tests poll the delivery log; the per-key burst limit is not
	// what they test.
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	fastWebhooks(&cfg, e.rcv.CAFile)
	if adjust != nil {
		adjust(&cfg)
	}
	e.srv = server.New(cfg)
	e.key = runServer(t, e.srv)
	e.base = e.srv.URL() + "/api/v1"
	var p httpapi.ProjectView
	mustCall(t, "POST", e.base+"/projects", e.key, `{"name":"Hooked","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	e.projectID = p.ID
	return e
}

// newHookEnv is startHookServer with the owner's webhook configured at
// the receiver, which verifies with its secret.
func newHookEnv(t testing.TB, adjust func(*server.Config)) *hookEnv {
	t.Helper()
	e := startHookServer(t, adjust)
	e.configure(t)
	return e
}

// configure creates the webhook at the receiver's URL and hands the
// receiver the secret the PUT reveals.
func (e *hookEnv) configure(t testing.TB) {
	t.Helper()
	var hook httpapi.WebhookView
	mustCall(t, "PUT", e.base+"/webhook", e.key, `{"url":"`+e.rcv.URL()+`"}`, 200, &hook)
	secret := orEmpty(hook.Secret)
	if !hook.SecretRevealed || !hook.Enabled || secret == "" {
		t.Fatalf("first PUT: secret %q, secretRevealed %v, enabled %v; want the full secret, enabled", secret, hook.SecretRevealed, hook.Enabled)
	}
	e.secret = secret
	e.rcv.setSecret(secret)
}

// export exports the project to one preset and returns the export's id.
func (e *hookEnv) export(t testing.TB) string {
	t.Helper()
	var x httpapi.ExportCreated
	mustCall(t, "POST", e.base+"/projects/"+e.projectID+"/exports", e.key, `{"presets":["youtube"]}`, 201, &x)
	return x.ExportID
}

// deliveries returns the delivery log, newest first (up to 100).
func (e *hookEnv) deliveries(t testing.TB) []hookDelivery {
	t.Helper()
	// httpapi's deliveryList is unexported: its one member.
	var log struct {
		Deliveries []hookDelivery `json:"deliveries"`
	}
	mustCall(t, "GET", e.base+"/webhook/deliveries?limit=100", e.key, "", 200, &log)
	return log.Deliveries
}

// waitLog polls the delivery log until ok accepts it, up to logWait.
func (e *hookEnv) waitLog(t testing.TB, what string, ok func([]hookDelivery) bool) []hookDelivery {
	t.Helper()
	deadline := time.Now().Add(logWait)
	for {
		log := e.deliveries(t)
		if ok(log) {
			return log
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery log did not show %s within %v: %v", what, logWait, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// healthy checks that the server still answers while deliveries fail:
// GET /healthz and a process request (the engine, the writer, the
// quota) are not held up by the webhook worker.
func (e *hookEnv) healthy(t testing.TB) {
	t.Helper()
	if st, b, err := call("GET", e.srv.URL()+"/healthz", "", ""); err != nil || st != 200 {
		t.Errorf("GET /healthz while deliveries fail: %d %s %v", st, b, err)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "in.srt")
	_, _ = fw.Write([]byte(testSRT))
	_ = w.WriteField("preset", "youtube")
	_ = w.Close()
	req, _ := http.NewRequest("POST", e.base+"/process", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+e.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("POST /process while deliveries fail: %v", err)
		return
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("POST /process while deliveries fail: %d, want 200", res.StatusCode)
	}
}

// byID returns the log entry with that delivery id.
func byID(log []hookDelivery, id string) (hookDelivery, bool) {
	for _, d := range log {
		if d.DeliveryID == id {
			return d, true
		}
	}
	return hookDelivery{}, false
}

// allOf reports whether the log has n entries and every one passes ok.
func allOf(n int, ok func(hookDelivery) bool) func([]hookDelivery) bool {
	return func(log []hookDelivery) bool {
		if len(log) != n {
			return false
		}
		for _, d := range log {
			if !ok(d) {
				return false
			}
		}
		return true
	}
}

// of returns the requests the receiver got for one delivery, in order.
func of(got []delivery, id string) []delivery {
	var out []delivery
	for _, g := range got {
		if g.Header.Get(webhook.HeaderDelivery) == id {
			out = append(out, g)
		}
	}
	return out
}

// receiptExport returns the export id of an export_complete body.
func receiptExport(t testing.TB, body []byte) string {
	t.Helper()
	var p webhook.Payload
	if err := json.Unmarshal(body, &p); err != nil || p.Event != "export_complete" || len(p.Receipt.Artifacts) == 0 {
		t.Fatalf("delivery body %s: %v; want an export_complete receipt", body, err)
	}
	return p.Receipt.Artifacts[0].ExportID
}

// answerStatus answers every request with status and msg as its body.
func answerStatus(status int, msg string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) { http.Error(w, msg, status) }
}
