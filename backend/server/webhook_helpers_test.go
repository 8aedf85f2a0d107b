package server_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// receiver is a real HTTPS webhook receiver with its own certificate,
// which the server trusts only through Config.WebhookCAFile. It verifies
// each delivery as docs/webhooks.md tells receivers to (webhook.Verify) and
// keeps what arrived; answer, when set, replaces its 204.
type receiver struct {
	srv    *httptest.Server
	CAFile string

	mu     sync.Mutex
	secret string
	got    []delivery
	answer http.HandlerFunc
	notify chan struct{}
}

// delivery is one request the receiver got.
type delivery struct {
	Header   http.Header
	Body     []byte
	Verified bool
}

func newReceiver(t testing.TB) *receiver {
	t.Helper()
	r := &receiver{notify: make(chan struct{}, 1)}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	r.srv.StartTLS()
	t.Cleanup(r.srv.Close)
	r.CAFile = filepath.Join(t.TempDir(), "receiver-ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw})
	if err := os.WriteFile(r.CAFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// URL is the receiver's https address, with a path.
func (r *receiver) URL() string { return r.srv.URL + "/hooks/captionqa" }

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	ok := webhook.Verify(r.secret, body, req.Header.Get(webhook.HeaderSignature))
	r.got = append(r.got, delivery{Header: req.Header.Clone(), Body: body, Verified: ok})
	answer := r.answer
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
	if answer != nil {
		answer(w, req)
		return
	}
	if !ok {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// setSecret sets the secret the receiver verifies with.
func (r *receiver) setSecret(s string) {
	r.mu.Lock()
	r.secret = s
	r.mu.Unlock()
}

// deliveries returns what arrived so far.
func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// waitFor waits until n requests arrived, up to limit.
func (r *receiver) waitFor(t testing.TB, n int, limit time.Duration) []delivery {
	t.Helper()
	deadline := time.After(limit)
	for {
		if got := r.deliveries(); len(got) >= n {
			return got
		}
		select {
		case <-r.notify:
		case <-deadline:
			t.Fatalf("receiver got %d requests, want %d within %v", len(r.deliveries()), n, limit)
		}
	}
}

// loopbackOnly is the destination allow-list of the tests' servers:
// their receivers listen on loopback, which the policy refuses
// otherwise (docs/webhooks.md, Destinations).
var loopbackOnly = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}

// fastWebhooks shortens the webhook schedule and the queue's polling
// for tests: retries after 100 ms doubling to 400 ms, for 30 s, and an
// open circuit's cool-down of 100 ms, so a receiver down for a test's
// while is tried again as soon as the schedule would; and it allows
// loopback destinations.
func fastWebhooks(cfg *server.Config, caFile string) {
	cfg.WebhookCAFile = caFile
	cfg.WebhookAllow = loopbackOnly
	cfg.WebhookSchedule = webhook.Schedule{First: 100 * time.Millisecond, Cap: 400 * time.Millisecond, Window: 30 * time.Second}
	cfg.WebhookTimeout = 2 * time.Second
	cfg.WebhookBreakerCoolDown = 100 * time.Millisecond
	cfg.JobPollInterval = 100 * time.Millisecond
}

// runServer opens srv and runs it (HTTP and the job queue) until the test
// ends; it returns the owner key's secret.
func runServer(t testing.TB, srv *server.Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if err := srv.Open(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		cancel()
		srv.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	return srv.Owner().Secret
}

// mustCall is call that fails the test on a transport error or a status
// other than want, and decodes a JSON body into out when out is not nil.
func mustCall(t testing.TB, method, url, secret, body string, want int, out any) {
	t.Helper()
	status, b, err := call(method, url, secret, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	if status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, url, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, b)
		}
	}
}

// setAnswer makes the receiver answer every request with h (nil: back to
// verifying and answering 204); what arrives is still recorded.
func (r *receiver) setAnswer(h http.HandlerFunc) {
	r.mu.Lock()
	r.answer = h
	r.mu.Unlock()
}

// stop closes the receiver's listener, so deliveries meet a refused
// connection, and returns its address for restart.
func (r *receiver) stop() string {
	addr := r.srv.Listener.Addr().String()
	r.srv.Close()
	return addr
}

// restart listens again on addr (the address stop returned), with the
// same certificate (httptest's), secret and record of what arrived.
func (r *receiver) restart(t testing.TB, addr string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("receiver back on %s: %v", addr, err)
	}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	r.srv.Listener.Close()
	r.srv.Listener = ln
	r.srv.StartTLS()
	t.Cleanup(r.srv.Close)
}
