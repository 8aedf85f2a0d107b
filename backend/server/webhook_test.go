package server_test

import (
	"encoding/json"
	"testing"
	"time"

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

	var hook struct {
		Secret         string `json:"secret"`
		SecretRevealed bool   `json:"secretRevealed"`
		Enabled        bool   `json:"enabled"`
	}
	mustCall(t, "PUT", base+"/webhook", key, `{"url":"`+rcv.URL()+`"}`, 200, &hook)
	if !hook.SecretRevealed || !hook.Enabled || len(hook.Secret) != 49 {
		t.Fatalf("first PUT: %+v; want the full secret once, enabled", hook)
	}
	rcv.setSecret(hook.Secret)

	var p struct {
		ID string `json:"id"`
	}
	mustCall(t, "POST", base+"/projects", key, `{"name":"Pilot","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	var e struct {
		ExportID   string          `json:"exportId"`
		IRRevision int             `json:"irRevision"`
		Receipt    json.RawMessage `json:"receipt"`
	}
	mustCall(t, "POST", base+"/projects/"+p.ID+"/exports", key, `{"presets":["youtube","vimeo"]}`, 201, &e)

	got := rcv.waitFor(t, 1, 15*time.Second)[0]
	if !got.Verified {
		t.Fatalf("signature %q does not verify", got.Header.Get(webhook.HeaderSignature))
	}
	var body struct {
		Event   string          `json:"event"`
		Receipt json.RawMessage `json:"receipt"`
	}
	if err := json.Unmarshal(got.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Event != "export_complete" || string(body.Receipt) != string(e.Receipt) {
		t.Errorf("body %s; want export_complete with the export's receipt %s", got.Body, e.Receipt)
	}
	if ct := got.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	id := got.Header.Get(webhook.HeaderDelivery)
	if id == "" || got.Header.Get(webhook.HeaderAttempt) != "1" || got.Header.Get(webhook.HeaderEvent) != "export_complete" ||
		got.Header.Get(webhook.HeaderTimestamp) == "" {
		t.Errorf("headers %v", got.Header)
	}

	var log struct {
		Deliveries []struct {
			DeliveryID string `json:"deliveryId"`
			Status     string `json:"status"`
			Attempts   int    `json:"attempts"`
			ExportID   string `json:"exportId"`
			IRRevision int    `json:"irRevision"`
		} `json:"deliveries"`
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
	if d.DeliveryID != id || d.Status != "delivered" || d.Attempts != 1 || d.ExportID != e.ExportID || d.IRRevision != e.IRRevision {
		t.Errorf("log entry %+v; want delivery %s delivered in 1 attempt for export %s", d, id, e.ExportID)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
