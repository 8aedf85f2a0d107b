package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestWebhookReceiverDownThenBack: exports made while the receiver is
// down (its port refuses connections, or it answers 503) are kept
// pending, each attempt logged with why it failed and when the next one
// is; once the receiver is back every one arrives, signed, and the log
// shows it delivered. Nothing is lost to an outage within the window.
func TestWebhookReceiverDownThenBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// down takes the receiver down and returns how to bring it back.
		down     func(t *testing.T, r *receiver) (up func())
		wantCode int    // lastStatusCode while down; 0: no HTTP answer
		wantErr  string // lastError while down: a generic reason
		// reachesAll: every attempt reaches the receiver (it answers
		// 503), so it got exactly as many requests as attempts.
		reachesAll bool
	}{
		{
			name: "connection refused",
			down: func(t *testing.T, r *receiver) func() {
				addr := r.stop()
				return func() { r.restart(t, addr) }
			},
			wantErr: webhook.ReasonConnect,
		},
		{
			name: "503",
			down: func(t *testing.T, r *receiver) func() {
				r.setAnswer(answerStatus(503, "down for maintenance"))
				return func() { r.setAnswer(nil) }
			},
			wantCode: 503, wantErr: "HTTP 503 Service Unavailable", reachesAll: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newHookEnv(t, nil)
			up := tt.down(t, e.rcv)
			var exports []string
			for range 3 {
				exports = append(exports, e.export(t))
			}
			// Two attempts each: the first and at least one retry on the
			// schedule.
			log := e.waitLog(t, "3 pending deliveries tried twice", allOf(3, func(d hookDelivery) bool {
				return d.Status == "pending" && d.Attempts >= 2
			}))
			for _, d := range log {
				if d.code() != tt.wantCode || d.errText() != tt.wantErr {
					t.Errorf("while down: %v; want lastStatusCode %d, lastError %q", d, tt.wantCode, tt.wantErr)
				}
				if d.NextAttemptAt == nil || d.LastAttemptAt == nil || d.NextAttemptAt.Before(*d.LastAttemptAt) || d.DeliveredAt != nil {
					t.Errorf("while down: %v; want lastAttemptAt, a later nextAttemptAt, no deliveredAt", d)
				}
				if !slices.Contains(exports, d.exportID()) || d.Event != "export_complete" {
					t.Errorf("while down: %v is not the delivery of one of the exports %v", d, exports)
				}
			}

			up()
			log = e.waitLog(t, "3 deliveries delivered", allOf(3, func(d hookDelivery) bool { return d.Status == "delivered" }))
			got := e.rcv.deliveries()
			seen := map[string]bool{}
			for _, d := range log {
				if d.Attempts < 3 || d.code() != 204 || d.LastError != nil || d.DeliveredAt == nil || d.NextAttemptAt != nil {
					t.Errorf("delivered: %v; want 3+ attempts, 204, no lastError, deliveredAt, no nextAttemptAt", d)
				}
				reqs := of(got, d.DeliveryID)
				if len(reqs) == 0 {
					t.Errorf("delivery %s never reached the receiver", d.DeliveryID)
					continue
				}
				if tt.reachesAll && len(reqs) != d.Attempts {
					t.Errorf("delivery %s: the receiver got %d requests for %d attempts", d.DeliveryID, len(reqs), d.Attempts)
				}
				last := reqs[len(reqs)-1]
				if !last.Verified || last.Header.Get(webhook.HeaderAttempt) != strconv.Itoa(d.Attempts) {
					t.Errorf("delivery %s: last request verified=%v attempt %q; want verified, attempt %d",
						d.DeliveryID, last.Verified, last.Header.Get(webhook.HeaderAttempt), d.Attempts)
				}
				for _, r := range reqs {
					if !bytes.Equal(r.Body, reqs[0].Body) {
						t.Errorf("delivery %s: attempts sent different bodies", d.DeliveryID)
					}
				}
				if x := receiptExport(t, last.Body); x != d.exportID() {
					t.Errorf("delivery %s carried export %s, the log says %s", d.DeliveryID, x, d.exportID())
				}
				seen[d.exportID()] = true
			}
			if len(seen) != 3 {
				t.Errorf("delivered exports %v; want the 3 exports %v", seen, exports)
			}
		})
	}
}

