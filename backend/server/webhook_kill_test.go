package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/webhook"
)

// Environment of the webhook server child (see init below): its data
// folder, and the CA file its deliveries trust (the test's receiver).
const (
	envHookServeDir = "CAPTIONQA_TEST_WEBHOOK_SERVE_DIR"
	envHookCA       = "CAPTIONQA_TEST_WEBHOOK_CA"
)

// hookChildRetry is the child's wait between failed attempts, with no
// jitter: long enough that a kill timed just after an attempt lands
// while the delivery's job waits in the queue, not while it runs.
const hookChildRetry = 2 * time.Second

// init turns the test binary into a server child that delivers webhooks
// to the test's receiver, as export_kill_test.go's init does for
// exports: it runs before TestMain, so the child never runs a test.
func init() {
	dir := os.Getenv(envHookServeDir)
	if dir == "" {
		return
	}
	os.Exit(serveHookChild(dir, os.Getenv(envHookCA)))
}

// serveHookChild is serveChild with webhooks: the receiver's CA, a fast
// queue and hookChildRetry between attempts.
func serveHookChild(dir, caFile string) int {
	return serveChild(dir, func(cfg *server.Config) {
		fastWebhooks(cfg, caFile)
		cfg.WebhookSchedule = webhook.Schedule{First: hookChildRetry, Cap: hookChildRetry, Window: 10 * time.Minute}
	})
}

// startHookChild starts a webhook server child on dir trusting caFile.
func startHookChild(t *testing.T, dir, caFile string) *child {
	t.Helper()
	return startChild(t, dir, envHookServeDir+"="+dir, envHookCA+"="+caFile)
}

// childLog returns the child's delivery log, newest first.
func childLog(t *testing.T, c *child, secret string) []hookDelivery {
	t.Helper()
	// httpapi's deliveryList is unexported: its one member.
	var log struct {
		Deliveries []hookDelivery `json:"deliveries"`
	}
	mustCall(t, "GET", c.url+"/api/v1/webhook/deliveries?limit=100", secret, "", 200, &log)
	return log.Deliveries
}

