package cluster_test

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/webhook"
)

// receiver is a real HTTPS webhook receiver with httptest's certificate,
// which the nodes trust through --webhook-ca; it answers 204 and keeps
// what arrived.
type receiver struct {
	srv    *httptest.Server
	caFile string

	mu  sync.Mutex
	got []delivery
}

// delivery is one request the receiver got.
type delivery struct {
	header http.Header
	body   []byte
	at     time.Time
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	r := &receiver{}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: body, at: time.Now()})
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	r.caFile = filepath.Join(t.TempDir(), "receiver-ca.pem")
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw})
	if err := os.WriteFile(r.caFile, ca, 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// deliveries returns what arrived so far.
func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// TestWebhookAfterNodeDeath: an export taken by node A (role api) with
// the account's webhook configured, A killed -9 as soon as it answered
// 201: the worker node delivers the export_complete event to the HTTPS
// receiver, signed, and the delivery log (read through node B, role api)
// says delivered. The delivery and its job committed with the export, so
// nothing of it was left to A.
func TestWebhookAfterNodeDeath(t *testing.T) {
	if testing.Short() {
		t.Skip("starts cluster nodes")
	}
	t.Parallel()
	rcv := newReceiver(t)
	c := newCluster(t, append([]string{"--webhook-ca", rcv.caFile, "--webhook-allow", "127.0.0.1/32,::1"}, burstOff...), roleAPI, roleWorker, roleAPI)
	a, b := c.nodes[0], c.nodes[2]
	k := c.account(t, "hooks@example.com", "pro", allScopes...)
	var hook httpapi.WebhookView
	call(t, "PUT", b.url+"/api/v1/webhook", k.Secret, map[string]any{"url": rcv.srv.URL + "/hooks"}, 200, &hook)
	pid := newProject(t, b.url, k.Secret, "Hooks")
	var x httpapi.ExportCreated
	call(t, "POST", a.url+"/api/v1/projects/"+pid+"/exports", k.Secret, map[string]any{"presets": []string{"youtube"}}, 201, &x)
	a.kill9(t)
	killed := time.Now()

	eventually(t, time.Minute, func() bool { return len(rcv.deliveries()) > 0 },
		func() string { return "the receiver got nothing" })
	d := rcv.deliveries()[0]
	sig := d.header.Get(webhook.HeaderSignature)
	secret := ""
	if hook.Secret != nil {
		secret = *hook.Secret
	}
	if sig == "" || !webhook.Verify(secret, d.body, sig) {
		t.Errorf("delivery signature %q does not verify over %s", sig, d.body)
	}
	var payload webhook.Payload
	if err := json.Unmarshal(d.body, &payload); err != nil || payload.Event != "export_complete" ||
		len(payload.Receipt.Artifacts) != 1 || payload.Receipt.Artifacts[0].ExportID != x.ExportID {
		t.Errorf("delivered %s (%v); want export_complete for export %s", d.body, err, x.ExportID)
	}
	var log struct { // httpapi's deliveryList is unexported: its one member
		Deliveries []httpapi.DeliveryView `json:"deliveries"`
	}
	eventually(t, 30*time.Second, func() bool {
		call(t, "GET", b.url+"/api/v1/webhook/deliveries", k.Secret, nil, 200, &log)
		return len(log.Deliveries) == 1 && log.Deliveries[0].Status == "delivered"
	}, func() string { return fmt.Sprintf("delivery log through node B: %+v", log.Deliveries) })
	if n := len(rcv.deliveries()); n != 1 || log.Deliveries[0].Attempts != 1 {
		t.Errorf("the receiver got %d requests, the log counts %d attempts; want one of each", n, log.Deliveries[0].Attempts)
	}
	t.Logf("the delivery arrived %v after node A's kill (negative: before it; the worker sends at once)", d.at.Sub(killed).Round(time.Millisecond))
}