// bodyStats records how much of a huge response each handler managed to
// write: the client closed the connection early when less than all.
type bodyStats struct {
	mu      sync.Mutex
	written []int
}

func (s *bodyStats) add(n int) {
	s.mu.Lock()
	s.written = append(s.written, n)
	s.mu.Unlock()
}

func (s *bodyStats) get() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.written)
}

// hugeBytes is the size of the huge answers: far above what the server
// reads of an answer (64 KiB) and what loopback socket buffers hold.
const hugeBytes = 50 << 20

// hugeBody answers status with a 50 MB body, streamed, and records how
// much of it was written before the client hung up.
func hugeBody(status int, stats *bodyStats) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(hugeBytes))
		w.WriteHeader(status)
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		n := 0
		for n < hugeBytes {
			k, err := w.Write(chunk)
			n += k
			if err != nil {
				break
			}
		}
		stats.add(n)
	}
}

// TestWebhookFailingReceiver: each way a receiver can fail (an error
// status, no answer within WebhookTimeout, a redirect, a huge body) is
// a failed attempt, logged as documented with a generic reason that
// quotes nothing the receiver sent, and retried on the schedule,
// while the server keeps serving; a redirect is not followed and a huge
// body is not read, and a 200 with a huge body counts as delivered.
func TestWebhookFailingReceiver(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// answer is the receiver's answer; hits counts requests to
		// /elsewhere, stats records huge bodies, release ends hangs.
		answer     func(base string, hits *atomic.Int32, stats *bodyStats, release <-chan struct{}) http.HandlerFunc
		wantStatus string // "pending": failing and retried; "delivered"
		wantCode   int
		wantErr    string // lastError: a generic reason, nothing the receiver sent
		huge       bool   // check the huge body was not read in full
	}{
		{
			name: "500",
			answer: func(string, *atomic.Int32, *bodyStats, <-chan struct{}) http.HandlerFunc {
				return answerStatus(500, "internal oops\r\n\x1b[31m")
			},
			wantStatus: "pending", wantCode: 500, wantErr: "HTTP 500 Internal Server Error",
		},
		{
			name: "hangs past WebhookTimeout",
			answer: func(_ string, _ *atomic.Int32, _ *bodyStats, release <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					// The server gives up after 1 s and hangs up; the
					// handler answers nothing until release, at cleanup.
					// (Returning when r's context ends would answer 200
					// whenever that context ends before the server's
					// timeout, which a loaded machine has shown.)
					<-release
				}
			},
			wantStatus: "pending", wantErr: webhook.ReasonTimeout,
		},
		{
			name: "302 to another https URL",
			answer: func(base string, hits *atomic.Int32, _ *bodyStats, _ <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/elsewhere" {
						hits.Add(1)
						w.WriteHeader(204)
						return
					}
					http.Redirect(w, r, base+"/elsewhere", http.StatusFound)
				}
			},
			wantStatus: "pending", wantCode: 302, wantErr: "HTTP 302 Found: redirects are not followed; point the webhook at the final URL",
		},
		{
			name: "500 with a 50 MB body",
			answer: func(_ string, _ *atomic.Int32, stats *bodyStats, _ <-chan struct{}) http.HandlerFunc {
				return hugeBody(500, stats)
			},
			wantStatus: "pending", wantCode: 500, wantErr: "HTTP 500 Internal Server Error", huge: true,
		},
		{
			name: "200 with a 50 MB body",
			answer: func(_ string, _ *atomic.Int32, stats *bodyStats, _ <-chan struct{}) http.HandlerFunc {
				return hugeBody(200, stats)
			},
			wantStatus: "delivered", wantCode: 200, huge: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newHookEnv(t, func(c *server.Config) { c.WebhookTimeout = time.Second })
			var hits atomic.Int32
			stats := &bodyStats{}
			release := make(chan struct{})
			// Runs before the receiver's own Close, which waits for its
			// handlers.
			t.Cleanup(func() { close(release) })
			e.rcv.setAnswer(tt.answer(e.rcv.srv.URL, &hits, stats, release))
			exportID := e.export(t)

			var d hookDelivery
			if tt.wantStatus == "pending" {
				d = e.waitLog(t, "the delivery retried", allOf(1, func(d hookDelivery) bool {
					return d.Status == "pending" && d.Attempts >= 2
				}))[0]
				e.healthy(t)
				if d.NextAttemptAt == nil || d.DeliveredAt != nil {
					t.Errorf("failing: %v; want nextAttemptAt, no deliveredAt", d)
				}
			} else {
				d = e.waitLog(t, "the delivery delivered", allOf(1, func(d hookDelivery) bool {
					return d.Status != "pending"
				}))[0]
				if d.Status != tt.wantStatus || d.Attempts != 1 || d.LastError != nil {
					t.Errorf("log %v; want %s at the first attempt, no lastError", d, tt.wantStatus)
				}
			}
			if d.exportID() != exportID || d.code() != tt.wantCode {
				t.Errorf("log %v; want export %s, lastStatusCode %d", d, exportID, tt.wantCode)
			}
			if d.errText() != tt.wantErr {
				t.Errorf("lastError %q; want %q", d.errText(), tt.wantErr)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the redirect's target got %d requests; redirects must not be followed", n)
			}
			if tt.huge {
				// Each handler ends when its write fails: the server
				// hung up after reading the start of the body.
				deadline := time.Now().Add(logWait)
				for len(stats.get()) == 0 && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				written := stats.get()
				if len(written) == 0 {
					t.Fatal("no huge answer finished")
				}
				for _, n := range written {
					if n >= hugeBytes {
						t.Errorf("the receiver wrote all %d bytes of its answer: the server read the whole body", n)
					}
				}
				t.Logf("huge answers: %d bytes written of %d before the server hung up", written, hugeBytes)
			}
		})
	}
}

