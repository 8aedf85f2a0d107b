package server_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// hangingReceiver is a receiver's answer that never comes until release:
// it counts the requests it holds at once, and the most it ever held.
type hangingReceiver struct {
	release      chan struct{}
	held, most   atomic.Int32
	requestCount atomic.Int32
}

func newHangingReceiver() *hangingReceiver {
	return &hangingReceiver{release: make(chan struct{})}
}

func (h *hangingReceiver) serve(http.ResponseWriter, *http.Request) {
	h.requestCount.Add(1)
	n := h.held.Add(1)
	for m := h.most.Load(); n > m && !h.most.CompareAndSwap(m, n); m = h.most.Load() {
	}
	<-h.release
	h.held.Add(-1)
}

// waitHeld waits until the receiver holds n requests, up to logWait.
func (h *hangingReceiver) waitHeld(t testing.TB, n int32) {
	t.Helper()
	deadline := time.Now().Add(logWait)
	for h.held.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the hanging receiver holds %d requests, want %d within %v", h.held.Load(), n, logWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hangOwner makes e's receiver, the owner's, hang every request until
// the test ends, and then answer them before the server stops (cleanups
// run last first), so the stop does not wait out the attempts.
func hangOwner(t testing.TB, e *hookEnv) *hangingReceiver {
	t.Helper()
	h := newHangingReceiver()
	e.rcv.setAnswer(h.serve)
	t.Cleanup(func() { close(h.release) })
	return h
}

// secondAccount returns e's server as a second pro account sees it: its
// own key, project and webhook, configured at rcv (whose certificate,
// httptest's, the server trusts already).
func (e *hookEnv) secondAccount(t testing.TB, email string, rcv *receiver) *hookEnv {
	t.Helper()
	ctx := context.Background()
	a, err := e.srv.Accounts().CreateAccount(ctx, account.NewAccount{Email: email, Tier: account.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := e.srv.Accounts().CreateKey(ctx, a.ID, account.NewKey{Name: "second", Scopes: account.Scopes()})
	if err != nil {
		t.Fatal(err)
	}
	o := &hookEnv{srv: e.srv, base: e.base, key: key, rcv: rcv, dir: e.dir}
	var p httpapi.ProjectView
	mustCall(t, "POST", o.base+"/projects", o.key, `{"name":"Second","ir":`+jsonString(longIR(3))+`}`, 201, &p)
	o.projectID = p.ID
	o.configure(t)
	return o
}

// TestWebhookSlowReceiverIsolated: an account whose receiver
// never answers holds at most WebhookPerAccount (2) attempts at once,
// however many of its deliveries are due, and another account's
// delivery arrives meanwhile. Before deliveries had a queue and a cap of
// their own, the hung attempts took every worker and the other
// account's delivery waited for their timeout.
func TestWebhookSlowReceiverIsolated(t *testing.T) {
	t.Parallel()
	e := newHookEnv(t, func(c *server.Config) {
		// No hung attempt ends within the test: each holds its worker
		// throughout, as a receiver slower than any timeout would.
		c.WebhookTimeout = 4 * logWait
	})
	hung := hangOwner(t, e)
	const due = 6
	for range due {
		e.export(t)
	}
	hung.waitHeld(t, webhook.DefaultPerAccount)

	other := e.secondAccount(t, "other@example.com", newReceiver(t))
	other.export(t)
	got := other.rcv.waitFor(t, 1, logWait)
	if !got[0].Verified {
		t.Errorf("the other account's delivery does not verify with its secret")
	}
	other.waitLog(t, "the other account's delivery delivered", allOf(1, func(d hookDelivery) bool {
		return d.Status == "delivered" && d.Attempts == 1
	}))

	// River fetches jobs in the order they are due, so every one of the
	// hung account's jobs had its turn before the other account's job
	// ran: each found the account's two slots taken and waited, and
	// none reached the receiver.
	if most, n := hung.most.Load(), hung.requestCount.Load(); most > webhook.DefaultPerAccount || n != webhook.DefaultPerAccount {
		t.Errorf("the hung receiver held up to %d requests at once, %d in all; want at most (and in all) %d",
			most, n, webhook.DefaultPerAccount)
	}
	log := e.deliveries(t)
	if !allOf(due, func(d hookDelivery) bool { return d.Status == "pending" && d.Attempts == 0 })(log) {
		t.Errorf("the hung account's log: %v; want %d pending deliveries, none with an attempt ended", log, due)
	}
}

// TestWebhookBreaker: once WebhookBreakerFailures attempts in a row to a
// URL failed, its circuit opens: its deliveries are held back, unmade
// and uncounted, their nextAttemptAt the end of the cool-down, and the
// receiver gets nothing more. A test delivery that succeeds closes the
// circuit, and a redeliver then goes out at once.
func TestWebhookBreaker(t *testing.T) {
	t.Parallel()
	const threshold = 3
	e := newHookEnv(t, func(c *server.Config) {
		c.WebhookBreakerFailures = threshold
		c.WebhookBreakerCoolDown = time.Hour
		c.WebhookSchedule = webhook.Schedule{First: 100 * time.Millisecond, Cap: 100 * time.Millisecond, Window: 24 * time.Hour}
	})
	e.rcv.setAnswer(answerStatus(503, "down"))
	start := time.Now()
	const n = 4
	for range n {
		e.export(t)
	}
	// Each delivery is tried (or held back) in turn; once the circuit is
	// open every one waits for the cool-down's end.
	log := e.waitLog(t, "every delivery held back for the cool-down", allOf(n, func(d hookDelivery) bool {
		return d.Status == "pending" && d.NextAttemptAt != nil && d.NextAttemptAt.After(start.Add(30*time.Minute))
	}))
	attempts := 0
	for _, d := range log {
		attempts += d.Attempts
		if d.NextAttemptAt.After(time.Now().Add(time.Hour)) {
			t.Errorf("held back: %v; want nextAttemptAt within the hour's cool-down", d)
		}
	}
	// The attempt that opened the circuit may have had one beside it in
	// flight (two of an account at once), which still ends, and counts.
	if got := len(e.rcv.deliveries()); attempts < threshold || attempts > threshold+1 || got != attempts {
		t.Errorf("%d attempts logged, %d requests received; want as many, the %d that opened the circuit (or one more)",
			attempts, got, threshold)
	}

	e.rcv.setAnswer(nil)
	mustCall(t, "POST", e.base+"/webhook/test", e.key, "", 200, nil)
	id := log[0].DeliveryID
	mustCall(t, "POST", e.base+"/webhook/deliveries/"+id+"/redeliver", e.key, "", 202, nil)
	e.waitLog(t, "the redelivered delivery delivered", func(log []hookDelivery) bool {
		d, ok := byID(log, id)
		return ok && d.Status == "delivered"
	})
}