// hookChildSetup configures the owner's webhook at rcv and creates a
// 3-cue project; it returns the project's id.
func hookChildSetup(t *testing.T, c *child, secret string, rcv *receiver) string {
	t.Helper()
	var hook httpapi.WebhookView
	mustCall(t, "PUT", c.url+"/api/v1/webhook", secret, `{"url":"`+rcv.URL()+`"}`, 200, &hook)
	rcv.setSecret(orEmpty(hook.Secret))
	var p httpapi.ProjectView
	mustCall(t, "POST", c.url+"/api/v1/projects", secret, `{"name":"kill","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	return p.ID
}

// TestWebhookKill9Pending: a delivery whose export committed (201) while
// the receiver was down survives kill -9 of the server: restarted on the
// same data folder, with the receiver back, the server delivers it,
// signed, under the delivery id it had recorded, as its next attempt.
func TestWebhookKill9Pending(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	dir := t.TempDir()
	rcv := newReceiver(t)
	rcv.setAnswer(answerStatus(503, "down"))
	c := startHookChild(t, dir, rcv.CAFile)
	secret := c.secret
	projectID := hookChildSetup(t, c, secret, rcv)
	var x httpapi.ExportCreated
	mustCall(t, "POST", c.url+"/api/v1/projects/"+projectID+"/exports", secret, `{"presets":["youtube"]}`, 201, &x)

	// Two failed attempts: the delivery is recorded and on its schedule.
	rcv.waitFor(t, 2, logWait)
	var before hookDelivery
	deadline := time.Now().Add(logWait)
	for {
		log := childLog(t, c, secret)
		if len(log) == 1 && log[0].Attempts >= 2 {
			before = log[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log %v; want one delivery tried twice", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Kill just after an attempt (the next is hookChildRetry later): the
	// job is then waiting in the queue. A kill during an attempt is
	// TestWebhookKill9DuringAttempt.
	sent := len(rcv.deliveries())
	rcv.waitFor(t, sent+1, logWait)
	// The receiver has the attempt before the server has recorded its
	// answer: kill only once the log counts it, or a loaded machine kills
	// between the two and the attempt is sent again under its number.
	for deadline := time.Now().Add(logWait); ; time.Sleep(20 * time.Millisecond) {
		if log := childLog(t, c, secret); len(log) == 1 && log[0].Attempts >= sent+1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log never counted attempt %d", sent+1)
		}
	}
	time.Sleep(hookChildRetry / 4)
	c.kill9(t)
	got := rcv.deliveries()
	if before.Status != "pending" || before.exportID() != x.ExportID || before.code() != 503 || before.NextAttemptAt == nil {
		t.Fatalf("before the kill: %v; want pending for export %s, 503, a next attempt", before, x.ExportID)
	}
	for _, g := range got {
		if g.Header.Get(webhook.HeaderDelivery) != before.DeliveryID {
			t.Fatalf("a request for delivery %q; the log has %s", g.Header.Get(webhook.HeaderDelivery), before.DeliveryID)
		}
	}

	rcv.setAnswer(nil) // the receiver is back
	c = startHookChild(t, dir, rcv.CAFile)
	arrived := rcv.waitFor(t, len(got)+1, logWait)
	last := arrived[len(arrived)-1]
	if last.Header.Get(webhook.HeaderDelivery) != before.DeliveryID || !last.Verified ||
		last.Header.Get(webhook.HeaderAttempt) != strconv.Itoa(len(got)+1) || string(last.Body) != string(got[0].Body) {
		t.Errorf("after the restart the receiver got delivery %q attempt %q verified %v; want %s attempt %d, verified, the same body",
			last.Header.Get(webhook.HeaderDelivery), last.Header.Get(webhook.HeaderAttempt), last.Verified, before.DeliveryID, len(got)+1)
	}
	if x := receiptExport(t, last.Body); x != before.exportID() {
		t.Errorf("delivered export %s; want %s", x, before.exportID())
	}
	var after hookDelivery
	deadline = time.Now().Add(logWait)
	for {
		log := childLog(t, c, secret)
		if len(log) == 1 && log[0].Status == "delivered" || time.Now().After(deadline) {
			after = log[0]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if after.DeliveryID != before.DeliveryID || after.Status != "delivered" || after.Attempts != len(got)+1 || after.code() != 204 {
		t.Errorf("after the restart: %v; want %s delivered at attempt %d", after, before.DeliveryID, len(got)+1)
	}
}

// exportIDs returns the ids of the exports that have artifact rows in
// the database at dir: the exports that committed.
func exportIDs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, server.DBFile), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	keys, err := db.Exports().ArtifactBlobKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, k := range keys {
		// artifacts/<export id>/<preset>.<ext>
		parts := strings.Split(k, "/")
		if len(parts) != 3 {
			t.Fatalf("artifact key %q", k)
		}
		ids[parts[1]] = true
	}
	return ids
}

// TestWebhookKill9ExportInFlight: kill -9 during bursts of exports, with
// the receiver up. The delivery row and its job commit with the export
// or not at all, so after a restart every export that committed (every
// 201 among them) has exactly one delivery and it is delivered (one
// whose attempt a kill cut off by the rescuer, within seconds here), and
// nothing arrives for an export that did not commit: no delivery without
// an export row.
func TestWebhookKill9ExportInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	dir := t.TempDir()
	rcv := newReceiver(t)
	c := startHookChild(t, dir, rcv.CAFile)
	secret := c.secret
	projectID := hookChildSetup(t, c, secret, rcv)

	var (
		mu     sync.Mutex
		ok201  []string
		failed int // requests cut by the kill
	)
	for round := range 3 {
		if round > 0 {
			c = startHookChild(t, dir, rcv.CAFile)
		}
		// Kill after the 1st, 3rd, then 5th 201: with more exports
		// committed and their deliveries under way.
		killAfter := 1 + 2*round
		var wg sync.WaitGroup
		first := make(chan struct{}, 10)
		for range 10 { // the export burst limit allows 10 at once
			wg.Go(func() {
				st, b, err := call("POST", c.url+"/api/v1/projects/"+projectID+"/exports", secret, `{"presets":["youtube","vimeo"]}`)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failed++
					return // killed under it: no 201, no promise
				}
				if st != 201 {
					t.Errorf("export: %d %s", st, b)
					return
				}
				var e httpapi.ExportCreated
				_ = json.Unmarshal(b, &e)
				ok201 = append(ok201, e.ExportID)
				first <- struct{}{}
			})
		}
		for range killAfter {
			select {
			case <-first:
			case <-time.After(time.Minute):
				t.Fatal("too few exports finished")
			}
		}
		c.kill9(t)
		wg.Wait()
	}

	c = startHookChild(t, dir, rcv.CAFile)
	committed := exportIDs(t, dir)
	// Wait until every delivery is delivered.
	var log []hookDelivery
	deadline := time.Now().Add(logWait)
	for {
		log = childLog(t, c, secret)
		done := 0
		for _, d := range log {
			if d.Status == "delivered" {
				done++
			}
		}
		if len(log) == len(committed) && done == len(log) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.kill9(t)

	for _, id := range ok201 {
		if !committed[id] {
			t.Errorf("export %s got a 201 but has no row", id)
		}
	}
	rows := map[string]hookDelivery{} // by export id
	for _, d := range log {
		if !committed[d.exportID()] {
			t.Errorf("delivery %v names an export that has no row", d)
		}
		if _, dup := rows[d.exportID()]; dup {
			t.Errorf("export %s has two deliveries", d.exportID())
		}
		rows[d.exportID()] = d
		if d.Status != "delivered" {
			t.Errorf("delivery %v: not delivered %v after the restart", d, logWait)
		}
	}
	for id := range committed {
		if _, ok := rows[id]; !ok {
			t.Errorf("export %s committed without its delivery", id)
		}
	}
	arrived := map[string]int{}
	for _, g := range rcv.deliveries() {
		id := g.Header.Get(webhook.HeaderDelivery)
		x := receiptExport(t, g.Body)
		if d, ok := rows[x]; !ok || d.DeliveryID != id {
			t.Errorf("the receiver got delivery %s for export %s, which the log does not have", id, x)
		}
		if !g.Verified {
			t.Errorf("delivery %s does not verify", id)
		}
		arrived[x]++
	}
	for x, d := range rows {
		if d.Status == "delivered" && arrived[x] == 0 {
			t.Errorf("export %s: its delivery never arrived", x)
		}
	}
	// At least once: a kill between the receiver's answer and the
	// outcome's commit sends it again; note how often that happened.
	again := 0
	for _, n := range arrived {
		again += n - 1
	}
	t.Logf("%d exports got a 201, %d requests were cut by kills, %d exports committed; %d deliveries arrived, %d of them again",
		len(ok201), failed, len(committed), len(arrived), again)
}

// TestWebhookKill9DuringAttempt: kill -9 while an attempt is under way
// (the receiver holds the request) must not hold the delivery back long
// after a restart: the attempt died with the process, so the restarted
// server's delivery rescuer (after twice the attempt timeout plus 10 s,
// 14 s here) sends it again (at least once), under the same id.
func TestWebhookKill9DuringAttempt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	dir := t.TempDir()
	rcv := newReceiver(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	rcv.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		// Hold the attempt until the server dies (its connection
		// closes) or the test ends.
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	c := startHookChild(t, dir, rcv.CAFile)
	secret := c.secret
	projectID := hookChildSetup(t, c, secret, rcv)
	var x httpapi.ExportCreated
	mustCall(t, "POST", c.url+"/api/v1/projects/"+projectID+"/exports", secret, `{"presets":["youtube"]}`, 201, &x)
	first := rcv.waitFor(t, 1, logWait)[0] // the attempt is under way
	id := first.Header.Get(webhook.HeaderDelivery)
	c.kill9(t)

	rcv.setAnswer(nil)
	c = startHookChild(t, dir, rcv.CAFile)
	waitDelivered := func() (hookDelivery, bool) {
		deadline := time.Now().Add(logWait)
		for {
			log := childLog(t, c, secret)
			if len(log) != 1 {
				t.Fatalf("log %v; want the one delivery", log)
			}
			if log[0].Status == "delivered" {
				return log[0], true
			}
			if time.Now().After(deadline) {
				return log[0], false
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	d, ok := waitDelivered()
	if !ok {
		t.Fatalf("after a restart: %v, %v later; want it delivered again: the attempt died with the process", d, logWait)
	}
	got := rcv.deliveries()
	last := got[len(got)-1]
	if d.DeliveryID != id || last.Header.Get(webhook.HeaderDelivery) != id || !last.Verified || string(last.Body) != string(first.Body) {
		t.Errorf("delivered %v; the receiver's last request: delivery %q, verified %v; want %s, verified, the same body",
			d, last.Header.Get(webhook.HeaderDelivery), last.Verified, id)
	}
}