// TestWebhookWindowEndsThenRedeliver: a delivery that fails until its
// retry window ends is marked failed, with no next attempt; once the
// receiver is fixed, redeliver queues it again (202, pending) and it
// arrives, same id, signed, and is logged delivered.
func TestWebhookWindowEndsThenRedeliver(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, func(c *server.Config) {
		c.WebhookSchedule = webhook.Schedule{First: 100 * time.Millisecond, Cap: 200 * time.Millisecond, Window: time.Second}
	})
	e.rcv.setAnswer(answerStatus(500, "still broken"))
	e.export(t)
	d := e.waitLog(t, "the delivery failed", allOf(1, func(d hookDelivery) bool { return d.Status != "pending" }))[0]
	if d.Status != "failed" || d.Attempts < 1 || d.code() != 500 || d.NextAttemptAt != nil || d.DeliveredAt != nil {
		t.Fatalf("after the window: %v; want failed, lastStatusCode 500, no nextAttemptAt", d)
	}
	failedAttempts := d.Attempts
	if n := len(of(e.rcv.deliveries(), d.DeliveryID)); n != failedAttempts {
		t.Errorf("the receiver got %d requests for %d attempts", n, failedAttempts)
	}

	// Fixing a receiver takes a while: by then the job of the last
	// attempt has long ended. (Redelivering at the instant the log says
	// failed is TestWebhookRedeliverJustAfterFailure.)
	waitDeliveryJobsDone(t, e)
	e.rcv.setAnswer(nil)
	// httpapi's deliveryResult is unexported: its one member.
	var out struct {
		Delivery hookDelivery `json:"delivery"`
	}
	mustCall(t, "POST", e.base+"/webhook/deliveries/"+d.DeliveryID+"/redeliver", e.key, "", 202, &out)
	if out.Delivery.DeliveryID != d.DeliveryID || out.Delivery.Status != "pending" {
		t.Errorf("redeliver answered %v; want %s pending", out.Delivery, d.DeliveryID)
	}
	d = e.waitLog(t, "the delivery delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))[0]
	if d.Attempts != failedAttempts+1 || d.code() != 204 || d.LastError != nil {
		t.Errorf("after redeliver: %v; want delivered at attempt %d with 204", d, failedAttempts+1)
	}
	reqs := of(e.rcv.deliveries(), d.DeliveryID)
	last := reqs[len(reqs)-1]
	if !last.Verified || last.Header.Get(webhook.HeaderAttempt) != strconv.Itoa(d.Attempts) {
		t.Errorf("the redelivered request: verified %v, attempt %q; want verified, attempt %d",
			last.Verified, last.Header.Get(webhook.HeaderAttempt), d.Attempts)
	}
}

