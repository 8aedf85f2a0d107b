package server_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestExportWebhookDelivered: an export made with the webhook enabled
// reaches a real HTTPS receiver, whose certificate only --webhook-ca
// trusts, as the export's receipt with a signature the receiver verifies
// as docs/webhooks.md says; the delivery log shows it delivered.
func TestExportWebhookDelivered(t *testing.T) {
	rcv := newReceiver(t)
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", t.TempDir()
	fastWebhooks(&cfg, rcv.CAFile)
	withLog(&cfg)
	srv := server.New(cfg)
	key := runServer(t, srv)
	base := srv.URL() + "/api/v1"

	var hook httpapi.WebhookView
	mustCall(t, "PUT", base+"/webhook", key, `{"url":"`+rcv.URL()+`"}`, 200, &hook)
	secret := orEmpty(hook.Secret)
	if !hook.SecretRevealed || !hook.Enabled || len(secret) != 49 {
		t.Fatalf("first PUT: secret %q, secretRevealed %v, enabled %v; want the full secret once, enabled", secret, hook.SecretRevealed, hook.Enabled)
	}
	rcv.setSecret(secret)

	var p httpapi.ProjectView
	mustCall(t, "POST", base+"/projects", key, `{"name":"Pilot","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	var raw json.RawMessage
	mustCall(t, "POST", base+"/projects/"+p.ID+"/exports", key, `{"presets":["youtube","vimeo"]}`, 201, &raw)
	var e httpapi.ExportCreated
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}

	got := rcv.waitFor(t, 1, 15*time.Second)[0]
	if !got.Verified {
		t.Fatalf("signature %q does not verify", got.Header.Get(webhook.HeaderSignature))
	}
	// The contract names the header X-Service-Signature; the product's
	// name carries the same value for receivers of earlier releases.
	if sig := got.Header.Get("X-Service-Signature"); sig == "" || got.Header.Get("X-CaptionQA-Signature") != sig {
		t.Errorf("X-Service-Signature %q, X-CaptionQA-Signature %q; want the signature under both", sig, got.Header.Get("X-CaptionQA-Signature"))
	}
	var body webhook.Payload
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatal(err)
	}
	// The receipts compare as sent, byte for byte.
	if receipt, want := member(t, got.Body, "receipt"), member(t, raw, "receipt"); body.Event != "export_complete" || string(receipt) != string(want) {
		t.Errorf("body %s; want export_complete with the export's receipt %s", got.Body, want)
	}
	if ct := got.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	id := got.Header.Get(webhook.HeaderDelivery)
	if id == "" || got.Header.Get(webhook.HeaderAttempt) != "1" || got.Header.Get(webhook.HeaderEvent) != "export_complete" ||
		got.Header.Get(webhook.HeaderTimestamp) == "" {
		t.Errorf("headers %v", got.Header)
	}

	// httpapi's deliveryList is unexported: its one member.
	var log struct {
		Deliveries []hookDelivery `json:"deliveries"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mustCall(t, "GET", base+"/webhook/deliveries", key, "", 200, &log)
		if len(log.Deliveries) == 1 && log.Deliveries[0].Status == "delivered" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(log.Deliveries) != 1 {
		t.Fatalf("log %+v", log)
	}
	d := log.Deliveries[0]
	if d.DeliveryID != id || d.Status != "delivered" || d.Attempts != 1 || d.exportID() != e.ExportID || d.irRevision() != e.IRRevision {
		t.Errorf("log entry %+v; want delivery %s delivered in 1 attempt for export %s", d, id, e.ExportID)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// member returns the member name of the JSON object body as sent.
func member(t testing.TB, body []byte, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return m[name]
}