// waitDeliveryJobsDone waits, up to logWait, until no delivery job of
// e's server waits or runs: River's own record of its jobs, read from
// the database file, since the delivery log says failed before the job
// of the last attempt has ended.
func waitDeliveryJobsDone(t *testing.T, e *hookEnv) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(e.dir, server.DBFile)+"?_pragma=busy_timeout(5000)&_pragma=query_only(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(logWait)
	for {
		var live int
		err := db.QueryRow(`SELECT count(*) FROM river_job WHERE kind = ? AND state NOT IN ('completed', 'cancelled', 'discarded')`,
			jobs.WebhookJobKind).Scan(&live)
		if err != nil {
			t.Fatalf("delivery jobs: %v", err)
		}
		if live == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d delivery jobs still wait or run after %v", live, logWait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWebhookSecretRotation: a secret rotated while a delivery is
// failing signs every later attempt: the receiver, switched to the new
// secret, verifies the attempt that succeeds, which the old secret no
// longer verifies.
func TestWebhookSecretRotation(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, nil)
	oldSecret := e.secret
	e.rcv.setAnswer(answerStatus(503, "not now"))
	e.export(t)
	e.waitLog(t, "the delivery failing", allOf(1, func(d hookDelivery) bool { return d.Status == "pending" && d.Attempts >= 1 }))
	before := len(e.rcv.deliveries())

	var hook httpapi.WebhookView
	mustCall(t, "PUT", e.base+"/webhook", e.key, `{"rotateSecret":true}`, 200, &hook)
	newSecret := orEmpty(hook.Secret)
	if !hook.SecretRevealed || newSecret == oldSecret || len(newSecret) != len(oldSecret) {
		t.Fatalf("rotate: secret %q, secretRevealed %v; want a new full secret", newSecret, hook.SecretRevealed)
	}
	// From here the receiver accepts only the new secret (an attempt
	// signed before the PUT and arriving after it gets 401, a failure).
	e.rcv.setSecret(newSecret)
	e.rcv.setAnswer(nil)

	d := e.waitLog(t, "the delivery delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))[0]
	got := e.rcv.deliveries()
	for _, g := range got[:before] {
		if !webhook.Verify(oldSecret, g.Body, g.Header.Get(webhook.HeaderSignature)) {
			t.Errorf("attempt %s, before the rotation, does not verify with the old secret", g.Header.Get(webhook.HeaderAttempt))
		}
	}
	reqs := of(got, d.DeliveryID)
	last := reqs[len(reqs)-1]
	sig := last.Header.Get(webhook.HeaderSignature)
	if last.Header.Get(webhook.HeaderAttempt) != strconv.Itoa(d.Attempts) || !last.Verified ||
		!webhook.Verify(newSecret, last.Body, sig) || webhook.Verify(oldSecret, last.Body, sig) {
		t.Errorf("the delivered attempt %s (log: %d): verifies with new %v, old %v; want new only",
			last.Header.Get(webhook.HeaderAttempt), d.Attempts, webhook.Verify(newSecret, last.Body, sig), webhook.Verify(oldSecret, last.Body, sig))
	}
}

// TestWebhookDisabled: a disabled webhook records and sends nothing for
// an export; a pending delivery whose webhook is disabled before its
// next attempt ends "disabled", and nothing more is sent for it.
func TestWebhookDisabled(t *testing.T) {
	t.Parallel()
	t.Run("before the export", func(t *testing.T) {
		t.Parallel()
		e := newHookEnv(t, nil)
		mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":false}`, 200, nil)
		e.export(t)
		if log := e.deliveries(t); len(log) != 0 {
			t.Fatalf("an export with the webhook disabled recorded %v", log)
		}
		// Enabled again, a second export is delivered: by then the
		// first would have been, had it been queued.
		mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":true}`, 200, nil)
		second := e.export(t)
		log := e.waitLog(t, "the second export delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))
		if log[0].exportID() != second {
			t.Errorf("log %v; want only the second export %s", log, second)
		}
		got := e.rcv.deliveries()
		if len(got) != 1 || receiptExport(t, got[0].Body) != second {
			t.Errorf("the receiver got %d requests; want only the second export's", len(got))
		}
	})
	t.Run("while pending", func(t *testing.T) {
		t.Parallel()
		e := newHookEnv(t, nil)
		e.rcv.setAnswer(answerStatus(503, "not now"))
		e.export(t)
		e.waitLog(t, "the delivery failing", allOf(1, func(d hookDelivery) bool { return d.Status == "pending" && d.Attempts >= 1 }))
		mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":false}`, 200, nil)
		// An attempt already under way when the PUT lands may still
		// arrive; none may start after the delivery is marked disabled.
		d := e.waitLog(t, "the delivery disabled", allOf(1, func(d hookDelivery) bool { return d.Status != "pending" }))[0]
		if d.Status != "disabled" || d.NextAttemptAt != nil || d.DeliveredAt != nil {
			t.Fatalf("after disabling: %v; want disabled, no next attempt", d)
		}
		sent := len(e.rcv.deliveries())
		if sent != d.Attempts {
			t.Errorf("the receiver got %d requests; the log counts %d attempts", sent, d.Attempts)
		}
		// The queue goes on working: re-enabled, a new export arrives;
		// the disabled delivery stays as it was.
		mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":true}`, 200, nil)
		e.rcv.setAnswer(nil)
		next := e.export(t)
		log := e.waitLog(t, "the new export delivered", func(log []hookDelivery) bool {
			return len(log) == 2 && log[0].Status == "delivered"
		})
		if log[0].exportID() != next {
			t.Errorf("newest entry %v; want the new export %s", log[0], next)
		}
		if old, _ := byID(log, d.DeliveryID); old.Status != "disabled" || old.Attempts != d.Attempts {
			t.Errorf("the disabled delivery became %v", old)
		}
		if n := len(of(e.rcv.deliveries(), d.DeliveryID)); n != sent {
			t.Errorf("the disabled delivery was sent %d more times", n-sent)
		}
	})
}

// TestWebhookExportFailureSendsNothing: an export that is refused or
// whose transaction does not commit (the daily pool full before the run
// or filled during it, the database locked by another process) records
// no delivery and sends nothing: the delivery row and its job are part
// of the export's transaction. Every export that got a 201 is delivered
// exactly as its own.
func TestWebhookExportFailureSendsNothing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// run makes the exports and returns the ids of those that got a
		// 201 and how many failed as wantFail says.
		run      func(t *testing.T, e *hookEnv) (ok []string, failed int)
		wantFail string // the failures' error code
	}{
		{
			name: "pool full before the run",
			run: func(t *testing.T, e *hookEnv) ([]string, int) {
				setCap(t, e, 1)
				ok := []string{e.export(t)}
				failed := 0
				for range 2 {
					st, b, err := call("POST", e.base+"/projects/"+e.projectID+"/exports", e.key, `{"presets":["youtube"]}`)
					if err != nil || st != 429 || errorCode(b) != "quota_exceeded" {
						t.Fatalf("export past the cap: %d %s %v; want 429 quota_exceeded", st, b, err)
					}
					failed++
				}
				return ok, failed
			},
			wantFail: "quota_exceeded",
		},
		{
			// Six at once against a cap of two: those that pass the check
			// before the run and find the pool full at the commit roll
			// back there.
			name: "pool filled during concurrent exports",
			run: func(t *testing.T, e *hookEnv) ([]string, int) {
				setCap(t, e, 2)
				var mu sync.Mutex
				var ok []string
				failed := 0
				var wg sync.WaitGroup
				for range 6 {
					wg.Go(func() {
						st, b, err := call("POST", e.base+"/projects/"+e.projectID+"/exports", e.key, `{"presets":["youtube","vimeo","lms"]}`)
						mu.Lock()
						defer mu.Unlock()
						switch {
						case err == nil && st == 201:
							var x httpapi.ExportCreated
							_ = json.Unmarshal(b, &x)
							ok = append(ok, x.ExportID)
						case err == nil && st == 429 && errorCode(b) == "quota_exceeded":
							failed++
						default:
							t.Errorf("concurrent export: %d %s %v", st, b, err)
						}
					})
				}
				wg.Wait()
				if len(ok) != 2 || failed != 4 {
					t.Errorf("%d exports got a 201 and %d a 429; want 2 and 4", len(ok), failed)
				}
				return ok, failed
			},
			wantFail: "quota_exceeded",
		},
		{
			name: "database locked by another process",
			run: func(t *testing.T, e *hookEnv) ([]string, int) {
				release := holdWriteLock(t, filepath.Join(e.dir, server.DBFile), e.srv.Owner().Email)
				st, b, err := call("POST", e.base+"/projects/"+e.projectID+"/exports", e.key, `{"presets":["youtube"]}`)
				release()
				if err != nil || st != 503 || errorCode(b) != "unavailable" {
					t.Fatalf("export while the database is locked: %d %s %v; want 503 unavailable", st, b, err)
				}
				// After the lock, the queue and the exports work again.
				return []string{e.export(t)}, 1
			},
			wantFail: "unavailable",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newHookEnv(t, func(c *server.Config) { c.BusyTimeout = 300 * time.Millisecond })
			ok, failed := tt.run(t, e)
			if failed == 0 {
				t.Fatalf("no export failed with %s", tt.wantFail)
			}
			log := e.waitLog(t, "the successful exports delivered", allOf(len(ok), func(d hookDelivery) bool { return d.Status == "delivered" }))
			var logged []string
			for _, d := range log {
				logged = append(logged, d.exportID())
			}
			slices.Sort(logged)
			slices.Sort(ok)
			if !slices.Equal(logged, ok) {
				t.Errorf("deliveries for exports %v; want only the %d that got a 201: %v", logged, len(ok), ok)
			}
			// A settle of several poll intervals: a job queued by a
			// rolled-back export would run now.
			time.Sleep(500 * time.Millisecond)
			var arrived []string
			for _, g := range e.rcv.deliveries() {
				if !g.Verified {
					t.Errorf("a request does not verify")
				}
				arrived = append(arrived, receiptExport(t, g.Body))
			}
			slices.Sort(arrived)
			if !slices.Equal(arrived, ok) {
				t.Errorf("the receiver got exports %v; want only %v", arrived, ok)
			}
			if n := len(e.deliveries(t)); n != len(ok) {
				t.Errorf("the log has %d deliveries after the settle; want %d", n, len(ok))
			}
		})
	}
}

// setCap sets the owner's daily cap.
func setCap(t testing.TB, e *hookEnv, n int) {
	t.Helper()
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), e.srv.Owner().Email, account.AccountUpdate{DailyCap: &n}); err != nil {
		t.Fatal(err)
	}
}

// errorCode returns the error envelope's code.
func errorCode(body []byte) string {
	var env apperr.Envelope
	_ = json.Unmarshal(body, &env)
	return env.Error.Code
}

// errorDetail returns one of the error envelope's details as text.
func errorDetail(body []byte, key string) string {
	var env apperr.Envelope
	_ = json.Unmarshal(body, &env)
	if v, ok := env.Error.Details[key]; ok {
		return fmt.Sprint(v)
	}
	return ""
}

// TestWebhookTestAndErrors: POST /api/v1/webhook/test makes one signed
// attempt at once and reports it (delivered, or failed with the
// receiver's status, not retried), enabled or not; and the webhook
// routes' refusals carry the documented codes and reasons.
func TestWebhookTestAndErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup prepares the server; method and path, relative to
		// /api/v1 (with {delivery} replaced by setup's id), are then
		// called with body.
		setup        func(t *testing.T, e *hookEnv) (deliveryID string)
		method, path string
		body         string
		wantStatus   int
		wantCode     string            // error code; "" for a 200
		wantDetails  map[string]string // of the error
		wantDelivery string            // the test delivery's status
		wantLastCode int               // its lastStatusCode
		wantSent     int               // requests the receiver got
	}{
		{
			name:   "test delivered",
			setup:  func(t *testing.T, e *hookEnv) string { e.configure(t); return "" },
			method: "POST", path: "/webhook/test",
			wantStatus: 200, wantDelivery: "delivered", wantLastCode: 204, wantSent: 1,
		},
		{
			name: "test while disabled",
			setup: func(t *testing.T, e *hookEnv) string {
				e.configure(t)
				mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":false}`, 200, nil)
				return ""
			},
			method: "POST", path: "/webhook/test",
			wantStatus: 200, wantDelivery: "delivered", wantLastCode: 204, wantSent: 1,
		},
		{
			name: "test answered 500",
			setup: func(t *testing.T, e *hookEnv) string {
				e.configure(t)
				e.rcv.setAnswer(answerStatus(500, "nope"))
				return ""
			},
			method: "POST", path: "/webhook/test",
			wantStatus: 200, wantDelivery: "failed", wantLastCode: 500, wantSent: 1,
		},
		{
			name:   "test without a webhook",
			setup:  func(*testing.T, *hookEnv) string { return "" },
			method: "POST", path: "/webhook/test",
			wantStatus: 409, wantCode: "conflict", wantDetails: map[string]string{"reason": "no_webhook"},
		},
		{
			name:   "PUT an http URL",
			setup:  func(*testing.T, *hookEnv) string { return "" },
			method: "PUT", path: "/webhook", body: `{"url":"http://127.0.0.1:9/hook"}`,
			wantStatus: 400, wantCode: "bad_request", wantDetails: map[string]string{"field": "url", "reason": "https_required"},
		},
		{
			name:   "redeliver an unknown delivery",
			setup:  func(t *testing.T, e *hookEnv) string { e.configure(t); return "5f0c2a52-7d8e-4c21-9a3b-0d6f1e2b3c4d" },
			method: "POST", path: "/webhook/deliveries/{delivery}/redeliver",
			wantStatus: 404, wantCode: "not_found",
		},
		{
			name: "redeliver with the webhook disabled",
			setup: func(t *testing.T, e *hookEnv) string {
				e.configure(t)
				e.export(t)
				d := e.waitLog(t, "the delivery delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))[0]
				mustCall(t, "PUT", e.base+"/webhook", e.key, `{"enabled":false}`, 200, nil)
				return d.DeliveryID
			},
			method: "POST", path: "/webhook/deliveries/{delivery}/redeliver",
			wantStatus: 409, wantCode: "conflict", wantDetails: map[string]string{"reason": "webhook_disabled"}, wantSent: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := startHookServer(t, nil)
			id := tt.setup(t, e)
			st, b, err := call(tt.method, e.base+strings.ReplaceAll(tt.path, "{delivery}", id), e.key, tt.body)
			if err != nil || st != tt.wantStatus {
				t.Fatalf("%s %s: %d %s %v; want %d", tt.method, tt.path, st, b, err, tt.wantStatus)
			}
			if tt.wantCode != "" {
				if got := errorCode(b); got != tt.wantCode {
					t.Errorf("code %q; want %q: %s", got, tt.wantCode, b)
				}
				for k, v := range tt.wantDetails {
					if got := errorDetail(b, k); got != v {
						t.Errorf("details.%s %q; want %q: %s", k, got, v, b)
					}
				}
			}
			if tt.wantDelivery != "" {
				// httpapi's deliveryResult is unexported: its one member.
				var out struct {
					Delivery hookDelivery `json:"delivery"`
				}
				if err := json.Unmarshal(b, &out); err != nil {
					t.Fatal(err)
				}
				d := out.Delivery
				if d.Event != "test" || d.Status != tt.wantDelivery || d.Attempts != 1 || d.code() != tt.wantLastCode ||
					d.NextAttemptAt != nil || d.ExportID != nil {
					t.Errorf("test delivery %v; want event test, %s in 1 attempt, lastStatusCode %d, no next attempt",
						d, tt.wantDelivery, tt.wantLastCode)
				}
				if (tt.wantDelivery == "failed") != (d.LastError != nil) {
					t.Errorf("test delivery %v: lastError only when failed", d)
				}
				got := e.rcv.deliveries()
				if len(got) != 1 {
					t.Fatalf("the receiver got %d requests; want 1", len(got))
				}
				g := got[0]
				var body webhook.TestPayload
				if err := json.Unmarshal(g.Body, &body); err != nil {
					t.Fatal(err)
				}
				if !g.Verified || g.Header.Get(webhook.HeaderEvent) != "test" || g.Header.Get(webhook.HeaderDelivery) != d.DeliveryID ||
					body.Event != "test" || body.DeliveryID != d.DeliveryID || body.SentAt.IsZero() {
					t.Errorf("the receiver got verified=%v headers %v body %s; want a signed test event for %s",
						g.Verified, g.Header, g.Body, d.DeliveryID)
				}
				// The test is the log's newest entry, as the route said.
				if log := e.deliveries(t); len(log) != 1 || log[0].DeliveryID != d.DeliveryID || log[0].Status != d.Status {
					t.Errorf("log %v; want the test delivery, %s", log, d.Status)
				}
			}
			// A test is never retried, and a refusal sends nothing: after
			// several retry periods of the fast schedule, nothing more.
			time.Sleep(500 * time.Millisecond)
			if n := len(e.rcv.deliveries()); n != tt.wantSent {
				t.Errorf("the receiver got %d requests; want %d", n, tt.wantSent)
			}
		})
	}
}

// TestWebhookRedeliverJustAfterFailure: a redeliver accepted (202) is
// attempted, however soon after the failure it comes. The log says
// "failed" as soon as the last attempt is recorded, while the queue job
// that made it is still finishing; a redeliver in that moment must not
// be lost. Each of several deliveries is redelivered the instant the log
// shows it failed, to meet that moment.
func TestWebhookRedeliverJustAfterFailure(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, func(c *server.Config) {
		// The window ends with the first or second attempt.
		c.WebhookSchedule = webhook.Schedule{First: 100 * time.Millisecond, Cap: 200 * time.Millisecond, Window: time.Second}
		// The receiver fails every delivery until it is redelivered: its
		// circuit would hold the redelivers back, past their 1 s window
		// (TestWebhookBreaker). Here each must be attempted at once.
		c.WebhookBreakerFailures = 1000
	})
	var mu sync.Mutex
	fixed := map[string]bool{} // deliveries the receiver now accepts
	e.rcv.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ok := fixed[r.Header.Get(webhook.HeaderDelivery)]
		mu.Unlock()
		if !ok {
			http.Error(w, "broken", 500)
			return
		}
		w.WriteHeader(204)
	})
	const n = 10 // the export burst limit allows 10 at once
	for range n {
		e.export(t)
	}
	redelivered := map[string]int{} // attempts at the redeliver
	deadline := time.Now().Add(logWait)
	for len(redelivered) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d deliveries failed within %v", len(redelivered), n, logWait)
		}
		for _, d := range e.deliveries(t) {
			if d.Status != "failed" || redelivered[d.DeliveryID] > 0 {
				continue
			}
			mu.Lock()
			fixed[d.DeliveryID] = true
			mu.Unlock()
			mustCall(t, "POST", e.base+"/webhook/deliveries/"+d.DeliveryID+"/redeliver", e.key, "", 202, nil)
			redelivered[d.DeliveryID] = d.Attempts
		}
	}
	deadline = time.Now().Add(logWait)
	var log []hookDelivery
	for {
		log = e.deliveries(t)
		done := 0
		for _, d := range log {
			if d.Status == "delivered" {
				done++
			}
		}
		if done == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, d := range log {
		if d.Status != "delivered" || d.Attempts != redelivered[d.DeliveryID]+1 {
			t.Errorf("redelivered (202) at attempt %d, %v s later: %v; want delivered at the next attempt",
				redelivered[d.DeliveryID], logWait.Seconds(), d)
		}
	}
}
